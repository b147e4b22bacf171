// retriesOver and waitForOutcome (src/commands/streams/wait.ts) on records of the shape the real
// service answers (../shared/reference/recorded-lifecycle.json): a delivery whose retries are to
// come is `failed` all the same, a redelivery appends a `retrying` attempt and starts a new series.
// waitForOutcome runs against a local HTTP server that answers, poll by poll, what a script says
// (the recorded records, cut to what was known at each moment), with an injected clock and sleep:
// nothing here depends on time. The requests the server received are asserted, statistics included.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRecord, Management } from '../../../src/api/management/index.js';
import { retriesOver, waitForOutcome, type WaitOptions } from '../../../src/commands/streams/wait.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { captureIO, testDeps } from '../../helpers/deps.js';
import { fakeServer, json, tokenAnswer, type Seen } from '../../helpers/fake-server.js';

type Endpoint = Array<{ request: { path: string }; response: { status: number; body: ApiRecord } }>;
const endpoints: Record<string, Endpoint> = JSON.parse(readFileSync('/work/shared/reference/recorded-lifecycle.json', 'utf8')).endpoints;
const recordedRecords = endpoints['GET /event-streams/{id}/deliveries/{event_id}']!.map((pair) => pair.response.body);
/** A recorded delivery whose attempts' statuses are exactly `shape` (f: failed, r: retrying). */
const recorded = (shape: string, error: RegExp): ApiRecord => {
  const found = recordedRecords.find(
    (record) => (record.attempts as Array<{ status: string }>).map((a) => a.status[0]).join('') === shape && error.test(String((record.attempts as Array<{ error_message?: string }>)[0]!.error_message)),
  );
  if (!found) throw new Error(`no recorded delivery with attempts ${shape}`);
  return found;
};
/** The same record as it was after its first `n` attempts (the service's status: `failed` throughout). */
const cut = (record: ApiRecord, n: number): ApiRecord => ({ ...record, attempts: (record.attempts as unknown[]).slice(0, n) });

const RECEIVER_404 = /^404 - /;
const CONNECTION = /^Post "/;
const once404 = recorded('f', RECEIVER_404); // one 4xx, not retried
const redelivered404 = recorded('frfrf', RECEIVER_404); // a 4xx, redelivered twice
const connection = recorded('ffffrffffrffff', CONNECTION); // 4 connection errors, redelivered twice

describe('retriesOver, on recorded records', () => {
  it.each([
    ['a 4xx, one attempt', once404, true],
    ['a 4xx redelivered twice, each time answered 4xx', redelivered404, true],
    ['a 4xx, then a redelivery asked (retrying last)', cut(redelivered404, 2), false],
    ['a connection error after 1 attempt: 3 to come', cut(connection, 1), false],
    ['a connection error after 3 attempts', cut(connection, 3), false],
    ['a connection error after 4 attempts', cut(connection, 4), true],
    ['4 connection errors, then a redelivery asked', cut(connection, 5), false],
    ['4 connection errors, redelivered, 2 more so far', cut(connection, 7), false],
    ['4 connection errors, redelivered, 4 more', cut(connection, 9), true],
    ['the whole recorded record (two redeliveries, 4 each)', connection, true],
    ['no attempt yet', cut(connection, 0), false],
  ])('%s', (_name, record, over) => {
    expect(record.status).toBe('failed');
    expect(retriesOver(record)).toBe(over);
  });
});

const STREAM = String(connection.event_stream_id);
const EVENT = String(connection.id);
const stats = (successful: number) => ({
  id: STREAM,
  name: 'failing-webhook-test-stream',
  window: { date_from: '2025-09-08T06:00:00.000Z', date_to: '2025-09-08T07:00:00.000Z', bucket_interval: { scale_factor: 3600 } },
  buckets: ['2025-09-08T06:00:00.000Z', '2025-09-08T07:00:00.000Z'],
  metrics: [
    { name: 'platform.event_streams.successful_deliveries', window_total: successful, type: 'sum', data: [successful, 0] },
    { name: 'platform.event_streams.failed_deliveries', window_total: 0, type: 'sum', data: [0, 0] },
  ],
});
const NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'The requested event does not exist.' };

/** What the server answers to the n-th read of the delivery, and of the statistics (the last repeats). */
let script: { delivery: Array<ApiRecord | 404>; stats: Array<number | 400> } = { delivery: [], stats: [] };
let server: Awaited<ReturnType<typeof fakeServer>>;
let config: ReturnType<typeof tempConfigDir>;
let api: Management;
let from = 0;
let deliveryReads = 0;
let statsReads = 0;
const next = <T>(list: T[], index: number): T => list[Math.min(index, list.length - 1)]!;

beforeAll(async () => {
  server = await fakeServer((request, res) => {
    if (request.url.startsWith('/oauth/token')) return json(res, 200, tokenAnswer(1));
    const path = request.url.split('?')[0]!;
    if (path === `/api/v2/event-streams/${STREAM}/deliveries/${EVENT}`) {
      const answer = next(script.delivery, deliveryReads++);
      return answer === 404 ? json(res, 404, NOT_FOUND) : json(res, 200, answer);
    }
    if (path === `/api/v2/event-streams/${STREAM}/stats`) {
      const answer = next(script.stats, statsReads++);
      return answer === 400 ? json(res, 400, { statusCode: 400, error: 'Bad Request', message: 'Query validation error: date_to is required.', errorCode: 'invalid_query_string' }) : json(res, 200, stats(answer));
    }
    json(res, 418, { statusCode: 418, error: 'Unexpected', message: `not expected: ${request.method} ${request.url}` });
  });
  config = tempConfigDir();
  const deps = testDeps(captureIO({ env: { IDM_DOMAIN: server.url, IDM_CLIENT_ID: 'recorded-client', IDM_CLIENT_SECRET: 'not-a-real-secret', IDM_CONFIG_DIR: config.dir } }));
  api = await deps.api();
});
afterAll(async () => {
  config.cleanup();
  await server.close();
});
beforeEach(() => {
  deliveryReads = 0;
  statsReads = 0;
  from = server.seen.length;
});

const sent = (): Seen[] => server.seen.slice(from).filter((request) => !request.url.startsWith('/oauth/token'));
const WINDOW = { dateFrom: '2025-09-08T06:34:38Z', dateTo: '2025-09-08T06:36:39Z' };

/** waitForOutcome with a clock that moves only when it sleeps; the notes it made. */
async function follow(baseline: WaitOptions['baseline'], timeoutMs = 60_000) {
  let clock = 0;
  const notes: string[] = [];
  const lines: string[] = [];
  const outcome = await waitForOutcome({
    api,
    sent: { id: EVENT, event_stream_id: STREAM, status: 'pending', attempts: [] },
    streamId: STREAM,
    eventId: EVENT,
    baseline,
    timeoutMs,
    signal: new AbortController().signal,
    status: { set: (text) => lines.push(text), clear: () => undefined },
    note: (text) => notes.push(text),
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
  });
  return { outcome, notes, lines };
}

describe('waitForOutcome, against recorded records', () => {
  it('a connection error: `failed` with retries to come is followed, not reported, until the 4th attempt', async () => {
    script = { delivery: [404, cut(connection, 1), cut(connection, 2), cut(connection, 3), cut(connection, 4)], stats: [0] };
    const { outcome, lines } = await follow({ window: WINDOW, successful: 0 });
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && (outcome.record.attempts as unknown[]).length).toBe(4);
    const reads = sent().filter((request) => request.url.includes('/deliveries/'));
    expect(reads).toHaveLength(5);
    expect(lines).toContain(`Delivery of ${EVENT}: failed 1 time so far, retries to come`);
  });

  it('not listed yet, then pending without attempts: one state, said alike (not "pending after 0 attempts")', async () => {
    script = { delivery: [404, { ...cut(connection, 0), status: 'pending' }, cut(connection, 4)], stats: [0] };
    const { outcome, lines } = await follow({ window: WINDOW, successful: 0 });
    expect(outcome.kind).toBe('failed');
    expect(lines.slice(0, 2)).toEqual([`Delivery of ${EVENT}: pending`, `Delivery of ${EVENT}: pending`]);
    expect(lines.join('\n')).not.toContain('after 0 attempts');
  });

  it('a 4xx: failed after its one attempt', async () => {
    script = { delivery: [404, { ...once404, id: EVENT, event_stream_id: STREAM }], stats: [0] };
    const { outcome } = await follow({ window: WINDOW, successful: 0 });
    expect(outcome.kind).toBe('failed');
  });

  it('still retrying when the wait ends: not known, with the record so far', async () => {
    script = { delivery: [cut(connection, 2)], stats: [0] };
    const { outcome } = await follow({ window: WINDOW, successful: 0 }, 5_000);
    expect(outcome).toMatchObject({ kind: 'unknown', statistics: true });
    expect(outcome.kind === 'unknown' && (outcome.record?.attempts as unknown[]).length).toBe(2);
  });

  it('the statistics grow and the event has no record, read once more: delivered; the same window every time', async () => {
    script = { delivery: [404], stats: [3, 3, 4] };
    const { outcome } = await follow({ window: WINDOW, successful: 3 });
    expect(outcome).toEqual({ kind: 'delivered', evidence: 'statistics' });
    const requests = sent();
    const statsReads = requests.filter((request) => request.url.includes('/stats'));
    for (const read of statsReads) expect(Object.fromEntries(new URL(read.url, 'http://x').searchParams)).toEqual({ date_from: WINDOW.dateFrom, date_to: WINDOW.dateTo });
    // The growth was seen, then the record was read once more before the claim.
    expect(requests.at(-1)!.url).toBe(`/api/v2/event-streams/${STREAM}/deliveries/${EVENT}`);
    expect(requests.at(-2)!.url).toContain('/stats');
  });

  it('the statistics grow but the event has a failed record when read once more: no success claimed, followed to its failure', async () => {
    script = { delivery: [404, cut(connection, 1), cut(connection, 4)], stats: [5] };
    const { outcome } = await follow({ window: WINDOW, successful: 4 });
    expect(outcome.kind).toBe('failed');
  });

  it('statistics that answer 400: said at once (with the message), then no success can be claimed', async () => {
    script = { delivery: [404], stats: [400] };
    const { outcome, notes } = await follow({ window: WINDOW, successful: 0 }, 5_000);
    expect(outcome).toMatchObject({ kind: 'unknown', statistics: false });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('date_to is required');
    expect(notes[0]).toContain('a delivery that succeeds cannot be seen');
    // Read once, then never again.
    expect(sent().filter((request) => request.url.includes('/stats'))).toHaveLength(1);
  });
});
