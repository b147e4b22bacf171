// `idm provisioning create [connection-id]`: creates the directory-provisioning configuration of a
// connection. From flags (scripts: never a prompt, an empty body lets the server apply the strategy's
// default mapping), or through a wizard at a terminal when the connection id or the settings are
// missing (./wizard.ts). Everything is checked against the shared schema before anything is sent.
import { Argument, Command, Option } from 'commander';
import type { ApiRecord, ProvisioningBody } from '../../api/management/index.js';
import type { Deps } from '../../cli/factory.js';
import { examples, paragraph } from '../../cli/help.js';
import { parseChoice, parseId } from '../../cli/parse.js';
import { UsageError } from '../../core/errors.js';
import { isPlainObject, jsonKind, plural } from '../../core/text.js';
import { parseJson, readFileOrStdin } from '../../io/input.js';
import { asText as text, type Column } from '../../output/index.js';
import { SYNC_GROUPS, type SyncGroups } from '../../schemas/constants.js';
import { ID_SHAPES } from '../../schemas/ids.js';

export interface ProvisioningCreateOptions {
  connectionId?: string;
  /** --mapping values as typed: `platform=idp`. */
  mapping?: string[];
  /** --mapping-file: a path, or - for stdin. */
  mappingFile?: string;
  syncAutomatically?: boolean;
  syncGroups?: SyncGroups;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
const EXAMPLE_ID = ID_SHAPES.connection.example;

export function provisioningCreateCommand(deps: Deps, run = provisioningCreateRun): Command {
  return new Command('create')
    .description('Create the directory-provisioning configuration of a connection')
    .addArgument(new Argument('[connection-id]', `the connection (${ID_SHAPES.connection.words}); asked at a terminal when absent`).argParser(parseId('connection')))
    .option('--mapping <platform=idp>', 'map a platform user attribute to an identity-provider attribute (repeat for each)', collect)
    .addOption(new Option('--mapping-file <path>', 'the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin').conflicts('mapping'))
    .option('--sync-automatically', 'synchronize users periodically')
    .option('--no-sync-automatically', 'do not synchronize users periodically')
    .option('--sync-groups <mode>', `group synchronization: ${SYNC_GROUPS.join(', ')}`, parseChoice('--sync-groups', SYNC_GROUPS))
    .addHelpText(
      'after',
      `${examples([
        'idm provisioning create  # at a terminal: a wizard',
        `idm provisioning create ${EXAMPLE_ID} --mapping external_id=id --mapping email=primaryEmail --sync-groups off`,
        `idm provisioning create ${EXAMPLE_ID} --mapping-file mapping.json --sync-automatically --json`,
        `idm provisioning create ${EXAMPLE_ID} --no-input  # default mapping`,
      ])}
${paragraph(
  "At a terminal, idm asks for what is missing: the connection id, and when no setting is given, the mapping (starting from the strategy's default), automatic and group synchronization; it shows a summary and asks before creating. With --no-input or without a terminal it never asks, and sends only what the flags give (the server fills in the rest).",
)}
`,
    )
    .action((connectionId: string | undefined, flags: Omit<ProvisioningCreateOptions, 'connectionId'>) => run({ connectionId, ...flags }, deps));
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
    throw new UsageError('Missing the connection id: idm provisioning create <connection-id>.', `Find it in the tenant's dashboard (connection ids look like ${EXAMPLE_ID}).`);
  }
  const { provisioning } = await deps.api();
  await printConfiguration(await provisioning.create(connectionId, body), deps, 'Created');
}

/** `platform=idp`, split at the first `=`. */
export function parseMappingFlag(value: string): { platform: string; idp: string } {
  const at = value.indexOf('=');
  if (at < 0) throw new UsageError(`--mapping "${value}" must be platform=idp, e.g. --mapping email=primaryEmail.`);
  return { platform: value.slice(0, at).trim(), idp: value.slice(at + 1).trim() };
}

/** The request body the flags describe, checked against the shared schema. */
async function bodyFromFlags(options: ProvisioningCreateOptions, deps: Deps): Promise<ProvisioningBody> {
  const body: Record<string, unknown> = {};
  let mappingSource = '--mapping';
  if (options.mapping !== undefined) body.mapping = options.mapping.map(parseMappingFlag);
  if (options.mappingFile !== undefined) {
    mappingSource = options.mappingFile === '-' ? '--mapping-file - (stdin)' : `--mapping-file ${options.mappingFile}`;
    const value = parseJson(mappingSource, await readFileOrStdin('--mapping-file', options.mappingFile, deps.io, { hint: 'Pipe the JSON in, use --mapping-file <path>, or leave it out to be asked.' }));
    if (!Array.isArray(value)) throw new UsageError(`${mappingSource} must hold a JSON array of {"platform", "idp"} objects, not ${jsonKind(value)}.`);
    body.mapping = value;
  }
  if (options.syncAutomatically !== undefined) body.synchronize_automatically = options.syncAutomatically;
  if (options.syncGroups !== undefined) body.synchronize_groups = options.syncGroups;

  const { ProvisioningRequestSchema } = await import('../../schemas/index.js');
  const parsed = ProvisioningRequestSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const [field, index, key] = issue.path;
      if (field === 'mapping' && typeof index === 'number') return `${mappingSource} entry ${index + 1}${key ? ` (${String(key)})` : ''}: ${issue.message}`;
      if (field === 'mapping') return `${mappingSource}: ${issue.message}`;
      return `${String(field ?? 'body')}: ${issue.message}`;
    });
    throw new UsageError(`Invalid provisioning settings: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}.`);
  }
  return parsed.data;
}

/** A configuration as received with --json; otherwise its settings and its mapping table. */
export async function printConfiguration(record: ApiRecord, deps: Deps, done: string): Promise<void> {
  const { output } = deps;
  if (output.json) return output.printJson(record);
  const yesNo = (value: unknown) => (value === true ? 'yes' : value === false ? 'no' : text(value));
  const fields: Array<[string, string]> = [
    ['Connection', text(record.connection_id)],
    ['Name', text(record.connection_name)],
    ['Strategy', text(record.strategy)],
    ['Synchronize automatically', yesNo(record.synchronize_automatically)],
    ['Synchronize groups', text(record.synchronize_groups)],
    ['Created', text(record.created_at)],
  ];
  for (const [key, label] of [
    ['last_synchronization_at', 'Last synchronization'],
    ['last_synchronization_status', 'Last synchronization status'],
    ['last_synchronization_error', 'Last synchronization error'],
  ] as const) {
    if (record[key] !== undefined) fields.push([label, text(record[key])]);
  }
  output.printFields(fields.filter(([label, value]) => value !== '' || label === 'Connection'));

  const mapping = (Array.isArray(record.mapping) ? record.mapping : []).filter(isPlainObject);
  const columns: Array<Column<Record<string, unknown>>> = [
    { header: 'Platform attribute', value: (row) => text(row.platform), shrink: 'first' },
    { header: 'Identity-provider attribute', value: (row) => text(row.idp), shrink: 'first' },
  ];
  await output.printRows(columns, mapping, { label: 'mapping' });
  output.note(`${done} directory provisioning for ${text(record.connection_id)} with ${plural(mapping.length, 'mapped attribute')}.`);
}
