// `idm provisioning create [connection-id]`: creates the directory-provisioning configuration of a
// connection. From flags (scripts: never a prompt, an empty body lets the server apply the strategy's
// default mapping), or through a wizard at a terminal when the connection id or the settings are
// missing (./wizard.ts). Everything is checked against the shared schema before anything is sent.
import { Command, Option } from 'commander';
import type { Deps } from '../../cli/deps.js';
import { IdmError, UsageError } from '../../cli/errors.js';
import { examples, paragraph } from '../../cli/help.js';
import { parseChoice } from '../../cli/parse.js';
import { asText as text, type Column } from '../../output/index.js';
import { ApiError } from '../../api/types.js';
import { SCOPES, SYNC_GROUPS, type SyncGroups } from '../../schemas/constants.js';
import type { MappingEntry, ProvisioningRequest } from '../../schemas/index.js';
import { isPlainObject, jsonKind, parseJson, readFileOrStdin } from '../../cli/input.js';

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

export function provisioningCreateCommand(deps: Deps, run = provisioningCreateRun): Command {
  return new Command('create')
    .description('Create the directory-provisioning configuration of a connection')
    .argument('[connection-id]', 'the connection (con_...); asked at a terminal when absent')
    .option('--mapping <platform=idp>', 'map a platform user attribute to an identity-provider attribute (repeat for each)', collect)
    .addOption(new Option('--mapping-file <path>', 'the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin').conflicts('mapping'))
    .option('--sync-automatically', 'synchronize users periodically')
    .option('--no-sync-automatically', 'do not synchronize users periodically')
    .option('--sync-groups <mode>', `group synchronization: ${SYNC_GROUPS.join(', ')}`, parseChoice('--sync-groups', SYNC_GROUPS))
    .addHelpText(
      'after',
      `${examples([
        'idm provisioning create  # at a terminal: a wizard',
        'idm provisioning create con_Xy12AbCdEf345678 --mapping external_id=id --mapping email=primaryEmail --sync-groups off',
        'idm provisioning create con_Xy12AbCdEf345678 --mapping-file mapping.json --sync-automatically --json',
        'idm provisioning create con_Xy12AbCdEf345678 --no-input  # default mapping',
      ])}
${paragraph(
  "At a terminal, idm asks for what is missing: the connection id, and when no setting is given, the mapping (starting from the strategy's default), automatic and group synchronization; it shows a summary and asks before creating. With --no-input or without a terminal it never asks, and sends only what the flags give (the server fills in the rest).",
)}
`,
    )
    .action((connectionId: string | undefined, flags: Omit<ProvisioningCreateOptions, 'connectionId'>) => run({ connectionId, ...flags }, deps));
}

export async function provisioningCreateRun(options: ProvisioningCreateOptions, deps: Deps): Promise<void> {
  let connectionId = options.connectionId === undefined ? undefined : checkConnectionId(options.connectionId);
  const flagsBody = await bodyFromFlags(options, deps);
  const settingsGiven = Object.keys(flagsBody).length > 0;
  let body = flagsBody;
  if (deps.io.canPrompt && (connectionId === undefined || !settingsGiven)) {
    const { runProvisioningWizard } = await import('./wizard.js');
    ({ connectionId, body } = await runProvisioningWizard({ connectionId, body: flagsBody, askSettings: !settingsGiven }, deps));
  } else if (connectionId === undefined) {
    throw new UsageError('Missing the connection id: idm provisioning create <connection-id>.', "Find it in the tenant's dashboard (connection ids look like con_Xy12AbCdEf345678).");
  }

  const api = await deps.api();
  let record: unknown;
  try {
    ({ body: record } = await api.request({ method: 'POST', path: provisioningPath(connectionId), body, ...describeCreate(connectionId) }));
  } catch (error) {
    // A 409 on a retried POST may be idm's own earlier attempt, answered with an error (a 503)
    // after the service had created it: if what exists is what was sent, that is the success.
    if (!(error instanceof ApiError && error.status === 409 && error.attempts > 1)) throw error;
    const { body: existing } = await api.request({
      method: 'GET',
      path: provisioningPath(connectionId),
      action: `read the directory provisioning of connection ${connectionId}`,
      scope: SCOPES.readProvisioning,
    });
    if (!sameSettings(existing, body)) throw error;
    record = existing;
  }
  await printConfiguration(record, deps);
}

/** Whether an existing configuration holds what `sent` asked for (unsent settings: the service's defaults). */
function sameSettings(existing: unknown, sent: ProvisioningRequest): boolean {
  if (!isPlainObject(existing)) return false;
  const pairs = (mapping: unknown) =>
    JSON.stringify((Array.isArray(mapping) ? mapping : []).map((m) => [String(m?.platform), String(m?.idp)]).sort());
  if (sent.mapping !== undefined && pairs(existing.mapping) !== pairs(sent.mapping)) return false;
  if ((existing.synchronize_automatically ?? false) !== (sent.synchronize_automatically ?? false)) return false;
  return (existing.synchronize_groups ?? 'off') === (sent.synchronize_groups ?? 'off');
}

export function provisioningPath(connectionId: string): string {
  return `/connections/${encodeURIComponent(connectionId)}/directory-provisioning`;
}

/** Trimmed, non-empty, and a single path segment. Returns the error text or true (a prompt's `validate`). */
export function connectionIdProblem(value: string): true | string {
  const id = value.trim();
  if (id === '') return 'The connection id must not be empty.';
  if (/[\s/?#]/.test(id)) return 'A connection id has no spaces, slashes, ? or #.';
  if (!/^[\x21-\x7e]+$/.test(id)) return 'A connection id has only ASCII letters, digits and punctuation (con_ and 16 letters or digits).';
  return true;
}

function checkConnectionId(value: string): string {
  const problem = connectionIdProblem(value);
  if (problem !== true) throw new UsageError(`Bad connection id "${value}": ${problem}`);
  return value.trim();
}

/** `platform=idp`, split at the first `=`. */
export function parseMappingFlag(value: string): MappingEntry {
  const at = value.indexOf('=');
  if (at < 0) throw new UsageError(`--mapping "${value}" must be platform=idp, e.g. --mapping email=primaryEmail.`);
  return { platform: value.slice(0, at).trim(), idp: value.slice(at + 1).trim() };
}

/** The request body the flags describe, checked against the shared schema. */
async function bodyFromFlags(options: ProvisioningCreateOptions, deps: Deps): Promise<ProvisioningRequest> {
  const body: Record<string, unknown> = {};
  let mappingSource = '--mapping';
  if (options.mapping !== undefined) body.mapping = options.mapping.map(parseMappingFlag);
  if (options.mappingFile !== undefined) {
    mappingSource = options.mappingFile === '-' ? '--mapping-file - (stdin)' : `--mapping-file ${options.mappingFile}`;
    if (options.mappingFile === '-' && deps.io.stdinIsTTY) {
      throw new UsageError('--mapping-file - reads stdin, which is a terminal here.', 'Pipe the JSON in, use --mapping-file <path>, or leave it out to be asked.');
    }
    const value = parseJson(mappingSource, await readFileOrStdin('--mapping-file', options.mappingFile, deps.io));
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
    throw new UsageError(`Invalid provisioning settings: ${problems.join('; ')}.`);
  }
  return parsed.data;
}

/**
 * How the client names the operation in messages (so that 404 and 409 name the connection), the scope
 * a 403 is about, and what to do: on 409, how to see or change the configuration that exists.
 */
export function describeCreate(connectionId: string) {
  const path = `/api/v2${provisioningPath(connectionId)}`;
  return {
    action: `create directory provisioning for connection ${connectionId}`,
    scope: SCOPES.createProvisioning,
    hints: {
      404: "Check the connection id (con_ and 16 letters or digits) in the tenant's dashboard.",
      409:
        `Provisioning already exists on ${connectionId}; idm cannot change it yet. Read it with GET ${path}, change it with PATCH ` +
        `on the same path (scopes ${SCOPES.readProvisioning}, ${SCOPES.updateProvisioning}), or use the tenant's dashboard.`,
    },
  };
}

async function printConfiguration(record: unknown, deps: Deps): Promise<void> {
  const output = deps.output();
  if (!isPlainObject(record)) throw new IdmError(`The service answered with ${jsonKind(record)} instead of a provisioning configuration.`);
  if (output.json) {
    output.printJson(record);
    return;
  }
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
  await output.printFields(fields.filter(([label, value]) => value !== '' || label === 'Connection'));

  const mapping = (Array.isArray(record.mapping) ? record.mapping : []).filter(isPlainObject);
  const columns: Array<Column<Record<string, unknown>>> = [
    { header: 'Platform attribute', value: (row) => text(row.platform), shrink: 'first' },
    { header: 'Identity-provider attribute', value: (row) => text(row.idp), shrink: 'first' },
  ];
  await output.printRows(columns, mapping, { label: 'mapping' });
  output.note(`Created directory provisioning for ${text(record.connection_id)} with ${mapping.length} mapped attribute${mapping.length === 1 ? '' : 's'}.`);
}
