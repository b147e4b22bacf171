// idm provisioning groups list <connection-id>: the directory groups synchronized when the
// connection's `synchronize_groups` is `selected`.
import { Command } from 'commander';
import type { ApiRecord } from '../../../api/management/index.js';
import type { Deps } from '../../../cli/factory.js';
import { examples } from '../../../cli/help.js';
import { addListingOptions, printListing, type ListingFlags } from '../../../cli/listing.js';
import { once } from '../../../cli/parse.js';
import { UsageError } from '../../../core/errors.js';
import { hasUnsafeCharacters, isPlainObject } from '../../../core/text.js';
import { asText as text, fieldText, type Column } from '../../../output/index.js';
import { CONNECTION_ID_ARGUMENT, EXAMPLE_CONNECTION } from '../show.js';

export interface GroupsListOptions extends ListingFlags {
  connectionId: string;
  search?: string;
}

export const GROUP_COLUMNS: ReadonlyArray<Column<ApiRecord>> = [
  { header: 'GROUP ID', value: (g) => (isPlainObject(g) ? fieldText(g, 'id') : text(g)), shrink: 'never' },
  { header: 'NAME', value: (g) => fieldText(g, 'name'), shrink: 'first' },
  { header: 'EMAIL', value: (g) => fieldText(g, 'email'), shrink: 'first' },
  { header: 'MEMBERS', value: (g) => fieldText(g, 'direct_members_count') },
];

export function groupsListCommand(deps: Deps, run = groupsListRun): Command {
  return addListingOptions(
    new Command('list')
      .description('List the groups synchronized when group synchronization is "selected"')
      .addArgument(CONNECTION_ID_ARGUMENT())
      .option('--search <text>', 'only groups whose name starts with this', once('--search')),
    'groups',
  )
    .addHelpText('after', () => examples([`idm provisioning groups list ${EXAMPLE_CONNECTION}`, `idm provisioning groups list ${EXAMPLE_CONNECTION} --search eng`]))
    .action((connectionId: string, flags: { search?: string; take?: number; from?: string; all?: boolean }) =>
      run({ connectionId, search: flags.search, take: flags.take, from: flags.from, all: Boolean(flags.all) }, deps),
    );
}

/**
 * --search is sent as `q=name:<text>*`, a prefix search: a `*` of its own (which the service's query
 * syntax has no way to escape), an empty text or a control character would not mean what was typed.
 */
function checkSearch(search: string | undefined): string | undefined {
  if (search === undefined) return undefined;
  const problem =
    search === '' ? 'is empty' : search.trim() === '' ? 'holds only spaces' : search.includes('*') ? 'holds a *: it is a prefix already (--search eng finds "Engineering"), and * cannot be searched for' : hasUnsafeCharacters(search) ? 'holds control characters' : undefined;
  if (problem) throw new UsageError(`--search ${problem}.`, 'Give the start of a group name, e.g. --search eng.');
  return search;
}

export async function groupsListRun(options: GroupsListOptions, deps: Deps): Promise<void> {
  const { connectionId } = options;
  const search = checkSearch(options.search);
  const { provisioning } = await deps.api();
  await printListing<ApiRecord>(
    options,
    {
      key: 'groups',
      columns: GROUP_COLUMNS,
      empty: search === undefined ? 'No groups are synchronized (the list applies when group synchronization is "selected").' : `No synchronized group's name starts with "${search}".`,
      more: 'More groups',
      again: ['idm', 'provisioning', 'groups', 'list', connectionId, ...(search === undefined ? [] : ['--search', search])],
      page: (query) => provisioning.groups(connectionId, { ...query, search }),
      pages: (query) => provisioning.groupPages(connectionId, { ...query, search }),
    },
    deps,
  );
}
