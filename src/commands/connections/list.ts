// idm connections list: the tenant's connections, and for those whose strategy supports directory
// provisioning, whether it is configured (from the provisioning list; '?' without its scope, 'not enabled' for a tenant without the feature).
import { Command } from 'commander';
import type { ApiRecord } from '../../api/management/index.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { rememberRecent } from '../../config/recent.js';
import { addListingOptions, printListing, type ListingFlags } from '../../cli/listing.js';
import { collectList } from '../../cli/parse.js';
import { isPlainObject } from '../../core/text.js';
import type { ApiError } from '../../core/errors.js';
import { isFeatureDisabled } from '../../api/management/provisioning.js';
import { asText as text, fieldText, type Column } from '../../output/index.js';
import { PROVISIONING_STRATEGIES } from '../../schemas/constants.js';

export interface ConnectionsListOptions extends ListingFlags {
  strategy?: string[];
}

export function connectionsListCommand(deps: Deps, run = connectionsListRun): Command {
  return addListingOptions(
    new Command('list')
      .description("List the tenant's connections; for strategies that support directory provisioning, whether it is configured")
      .option('--strategy <strategy>', 'only connections of this strategy, e.g. google-apps (repeat, or comma-separate)', collectList('--strategy')),
    'connections',
    'with neither it nor --from, one unpaged answer, without a next page',
  )
    .addHelpText('after', () => examples(['idm connections list', 'idm connections list --strategy google-apps', "idm connections list --all --json | jq -r '.connections[].id'"]))
    .action((flags: { strategy?: string[]; take?: number; from?: string; all?: boolean }) => run({ strategy: flags.strategy, take: flags.take, from: flags.from, all: Boolean(flags.all) }, deps));
}

export async function connectionsListRun(options: ConnectionsListOptions, deps: Deps): Promise<void> {
  const { connections, provisioning, client } = await deps.api();
  // Only tables and TSV show the provisioning column; --json is the service's own answer. Undefined
  // when the token cannot read the provisioning list; `featureOff` when the tenant has no directory
  // provisioning at all (a 403 that no scope would lift).
  let configured: Set<string> | undefined;
  let featureOff: ApiError | undefined;
  if (!deps.output.json) {
    try {
      configured = await provisioning.configuredConnections();
    } catch (error) {
      if (!isFeatureDisabled(error)) throw error;
      featureOff = error;
    }
  }
  let unknown = false;
  let notEnabled = false;
  const provisioningOf = (connection: ApiRecord): string => {
    if (!isPlainObject(connection)) return '-';
    // Whatever its strategy: the provisioning list is the service's word (it may support one idm does not know).
    if (configured?.has(text(connection.id))) return 'configured';
    if (!(PROVISIONING_STRATEGIES as readonly unknown[]).includes(connection.strategy)) return '-';
    if (featureOff) {
      notEnabled = true;
      return 'not enabled';
    }
    if (!configured) {
      unknown = true;
      return '?';
    }
    return configured.has(text(connection.id)) ? 'configured' : 'not configured';
  };
  const columns: ReadonlyArray<Column<ApiRecord>> = [
    { header: 'ID', value: (c) => (isPlainObject(c) ? fieldText(c, 'id') : text(c)), shrink: 'never' },
    { header: 'NAME', value: (c) => fieldText(c, 'name'), shrink: 'first' },
    { header: 'STRATEGY', value: (c) => fieldText(c, 'strategy') },
    { header: 'PROVISIONING', value: provisioningOf },
  ];
  const strategy = options.strategy;
  await printListing<ApiRecord>(
    options,
    {
      key: 'connections',
      columns,
      empty: 'No connections.',
      more: 'More connections',
      again: ['idm', 'connections', 'list', ...(strategy?.length ? ['--strategy', strategy.join(',')] : [])],
      page: (query) => connections.list({ ...query, strategy }),
      pages: (query) => connections.pages({ ...query, strategy }),
      remember: async (rows) => {
        const records = rows.filter(isPlainObject);
        // --strategy shows only some connections (and strategies): the others stay for a TAB.
        const merge = Boolean(strategy?.length);
        await rememberRecent(deps.io.env, client.credentials.tenant, 'connections', records.map((row) => row.id), { merge });
        await rememberRecent(deps.io.env, client.credentials.tenant, 'strategies', records.map((row) => row.strategy), { merge });
      },
    },
    deps,
  );
  if (featureOff && notEnabled) deps.output.note(`PROVISIONING 'not enabled': ${featureOff.serverMessage ?? 'directory provisioning is not enabled for this tenant'}. ${featureOff.hint ?? ''}`.trim());
  if (unknown) deps.output.note(`PROVISIONING '?': the token cannot read the provisioning list (${provisioning.scopes.read}).`);
}
