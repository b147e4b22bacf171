// The interactive side of `idm provisioning create`, only ever run at a terminal: asks for the
// connection id when it is missing and, when no setting was given as a flag, builds the mapping from
// the strategy's default (keep, edit, remove, add rows; each value checked as it is typed) and asks
// for both synchronization settings. It ends with a summary and a confirmation: nothing is sent
// before that, and Ctrl-C at any step (InterruptedError, exit 130) sends nothing.
import type { Deps } from '../../cli/deps.js';
import { CancelledError } from '../../cli/errors.js';
import { capitalize } from '../../cli/help.js';
import { ApiError } from '../../api/types.js';
import type { Prompter } from '../../io/prompter.js';
import { SCOPES, SYNC_GROUPS, type SyncGroups } from '../../schemas/constants.js';
import { MappingEntrySchema, type MappingEntry, type ProvisioningRequest } from '../../schemas/index.js';
import { connectionIdProblem, describeCreate, provisioningPath } from './create.js';

export interface WizardStart {
  connectionId?: string;
  /** What the flags gave (already checked). */
  body: ProvisioningRequest;
  /** No setting came from a flag: ask for the mapping and both synchronization settings. */
  askSettings: boolean;
}

const SYNC_GROUPS_HELP: Record<SyncGroups, string> = {
  off: 'users only, no groups',
  all: 'every group of the directory',
  selected: 'only the groups chosen in the dashboard',
};

export async function runProvisioningWizard(start: WizardStart, deps: Deps): Promise<{ connectionId: string; body: ProvisioningRequest }> {
  const prompter = await deps.prompter();
  const say = (line = '') => deps.io.err(`${line}\n`);

  const connectionId = start.connectionId ?? (await prompter.input('Connection id (con_...)', { validate: connectionIdProblem })).trim();
  let body = start.body;
  // The mapping the user started from (shown in full then), to sum up what they changed.
  let initial: MappingEntry[] | undefined;

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
export function mappingSummary(mapping: readonly MappingEntry[] | undefined, initial: readonly MappingEntry[] | undefined): string[] {
  const label = 'Mapping                    ';
  if (mapping === undefined) return [`${label}(the strategy's default, applied by the service)`];
  const rows = `${mapping.length} row${mapping.length === 1 ? '' : 's'}`;
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
async function defaultMapping(connectionId: string, deps: Deps): Promise<MappingEntry[]> {
  const api = await deps.api();
  try {
    const { body } = await api.request<{ mapping?: unknown }>({
      method: 'GET',
      path: `${provisioningPath(connectionId)}/default-mapping`,
      ...describeCreate(connectionId),
      action: `read the default mapping of connection ${connectionId}`,
      scope: SCOPES.readProvisioning,
    });
    const rows = Array.isArray(body?.mapping) ? body.mapping : [];
    return rows.flatMap((row) => {
      const parsed = MappingEntrySchema.safeParse(row);
      return parsed.success ? [parsed.data] : [];
    });
  } catch (error) {
    // Without the read scope the wizard still works, from an empty mapping.
    if (error instanceof ApiError && error.status === 403) {
      deps.output().note(`Cannot read the default mapping (${error.message}); starting from an empty one.`);
      return [];
    }
    throw error;
  }
}

function mappingLines(mapping: readonly MappingEntry[]): string[] {
  const width = Math.max(...mapping.map((row) => row.platform.length), 'platform'.length);
  const number = String(mapping.length).length;
  return mapping.map((row, index) => `${String(index + 1).padStart(number)}. ${row.platform.padEnd(width)} = ${row.idp}`);
}

type Action = 'done' | 'edit' | 'remove' | 'add' | 'show';

async function editMapping(prompter: Prompter, initial: MappingEntry[], say: (line?: string) => void): Promise<MappingEntry[]> {
  const rows = initial.map((row) => ({ ...row }));
  const show = () => {
    if (rows.length === 0) say("The mapping is empty (the service would apply the strategy's default).");
    else {
      say(`Mapping (platform attribute = identity-provider attribute), ${rows.length} row${rows.length === 1 ? '' : 's'}:`);
      for (const line of mappingLines(rows)) say(`  ${line}`);
    }
  };
  say(initial.length > 0 ? "Starting from the strategy's default mapping." : 'The strategy has no default mapping to start from.');
  show();

  // Each value is checked as it is typed: not empty (the schema's rule), and a platform attribute is mapped once.
  const platformRule = (except: number) => (value: string): true | string => {
    const parsed = MappingEntrySchema.shape.platform.safeParse(value);
    if (!parsed.success) return capitalize(parsed.error.issues[0]?.message ?? 'invalid');
    const other = rows.findIndex((row, index) => index !== except && row.platform === parsed.data);
    return other < 0 ? true : `"${parsed.data}" is already mapped (row ${other + 1}); edit or remove that row instead.`;
  };
  const idpRule = (value: string): true | string => {
    const parsed = MappingEntrySchema.shape.idp.safeParse(value);
    return parsed.success ? true : capitalize(parsed.error.issues[0]?.message ?? 'invalid');
  };
  const pickRow = (message: string) =>
    prompter.select<number>(
      message,
      rows.map((row, index) => ({ value: index, name: `${index + 1}. ${row.platform} = ${row.idp}` })),
      { pageSize: 15 },
    );

  for (;;) {
    const action = await prompter.select<Action>(`Mapping: ${rows.length} row${rows.length === 1 ? '' : 's'}. What next?`, [
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
