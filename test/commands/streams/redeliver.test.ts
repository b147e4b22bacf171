// idm streams redeliver against the sandbox: one event (POST .../redeliver/<event id>, no body) or
// every delivery the filters match (POST .../redeliver with the filters as the body), what the
// sandbox did (a `retrying` attempt, then new ones), --json as received ({}), validation that sends
// nothing, and the service's errors (404, 409).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

const CLOSED = 'est_demoClosedPort00000000';
const UNKNOWN = 'est_0000000000000000000000';
const NO_EVENT = 'evt_0000000000000000000000';

let h: Harness;
let eventId: string;
beforeAll(async () => {
  h = await startHarness({ delivery: 'sync', retryDelaysMs: [0, 0, 0] });
  const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--json']);
  expect(result.code).toBe(3);
  eventId = JSON.parse(result.stdout).id;
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.sandbox.idle();
  h.sandbox.clearFaults();
  h.mark();
});

const posts = () => h.calls('POST');
const lines = (text: string) => text.trimEnd().split('\n');
const attemptsOf = (id: string) => h.sandbox.deliveries().find((d) => d.record.id === id)!.record.attempts;

describe('idm streams redeliver <stream> <event>', () => {
  it('one POST to .../redeliver/<event id> without a body; exit 0; notes what to run next; the delivery is tried again', async () => {
    const before = attemptsOf(eventId).length;
    const result = await h.idm(['streams', 'redeliver', CLOSED, eventId]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.path).toBe(`/api/v2/event-streams/${CLOSED}/redeliver/${eventId}`);
    expect(posts()[0]!.body).toBe('');
    expect(posts()[0]!.status).toBe(202);
    expect(result.stderr).toBe(
      `Asked the service to deliver event ${eventId} of stream ${CLOSED} again; it retries in the background.\n` +
        `Follow it with: idm streams deliveries show ${CLOSED} ${eventId} (once it is delivered, the service keeps no record of it: "not found" then means delivered)\n`,
    );
    await h.sandbox.idle();
    const attempts = attemptsOf(eventId);
    expect(attempts.length).toBeGreaterThan(before);
    expect(attempts[before]).toMatchObject({ status: 'retrying' });
  });

  // The incident's happy end: the receiver fixed, the event redelivered with success. The service
  // keeps failed deliveries only, so the command idm names to follow it answers 404: said as that,
  // not as ids to check.
  it('redelivered with success: the command it names to follow finds no record, and its hint says that a delivery that succeeded is no longer there', async () => {
    const env = { IDM_WEBHOOK_SECRET: 'incident-token' };
    const created = await h.idm(['streams', 'create', '--name', 'incident-hook', '--event-type', 'user.created', '--webhook', `${h.sandbox.inboxUrl}/status/503`, '--auth', 'bearer', '--json'], { env });
    expect(created.code).toBe(0);
    const stream = JSON.parse(created.stdout).id as string;
    const failed = await h.idm(['streams', 'test', stream, '--event-type', 'user.created', '--json']);
    expect(failed.code).toBe(3);
    const event = JSON.parse(failed.stdout).id as string;
    expect((await h.idm(['streams', 'update', stream, '--webhook', `${h.sandbox.inboxUrl}/fixed`, '--auth', 'bearer'], { env })).code).toBe(0);
    const result = await h.idm(['streams', 'redeliver', stream, event]);
    expect(result.code).toBe(0);
    const follow = /^Follow it with: (idm streams deliveries show \S+ \S+) \(once it is delivered, the service keeps no record of it: "not found" then means delivered\)$/m.exec(result.stderr);
    expect(follow).not.toBeNull();
    await h.sandbox.idle();
    expect(h.sandbox.inbox().some((received) => received.path === '/inbox/fixed')).toBe(true);
    const shown = await h.idm(follow![1]!.split(' ').slice(1));
    expect(shown.code).toBe(1);
    expect(lines(shown.stderr).at(-1)).toBe(
      `The service keeps failed deliveries only: one delivered since (a redelivery that succeeded) is no longer there. Otherwise check both ids ('idm streams deliveries list ${stream}' lists the failed ones).`,
    );
  });

  it('README names the path idm sends (POST /event-streams/{id}/redeliver/{event_id}), never a .../deliveries/.../retry one', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, eventId]);
    expect(result.code).toBe(0);
    expect(posts()[0]!.path).toBe(`/api/v2/event-streams/${CLOSED}/redeliver/${eventId}`);
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).not.toMatch(/deliveries\/\{event[^}]*\}\/retry/);
    // The command reference and the sandbox's list of endpoints, both.
    expect(readme.match(/POST \/event-streams\/\{id\}\/redeliver\/\{event_id\}/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it('--json: the answer as received ({}), nothing on stderr', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, eventId, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({});
  });

  it('404 for an unknown event: exit 1, names it', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, NO_EVENT]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(NO_EVENT);
    expect(result.stderr).toContain('404');
    expect(posts()).toHaveLength(1);
  });

  it('409 (not in a state that allows it): exit 1 with the message and the hint, sent once', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${CLOSED}/redeliver/${eventId}`,
      method: 'POST',
      kind: 'status',
      status: 409,
      body: JSON.stringify({ statusCode: 409, error: 'Conflict', message: 'The event is not in a state that allows redelivery.' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'redeliver', CLOSED, eventId]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The event is not in a state that allows redelivery');
    expect(result.stderr).toContain('Only a delivery that has failed and is not being retried can be delivered again');
    expect(posts()).toHaveLength(1);
  });

  it('the reader client: 403, exit 4, names update:event_deliveries', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, eventId], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('update:event_deliveries');
  });
});

describe('idm streams redeliver <stream> with filters', () => {
  it('no filter, --yes: POST .../redeliver with {} (every failed delivery)', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--yes']);
    expect(result.code).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.path).toBe(`/api/v2/event-streams/${CLOSED}/redeliver`);
    expect(posts()[0]!.json).toEqual({});
    expect(result.stderr).toBe(
      `Asked the service to deliver every failed delivery of stream ${CLOSED} again; it retries in the background.\n` + `Follow it with: idm streams deliveries list ${CLOSED}\n`,
    );
  });

  it('every filter: statuses and event_types as lists, times in the Z form without fractions', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--status', 'failed', '--event-type', 'user.created,user.deleted', '--since', '2026-11-24T00:00:00.500Z', '--until', '2099-01-01T00:00:00+02:00']);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({ date_from: '2026-11-24T00:00:00Z', date_to: '2098-12-31T22:00:00Z', statuses: ['failed'], event_types: ['user.created', 'user.deleted'] });
    expect(result.stderr).toContain(`Asked the service to deliver the failed deliveries of stream ${CLOSED} again, those matching status failed, event type user.created,user.deleted, since 2026-11-24T00:00:00Z, until 2098-12-31T22:00:00Z; it retries in the background.\n`);
  });

  it('with filters, the command it names to follow lists what the filters chose: the same filters, the times as sent, and it runs', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--status', 'failed', '--event-type', 'user.created', '--since', '7d', '--until', '2099-01-01T00:00:00Z']);
    expect(result.code).toBe(0);
    const { date_from } = posts()[0]!.json as { date_from: string };
    const follow = `idm streams deliveries list ${CLOSED} --status failed --event-type user.created --since ${date_from} --until 2099-01-01T00:00:00Z`;
    expect(result.stderr).toContain(`Follow it with: ${follow}\n`);
    await h.sandbox.idle();
    h.mark();
    const listed = await h.idm(follow.split(' ').slice(1));
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(eventId);
    expect(new URL(h.calls('GET')[0]!.url, 'http://x').searchParams.get('date_from')).toBe(date_from);
  });

  it('--since 7d is sent as a time seven days back', async () => {
    const before = Date.now();
    await h.idm(['streams', 'redeliver', CLOSED, '--since', '7d']);
    const after = Date.now();
    const { date_from } = posts()[0]!.json as { date_from: string };
    expect(date_from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Whole seconds, from the clock during the run (read before and after it: no bound on its speed).
    expect(Date.parse(date_from)).toBeGreaterThanOrEqual(before - 7 * 86_400_000 - 1_000);
    expect(Date.parse(date_from)).toBeLessThanOrEqual(after - 7 * 86_400_000);
  });

  it('--json: {} as answered', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--status', 'failed', '--yes', '--json'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({});
    expect(result.stderr).toBe('');
  });

  it('404 for an unknown stream: exit 1, suggests idm streams list', async () => {
    const result = await h.idm(['streams', 'redeliver', UNKNOWN, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(UNKNOWN);
    expect(result.stderr).toContain('idm streams list');
  });

  it('409 (some still in progress): exit 1 with the hint', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${CLOSED}/redeliver`,
      method: 'POST',
      kind: 'status',
      status: 409,
      body: JSON.stringify({ statusCode: 409, error: 'Conflict', message: 'One or more events is not in a state that allows redelivery.' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--status', 'failed', '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('One or more events is not in a state that allows redelivery');
    expect(result.stderr).toContain('narrow the filter');
    expect(posts()).toHaveLength(1);
  });

  it('502 with filters (it may have been done): the hint checks with the list of what those filters chose, the times as sent, sent once', async () => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${CLOSED}/redeliver`, method: 'POST', kind: 'status', status: 502 });
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--event-type', 'user.created', '--since', '7d', '--until', '2099-01-01T00:00:00.5Z']);
    expect(result.code).toBe(1);
    expect(posts()).toHaveLength(1);
    const sent = posts()[0]!.json as { date_from: string; date_to: string };
    expect(sent.date_to).toBe('2099-01-01T00:00:01Z');
    const check = `idm streams deliveries list ${CLOSED} --event-type user.created --since ${sent.date_from} --until ${sent.date_to}`;
    expect(lines(result.stderr).at(-1)).toBe(`The deliveries may have been redelivered all the same: check with '${check}' (retrying attempts) before running this again.`);
    // The command runs, and lists what the redelivery was asked for.
    const listed = await h.idm(check.split(' ').slice(1));
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(eventId);
  });
});

// Every failed delivery the service keeps, days old too, sent again: asked first at a terminal (the
// tmux test in test/e2e/streams-terminal.test.ts), as delete is; --yes where idm cannot ask.
describe('idm streams redeliver <stream> with no event id and no filter, where idm cannot ask', () => {
  it.each([
    ['piped', [], {}, 'stdin, stdout and stderr are not terminals'],
    ['--no-input at a terminal', ['--no-input'], { IDM_FORCE_TTY: 'all', NO_COLOR: '1' }, '--no-input'],
    ['stdin piped at a terminal', [], { IDM_FORCE_TTY: 'stdout,stderr', NO_COLOR: '1' }, 'stdin is not a terminal'],
  ] as const)('%s: needs --yes (exit 2, nothing sent), the hint names it and the filters', async (_name, flags, env, why) => {
    const result = await h.idm([...flags, 'streams', 'redeliver', CLOSED], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual([
      `Error: Delivering every failed delivery of stream ${CLOSED} again needs --yes when idm cannot ask (${why}).`,
      `Run 'idm streams redeliver ${CLOSED} --yes', or narrow it with --event-type, --since or --until.`,
    ]);
    expect(h.received()).toEqual([]);
  });

  it('--json: the usage error is one JSON object on stderr, nothing sent', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2, message: expect.stringContaining('needs --yes') } });
    expect(h.received()).toEqual([]);
  });

  // The service keeps failed deliveries only: --status failed alone chose every one, and was sent
  // without a question or --yes, where the same run without it needed one.
  it('--status failed alone narrows nothing: it needs --yes too (exit 2, nothing sent), and says why', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--status', 'failed']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual([
      `Error: Delivering every failed delivery of stream ${CLOSED} again (--status failed is every one: the service keeps failed deliveries only) needs --yes when idm cannot ask (stdin, stdout and stderr are not terminals).`,
      `Run 'idm streams redeliver ${CLOSED} --yes', or narrow it with --event-type, --since or --until.`,
    ]);
    expect(h.received()).toEqual([]);
    const yes = await h.idm(['streams', 'redeliver', CLOSED, '--status', 'failed', '--yes']);
    expect(yes.code, yes.stderr).toBe(0);
    expect(posts().map((call) => call.json)).toEqual([{ statuses: ['failed'] }]);
  });

  it('-y is --yes; an event id or a filter needs neither', async () => {
    // Each one's redelivery over before the next (one under way is 409).
    for (const args of [['-y', CLOSED], [CLOSED, '--event-type', 'user.created'], [CLOSED, '--since', '1d'], [CLOSED, eventId]]) {
      const result = await h.idm(['streams', 'redeliver', ...args]);
      expect(result.code, result.stderr).toBe(0);
      await h.sandbox.idle();
    }
    expect(posts()).toHaveLength(4);
  });
});

describe('idm streams redeliver: validation sends nothing (exit 2)', () => {
  const cases: Array<[string, () => string[], RegExp]> = [
    ['an event id and filters', () => ['streams', 'redeliver', CLOSED, eventId, '--status', 'failed'], /Give an event id or filters \(--status, --event-type, --since, --until\), not both\./],
    ['an event id and --since', () => ['streams', 'redeliver', CLOSED, eventId, '--since', '1d'], /not both/],
    ['a bad event id', () => ['streams', 'redeliver', CLOSED, 'evt_short'], /evt_short/],
    ['a bad stream id', () => ['streams', 'redeliver', 'est_short'], /Not a stream id: "est_short"/],
    ['an unknown event type', () => ['streams', 'redeliver', CLOSED, '--event-type', 'user.creatd'], /"user\.creatd" is not an event type/],
    ['a --since that is no time', () => ['streams', 'redeliver', CLOSED, '--since', 'yesterday'], /--since must be an RFC 3339 time/],
    ['an --until that is no time', () => ['streams', 'redeliver', CLOSED, '--until', '2026-13-45'], /--until must be an RFC 3339 time/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const argv = args();
      h.mark();
      const result = await h.idm(argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});
