// idm provisioning list: every connection's directory-provisioning configuration, paged.
import { Command } from 'commander';
import type { ApiRecord } from '../../api/management/index.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { rememberRecent } from '../../config/recent.js';
import { isPlainObject } from '../../core/text.js';
import { addListingOptions, listingFlags, printListing, type ListingFlags } from '../../cli/listing.js';
import { PROVISIONING_COLUMNS } from './format.js';

export function provisioningListCommand(deps: Deps, run = listRun): Command {
  return addListingOptions(new Command('list').description('List the connections that have directory provisioning, with their settings and last synchronization'), 'configurations')
    .addHelpText('after', () => examples(['idm provisioning list', "idm provisioning list --all --json | jq -r '.directory_provisionings[].connection_id'"]))
    .action((flags) => run(listingFlags(flags), deps));
}

export async function listRun(options: ListingFlags, deps: Deps): Promise<void> {
  const { provisioning, client } = await deps.api();
  await printListing<ApiRecord>(
    options,
    {
      key: 'directory_provisionings',
      columns: PROVISIONING_COLUMNS,
      empty: `No connection has directory provisioning yet (${deps.command(['idm', 'provisioning', 'create'])}).`,
      more: 'More configurations',
      again: ['idm', 'provisioning', 'list'],
      page: provisioning.list,
      pages: provisioning.pages,
      remember: (rows) => rememberRecent(deps.io.env, client.credentials.tenant, 'connections', rows.map((row) => (isPlainObject(row) ? row.connection_id : undefined)), { merge: true }),
    },
    deps,
  );
}
