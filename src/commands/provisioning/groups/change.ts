// idm provisioning groups add | remove | set <connection-id> <group-id>...: change the list of
// synchronized groups (204 each). `set` replaces the whole list (--none empties it). add and set
// also take --groups-file: whole entries ({id, name?, email?, direct_members_count?}), as the
// service stores and lists them, checked with the schema the sandbox checks them with.
import { Argument, Command } from 'commander';
import type { GroupEntry } from '../../../api/management/provisioning.js';
import type { Deps } from '../../../cli/factory.js';
import { examples } from '../../../cli/help.js';
import { ApiError, UsageError } from '../../../core/errors.js';
import { hasUnsafeCharacters, isPlainObject, jsonKind, plural, preview } from '../../../core/text.js';
import { parseJson, readFileOrStdin } from '../../../io/input.js';
import { unsafeTextProblem } from '../../../io/safe.js';
import { once } from '../../../cli/parse.js';
import { PATTERNS } from '../../../schemas/constants.js';
import { CONNECTION_ID_ARGUMENT, EXAMPLE_CONNECTION } from '../show.js';

export type GroupsVerb = 'add' | 'remove' | 'set';

export interface GroupsChangeOptions {
  verb: GroupsVerb;
  connectionId: string;
  groupIds: string[];
  none?: boolean;
  /** add and set: a JSON file (or - for stdin) of whole group entries. */
  groupsFile?: string;
}

const DESCRIPTIONS: Record<GroupsVerb, string> = {
  add: 'Add groups to the synchronized groups',
  remove: 'Remove groups from the synchronized groups',
  set: 'Replace the synchronized groups with these (--none: no group)',
};

function checkGroupId(value: string): string {
  const id = value.trim();
  // Which rule it breaks: " " is 1 character, and "1 to 256 characters" would not say what is wrong with it.
  const problem = id === '' ? (value === '' ? 'it is empty' : 'it holds only spaces') : id.length > 256 ? `it has ${id.length} characters, more than 256` : hasUnsafeCharacters(id) ? 'it holds control or invisible characters' : undefined;
  if (problem) throw new UsageError(`"${preview(value)}" is not a group id: ${problem} (1 to 256 characters, no control characters).`);
  return id;
}

export function groupsChangeCommand(deps: Deps, verb: GroupsVerb, run = groupsChangeRun): Command {
  const command = new Command(verb)
    .description(DESCRIPTIONS[verb])
    .addArgument(CONNECTION_ID_ARGUMENT())
    .addArgument(new Argument(verb === 'remove' ? '<group-id...>' : '[group-id...]', verb === 'add' ? "the directory groups' ids, e.g. 03ep43zb1xk6ay0" : "the directory groups' ids (idm provisioning groups list shows those synchronized)"));
  if (verb !== 'remove') command.option('--groups-file <path>', 'whole entries instead of ids: a JSON array of {"id", "name"?, "email"?, "direct_members_count"?} (or {"groups": [...]}, as groups list --json prints it), or - for stdin', once('--groups-file'));
  if (verb === 'set') command.option('--none', 'synchronize no group (an empty list)');
  return command
    .addHelpText('after', () => examples([`idm provisioning groups ${verb} ${EXAMPLE_CONNECTION} ${verb === 'set' ? '03ep43zb1xk6ay0 03ep43zb2fw2ma9' : '03ep43zb1xk6ay0'}`]))
    .action((connectionId: string, groupIds: string[] | undefined, flags: { none?: boolean; groupsFile?: string }) => run({ verb, connectionId, groupIds: groupIds ?? [], none: flags.none, groupsFile: flags.groupsFile }, deps));
}

export async function groupsChangeRun(options: GroupsChangeOptions, deps: Deps): Promise<void> {
  const { verb, connectionId } = options;
  const ids = [...new Set(options.groupIds.map(checkGroupId))];
  if (options.groupsFile !== undefined && (ids.length > 0 || options.none)) throw new UsageError(`--groups-file gives the groups: give group ids${verb === 'set' ? ', --none' : ''} or --groups-file, not both.`);
  if (options.groupsFile === undefined && verb !== 'remove' && ids.length === 0 && !options.none) {
    throw new UsageError(verb === 'set' ? 'Give the group ids, --groups-file, or --none to synchronize no group.' : 'Give the group ids, or --groups-file.');
  }
  if (options.none && ids.length > 0) throw new UsageError('--none means no group: give group ids or --none, not both.');
  const entries = options.groupsFile === undefined ? ids.map((id) => ({ id })) : await readGroupsFile(options.groupsFile, verb, connectionId, deps);
  if (verb === 'add' && entries.length === 0) throw new UsageError(`--groups-file ${options.groupsFile} holds no group: nothing to add.`);
  const { provisioning } = await deps.api();
  if (verb === 'add') return add(connectionId, entries, deps).then(() => modeNote(connectionId, deps));
  if (verb === 'remove') return remove(connectionId, entries, deps);
  // Ids alone: a group the list holds keeps its stored entry (PUT replaces each entry with the one
  // sent, and a bare id would drop its name, email and member count, as add avoids).
  const stored = options.groupsFile === undefined && entries.length > 0 ? await storedGroups(connectionId, deps) : new Map<string, Record<string, unknown>>();
  await provisioning.setGroups(connectionId, stored === undefined ? entries : entries.map((entry) => keptEntry(stored.get(entry.id)) ?? entry));
  if (entries.length === 0) {
    deps.output.note(`${connectionId} synchronizes no group now.`);
    return;
  }
  const unread = stored === undefined ? ` (unread: the client may not read the list (${provisioning.scopes.read}), so groups there already were sent as bare ids, without their name, email or member count)` : '';
  deps.output.note(`Set ${plural(entries.length, 'group')} as the synchronized groups of ${connectionId}${unread}. See them: ${deps.command(['idm', 'provisioning', 'groups', 'list', connectionId])}`);
  await modeNote(connectionId, deps);
}

/**
 * The list counts only while group synchronization is `selected`: after groups were added or set, a
 * configuration at `off` (none synchronized) or `all` (every group) is named, with the command that
 * makes the list count. One GET, only where notes are shown (not with --json); a configuration that
 * cannot be read, or a setting idm does not know, says nothing.
 */
async function modeNote(connectionId: string, deps: Deps): Promise<void> {
  if (deps.output.json) return;
  const { provisioning } = await deps.api();
  let mode: unknown;
  try {
    mode = (await provisioning.getIfReadable(connectionId))?.synchronize_groups;
  } catch (error) {
    if (error instanceof ApiError) return;
    throw error;
  }
  if (mode !== 'off' && mode !== 'all') return;
  const select = deps.command(['idm', 'provisioning', 'update', connectionId, '--sync-groups', 'selected']);
  deps.output.note(
    mode === 'off'
      ? `Group synchronization of ${connectionId} is off: no group is synchronized, these neither, until it is "selected": ${select}`
      : `Group synchronization of ${connectionId} is "all": every group is synchronized, not only the listed ones, until it is "selected": ${select}`,
  );
}

/**
 * A stored entry as it can be sent back: the fields the service takes, each only where it has a
 * value the service takes (it refuses an empty email, wire-facts.md); undefined for no entry.
 */
function keptEntry(stored: Record<string, unknown> | undefined): GroupEntry | undefined {
  if (stored === undefined || typeof stored.id !== 'string') return undefined;
  const { name, email, direct_members_count: count } = stored;
  return {
    id: stored.id,
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof email === 'string' && PATTERNS.groupEmail.test(email) ? { email } : {}),
    ...(typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? { direct_members_count: count } : {}),
  };
}

/**
 * The stored entries of the list, by id (every page); undefined for a client that may change the list
 * but not read it (no read:directory_provisionings). A tenant without the feature is thrown.
 */
async function storedGroups(connectionId: string, deps: Deps): Promise<Map<string, Record<string, unknown>> | undefined> {
  const { provisioning } = await deps.api();
  const groups = await provisioning.groupsIfReadable(connectionId);
  if (groups === undefined) return undefined;
  const stored = new Map<string, Record<string, unknown>>();
  for (const group of groups) if (isPlainObject(group) && typeof group.id === 'string') stored.set(group.id, group);
  return stored;
}

/** `group X was` / `groups X, Y were`, for the notes of add and remove. */
const groupsWere = (ids: string[]) => `${ids.length === 1 ? 'group' : 'groups'} ${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'}`;

/**
 * remove: as add, the list is read first, and only the groups it holds are sent and counted: a group
 * id it does not hold (a typo) is named, not counted as removed. None there: nothing sent (exit 0).
 */
async function remove(connectionId: string, entries: GroupEntry[], deps: Deps): Promise<void> {
  const { provisioning } = await deps.api();
  const see = `See them: ${deps.command(['idm', 'provisioning', 'groups', 'list', connectionId])}`;
  const stored = await storedGroups(connectionId, deps);
  if (stored === undefined) {
    await provisioning.removeGroups(connectionId, entries);
    deps.output.note(`Sent ${plural(entries.length, 'group')} to remove from the synchronized groups of ${connectionId}, unread: the client may not read the list (${provisioning.scopes.read}), so groups not there were sent too. ${see}`);
    return;
  }
  const there = entries.filter((entry) => stored.has(entry.id));
  const absent = entries.filter((entry) => !stored.has(entry.id)).map((entry) => entry.id);
  const notThere = absent.length === 0 ? '' : `${groupsWere(absent)} not there`;
  if (there.length === 0) {
    deps.output.note(`Nothing to remove from the synchronized groups of ${connectionId}: ${notThere}; nothing sent. ${see}`);
    return;
  }
  await provisioning.removeGroups(connectionId, there);
  deps.output.note(`Removed ${plural(there.length, 'group')} from the synchronized groups of ${connectionId}${notThere ? ` (${notThere}: not sent)` : ''}. ${see}`);
}

/** The fields of an entry the service keeps, in one order: two entries that say the same compare equal. */
const entryText = (entry: Record<string, unknown>) => JSON.stringify(['id', 'name', 'email', 'direct_members_count'].map((field) => entry[field] ?? null));

/**
 * add: only what changes the list is sent, and counted. A group the list holds already (an id alone,
 * or an entry as the list holds it) is not sent: the service would replace its stored entry, with
 * the bare id dropping its name and email. An entry of --groups-file that differs from the stored one
 * replaces it (updated). Nothing new: nothing sent, and the note says so (exit 0).
 */
async function add(connectionId: string, entries: GroupEntry[], deps: Deps): Promise<void> {
  const { provisioning } = await deps.api();
  const see = `See them: ${deps.command(['idm', 'provisioning', 'groups', 'list', connectionId])}`;
  const stored = await storedGroups(connectionId, deps);
  if (stored === undefined) {
    // A client that may change the list but not read it (no read:directory_provisionings): every
    // entry is sent, as the flags give them, as before the list was read.
    await provisioning.addGroups(connectionId, entries);
    deps.output.note(`Sent ${plural(entries.length, 'group')} to add to the synchronized groups of ${connectionId}, unread: the client may not read the list (${provisioning.scopes.read}), so groups there already were sent too. ${see}`);
    return;
  }
  const fresh = entries.filter((entry) => !stored.has(entry.id));
  const updated = entries.filter((entry) => stored.has(entry.id) && Object.keys(entry).length > 1 && entryText(stored.get(entry.id)!) !== entryText({ ...entry }));
  const already = entries.filter((entry) => !fresh.includes(entry) && !updated.includes(entry)).map((entry) => entry.id);
  const there = already.length === 0 ? '' : `${groupsWere(already)} there already`;
  if (fresh.length + updated.length === 0) {
    deps.output.note(`Nothing to add to the synchronized groups of ${connectionId}: ${there}; nothing sent.`);
    return;
  }
  await provisioning.addGroups(connectionId, entries.filter((entry) => fresh.includes(entry) || updated.includes(entry)));
  const added = `Added ${plural(fresh.length, 'group')}`;
  const changed = `${plural(updated.length, 'entry', 'entries')} of`;
  const done = updated.length === 0 ? `${added} to` : fresh.length === 0 ? `Updated ${changed}` : `${added} to, and updated ${changed},`;
  deps.output.note(`${done} the synchronized groups of ${connectionId}${there ? ` (${there}: not sent)` : ''}. ${see}`);
}

/**
 * --groups-file: whole entries, checked with the shared schema (the sandbox's) and the ids' own rule,
 * each id once; problems named by entry, before anything is sent.
 */
async function readGroupsFile(path: string, verb: GroupsVerb, connectionId: string, deps: Deps): Promise<GroupEntry[]> {
  const source = path === '-' ? '--groups-file - (stdin)' : `--groups-file ${path}`;
  const value = parseJson(source, await readFileOrStdin('--groups-file', path, deps.io, 'json', { hint: 'Pipe the JSON in, or give --groups-file a path.' }));
  const page = isPlainObject(value) && Object.keys(value).every((key) => key === 'groups' || key === 'next') && Array.isArray(value.groups);
  const list = page ? value.groups : value;
  if (!Array.isArray(list)) throw new UsageError(`${source} must hold a JSON array of {"id", …} objects (or {"groups": […]}), not ${jsonKind(value)}.`);
  // One page of a longer list (`groups list --json` without --all): set would drop the groups of the
  // pages after it from the tenant.
  if (verb === 'set' && page && value.next !== undefined && value.next !== null && value.next !== '') {
    throw new UsageError(
      `${source} holds one page of a longer list (it has a next cursor): set replaces the whole list, so the groups of the following pages would be removed.`,
      `Give the whole list: ${deps.command(['idm', 'provisioning', 'groups', 'list', connectionId, '--all', '--json'])} > groups.json`,
    );
  }
  const { synchronizedGroupsRequestSchema } = await import('../../../schemas/requests.js');
  const parsed = synchronizedGroupsRequestSchema().safeParse({ groups: list });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const [, index, ...rest] = issue.path;
      return typeof index === 'number' ? `entry ${index + 1}${rest.length > 0 ? ` (${rest.map(String).join('.')})` : ''}: ${issue.message}` : issue.message;
    });
    throw new UsageError(`${source}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}.`);
  }
  const seen = new Set<string>();
  return parsed.data.groups.map((entry, index) => {
    let id: string;
    try {
      id = checkGroupId(entry.id);
    } catch (error) {
      throw new UsageError(`${source}: entry ${index + 1} (id): ${(error as Error).message}`);
    }
    if (seen.has(id)) throw new UsageError(`${source}: entry ${index + 1}: group ${id} is listed twice.`, 'Give each group once.');
    seen.add(id);
    // As every text idm sends: no control or invisible character reaches the tenant.
    for (const field of ['name', 'email'] as const) {
      const problem = entry[field] === undefined ? undefined : unsafeTextProblem(entry[field]);
      if (problem) throw new UsageError(`${source}: entry ${index + 1} (${field}) ${problem}.`);
    }
    return { ...entry, id };
  });
}
