// `idm provisioning create [connection-id]`: creates the directory-provisioning configuration of a
// connection. From flags (scripts: never a prompt, an empty body lets the server apply the strategy's
// default mapping), or through a wizard at a terminal when the connection id or the settings are
// missing (./wizard.ts). Everything is checked against the shared schema before anything is sent.
import { Argument, Command, Option } from 'commander';
import type { ProvisioningBody } from '../../api/management/index.js';
import type { Deps } from '../../cli/factory.js';
import { examples, paragraph } from '../../cli/help.js';
import { once, parseChoice, parseId, refuseBothSwitches, repeatable } from '../../cli/parse.js';
import { UsageError } from '../../core/errors.js';
import { SYNC_GROUPS, type SyncGroups } from '../../schemas/constants.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { bodyFields, checkProvisioningBody, mappingSource } from './body.js';
import { noteSelectedWithoutGroups, printConfiguration } from './format.js';

export interface ProvisioningCreateOptions {
  connectionId?: string;
  /** --mapping values as typed: `platform=idp`. */
  mapping?: string[];
  /** --mapping-file: a path, or - for stdin. */
  mappingFile?: string;
  syncAutomatically?: boolean;
  syncGroups?: SyncGroups;
}

const collect = repeatable((value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value]);
const EXAMPLE_ID = ID_SHAPES.connection.example;

export function provisioningCreateCommand(deps: Deps, run = provisioningCreateRun): Command {
  const command = new Command('create')
    .description('Create the directory-provisioning configuration of a connection')
    .addArgument(new Argument('[connection-id]', `the connection (${ID_SHAPES.connection.words}); asked at a terminal when absent`).argParser(parseId('connection')))
    .option('--mapping <platform=idp>', 'map a platform user attribute to an identity-provider attribute (repeat for each)', collect)
    .option('--mapping-file <path>', 'the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin', once('--mapping-file'))
    .option('--sync-automatically', 'synchronize users every 30 minutes')
    .option('--no-sync-automatically', 'do not synchronize users automatically')
    .addOption(new Option('--sync-groups <mode>', 'group synchronization').choices(SYNC_GROUPS).argParser(once('--sync-groups', parseChoice('--sync-groups', SYNC_GROUPS))))
    .addHelpText(
      'after',
      () => `${examples([
        'idm provisioning create  # at a terminal: a wizard',
        `idm provisioning create ${EXAMPLE_ID} --mapping external_id=id --mapping email=primaryEmail --sync-groups off`,
        `idm provisioning create ${EXAMPLE_ID} --mapping-file mapping.json --sync-automatically --json`,
        `idm provisioning create ${EXAMPLE_ID} --no-input  # default mapping`,
      ])}
${paragraph(
  "At a terminal, idm asks for what is missing: the connection id, and when no setting is given, the mapping (from the strategy's default when the service shows it; else empty, and the service applies its default), automatic and group synchronization; it shows a summary and asks before creating. With --no-input or without a terminal it never asks, and sends only what the flags give (the server fills in the rest).",
)}
`,
    );
  return refuseBothSwitches(command, 'sync-automatically').action((connectionId: string | undefined, flags: Omit<ProvisioningCreateOptions, 'connectionId'>) => run({ connectionId, ...flags }, deps));
}

export async function provisioningCreateRun(options: ProvisioningCreateOptions, deps: Deps): Promise<void> {
  let connectionId = options.connectionId;
  const flagsBody = await bodyFromFlags(options, deps);
  const settingsGiven = Object.keys(flagsBody).length > 0;
  let body = flagsBody;
  if (deps.io.canPrompt && (connectionId === undefined || !settingsGiven)) {
    const { runProvisioningWizard } = await import('./wizard.js');
    ({ connectionId, body } = await runProvisioningWizard({ connectionId, body: flagsBody, askSettings: !settingsGiven }, deps));
  } else if (connectionId === undefined) {
    // Why the wizard did not open (stdout piped, --no-input...), or the user looks for it in vain.
    throw new UsageError(
      'Missing the connection id: idm provisioning create <connection-id>.',
      `idm cannot ask here (${deps.io.cannotAsk}): give the id; '${deps.command(['idm', 'connections', 'list'])}' shows the tenant's connections (ids look like ${EXAMPLE_ID}).`,
    );
  }
  const { provisioning } = await deps.api();
  const answer = await provisioning.create(connectionId, body);
  await printConfiguration(answer, deps, { verb: 'Created', connectionId });
  await noteSelectedWithoutGroups(connectionId, body, answer, deps);
}

/** The request body the flags describe, checked against the shared schema. */
async function bodyFromFlags(options: ProvisioningCreateOptions, deps: Deps): Promise<ProvisioningBody> {
  return checkProvisioningBody(await bodyFields(options, deps.io), mappingSource(options));
}
