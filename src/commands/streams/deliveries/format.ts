// How deliveries are shown: the list's columns, and one delivery's record, attempts and envelope.
import { isPlainObject } from '../../../core/text.js';
import { entryCell, entryField, fieldText, toMinute, toTimeOfDay, type Column, type Field, type Style } from '../../../output/index.js';

export type DeliveryRecord = Record<string, unknown>;

export interface Attempt {
  status?: unknown;
  timestamp?: unknown;
  error_message?: unknown;
  duration?: unknown;
}

export const attemptsOf = (delivery: DeliveryRecord): Attempt[] => (Array.isArray(delivery.attempts) ? delivery.attempts : []).filter(isPlainObject) as Attempt[];
const last = (delivery: DeliveryRecord): Attempt | undefined => attemptsOf(delivery).at(-1);

/**
 * An attempt's duration: milliseconds (a float). wire-facts.md says seconds, but the recorded
 * attempts (reference/recorded-lifecycle.json) start 1, 2 and 4 s apart, as the retries are, with
 * durations of about 20: 20 seconds could not fit. Shown to a tenth of a millisecond; one a double
 * cannot hold (1e400, 12345678901234567890) as the service wrote it.
 */
export function duration(attempt: Attempt): string {
  const value = attempt.duration;
  if (typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER) return `${Math.round(value * 10) / 10} ms`;
  return typeof value === 'number' ? `${fieldText(attempt, 'duration')} ms` : fieldText(attempt, 'duration');
}

/** A failed delivery or attempt looks failed: its status in red at a colour terminal. */
export const statusStyle = (status: unknown): Style | undefined => (status === 'failed' ? 'red' : undefined);


export const DELIVERY_COLUMNS: ReadonlyArray<Column<DeliveryRecord>> = [
  { header: 'EVENT ID', value: (d) => entryCell(d, 'id'), shrink: 'never' },
  { header: 'EVENT TYPE', value: (d) => entryCell(d, 'event_type') },
  { header: 'STATUS', value: (d) => entryCell(d, 'status'), style: (d) => statusStyle(entryField(d, 'status')) },
  { header: 'ATTEMPTS', value: (d) => (isPlainObject(d) ? String(attemptsOf(d).length) : '') },
  {
    header: 'LAST ATTEMPT',
    value: (d) => (isPlainObject(d) ? fieldText(last(d), 'timestamp') : ''),
    // At a terminal the minute is enough, and at a narrow one the last error matters more.
    display: (d) => (isPlainObject(d) ? toMinute(fieldText(last(d), 'timestamp')) : ''),
    narrow: { drop: 1 },
  },
  { header: 'LAST ERROR', value: (d) => (isPlainObject(d) ? fieldText(last(d), 'error_message') : ''), shrink: 'first', cut: 'cause' },
];

// At a narrow terminal the error matters most: TIME shows the time of day first (the date is in the
// record above), then DURATION is left out, and only then is the error cut (its cause, the end, kept).
export const ATTEMPT_COLUMNS = (attempts: Attempt[]): Array<Column<Attempt>> => [
  { header: 'STATUS', value: (a) => fieldText(a, 'status'), style: (a) => statusStyle(a.status) },
  { header: 'TIME', value: (a) => fieldText(a, 'timestamp'), narrow: { compact: 1, compactValue: (a) => toTimeOfDay(fieldText(a, 'timestamp')) } },
  { header: 'ERROR', value: (a) => fieldText(a, 'error_message'), shrink: 'first', cut: 'cause' },
  ...(attempts.some((a) => a.duration !== undefined) ? [{ header: 'DURATION', value: (a: Attempt) => duration(a), narrow: { drop: 2 } }] : []),
];

/** A delivery's summary as label/value pairs (the envelope's id, source and time when present), a failed status in red. */
export function deliveryFields(delivery: DeliveryRecord): Field[] {
  const fields: Field[] = [
    ['Delivery', fieldText(delivery, 'id')],
    ['Stream', fieldText(delivery, 'event_stream_id')],
    ['Event type', fieldText(delivery, 'event_type')],
    ['Status', fieldText(delivery, 'status'), statusStyle(delivery.status)],
  ];
  const event = isPlainObject(delivery.event) ? delivery.event : undefined;
  if (event) {
    fields.push(['Event id', fieldText(event, 'id')], ['Event source', fieldText(event, 'source')], ['Event time', fieldText(event, 'time')]);
    if (fieldText(event, 'type') !== fieldText(delivery, 'event_type')) fields.push(['Event envelope type', fieldText(event, 'type')]);
  }
  return fields;
}
