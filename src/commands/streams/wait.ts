// `idm streams test --wait`: follows a test event until its outcome is known. The service lists
// only failed deliveries, so the evidence is read from two places:
// - failed: the event's delivery record (GET .../deliveries/<event id>) says `failed`, and its
//   retries are over (a 4xx from the receiver is never retried; a connection error is tried 4 times);
// - delivered: the record itself says so (a service or sandbox that reports successes), or the
//   stream's statistics count more successful deliveries than just before the test, while the event
//   has no failed record. On a stream that carries other traffic at that moment, that count may be
//   another event's: README, "streams test --wait", says so.
// Anything else when --wait-timeout runs out is "not known yet" (exit 6), never a success.
import { ApiError } from '../../core/errors.js';
import { sleep } from '../../core/time.js';
import type { ApiRecord, Management } from '../../api/management/index.js';
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
  | { kind: 'unknown'; record?: ApiRecord };

/** Whether a failed delivery record is final: no retry will follow. */
export function retriesOver(record: ApiRecord): boolean {
  const attempts = attemptsOf(record);
  if (attempts.length >= MOST_ATTEMPTS) return true;
  const last = text(attempts.at(-1)?.error_message);
  return /^4\d\d\b/.test(last) && text(attempts.at(-1)?.status) !== 'retrying';
}

export interface WaitOptions {
  api: Management;
  /** The test's own answer: a service that delivers at once may already say how it went. */
  sent: ApiRecord;
  streamId: string;
  eventId: string;
  /** The stream's successful deliveries counted just before the test, in a window from `since`. */
  baseline: { since: string; successful: number } | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  status: StatusLine;
  now?: () => number;
}

/** Counts the stream's successful deliveries from `since` (undefined when statistics cannot be read). */
export async function successfulSince(api: Management, streamId: string, since: string): Promise<number | undefined> {
  try {
    return series(await api.streams.stats(streamId, { dateFrom: since })).totals.successful;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404 || error.status === 400)) return undefined;
    throw error;
  }
}

export async function waitForOutcome(options: WaitOptions): Promise<Outcome> {
  const { api, streamId, eventId, status } = options;
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  let record: ApiRecord | undefined = options.sent;
  for (let round = 0; ; round++) {
    if (round > 0) {
      try {
        record = await api.streams.delivery(streamId, eventId);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error; // 404: no failed record (yet)
        record = undefined;
      }
    }
    const state = text(record?.status);
    if (record && SUCCESS.has(state)) return { kind: 'delivered', record, evidence: 'record' };
    if (record && state === 'failed' && retriesOver(record)) return { kind: 'failed', record };
    if (round > 0 && !record && options.baseline) {
      const successful = await successfulSince(api, streamId, options.baseline.since);
      if (successful !== undefined && successful > options.baseline.successful) return { kind: 'delivered', evidence: 'statistics' };
    }
    const attempts = record ? attemptsOf(record).length : 0;
    // One line per change where lines are not redrawn: the text changes only with the delivery.
    status.set(`Delivery of ${eventId}: ${record ? `${state || 'unknown'} after ${attempts} attempt${attempts === 1 ? '' : 's'}` : 'pending'} (waiting up to ${Math.round(options.timeoutMs / 1000)} s)`, {
      event: eventId,
      status: record ? state : 'pending',
      attempts,
    });
    if (now() >= deadline) return { kind: 'unknown', record: record === options.sent ? undefined : record };
    // Soon at first (a fast receiver), then every 2 s: the service's own retries are 1, 2 and 4 s apart.
    await sleep(Math.min(round < 3 ? 500 : 2_000, Math.max(0, deadline - now())), options.signal);
  }
}
