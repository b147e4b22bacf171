// idm streams list: one page (or every page with --all) of the tenant's event streams, as a table at
// a terminal, tab-separated lines when piped, or the interface's own JSON with --json.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { rememberRecent } from '../../config/recent.js';
import { isPlainObject } from '../../core/text.js';
import { addListingOptions, listingFlags, printListing, type ListingFlags } from '../../cli/listing.js';
import { STREAM_COLUMNS, type StreamRecord } from './format.js';

export type ListOptions = ListingFlags;

export function streamsListCommand(deps: Deps, run = listRun): Command {
  return addListingOptions(new Command('list').description('List the event streams of the tenant'), 'streams')
    .addHelpText(
      'after',
      () => examples([
        'idm streams list --take 20',
        "next=$(idm streams list --take 2 --json | jq -r .next)  # a page's cursor",
        'idm streams list --from "$next" --take 2  # the page after it',
        'idm streams list --all | cut -f1,2  # every stream, as TSV when piped',
        "idm streams list --all --json | jq -r '.eventStreams[] | select(.status == \"enabled\") | .id'",
      ]),
    )
    .action((flags) => run(listingFlags(flags), deps));
}

export async function listRun(options: ListOptions, deps: Deps): Promise<void> {
  const { streams, client } = await deps.api();
  await printListing<StreamRecord>(
    options,
    {
      key: 'eventStreams',
      columns: STREAM_COLUMNS,
      empty: 'No event streams.',
      more: 'More streams',
      again: ['idm', 'streams', 'list'],
      page: streams.list,
      pages: streams.pages,
      remember: (rows) =>
        rememberRecent(deps.io.env, client.credentials.tenant, 'streams', rows.map((row) => (isPlainObject(row) ? row.id : undefined)), {
          descriptions: rows.map((row) => (isPlainObject(row) ? row.name : undefined)),
        }),
    },
    deps,
  );
}
