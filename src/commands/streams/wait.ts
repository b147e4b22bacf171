// `idm streams test --wait`: follows a test event until its outcome is known. The service lists
// only failed deliveries, so the evidence is read from two places:
// - failed: the event's delivery record (GET .../deliveries/<event id>) says `failed`, and its
//   retries are over (a 4xx from the receiver is never retried; a connection error is tried 4 times).
//   While retries are to come the service shows the record as `failed` all the same;
// - delivered: the record itself says so (a service or sandbox that reports successes), or the
//   stream's statistics, read for one window (from a minute before the test was sent to a minute
//   after the end of the wait), count more successful deliveries than they did before the test, and the event's record
//   is still absent when read once more after that. On a stream that carries other traffic at that
//   moment, that count may be another event's: README, "streams test --wait", says so.
// Anything else when --wait-timeout runs out is "not known yet" (exit 6), never a success.
import type { ApiError } from '../../api/errors.js';
import { sleep as realSleep } from '../../core/time.js';
import { capitalize } from '../../core/text.js';
import type { ApiRecord, Management, StatsWindow } from '../../api/management/index.js';
import type { StatusLine } from '../../io/progress.js';
import { asText as text } from '../../output/index.js';
import { attemptsOf } from './deliveries/format.js';
import { series } from './stats.js';

/** A connection error is tried this many times in all (wire-facts.md); a 4xx once. */
const MOST_ATTEMPTS = 4;
const SUCCESS = new Set(['success', 'succeeded', 'delivered', 'completed']);

export type Outcome =
  | { kind: 'delivered'; record?: ApiRecord; evidence: 'record' | 'statistics' }
  | { kind: 'failed'; record: ApiRecord }
  /** `statistics`: whether they could be read to the end (else a success could not have been seen). */
  | { kind: 'unknown'; record?: ApiRecord; statistics: boolean };

/**
 * Whether a failed delivery record is final: no retry will follow. Only the attempts of the last
 * series count: a redelivery appends a `retrying` attempt and starts a new series of up to 4.
 */
export function retriesOver(record: ApiRecord): boolean {
  const attempts = attemptsOf(record);
  const marker = attempts.findLastIndex((attempt) => text(attempt.status) === 'retrying');
  const series = attempts.slice(marker + 1);
  if (series.length === 0) return false; // nothing tried yet, or a redelivery under way
  if (series.length >= MOST_ATTEMPTS) return true;
  return /^4\d\d\b/.test(text(series.at(-1)?.error_message)); // the receiver said no: not retried
}

/** The statistics' window of a wait, and the successes they counted in it just before the test. */
export interface Baseline {
  window: StatsWindow;
  successful: number;
}

/**
 * The stream's successful deliveries counted in `window`, or the error that kept them from being
 * read (the window, the scope, the stream: said with unreadableNote); other errors end the command.
 */
async function successfulIn(api: Management, streamId: string, window: StatsWindow): Promise<number | { unreadable: ApiError }> {
  const read = await api.streams.statsIfReadable(streamId, window);
  return 'stats' in read ? series(read.stats).totals.successful : read;
}

/** Said once, when the statistics cannot be read (before the test or while waiting). */
function unreadableNote(error: ApiError): string {
  // The error's message is a sentence of its own (it may end in `(403 forbidden).`): quoted after a colon.
  return `The stream's statistics could not be read, so a delivery that succeeds cannot be seen; only a failure can. ${error.message.replace(/\.?$/, '.')}`;
}

/** The baseline of a wait, read just before the test; undefined, said through `note`, when the statistics cannot be read. */
export async function countBefore(api: Management, streamId: string, window: StatsWindow, note: (text: string) => void): Promise<Baseline | undefined> {
  const counted = await successfulIn(api, streamId, window);
  if (typeof counted === 'number') return { window, successful: counted };
  note(unreadableNote(counted.unreadable));
  return undefined;
}

export interface WaitOptions {
  api: Management;
  /** The test's own answer: a service that delivers at once may already say how it went. */
  sent: ApiRecord;
  streamId: string;
  eventId: string;
  /** From countBefore: undefined when the statistics could not be read. */
  baseline: Baseline | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  status: StatusLine;
  /** Says why a success can no longer be seen (the statistics could not be read). */
  note: (text: string) => void;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export async function waitForOutcome(options: WaitOptions): Promise<Outcome> {
  const { api, streamId, eventId, status } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const deadline = now() + options.timeoutMs;
  let baseline = options.baseline;
  /** The event's failed record, or undefined while the service has none. */
  const read = (): Promise<ApiRecord | undefined> => api.streams.findDelivery(streamId, eventId);
  let record: ApiRecord | undefined = options.sent;
  for (let round = 0; ; round++) {
    if (round > 0) record = await read();
    if (record && SUCCESS.has(text(record.status))) return { kind: 'delivered', record, evidence: 'record' };
    if (record && text(record.status) === 'failed' && retriesOver(record)) return { kind: 'failed', record };
    if (round > 0 && !record && baseline) {
      const successful = await successfulIn(api, streamId, baseline.window);
      if (typeof successful !== 'number') {
        options.note(unreadableNote(successful.unreadable));
        baseline = undefined;
      } else if (successful > baseline.successful) {
        // One more read of the event: a record that appeared meanwhile outweighs the count.
        record = await read();
        if (!record) return { kind: 'delivered', evidence: 'statistics' };
        continue;
      }
    }
    const state = text(record?.status);
    const attempts = record ? attemptsOf(record).length : 0;
    // A record not read yet and one pending without attempts are one state: said alike, not as a change.
    const words = !record || (attempts === 0 && state === 'pending')
      ? 'pending'
      : state === 'failed'
        ? `failed ${attempts} time${attempts === 1 ? '' : 's'} so far, retries to come`
        : `${state || 'unknown'} after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    // One line per change where lines are not redrawn: the text changes only with the delivery.
    // A narrow terminal gets the state alone: the event's id, shown above, took all of its line.
    status.set(`Delivery of ${eventId}: ${words}`, { event: eventId, status: record ? state : 'pending', attempts }, { until: deadline, ms: options.timeoutMs }, capitalize(words));
    if (now() >= deadline) return { kind: 'unknown', record: record === options.sent ? undefined : record, statistics: baseline !== undefined };
    // Soon at first (a fast receiver), then every 2 s: the service's own retries are 1, 2 and 4 s apart.
    await sleep(Math.min(round < 3 ? 500 : 2_000, Math.max(0, deadline - now())), options.signal);
  }
}
