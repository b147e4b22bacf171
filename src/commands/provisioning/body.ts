// The body of a provisioning create or change, from flags: `platform=idp` rows and the shared
// schema's check (a mapping of at least one row, each platform attribute once), with problems named
// by the flag they came from.
import type { MappingRow, ProvisioningBody } from '../../api/management/index.js';
import { mappingRows } from '../../api/management/provisioning.js';
import { IdmError, UsageError } from '../../core/errors.js';
import { isPlainObject, jsonKind, type CommandLine } from '../../core/text.js';
import type { IO } from '../../io/io.js';
import { parseJson, readFileOrStdin } from '../../io/input.js';
import { mappingAttributeProblem, plainProvisioningBody } from '../../schemas/mapping.js';

/** `platform=idp`, split at the first `=` (`flag` names where it came from). */
export function parseMappingFlag(value: string, flag = '--mapping'): { platform: string; idp: string } {
  const at = value.indexOf('=');
  if (at < 0) throw new UsageError(`${flag} "${value}" must be platform=idp, e.g. ${flag} email=primaryEmail.`);
  return { platform: value.slice(0, at).trim(), idp: value.slice(at + 1).trim() };
}

/** One row of --add-mapping, checked by the mapping's rules before anything is read or sent. */
export function checkedMappingRow(value: string, flag: string): { platform: string; idp: string } {
  const row = parseMappingFlag(value, flag);
  const problem = mappingAttributeProblem(row.platform, 'platform') ?? mappingAttributeProblem(row.idp, 'identity-provider');
  if (problem) throw new UsageError(`${flag} "${value}": ${problem}.`);
  return row;
}

/**
 * An entry of a mapping read from the service as a row that can be sent back as it is: two texts by
 * the mapping's rules, and no other field (a request's row takes none, and the row written without
 * it would lose it); undefined when it cannot.
 */
export function sendableRow(entry: unknown): MappingRow | undefined {
  const [row] = mappingRows([entry]);
  if (!row || Object.keys(entry as object).length !== 2) return undefined;
  return mappingAttributeProblem(row.platform, 'platform') === undefined && mappingAttributeProblem(row.idp, 'identity-provider') === undefined ? row : undefined;
}

/** A platform attribute of --remove-mapping, checked the same way. */
export function checkedPlatformAttribute(value: string, flag: string): string {
  const problem = mappingAttributeProblem(value, 'platform');
  if (problem) throw new UsageError(`${flag} "${value}": ${problem}.`);
  return value.trim();
}

/**
 * --mapping and --mapping-file each give the whole mapping; --add-mapping and --remove-mapping change
 * the current one: one way at a time, worded the same by create and update.
 */
export function refuseMappingConflicts(given: { mapping?: unknown; mappingFile?: unknown; addMapping?: unknown; removeMapping?: unknown }): void {
  const named = (pairs: Array<[unknown, string]>) => pairs.filter(([value]) => value !== undefined).map(([, flag]) => flag);
  const whole = named([[given.mapping, '--mapping'], [given.mappingFile, '--mapping-file']]);
  const edits = named([[given.addMapping, '--add-mapping'], [given.removeMapping, '--remove-mapping']]);
  if (whole.length > 1) throw new UsageError('--mapping and --mapping-file contradict each other: each gives the whole mapping.', 'Give it one way: --mapping once per row, or --mapping-file.');
  if (whole.length > 0 && edits.length > 0) {
    throw new UsageError(`${whole[0]} and ${edits[0]} contradict each other: ${whole[0]} replaces the whole mapping.`, 'Give the whole mapping, or change it with --add-mapping / --remove-mapping.');
  }
}

/** The fields that --mapping, --mapping-file and the sync flags give, after refusing conflicting flags. */
export async function bodyFields(
  given: { mapping?: string[]; mappingFile?: string; addMapping?: unknown; removeMapping?: unknown; syncAutomatically?: boolean; syncGroups?: string },
  io: IO,
): Promise<Record<string, unknown>> {
  refuseMappingConflicts(given);
  const body: Record<string, unknown> = {};
  if (given.mapping !== undefined) body.mapping = given.mapping.map((value) => parseMappingFlag(value));
  if (given.mappingFile !== undefined) body.mapping = await readMappingFile(given.mappingFile, io);
  if (given.syncAutomatically !== undefined) body.synchronize_automatically = given.syncAutomatically;
  if (given.syncGroups !== undefined) body.synchronize_groups = given.syncGroups;
  return body;
}

/** Where the mapping came from, as problems with it name it. */
export function mappingSource(given: { mapping?: unknown; mappingFile?: string }, otherwise = '--mapping'): string {
  if (given.mappingFile !== undefined) return given.mappingFile === '-' ? '--mapping-file - (stdin)' : `--mapping-file ${given.mappingFile}`;
  return given.mapping !== undefined ? '--mapping' : otherwise;
}

/** --mapping-file: a JSON array of rows, from a file or stdin. */
export async function readMappingFile(path: string, io: IO): Promise<unknown[]> {
  const source = mappingSource({ mappingFile: path });
  const value = parseJson(source, await readFileOrStdin('--mapping-file', path, io, 'json', { hint: 'Pipe the JSON in, or give --mapping-file a path.' }));
  if (!Array.isArray(value)) {
    // What `default-mapping --json` and `show --json` print: the mapping is the array under its key.
    const printed = isPlainObject(value) && Array.isArray(value.mapping);
    throw new UsageError(
      `${source} must hold a JSON array of {"platform", "idp"} objects, not ${jsonKind(value)}.`,
      printed ? "It holds an object with a mapping (as 'idm provisioning default-mapping --json' prints it): keep only the array, e.g. with | jq .mapping." : undefined,
    );
  }
  return value;
}

/** The body against the shared schema; `mappingSource` names where the mapping came from. */
export async function checkProvisioningBody(body: Record<string, unknown>, mappingSource: string): Promise<ProvisioningBody> {
  const plain = plainProvisioningBody(body);
  if (plain) return plain as ProvisioningBody;
  const { provisioningRequestSchema } = await import('../../schemas/requests.js');
  const parsed = provisioningRequestSchema().safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const [field, index, key] = issue.path;
    if (field === 'mapping' && typeof index === 'number') return `${mappingSource} entry ${index + 1}${key ? ` (${String(key)})` : ''}: ${issue.message}`;
    return `${field === 'mapping' ? mappingSource : String(field ?? 'body')}: ${issue.message}`;
  });
  throw new UsageError(`Invalid provisioning settings: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}.`);
}

/** The current configuration answered without a mapping list: a mapping written whole would replace what it holds. */
export function noMappingList(connectionId: string, mapping: unknown, who: string, command: CommandLine): IdmError {
  return new IdmError(`The current configuration of ${connectionId} has no mapping list idm can read (${mapping === undefined ? 'the answer has none' : `it is ${jsonKind(mapping)}`}): ${who} would replace the mapping it holds.`, {
    code: 'unreadable_mapping',
    hint: `See it with '${command(['idm', 'provisioning', 'show', connectionId, '--json'])}', then give the whole mapping with --mapping-file; --sync-automatically and --sync-groups change the rest without it.`,
  });
}
