// The interactive side of `idm provisioning create` and `update`, only ever run at a terminal.
// create: picks the connection (a list of the tenant's connections whose strategy supports
// directory provisioning, configured ones shown but not selectable; or the id, checked before any
// other question, asked again after a 404), then builds the mapping from the strategy's default.
// update: starts from the current configuration. Both edit the mapping (keep, edit, remove, add
// rows; each value checked as it is typed), ask for both synchronization settings, show a summary
// and ask for confirmation: nothing is sent before that, and Ctrl-C at any step sends nothing.
import type { ApiRecord, Management, MappingRow, ProvisioningBody } from '../../api/management/index.js';
import { isForbidden } from '../../api/errors.js';
import { mappingRows, unknownConnectionHint, unsupportedStrategyHint } from '../../api/management/provisioning.js';
import type { Deps } from '../../cli/factory.js';
import { CancelledError, IdmError } from '../../core/errors.js';
import { capitalize, clip, plural, type CommandLine } from '../../core/text.js';
import type { Prompter } from '../../io/prompter.js';
import { safeText } from '../../io/safe.js';
import { asText as text } from '../../output/index.js';
import { cut, displayWidth } from '../../output/width.js';
import { PROVISIONING_STRATEGIES, SYNC_GROUPS, type SyncGroups } from '../../schemas/constants.js';
import { idProblem } from '../../schemas/ids.js';
import { mappingAttributeProblem, rowMapping } from '../../schemas/mapping.js';
import { noMappingList, sendableRow } from './body.js';

export interface WizardStart {
  connectionId?: string;
  /** What the flags gave (already checked). */
  body: ProvisioningBody;
  /** No setting came from a flag: ask for the mapping and both synchronization settings. */
  askSettings: boolean;
}

const SYNC_GROUPS_HELP: Record<SyncGroups, string> = {
  off: 'users only, no groups',
  all: 'every group of the directory',
  selected: 'only the groups chosen (idm provisioning groups)',
};

/** Why a connection cannot get a new configuration, with what to run instead; undefined when it can. */
export type Refusal = { message: string; hint: string; configured?: true };

/** Where a new configuration starts: the strategy's default mapping, or nothing and why. */
export type Start = { defaultMapping: MappingRow[] } | { defaultMapping: undefined; why: string };

/**
 * The most of a server's text (a name, a message, an attribute) a line of the dialog quotes: said,
 * not a note, it is not cut by the output, and one of a megabyte would fill the terminal.
 */
const SERVER_TEXT_MAX = 100;

const unknownConnection = (connectionId: string, command: CommandLine): Refusal => ({
  message: `There is no connection ${connectionId} in the tenant.`,
  hint: unknownConnectionHint(command),
});

/**
 * Checks a connection before any question (the typed client's checkConnection): it must exist, have
 * no configuration yet and a strategy that supports one. Where to start: its default mapping, or an
 * empty one and why.
 */
export async function checkConnection(api: Management, connectionId: string, command: CommandLine): Promise<{ refusal: Refusal } | Start> {
  const checked = await api.provisioning.checkConnection(connectionId);
  switch (checked.kind) {
    case 'unknown':
      return { refusal: unknownConnection(connectionId, command) };
    case 'configured':
      return {
        refusal: {
          message: `Connection ${connectionId}${checked.existing.connection_name ? ` (${clip(text(checked.existing.connection_name), SERVER_TEXT_MAX)})` : ''} has directory provisioning already.`,
          hint: `See it with '${command(['idm', 'provisioning', 'show', connectionId])}', change it with '${command(['idm', 'provisioning', 'update', connectionId])}'.`,
          configured: true,
        },
      };
    case 'unsupported':
      return { refusal: { message: `Connection ${connectionId} cannot have directory provisioning${checked.said ? `: ${clip(checked.said, SERVER_TEXT_MAX)}` : ''}.`, hint: unsupportedStrategyHint(command) } };
    case 'unconfigured':
      if (checked.defaultMapping !== undefined) return { defaultMapping: checked.defaultMapping };
      return checked.because === 'forbidden'
        ? { defaultMapping: undefined, why: `Cannot read the default mapping (the token lacks ${api.provisioning.scopes.read}); starting from an empty one.` }
        : { defaultMapping: undefined, why: `The service shows no default mapping for ${connectionId} before it has provisioning; starting from an empty one.` };
  }
}

/** The choice of the connection list that asks for an id instead. */
const TYPED = '';

/** The connection to configure: chosen from a list of the tenant's, or typed (and checked) when it cannot be listed. */
async function pickConnection(prompter: Prompter, deps: Deps): Promise<{ connectionId: string; start: Start }> {
  const api = await deps.api();
  const connections: ApiRecord[] = [];
  // The list offers at most 1,000: the pages after those are not asked for, and the others are typed.
  let more = false;
  try {
    for await (const page of api.connections.pagesUnlessForbidden({ strategy: [...PROVISIONING_STRATEGIES] })) {
      const room = 1000 - connections.length;
      connections.push(...(page.items as ApiRecord[]).slice(0, room));
      if (page.items.length > room || (connections.length >= 1000 && page.next !== undefined)) {
        more = true;
        break;
      }
    }
  } catch (error) {
    if (!isForbidden(error)) throw error;
    deps.output.note(`Cannot list the tenant's connections (the token lacks ${api.connections.scopes.list}); type the connection id instead.`);
    return typeConnection(prompter, deps);
  }
  // Without the scope to read them, none is shown as configured (checkConnection says so when chosen).
  const configured = (await api.provisioning.configuredConnections()) ?? new Set<string>();
  const listed = connections.filter((connection) => idProblem('connection', text(connection.id)) === undefined);
  // The prompt's own columns on each line (the cursor, or at TERM=dumb a choice's number).
  const selectable = listed.filter((connection) => !configured.has(text(connection.id))).length + (more ? 1 : 0);
  const margin = (disabled: boolean) => prompter.listMargin?.(selectable, disabled) ?? (disabled ? 3 : 2);
  const choices = listed.map((connection) => ({ value: text(connection.id), ...connectionChoice(connection, configured.has(text(connection.id)), deps.io.stderrColumns, margin) }));
  // A connection after the first 1,000 can still be set up: by its id (TYPED, no id's value).
  if (more) choices.push({ value: TYPED, name: 'Another connection: type its id (this list shows the first 1,000)', short: 'another connection', disabled: false });
  const noneToChoose = () => {
    if (choices.length > 0 && !choices.every((choice) => choice.disabled)) return;
    throw new IdmError(
      choices.length === 0 ? `The tenant has no connection whose strategy supports directory provisioning (${PROVISIONING_STRATEGIES.join(', ')}).` : 'Every connection that supports directory provisioning has it already.',
      { code: 'no_connection', hint: choices.length === 0 ? 'Create one in the dashboard (Authentication > Enterprise).' : `Change one with '${deps.command(['idm', 'provisioning', 'update', 'CONNECTION_ID'])}'.` },
    );
  };
  noneToChoose();
  for (;;) {
    // The cursor starts on the first connection that can be chosen.
    const connectionId = await prompter.select(CONNECTION_QUESTION, choices, { pageSize: 12, default: choices.find((choice) => !choice.disabled)?.value });
    if (connectionId === TYPED) return typeConnection(prompter, deps);
    const checked = await checkConnection(api, connectionId, deps.command);
    if (!('refusal' in checked)) return { connectionId, start: checked };
    deps.output.say(`${checked.refusal.message} ${checked.refusal.hint}`);
    // Not offered again as it was (the cursor back on it, Enter the same refusal): one configured
    // since the list was read is shown as the others configured are; one that cannot be set up leaves it.
    const at = choices.findIndex((choice) => choice.value === connectionId);
    const connection = listed.find((each) => text(each.id) === connectionId);
    if (checked.refusal.configured && connection) choices[at] = { value: connectionId, ...connectionChoice(connection, true, deps.io.stderrColumns, margin) };
    else choices.splice(at, 1);
    noneToChoose();
  }
}

const CONNECTION_QUESTION = 'Connection to set up';

/** Why a configured connection cannot be chosen: with the command to run instead, or in fewer words. */
const CONFIGURED = ['configured already: idm provisioning update', 'configured already'] as const;

/**
 * A connection as one line of the list (`name  id  (strategy)`, after the cursor and before why it
 * cannot be chosen): the name is the server's free text, made safe and cut to the room the terminal
 * leaves, so that a long one neither wraps nor pushes the id and the other connections off the screen.
 * Where that would leave the name less than 12 columns, a configured one says why in fewer words,
 * then the strategy is left out (every connection listed has one that supports provisioning).
 */
function connectionChoice(connection: ApiRecord, configured: boolean, columns: number, margin: (disabled: boolean) => number): { name: string; short: string; disabled: string | false } {
  const id = `  ${text(connection.id)}`;
  // The answer once chosen follows the question (`✔ Connection to set up `): the name cut to the room
  // left there, and the id; without the name where it would have less than 12 columns.
  const answerRoom = columns - 1 - displayWidth(`✔ ${CONNECTION_QUESTION} `) - displayWidth(id);
  const short = answerRoom >= 12 ? `${cut(safeText(text(connection.name)), answerRoom)}${id}` : text(connection.id);
  const strategy = `  (${cut(safeText(text(connection.strategy)), 24)})`;
  const layouts = (configured ? CONFIGURED : [false as const]).map((disabled) => ({ tail: `${id}${strategy}`, disabled }));
  layouts.push(configured ? { tail: `${id} `, disabled: CONFIGURED[1] } : { tail: id, disabled: false });
  // Never the last column: a line that fills the row wraps on some terminals.
  const room = ({ tail, disabled }: (typeof layouts)[number]) => columns - 1 - margin(disabled !== false) - displayWidth(tail) - (disabled ? displayWidth(disabled) : 0);
  const layout = layouts.find((candidate) => room(candidate) >= 12) ?? layouts.at(-1)!;
  return { name: `${cut(safeText(text(connection.name)), Math.max(room(layout), 12))}${layout.tail}`, short, disabled: layout.disabled };
}

/** The id, typed and checked; asked again when the service does not know it or it cannot be set up. */
async function typeConnection(prompter: Prompter, deps: Deps): Promise<{ connectionId: string; start: Start }> {
  const api = await deps.api();
  for (;;) {
    const connectionId = (await prompter.input('Connection id (con_…)', { validate: (value) => idProblem('connection', value.trim()) ?? true })).trim();
    const checked = await checkConnection(api, connectionId, deps.command);
    if (!('refusal' in checked)) return { connectionId, start: checked };
    deps.output.say(`${checked.refusal.message} ${checked.refusal.hint}`);
  }
}

/**
 * The rows of a mapping the wizard can offer back, and the entries it cannot (not two texts,
 * breaking the mapping's rules, or with another field), each named: they are said here, and `then` says what becomes of them.
 */
function usableRows(entries: readonly unknown[], deps: Deps, what: string, then = ''): { rows: MappingRow[]; left: string[] } {
  const rows: MappingRow[] = [];
  const left: string[] = [];
  for (const entry of entries) {
    const row = sendableRow(entry);
    if (row) {
      rows.push(row);
      continue;
    }
    // An entry with another field is shown whole: the field is why.
    const [pair] = mappingRows([entry]);
    left.push(pair && Object.keys(entry as object).length === 2 ? `${clip(pair.platform, SERVER_TEXT_MAX)} = ${clip(pair.idp, SERVER_TEXT_MAX)}` : clip(JSON.stringify(entry), 2 * SERVER_TEXT_MAX));
  }
  if (left.length > 0) {
    deps.output.say(`Left out ${plural(left.length, 'entry', 'entries')} of ${what} that cannot be sent back (not two texts, empty, too long, with control characters, or with another field)${then}:`);
    for (const line of left) deps.output.say(`  ${line}`);
  }
  return { rows, left };
}

/**
 * What an empty mapping would do: on create, the service applies the strategy's default (no mapping
 * is sent); on update there is no such thing (PATCH keeps or replaces, and needs at least one row), so
 * the wizard does not let one continue with it.
 */
type EmptyMapping = 'default' | 'refused';

/** The mapping and both synchronization settings, asked from `from` on. */
async function askSettings(
  prompter: Prompter,
  deps: Deps,
  from: { mapping: MappingRow[]; what: string; synchronizeAutomatically: boolean; synchronizeGroups: SyncGroups; emptyMeans: EmptyMapping },
) {
  const say = (line = '') => deps.output.say(line);
  const mapping = await editMapping(prompter, from.mapping, from.what, from.emptyMeans, say, deps.io.stderrColumns);
  const synchronizeAutomatically = await prompter.confirm('Synchronize users automatically (every 30 minutes)?', { default: from.synchronizeAutomatically });
  const synchronizeGroups = await prompter.select<SyncGroups>(
    'Group synchronization',
    SYNC_GROUPS.map((value) => ({ value, name: value, description: SYNC_GROUPS_HELP[value] })),
    { default: from.synchronizeGroups },
  );
  return { mapping, synchronizeAutomatically, synchronizeGroups };
}

const syncGroupsOf = (value: unknown): SyncGroups => ((SYNC_GROUPS as readonly unknown[]).includes(value) ? (value as SyncGroups) : 'off');

export async function runProvisioningWizard(start: WizardStart, deps: Deps): Promise<{ connectionId: string; body: ProvisioningBody }> {
  const prompter = await deps.prompter();
  const say = (line = '') => deps.output.say(line);
  const api = await deps.api();

  let connectionId = start.connectionId;
  let from: Start;
  if (connectionId === undefined) {
    ({ connectionId, start: from } = await pickConnection(prompter, deps));
  } else {
    // Checked before any question: stop at once rather than after the whole dialog.
    const checked = await checkConnection(api, connectionId, deps.command);
    if ('refusal' in checked) throw new IdmError(checked.refusal.message, { code: 'cannot_create', hint: checked.refusal.hint });
    from = checked;
  }
  let body = start.body;
  // The mapping the user started from (shown in full then), to sum up what they changed.
  let initial: MappingRow[] | undefined;

  if (start.askSettings) {
    if (from.defaultMapping === undefined) deps.output.note(from.why);
    initial = usableRows(from.defaultMapping ?? [], deps, 'the default mapping').rows;
    const settings = await askSettings(prompter, deps, { mapping: initial, what: "the strategy's default mapping", synchronizeAutomatically: false, synchronizeGroups: 'off', emptyMeans: 'default' });
    body = {
      ...(settings.mapping.length > 0 ? { mapping: settings.mapping } : {}),
      synchronize_automatically: settings.synchronizeAutomatically,
      synchronize_groups: settings.synchronizeGroups,
    };
  }

  say();
  say('Summary');
  say(`  Connection                 ${connectionId}`);
  say(`  Synchronize automatically  ${body.synchronize_automatically === undefined ? "(the service's default)" : body.synchronize_automatically ? 'yes' : 'no'}`);
  say(`  Synchronize groups         ${body.synchronize_groups ?? "(the service's default)"}`);
  for (const line of mappingSummary(body.mapping, initial)) say(`  ${line}`);
  say();
  if (!(await prompter.confirm(`Create directory provisioning for ${connectionId}?`, { default: true }))) {
    throw new CancelledError();
  }
  return { connectionId, body };
}

/**
 * `idm provisioning update` at a terminal without flags: the current configuration, edited; the body
 * holds only what changed (a mapping is sent whole, as the service replaces it); undefined when
 * nothing did.
 */
export async function runUpdateWizard(connectionId: string, current: ApiRecord, deps: Deps): Promise<ProvisioningBody | undefined> {
  // Before any question: starting from no rows, the wizard would make one add a row and send it as the whole mapping.
  if (!Array.isArray(current.mapping)) throw noMappingList(connectionId, current.mapping, 'a mapping edited in the wizard', deps.command);
  const prompter = await deps.prompter();
  const say = (line = '') => deps.output.say(line);
  // Entries idm cannot send back stay on the service while the mapping is not changed; a changed
  // mapping is sent whole, without them, and the summary says so before anything is sent.
  const { rows: before, left } = usableRows(current.mapping, deps, 'the current mapping', '; they stay unless the mapping is changed, which sends it without them');
  const was = { synchronizeAutomatically: current.synchronize_automatically === true, synchronizeGroups: syncGroupsOf(current.synchronize_groups) };
  // What the service holds, as it said it (absent: its defaults). A value idm does not know (a group
  // setting newer than idm) is offered as the default's place only: any answer replaces it.
  const held = { synchronizeAutomatically: current.synchronize_automatically ?? false, synchronizeGroups: current.synchronize_groups ?? 'off' };
  const shownHeld = (value: unknown) => (value === true ? 'yes' : value === false ? 'no' : clip(text(value), SERVER_TEXT_MAX));
  if (held.synchronizeGroups !== was.synchronizeGroups) {
    say(`The current group synchronization, ${shownHeld(held.synchronizeGroups)}, is not one idm knows (${SYNC_GROUPS.join(', ')}): any choice replaces it.`);
  }
  const settings = await askSettings(prompter, deps, { mapping: before, what: 'the current mapping', ...was, emptyMeans: 'refused' });
  const body: ProvisioningBody = {};
  // Never empty here (editMapping refuses that on update): a changed mapping is always sent, whole.
  // The same rows in another order (a row removed, then added back: it comes last) are no change:
  // the wizard cannot reorder, and the summary would call the mapping unchanged while sending it.
  const rowsKey = (rows: readonly MappingRow[]) => JSON.stringify(rows.map((row) => [row.platform, row.idp]).sort());
  if (rowsKey(settings.mapping) !== rowsKey(before)) body.mapping = settings.mapping;
  if (settings.synchronizeAutomatically !== held.synchronizeAutomatically) body.synchronize_automatically = settings.synchronizeAutomatically;
  if (settings.synchronizeGroups !== held.synchronizeGroups) body.synchronize_groups = settings.synchronizeGroups;
  if (Object.keys(body).length === 0) return undefined;
  say();
  say('Changes');
  if (body.synchronize_automatically !== undefined) say(`  Synchronize automatically  ${shownHeld(held.synchronizeAutomatically)} → ${body.synchronize_automatically ? 'yes' : 'no'}`);
  if (body.synchronize_groups !== undefined) say(`  Synchronize groups         ${shownHeld(held.synchronizeGroups)} → ${body.synchronize_groups}`);
  if (body.mapping !== undefined) {
    for (const line of mappingSummary(body.mapping, before, 'the current mapping')) say(`  ${line}`);
    for (const line of left) say(`    dropped  ${line} (cannot be sent back)`);
  }
  say();
  if (!(await prompter.confirm(`Change the directory provisioning of ${connectionId}?`, { default: true }))) throw new CancelledError();
  return body;
}

/**
 * The mapping in the summary: its size and, when it was edited from the default, only the rows that
 * differ from it (the whole mapping was shown when the editing began, and is printed once created).
 */
export function mappingSummary(mapping: readonly MappingRow[] | undefined, initial: readonly MappingRow[] | undefined, what = "the strategy's default"): string[] {
  const label = 'Mapping                    ';
  if (mapping === undefined) return [`${label}(the strategy's default, applied by the service)`];
  const rows = plural(mapping.length, 'row');
  if (initial === undefined) return [`${label}${rows}, from the flags`];
  const before = new Map(initial.map((row) => [row.platform, row.idp]));
  const after = new Map(mapping.map((row) => [row.platform, row.idp]));
  const changed = mapping.filter((row) => before.has(row.platform) && before.get(row.platform) !== row.idp);
  const added = mapping.filter((row) => !before.has(row.platform));
  const removed = initial.filter((row) => !after.has(row.platform));
  if (initial.length === 0) return [`${label}${rows}, added here`, ...added.map((row) => `  added    ${row.platform} = ${row.idp}`)];
  if (changed.length + added.length + removed.length === 0) return [`${label}${rows}: ${what}, unchanged`];
  const counts = [`${changed.length} changed`, `${removed.length} removed`, `${added.length} added`].filter((count) => !count.startsWith('0 '));
  return [
    `${label}${rows}: ${what} with ${counts.join(', ')}`,
    ...changed.map((row) => `  changed  ${row.platform} = ${row.idp} (was ${before.get(row.platform)})`),
    ...removed.map((row) => `  removed  ${row.platform} = ${row.idp}`),
    ...added.map((row) => `  added    ${row.platform} = ${row.idp}`),
  ];
}

/**
 * The rows numbered, the platform attributes padded to one column when the widest row then fits the
 * terminal (`columns`, after the two spaces they are said with); else as they are, so that a narrow
 * terminal does not wrap every row for the sake of the longest attribute.
 */
function mappingLines(mapping: readonly MappingRow[], columns: number): string[] {
  const width = Math.max(...mapping.map((row) => displayWidth(row.platform)), 'platform'.length);
  const number = String(mapping.length).length;
  const aligned = 2 + number + 2 + width + 3 + Math.max(...mapping.map((row) => displayWidth(row.idp))) < columns;
  const pad = (text: string) => (aligned ? text + ' '.repeat(width - displayWidth(text)) : text);
  return mapping.map((row, index) => `${String(index + 1).padStart(number)}. ${pad(row.platform)} = ${row.idp}`);
}

type Action = 'done' | 'edit' | 'remove' | 'add' | 'show' | 'restart';

/** The choice that leaves the row list of Edit a row or Remove a row. */
const BACK = -1;

async function editMapping(prompter: Prompter, initial: MappingRow[], what: string, emptyMeans: EmptyMapping, say: (line?: string) => void, columns: number): Promise<MappingRow[]> {
  const rows = initial.map((row) => ({ ...row }));
  const show = () => {
    if (rows.length === 0) {
      say(emptyMeans === 'default' ? "The mapping is empty (the service would apply the strategy's default)." : 'The mapping is empty: a configuration needs at least one row.');
    } else {
      say(`Mapping (platform attribute = identity-provider attribute), ${plural(rows.length, 'row')}:`);
      for (const line of mappingLines(rows, columns)) say(`  ${line}`);
    }
  };
  // An empty start says no more: the note before it (or the empty mapping shown next) tells why.
  if (initial.length > 0) say(`Starting from ${what}.`);
  show();

  // Each value is checked as it is typed, by the rules of the shared schema (schemas/mapping.ts).
  // A rule's problem is a phrase (it also ends flag errors mid-sentence); at the prompt, a sentence.
  const sentence = (problem: string) => `${capitalize(problem)}.`;
  const platformRule = (except: number) => (value: string): true | string => {
    const problem = mappingAttributeProblem(value, 'platform');
    if (problem) return sentence(problem);
    const other = rowMapping(rows, value.trim(), except);
    return other < 0 ? true : `"${value.trim()}" is already mapped (row ${other + 1}); edit or remove that row instead.`;
  };
  const idpRule = (value: string): true | string => {
    const problem = mappingAttributeProblem(value, 'identity-provider');
    return problem ? sentence(problem) : true;
  };
  /** A row's index, or BACK: a way back that changes nothing, just above the first row (where the cursor starts). */
  const pickRow = (message: string) =>
    prompter.select<number>(
      message,
      [{ value: BACK, name: 'Back to the mapping, changing no row' }, ...rows.map((row, index) => ({ value: index, name: `${index + 1}. ${row.platform} = ${row.idp}` }))],
      { pageSize: 15, default: 0 },
    );

  for (;;) {
    // An empty mapping on update: "continue" is shown but cannot be taken; the cursor starts on "Add a row".
    const refused = rows.length === 0 && emptyMeans === 'refused';
    const empty = rows.length === 0;
    const action = await prompter.select<Action>(`Mapping: ${plural(rows.length, 'row')}. What next?`, [
      refused
        ? { value: 'done', name: 'Keep this mapping and continue', disabled: 'a mapping needs at least one row' }
        : { value: 'done', name: empty ? "Continue with the strategy's default" : 'Keep this mapping and continue' },
      ...(rows.length > 0
        ? [
            { value: 'edit' as const, name: 'Edit a row' },
            { value: 'remove' as const, name: 'Remove a row' },
          ]
        : []),
      { value: 'add', name: 'Add a row' },
      { value: 'show', name: 'Show the mapping' },
      ...(refused && initial.length > 0 ? [{ value: 'restart' as const, name: `Start again from ${what}` }] : []),
    ], refused ? { default: 'add' } : undefined);
    if (action === 'done') return rows;
    if (action === 'show') show();
    if (action === 'restart') {
      rows.push(...initial.map((row) => ({ ...row })));
      show();
    }
    if (action === 'add') {
      // As Edit a row and Remove a row have Back: nothing typed goes back to the mapping, adding no row.
      const platform = (await prompter.input('Platform attribute (empty: back, adding no row)', { validate: (value) => value.trim() === '' || platformRule(-1)(value) })).trim();
      if (platform === '') continue;
      const idp = (await prompter.input(`Identity-provider attribute for ${platform}`, { validate: idpRule })).trim();
      rows.push({ platform, idp });
      say(`Added ${rows.length}. ${platform} = ${idp}`);
    }
    if (action === 'edit') {
      const index = await pickRow('Row to edit');
      if (index === BACK) continue;
      const row = rows[index]!;
      const platform = (await prompter.input('Platform attribute', { default: row.platform, prefill: true, validate: platformRule(index) })).trim();
      const idp = (await prompter.input(`Identity-provider attribute for ${platform}`, { default: row.idp, prefill: true, validate: idpRule })).trim();
      rows[index] = { platform, idp };
      say(`Row ${index + 1} is now ${platform} = ${idp}`);
    }
    if (action === 'remove') {
      const index = await pickRow('Row to remove');
      if (index === BACK) continue;
      const [removed] = rows.splice(index, 1);
      say(`Removed ${removed!.platform} = ${removed!.idp}`);
      if (rows.length === 0) show(); // what an empty mapping means here
    }
  }
}
