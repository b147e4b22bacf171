// idm streams test --wait against a sandbox that delivers asynchronously, as the real service does
// (202 pending, attempts in the background). With small retry delays a failing stream reaches its
// outcome at once: exit 3 after its 4 attempts (a 4xx: after 1), exit 0 when the statistics count
// one more success. With the default delays (1, 2, 4 s) and --wait-timeout 1 the outcome cannot be
// known in time: exit 6. No assertion depends on how fast the machine is.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED } from '../../../src/sandbox/seed.js';
import { ageCachedTokens, startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

const INBOX = 'est_demoInboxBearer0000000';
const CLOSED = 'est_demoClosedPort00000000';
const EVENTBUS = 'est_demoEventbus0000000000';
const ACTION = 'est_demoAction000000000000'; // disabled
const NOT_FOUND_HOOK = 'est_waitReceiver404000000a';
const BUSY_HOOK = 'est_waitReceiver503000000a';
const receiver = (id: string, status: number) => ({
  id,
  name: `receiver-${status}`,
  subscriptions: [{ event_type: 'user.created' }],
  destination: { type: 'webhook', configuration: { webhook_endpoint: `{inbox}/status/${status}`, webhook_authorization: { method: 'bearer', token: 'wait-token' } } },
});
const SEED = { streams: [...DEFAULT_SEED.streams, receiver(NOT_FOUND_HOOK, 404), receiver(BUSY_HOOK, 503)] };

const lines = (text: string) => text.trimEnd().split('\n');

describe('idm streams test --wait: the outcome is reached (small retry delays)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ delivery: 'async', retryDelaysMs: [5, 5, 5], seed: SEED });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.sandbox.idle();
    h.sandbox.clearFaults();
    h.mark();
  });
  const tests = () => h.calls('POST').filter((call) => call.path.endsWith('/test'));

  it('delivered: exit 0; statistics read before the test, the event sent once, "Delivered" on stderr', async () => {
    const inbox = h.sandbox.inbox().length;
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait']);
    expect(result.code).toBe(0);
    expect(tests()).toHaveLength(1);
    expect(tests()[0]!.json).toEqual({ event_type: 'user.created' });
    const calls = h.calls();
    // The baseline count of successes comes before the event is sent, for a window with both ends
    // (date_from alone was never seen in the recordings), in the Z form without fractions.
    expect(calls[0]!.path).toBe(`/api/v2/event-streams/${INBOX}/stats`);
    const window = (call: (typeof calls)[number]) => Object.fromEntries(new URL(call.url, 'http://x').searchParams);
    const { date_from, date_to } = window(calls[0]!);
    expect(date_from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(date_to).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(date_to!) - Date.parse(date_from!)).toBeGreaterThanOrEqual(60_000 + 60_000); // the wait (60 s) and a minute
    expect(calls[1]!.path).toBe(`/api/v2/event-streams/${INBOX}/test`);
    expect(calls.slice(2).every((call) => call.method === 'GET')).toBe(true);
    // Every statistics read is of the same window; the last request re-read the event (still none).
    for (const call of calls.filter((c) => c.path.endsWith('/stats'))) expect(window(call)).toEqual({ date_from, date_to });
    expect(calls.at(-1)!.path).toMatch(new RegExp(`/deliveries/evt_\\w{22}$`));
    expect(calls.at(-1)!.status).toBe(404);
    expect(lines(result.stdout)).not.toContain('Status\tpending');
    expect(lines(result.stdout)).toContain('Outcome\tdelivered');
    expect(lines(result.stderr).at(-1)).toBe("Delivered: the stream's statistics count one more successful delivery, and the event has no failed record.");
    expect(h.sandbox.inbox().length).toBe(inbox + 1);
  });

  it('an event bus (simulated receiver): delivered, exit 0', async () => {
    const result = await h.idm(['streams', 'test', EVENTBUS, '--event-type', 'user.deleted', '--wait']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Delivered: the stream's statistics count one more successful delivery/);
    expect(tests()).toHaveLength(1);
  });

  it('a connection error: exit 3 after 4 attempts, the attempts printed, what to run next', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--wait']);
    expect(result.code).toBe(3);
    expect(tests()).toHaveLength(1);
    const out = lines(result.stdout);
    // The event followed, first, then its outcome: never the `pending` of the test's answer.
    expect(out[0]).toMatch(/^Delivery\tevt_\w{22}$/);
    expect(out.some((line) => line.startsWith('Status\t'))).toBe(false);
    expect(out).toContain('Outcome\tfailed');
    const attempts = out.filter((line) => line.startsWith('attempt\t'));
    expect(attempts).toHaveLength(4);
    for (const line of attempts) expect(line).toMatch(/^attempt\tfailed\t\d{4}-[^\t]+\tPost "https:\/\/127\.0\.0\.1:\d+\/hook": connect ECONNREFUSED/);
    const eventId = /^Event id\t(evt_\w{22})$/m.exec(result.stdout)![1]!;
    expect(result.stderr).toContain('Delivery failed after 4 attempts; the service will not retry it.\n');
    expect(result.stderr).toContain(`See it: idm streams deliveries show ${CLOSED} ${eventId}\n`);
    expect(result.stderr).toContain(`Send it again: idm streams redeliver ${CLOSED} ${eventId}\n`);
    // It followed the record of that event.
    expect(h.calls('GET').some((call) => call.path === `/api/v2/event-streams/${CLOSED}/deliveries/${eventId}`)).toBe(true);
  });

  it('a receiver answering 404: not retried, exit 3 after 1 attempt', async () => {
    const result = await h.idm(['streams', 'test', NOT_FOUND_HOOK, '--event-type', 'user.created', '--wait']);
    expect(result.code).toBe(3);
    const attempts = lines(result.stdout).filter((line) => line.startsWith('attempt\t'));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatch(/^attempt\tfailed\t[^\t]+\t404 - /);
    expect(result.stderr).toContain('Delivery failed after 1 attempt; the service will not retry it.');
  });

  it('a receiver answering 503: retried, exit 3 after 4 attempts', async () => {
    const result = await h.idm(['streams', 'test', BUSY_HOOK, '--event-type', 'user.created', '--wait']);
    expect(result.code).toBe(3);
    const attempts = lines(result.stdout).filter((line) => line.startsWith('attempt\t'));
    expect(attempts).toHaveLength(4);
    for (const line of attempts) expect(line).toMatch(/\t503 - /);
  });

  it('--json: the final record exactly as the service holds it, exit 3; nothing else on stdout', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.updated', '--wait', '--json']);
    expect(result.code).toBe(3);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ event_stream_id: CLOSED, event_type: 'user.updated', status: 'failed' });
    expect(record.attempts).toHaveLength(4);
    const shown = await h.idm(['streams', 'deliveries', 'show', CLOSED, record.id, '--json']);
    expect(JSON.parse(shown.stdout)).toEqual(record);
    // stderr: progress as JSON lines, never prose.
    for (const line of lines(result.stderr).filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('--json delivered: exit 0, the record of the test as received', async () => {
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ event_stream_id: INBOX, status: 'pending', attempts: [] });
  });

  it('at a terminal: the failed attempts as a table and the end in words', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--wait'], { env: { ...TTY_OUT, COLUMNS: '200' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/\nSTATUS\s+TIME\s+ERROR\s+DURATION\n/);
    expect(result.stdout.match(/\nfailed {2}\d{4}-/g)).toHaveLength(4);
    expect(result.stdout).not.toContain('\t');
    expect(result.stderr).toContain('Delivery failed after 4 attempts; the service will not retry it.');
  });

  it('at 50 columns: the attempts keep their time of day and as much of the error as fits, its cause (the end) kept', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--wait'], { env: { ...TTY_OUT, COLUMNS: '50' } });
    expect(result.code).toBe(3);
    const table = lines(result.stdout).slice(lines(result.stdout).findIndex((line) => line.startsWith('STATUS')));
    expect(table[0]).toMatch(/^STATUS\s+TIME\s+ERROR$/);
    expect(table.slice(1)).toHaveLength(4);
    for (const row of table.slice(1)) {
      // failed  18:34:15.826Z  Post "https://…ECONNREFUSED: the address, said already, goes first
      const [, error] = row.match(/^failed {2}\d\d:\d\d:\d\d\.\d{3}Z {2}(Post "\S*…(connect )?ECONNREFUSED)$/) ?? [];
      expect(error?.length).toBeGreaterThanOrEqual(25);
      expect([...row].length).toBeLessThanOrEqual(50);
    }
  });

  it('a disabled stream: the service refuses the test (exit 1), nothing followed', async () => {
    const result = await h.idm(['streams', 'test', ACTION, '--event-type', 'group.created', '--wait']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('disabled');
    expect(h.calls('GET').filter((call) => call.path.includes('/deliveries/'))).toEqual([]);
  });

  it('the reader client: 403 on the test, exit 4', async () => {
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('update:event_streams');
  });

  // A read of the event that fails while idm follows it: the event was sent, so the read's own advice
  // ("run again", "try again in a moment") would send another. The hint names the command that shows
  // it instead (after the limit's reset), and keeps the fix of a refused read (its scope).
  it.each([
    ['a rate limit', { status: 429 }, 5, /^The test event was sent: see how it went with '(idm streams deliveries show \S+ evt_\w{22})' after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; running this again sends another\.$/],
    ['a 503', { status: 503 }, 1, /^The test event was sent: see how it went with '(idm streams deliveries show \S+ evt_\w{22})'; running this again sends another\.$/],
    [
      'a refused scope',
      {
        status: 403,
        body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_deliveries.', errorCode: 'insufficient_scope' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
      4,
      /^.*read:event_deliveries.* The test event was sent: see how it went with '(idm streams deliveries show \S+ evt_\w{22})'; running this again sends another\.$/,
    ],
  ])('%s while following: the hint says the event was sent and how to see it, never to run again', async (_name, fault, code, hint) => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/deliveries`, method: 'GET', kind: 'status', count: Infinity, ...fault });
    // --max-wait 0.001: the test does not wait for the limit to reset (the 503 is tried again at once).
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--max-wait', '0.001']);
    expect(result.code).toBe(code);
    expect(tests()).toHaveLength(1);
    const eventId = /^Event id\t(evt_\w{22})$/m.exec(result.stdout)![1]!;
    const last = lines(result.stderr).at(-1)!;
    expect(last).toMatch(hint);
    expect(hint.exec(last)![1]).toBe(`idm streams deliveries show ${INBOX} ${eventId}`);
    expect(result.stderr).not.toMatch(/run again|try again/i);
  });

  it.each([
    ['--wait-timeout without --wait', ['streams', 'test', INBOX, '--event-type', 'user.created', '--wait-timeout', '5'], /--wait-timeout goes with --wait\./],
    ['--wait-timeout 0', ['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--wait-timeout', '0'], /--wait-timeout must be a number of seconds greater than 0/],
    ['--wait-timeout that is not a number', ['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--wait-timeout', 'soon'], /--wait-timeout/],
    ['--wait without --event-type, no terminal', ['streams', 'test', INBOX, '--wait'], /Missing --event-type/],
    ['--wait with an unknown event type', ['streams', 'test', INBOX, '--event-type', 'user.make', '--wait'], /--event-type is not one of the 22 event types/],
  ])('%s: exit 2, nothing sent', async (_name, args, message) => {
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(h.received()).toEqual([]);
  });
});

describe('idm streams test --wait: the outcome is not known in time (exit 6)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ delivery: 'async' }); // default retry delays: 1, 2 and 4 s
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.clearFaults();
    h.mark();
  });
  const tests = () => h.calls('POST').filter((call) => call.path.endsWith('/test'));

  it('a failing stream still being retried after --wait-timeout 1: exit 6, says it may still be retried, sent once', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--wait', '--wait-timeout', '1']);
    expect(result.code).toBe(6);
    expect(tests()).toHaveLength(1);
    expect(result.stdout).not.toContain('Status\tpending');
    expect(lines(result.stdout)).toContain('Outcome\tnot known yet');
    expect(result.stderr).toMatch(/Not known after 1 s whether the event was delivered\.( It has failed [123] times? so far; the service may still retry it\.)?\n/);
    expect(result.stderr).not.toMatch(/Delivered|Delivery failed after/);
    const eventId = /^Event id\t(evt_\w{22})$/m.exec(result.stdout)![1]!;
    expect(result.stderr).toContain(`See it: idm streams deliveries show ${CLOSED} ${eventId}`);
    // Retries may still be running: sending it again is not the next step.
    expect(result.stderr).not.toContain('redeliver');
  });

  it('--wait-timeout 0.3: the wait is told as 0.3 s, not rounded to 0 (exit 6)', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--wait', '--wait-timeout', '0.3']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^Delivery of evt_\w{22}: .* \(waiting up to 0\.3 s\)$/m);
    expect(result.stderr).toMatch(/^Not known after 0\.3 s whether the event was delivered\./m);
    expect(result.stderr).not.toMatch(/\b0 s\b/);
  });

  it('statistics that answer 400: said at once with the message, never a success (exit 6)', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${INBOX}/stats`,
      kind: 'status',
      status: 400,
      count: Infinity,
      body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Query validation error: a window the service refuses.', errorCode: 'invalid_query_string' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--wait-timeout', '1']);
    expect(result.code).toBe(6);
    const err = lines(result.stderr);
    expect(err[0]).toContain("The stream's statistics could not be read");
    expect(err[0]).toContain('a window the service refuses');
    expect(err[0]).not.toContain(".)"); // the message, a sentence, is not closed twice
    expect(result.stderr).not.toMatch(/Delivered/);
    expect(tests()).toHaveLength(1);
  });

  it('--json: exit 6, stdout one JSON record of that event', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.deleted', '--wait', '--wait-timeout', '1', '--json']);
    expect(result.code).toBe(6);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ event_stream_id: CLOSED, event_type: 'user.deleted' });
    expect(record.status).not.toBe('success');
    expect(record.attempts.length).toBeLessThan(4);
  });

  it('statistics that cannot be read (403): a delivered event cannot be seen, exit 6 and says why', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${INBOX}/stats`,
      kind: 'status',
      status: 403,
      count: Infinity,
      body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_streams.', errorCode: 'insufficient_scope' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--wait-timeout', '1']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain("(The stream's statistics could not be read, so a success could not be seen.)");
    expect(tests()).toHaveLength(1);
  });

  // The wait goes on without them, but their first 403 dropped a cached token older than 5 minutes,
  // and the test event's POST fetched a new one: a token in every run for a client without that scope.
  it('statistics that cannot be read (403): the cached token is kept, no new token for the test event', async () => {
    expect((await h.idm(['streams', 'show', INBOX])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${INBOX}/stats`,
      kind: 'status',
      status: 403,
      count: Infinity,
      body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_streams.', errorCode: 'insufficient_scope' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const issued = h.sandbox.tokensIssued();
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--wait-timeout', '1']);
    expect(result.code, result.stderr).toBe(6);
    expect(tests()).toHaveLength(1);
    expect(h.sandbox.tokensIssued()).toBe(issued);
  });
});

// This machine's clock ahead of the service's: the service times the delivery by its own clock, in
// the hour before the one the test was sent in by this machine's. The window used to start at the
// local send time exactly (its end had a minute's allowance), so the success fell outside it and
// the wait ended "not known" (exit 6). The clocks: this process's Date, set to 5 s past an hour (it
// advances as real time does: the wait's deadline is read from it), and the sandbox's, 50 s behind it.
// The fix passes while the test is sent less than 55 s after the set-up, and without it, fails while
// the delivery comes less than 45 s after it: on any machine, the run takes about a second.
describe('idm streams test --wait: a machine clock ahead of the service\'s', () => {
  let h: Harness;
  const local = Date.parse('2026-11-25T10:00:05Z');
  // The fake Date from before the sandbox starts: its rate limiter never sees time go back.
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: local, shouldAdvanceTime: true });
    h = await startHarness({ delivery: 'async', retryDelaysMs: [5, 5, 5], now: () => Date.now() - 50_000 });
  });
  afterAll(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it('the delivery, timed by the service in the previous hour, is still counted: delivered, exit 0', async () => {
    h.mark();
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait']);
    expect(result.stderr).toContain("Delivered: the stream's statistics count one more successful delivery");
    expect(result.code).toBe(0);
    const stats = h.calls('GET').find((call) => call.path.endsWith('/stats'))!;
    const from = Date.parse(new URL(stats.url, 'http://x').searchParams.get('date_from')!);
    expect(from).toBeLessThan(Date.parse('2026-11-25T10:00:00Z')); // a minute before the local send time: the service's hour too
  });
});
