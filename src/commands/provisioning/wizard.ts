// The interactive side of `idm provisioning create`, only ever run at a terminal: asks for the
// connection id when it is missing and, when no setting was given as a flag, builds the mapping from
// the strategy's default (keep, edit, remove, add rows; each value checked as it is typed) and asks
// for both synchronization settings. It ends with a summary and a confirmation: nothing is sent
// before that, and Ctrl-C at any step (InterruptedError, exit 130) sends nothing.
import type { MappingRow, ProvisioningBody } from '../../api/management/index.js';
import type { Deps } from '../../cli/factory.js';
import { ApiError, CancelledError } from '../../core/errors.js';
import { capitalize, plural } from '../../core/text.js';
import type { Prompter } from '../../io/prompter.js';
import { SYNC_GROUPS, type SyncGroups } from '../../schemas/constants.js';
import { idProblem } from '../../schemas/ids.js';
import { mappingAttributeProblem, rowMapping } from '../../schemas/mapping.js';


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
  selected: 'only the groups chosen in the dashboard',
};

export async function runProvisioningWizard(start: WizardStart, deps: Deps): Promise<{ connectionId: string; body: ProvisioningBody }> {
  const prompter = await deps.prompter();
  const say = (line = '') => deps.output.say(line);

  const connectionId =
    start.connectionId ?? (await prompter.input('Connection id (con_...)', { validate: (value) => idProblem('connection', value.trim()) ?? true })).trim();
  let body = start.body;
  // The mapping the user started from (shown in full then), to sum up what they changed.
  let initial: MappingRow[] | undefined;

  if (start.askSettings) {
    initial = await defaultMapping(connectionId, deps);
    const mapping = await editMapping(prompter, initial, say);
    const synchronizeAutomatically = await prompter.confirm('Synchronize users automatically (periodically)?', { default: false });
    const synchronizeGroups = await prompter.select<SyncGroups>(
      'Group synchronization',
      SYNC_GROUPS.map((value) => ({ value, name: value, description: SYNC_GROUPS_HELP[value] })),
      { default: 'off' },
    );
    body = {
      ...(mapping.length > 0 ? { mapping } : {}),
      synchronize_automatically: synchronizeAutomatically,
      synchronize_groups: synchronizeGroups,
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
 * The mapping in the summary: its size and, when it was edited from the default, only the rows that
 * differ from it (the whole mapping was shown when the editing began, and is printed once created).
 */
export function mappingSummary(mapping: readonly MappingRow[] | undefined, initial: readonly MappingRow[] | undefined): string[] {
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
  if (changed.length + added.length + removed.length === 0) return [`${label}${rows}: the strategy's default, unchanged`];
  const counts = [`${changed.length} changed`, `${removed.length} removed`, `${added.length} added`].filter((count) => !count.startsWith('0 '));
  return [
    `${label}${rows}: the strategy's default with ${counts.join(', ')}`,
    ...changed.map((row) => `  changed  ${row.platform} = ${row.idp} (was ${before.get(row.platform)})`),
    ...removed.map((row) => `  removed  ${row.platform} = ${row.idp}`),
    ...added.map((row) => `  added    ${row.platform} = ${row.idp}`),
  ];
}

/** The strategy's default mapping, the wizard's starting point. */
async function defaultMapping(connectionId: string, deps: Deps): Promise<MappingRow[]> {
  const { provisioning } = await deps.api();
  try {
    const { rows } = await provisioning.defaultMapping(connectionId);
    const usable = (row: MappingRow) => mappingAttributeProblem(row.platform, 'platform') === undefined && mappingAttributeProblem(row.idp, 'identity-provider') === undefined;
    const left = rows.filter((row) => !usable(row));
    if (left.length > 0) {
      deps.output.say(`Left out ${plural(left.length, 'row')} of the default mapping that cannot be sent back (empty, too long, or with control characters):`);
      for (const row of left) deps.output.say(`  ${row.platform} = ${row.idp}`);
    }
    return rows.filter(usable);
  } catch (error) {
    // Without the read scope the wizard still works, from an empty mapping.
    if (error instanceof ApiError && error.status === 403) {
      deps.output.note(`Cannot read the default mapping (${error.message}); starting from an empty one.`);
      return [];
    }
    throw error;
  }
}

function mappingLines(mapping: readonly MappingRow[]): string[] {
  const width = Math.max(...mapping.map((row) => row.platform.length), 'platform'.length);
  const number = String(mapping.length).length;
  return mapping.map((row, index) => `${String(index + 1).padStart(number)}. ${row.platform.padEnd(width)} = ${row.idp}`);
}

type Action = 'done' | 'edit' | 'remove' | 'add' | 'show';

async function editMapping(prompter: Prompter, initial: MappingRow[], say: (line?: string) => void): Promise<MappingRow[]> {
  const rows = initial.map((row) => ({ ...row }));
  const show = () => {
    if (rows.length === 0) say("The mapping is empty (the service would apply the strategy's default).");
    else {
      say(`Mapping (platform attribute = identity-provider attribute), ${plural(rows.length, 'row')}:`);
      for (const line of mappingLines(rows)) say(`  ${line}`);
    }
  };
  say(initial.length > 0 ? "Starting from the strategy's default mapping." : 'The strategy has no default mapping to start from.');
  show();

  // Each value is checked as it is typed, by the rules of the shared schema (schemas/mapping.ts).
  const platformRule = (except: number) => (value: string): true | string => {
    const problem = mappingAttributeProblem(value, 'platform');
    if (problem) return capitalize(problem);
    const other = rowMapping(rows, value.trim(), except);
    return other < 0 ? true : `"${value.trim()}" is already mapped (row ${other + 1}); edit or remove that row instead.`;
  };
  const idpRule = (value: string): true | string => {
    const problem = mappingAttributeProblem(value, 'identity-provider');
    return problem ? capitalize(problem) : true;
  };
  const pickRow = (message: string) =>
    prompter.select<number>(
      message,
      rows.map((row, index) => ({ value: index, name: `${index + 1}. ${row.platform} = ${row.idp}` })),
      { pageSize: 15 },
    );

  for (;;) {
    const action = await prompter.select<Action>(`Mapping: ${plural(rows.length, 'row')}. What next?`, [
      { value: 'done', name: rows.length > 0 ? 'Keep this mapping and continue' : "Continue with the strategy's default" },
      ...(rows.length > 0
        ? [
            { value: 'edit' as const, name: 'Edit a row' },
            { value: 'remove' as const, name: 'Remove a row' },
          ]
        : []),
      { value: 'add', name: 'Add a row' },
      { value: 'show', name: 'Show the mapping' },
    ]);
    if (action === 'done') return rows;
    if (action === 'show') show();
    if (action === 'add') {
      const platform = (await prompter.input('Platform attribute', { validate: platformRule(-1) })).trim();
      const idp = (await prompter.input(`Identity-provider attribute for ${platform}`, { validate: idpRule })).trim();
      rows.push({ platform, idp });
      say(`Added ${rows.length}. ${platform} = ${idp}`);
    }
    if (action === 'edit') {
      const index = await pickRow('Row to edit');
      const row = rows[index]!;
      const platform = (await prompter.input('Platform attribute', { default: row.platform, prefill: true, validate: platformRule(index) })).trim();
      const idp = (await prompter.input(`Identity-provider attribute for ${platform}`, { default: row.idp, prefill: true, validate: idpRule })).trim();
      rows[index] = { platform, idp };
      say(`Row ${index + 1} is now ${platform} = ${idp}`);
    }
    if (action === 'remove') {
      const index = await pickRow('Row to remove');
      const [removed] = rows.splice(index, 1);
      say(`Removed ${removed!.platform} = ${removed!.idp}`);
    }
  }
}
