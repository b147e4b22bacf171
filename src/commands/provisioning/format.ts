// How provisioning configurations are shown: one place for create, show, update and list.
import type { ApiRecord } from '../../api/management/index.js';
import { ApiError } from '../../core/errors.js';
import type { Deps } from '../../cli/factory.js';
import { isPlainObject, plural } from '../../core/text.js';
import { asText as text, fieldText, toMinute, type Column } from '../../output/index.js';

const yesNo = (record: unknown, key: string) => {
  const value = isPlainObject(record) ? record[key] : undefined;
  return value === true ? 'yes' : value === false ? 'no' : fieldText(record, key);
};

/**
 * The last synchronization in a few words: its time and status. `time` shortens the time (at a
 * terminal: to the minute, so that the status fits a 120-column table); scripts get it whole.
 */
export function lastSync(record: ApiRecord, time: (at: string) => string = (at) => at): string {
  const at = fieldText(record, 'last_synchronization_at');
  const status = fieldText(record, 'last_synchronization_status');
  return [at && time(at), status].filter(Boolean).join(' ') || 'never';
}

export const PROVISIONING_COLUMNS: ReadonlyArray<Column<ApiRecord>> = [
  { header: 'CONNECTION', value: (r) => (isPlainObject(r) ? fieldText(r, 'connection_id') : text(r)), shrink: 'never' },
  { header: 'NAME', value: (r) => fieldText(r, 'connection_name'), shrink: 'first' },
  // Narrower than the table: STRATEGY (a provisioning strategy: google-apps) is left out before a name is cut.
  { header: 'STRATEGY', value: (r) => fieldText(r, 'strategy'), narrow: { drop: 2 } },
  { header: 'MAPPED', value: (r) => (isPlainObject(r) && Array.isArray(r.mapping) ? String(r.mapping.length) : '') },
  { header: 'AUTO SYNC', value: (r) => yesNo(r, 'synchronize_automatically') },
  { header: 'GROUPS', value: (r) => fieldText(r, 'synchronize_groups') },
  // Narrower than the table, the status alone (`failed`), rather than the time cut before it (`2026-11-…`).
  {
    header: 'LAST SYNC',
    value: (r) => (isPlainObject(r) ? lastSync(r) : ''),
    display: (r) => (isPlainObject(r) ? lastSync(r, toMinute) : ''),
    shrink: 'first',
    narrow: { compact: 1, compactValue: (r) => (isPlainObject(r) ? fieldText(r, 'last_synchronization_status') || lastSync(r, toMinute) : '') },
  },
];

export const MAPPING_COLUMNS: ReadonlyArray<Column<Record<string, unknown>>> = [
  { header: 'Platform attribute', value: (row) => fieldText(row, 'platform'), shrink: 'first' },
  { header: 'Identity-provider attribute', value: (row) => fieldText(row, 'idp'), shrink: 'first' },
];

/** A configuration as received with --json; otherwise its settings and its mapping table. */
export async function printConfiguration(record: ApiRecord, deps: Deps, done?: { verb: string; connectionId: string }): Promise<void> {
  const { output } = deps;
  if (output.json) return output.printJson(record);
  const fields: Array<[string, string]> = [
    ['Connection', fieldText(record, 'connection_id')],
    ['Name', fieldText(record, 'connection_name')],
    ['Strategy', fieldText(record, 'strategy')],
    ['Synchronize automatically', yesNo(record, 'synchronize_automatically')],
    ['Synchronize groups', fieldText(record, 'synchronize_groups')],
    ['Created', fieldText(record, 'created_at')],
    ['Updated', fieldText(record, 'updated_at')],
  ];
  for (const [key, label] of [
    ['last_synchronization_at', 'Last synchronization'],
    ['last_synchronization_status', 'Last synchronization status'],
    ['last_synchronization_error', 'Last synchronization error'],
  ] as const) {
    if (record[key] !== undefined) fields.push([label, fieldText(record, key)]);
  }
  output.printFields(fields.filter(([label, value]) => value !== '' || label === 'Connection'));

  const mapping = (Array.isArray(record.mapping) ? record.mapping : []).filter(isPlainObject);
  await output.printRows(MAPPING_COLUMNS, mapping, { label: 'mapping' });
  // The connection asked, when the answer does not name it (tolerated).
  if (done) output.note(`${done.verb} directory provisioning for ${fieldText(record, 'connection_id') || done.connectionId} with ${plural(mapping.length, 'mapped attribute')}.`);
}

/**
 * After a create or change that asked for `selected` group synchronization: with no group listed,
 * none is synchronized (where `all` synchronized every one), and a note says how to list some. One
 * GET of the list's first entry, only where notes are shown (not with --json); silent when it cannot be read.
 */
export async function noteSelectedWithoutGroups(connectionId: string, sent: { synchronize_groups?: string }, answer: ApiRecord, deps: Deps): Promise<void> {
  if (deps.output.json || sent.synchronize_groups !== 'selected' || answer.synchronize_groups !== 'selected') return;
  const { provisioning } = await deps.api();
  try {
    if ((await provisioning.groups(connectionId, { take: 1 })).items.length > 0) return;
  } catch (error) {
    if (error instanceof ApiError) return;
    throw error;
  }
  deps.output.note(`No group is listed for ${connectionId}: with group synchronization "selected", none is synchronized until some are added: ${deps.command(['idm', 'provisioning', 'groups', 'add', connectionId, 'GROUP_ID'])}`);
}
