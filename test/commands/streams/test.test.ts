// idm streams test run in process against the sandbox: a delivery to the sandbox's inbox,
// a failed one (exit 3), the real service's asynchronous answer, local validation that sends
// nothing, and the errors of the service. TTY off unless a test says otherwise.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

const INBOX = 'est_demoInboxBearer0000000';
const CLOSED = 'est_demoClosedPort00000000';
const UNKNOWN = 'est_0000000000000000000000';

let h: Harness;
beforeAll(async () => {
  // Delivered before the answer: the record printed says how it went (--wait follows the asynchronous default).
  h = await startHarness({ delivery: 'sync' });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

/** The test events the sandbox received, as parsed bodies. */
const sent = () => h.calls('POST').filter((call) => call.path.endsWith('/test'));

describe('idm streams test: delivery', () => {
  it('delivers to the inbox: exit 0, one POST with the given type and data, the inbox got the event', async () => {
    const before = h.sandbox.inbox().length;
    const data = { object: { user_id: 'u-42', email: 'ada@example.com' } };
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--data', JSON.stringify(data)]);
    expect(result.stderr).toBe('Delivered.\n');
    expect(result.code).toBe(0);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.path).toBe(`/api/v2/event-streams/${INBOX}/test`);
    expect(sent()[0]!.json).toEqual({ event_type: 'user.created', data });

    const lines = result.stdout.trim().split('\n');
    expect(lines).toContain(`Stream\t${INBOX}`);
    expect(lines).toContain('Event type\tuser.created');
    expect(lines).toContain('Status\tsuccess');
    expect(lines.some((line) => /^attempt\tsuccess\t\d{4}-\d\d-\d\dT/.test(line))).toBe(true);

    const received = h.sandbox.inbox().slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toMatchObject({ type: 'user.created', data });
  });

  it('reports a failed delivery with exit 3, its attempts and the envelope, having sent once', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created']);
    expect(result.code).toBe(3);
    expect(sent()).toHaveLength(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toContain('Status\tfailed');
    const attempts = lines.filter((line) => line.startsWith('attempt\t'));
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) expect(attempt).toMatch(/^attempt\tfailed\t\d{4}-\d\d-\d\dT[^\t]+\t.+/);
    expect(lines.some((line) => /^Event id\t\S+/.test(line))).toBe(true);
    expect(lines.some((line) => /^Event source\t\S+/.test(line))).toBe(true);
    expect(result.stderr).toMatch(/Delivery failed after \d+ attempts?\./);
  });

  it('at a terminal, shows the summary and a table of attempts', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created'], { env: { ...TTY_OUT, COLUMNS: '200' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/Delivery\s+\S+/);
    expect(result.stdout).toMatch(/Status\s+failed/);
    expect(result.stdout).toMatch(/\n\nSTATUS\s+TIME\s+ERROR\s+DURATION\n/);
    expect(result.stdout).toMatch(/\nfailed  \d{4}-\S+  Post "https:\/\/127\.0\.0\.1:\d+\/hook": connect ECONNREFUSED/);
    expect(result.stdout).not.toMatch(/[\t│┌]/);
    expect(result.stderr).toMatch(/^Delivery failed after \d+ attempts?\.\nSee it: idm streams deliveries show est_demoClosedPort00000000 evt_\w{22}\nSend it again: idm streams redeliver est_demoClosedPort00000000 evt_\w{22}\n$/);
  });

  it('at a terminal, a success: no empty ERROR column, and "Delivered." to end', async () => {
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.updated'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Status\s+success/);
    expect(result.stdout).toMatch(/\n\nSTATUS\s+TIME\s+DURATION\n/);
    expect(result.stdout).not.toContain('ERROR');
    expect(result.stderr).toBe('Delivered.\n');
  });

  it('with --json prints the record exactly as received, and still exits 3 on failure, the error object on stderr', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'group.created', '--json']);
    expect(result.code).toBe(3);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ event_stream_id: CLOSED, event_type: 'group.created', status: 'failed' });
    expect(record.attempts.length).toBeGreaterThan(0);
    // As every failure with --json: one JSON line, the error object (README: --json on stderr).
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'delivery_failed',
        message: `Delivery failed after ${record.attempts.length} attempts.`,
        hint: `See it with 'idm streams deliveries show ${CLOSED} ${record.id}'; send it again with 'idm streams redeliver ${CLOSED} ${record.id}'.`,
        exitCode: 3,
      },
    });
    expect(sent()).toHaveLength(1);
  });

  it('reads the data from stdin with --data-file -', async () => {
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.deleted', '--data-file', '-'], { input: '{"object":{"user_id":"from-stdin"}}' });
    expect(result.code).toBe(0);
    expect(sent()[0]!.json).toEqual({ event_type: 'user.deleted', data: { object: { user_id: 'from-stdin' } } });
  });

  it('sends the payload as given, a key named __proto__ included (the schema check once dropped it)', async () => {
    const text = '{"__proto__":{"polluted":true},"object":{"user_id":"u1"}}';
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--data', text]);
    expect(result.code).toBe(0);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.body).toBe(`{"event_type":"user.created","data":${text}}`);
  });
});

describe('idm streams test: the asynchronous answer of the real service', () => {
  // Recorded from the real service (shared/reference): 202, status pending, no attempts, the envelope.
  const PENDING = {
    id: 'evt_mo5fABu7URqmYatLBejFxa',
    event_stream_id: INBOX,
    event_type: 'user.created',
    status: 'pending',
    attempts: [],
    event: {
      specversion: '1.0',
      id: 'evt_mo5fABu7URqmYatLBejFxa',
      source: 'urn:platform:tenant.example.com',
      type: 'user.created',
      time: '2025-09-08T06:34:37.345Z',
      data: { object: { user_id: 'platform|507f1f77bcf86cd799439020' } },
      a0purpose: 'test',
    },
  };
  const answer = (record: unknown) =>
    h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', kind: 'status', status: 202, body: JSON.stringify(record) });

  it('pending: exit 0, says that delivery is asynchronous and was accepted', async () => {
    answer(PENDING);
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Status\tpending');
    expect(result.stdout).toContain('Event id\tevt_mo5fABu7URqmYatLBejFxa');
    expect(result.stdout).not.toMatch(/^attempt\t/m);
    expect(result.stderr).toBe(
      `Accepted: delivery is asynchronous (status pending); the service delivers the event and retries when it fails (--wait follows a test to its outcome).\nIf it fails: idm streams deliveries show ${INBOX} evt_mo5fABu7URqmYatLBejFxa\n`,
    );
  });

  it('pending with --json: the record exactly as received, nothing on stderr', async () => {
    answer(PENDING);
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(PENDING);
    expect(result.stderr).toBe('');
  });

  it('shows unknown statuses and the duration of attempts as they are', async () => {
    answer({
      ...PENDING,
      status: 'retrying',
      attempts: [{ status: 'retrying', timestamp: '2025-09-08T06:34:38.000Z', error_message: 'HTTP 503', duration: 1.25 }],
    });
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Status\s+retrying/);
    expect(result.stdout).toMatch(/\nSTATUS\s+TIME\s+ERROR\s+DURATION\n/);
    expect(result.stdout).toMatch(/\nretrying  2025-09-08T06:34:38.000Z  HTTP 503  1.3 ms\n/);
    expect(result.stderr).toMatch(/^Accepted: delivery is asynchronous \(status retrying\)/);
  });
});

describe('idm streams test: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp, Record<string, string>?]> = [
    ['a stream id that is not 26 characters', ['streams', 'test', 'est_short', '--event-type', 'user.created'], /Not a stream id: "est_short"\. A stream id is est_ and 22 letters or digits, 26 characters in all \(it has 9 characters\)/],
    ['an unknown event type, with a suggestion', ['streams', 'test', INBOX, '--event-type', 'user.create'], /not an event type\. Did you mean user\.created\?/],
    ['a typo in the event type', ['streams', 'test', INBOX, '--event-type', 'orgnization.created'], /Did you mean organization\.created\?/],
    ['data that is not JSON', ['streams', 'test', INBOX, '--event-type', 'user.created', '--data', '{nope'], /--data is not valid JSON/],
    ['data that is not an object', ['streams', 'test', INBOX, '--event-type', 'user.created', '--data', '[1,2]'], /must be a JSON object.*not an array/],
    ['a data file that does not exist', ['streams', 'test', INBOX, '--event-type', 'user.created', '--data-file', '/nonexistent/x.json'], /cannot read \/nonexistent\/x.json: no such file/],
    ['both --data and --data-file', ['streams', 'test', INBOX, '--event-type', 'user.created', '--data', '{}', '--data-file', 'x'], /--data and --data-file cannot be used together\./],
    // Each says why the event type is not asked.
    ['no --event-type without a terminal', ['streams', 'test', INBOX], /Missing --event-type\.\nidm cannot ask here \(stdin, stdout and stderr are not terminals\): pass --event-type TYPE/],
    ['no --event-type with --no-input at a terminal', ['--no-input', 'streams', 'test', INBOX], /Missing --event-type\.\nidm cannot ask here \(--no-input\)/, { IDM_FORCE_TTY: 'all' }],
    ['no --event-type with stderr (where prompts are drawn) redirected', ['streams', 'test', INBOX], /Missing --event-type\.\nidm cannot ask here \(stderr is not a terminal\)/, { IDM_FORCE_TTY: 'stdin,stdout' }],
    ['no --event-type with stdout piped from a terminal', ['streams', 'test', INBOX], /Missing --event-type\.\nidm cannot ask here \(stdout is not a terminal\)/, { IDM_FORCE_TTY: 'stdin,stderr' }],
    ['a start of several event types: each named', ['streams', 'test', INBOX, '--event-type', 'user'], /Did you mean user\.created, user\.deleted or user\.updated\?/],
    [
      '--data-file - when stdin is a terminal (idm would wait without a word)',
      ['streams', 'test', INBOX, '--event-type', 'user.created', '--data-file', '-'],
      /--data-file - reads stdin, which is a terminal here\.\nPipe the JSON in, or use --data/,
      { IDM_FORCE_TTY: 'stdin' },
    ],
  ];
  for (const [name, args, message, env] of cases) {
    it(name, async () => {
      const result = await h.idm(args, { env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }

  // An event type is one of a fixed list: as for every such flag, a value that is no near miss of
  // one (a token pasted in the wrong place) is never quoted back (README: Help).
  it.each([
    [['streams', 'test', INBOX, '--event-type']],
    [['streams', 'create', '--name', 'n', '--action', 'a', '--event-type']],
    [['streams', 'update', INBOX, '--add-event-type']],
    [['streams', 'deliveries', 'list', INBOX, '--event-type']],
    [['streams', 'redeliver', INBOX, '--event-type']],
  ])('%j: a value that is no near miss of an event type is not quoted back', async (args) => {
    const token = 'eyJhbGciOiJub25lIn0.c2VjcmV0.S3cr3t-t0ken';
    const result = await h.idm([...args, token]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain(token);
    expect(result.stderr).not.toContain('S3cr3t');
    expect(result.stderr.split('\n')[0]).toBe(`Error: ${args.at(-1)} is not one of the 22 event types (idm streams test --help lists them).`);
    expect(h.received()).toEqual([]);
  });

  it('with --json, a usage error is one JSON object on stderr', async () => {
    const result = await h.idm(['--json', 'streams', 'test', INBOX, '--event-type', 'user.create']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2, message: expect.stringContaining('user.created') } });
    expect(h.received()).toEqual([]);
  });
});

describe('idm streams test: errors of the service', () => {
  it('404: names the stream and how to find ids (exit 1)', async () => {
    const result = await h.idm(['streams', 'test', UNKNOWN, '--event-type', 'user.created']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(UNKNOWN);
    expect(result.stderr).toMatch(/404/);
    expect(result.stderr).toContain('idm streams list');
    expect(sent()).toHaveLength(1);
  });

  it('400 for a disabled stream: the service words, and the command that enables it (exit 1, sent once)', async () => {
    const DISABLED = 'est_demoAction000000000000'; // seeded disabled
    const result = await h.idm(['streams', 'test', DISABLED, '--event-type', 'group.created', '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr.trim().split('\n').at(-1)!).error;
    expect(error).toMatchObject({ status: 400, exitCode: 1 });
    expect(error.message).toContain('Test events cannot be sent to a disabled event stream');
    expect(error.hint).toBe(`A disabled stream takes no test events: 'idm streams show ${DISABLED}' shows its status, and 'idm streams enable ${DISABLED}' enables it.`);
    expect(sent()).toHaveLength(1);
  });

  it("403 from the sandbox's own scope check (the reader client): names update:event_streams (exit 4)", async () => {
    const inbox = h.sandbox.inbox().length;
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('update:event_streams');
    // No fault injected: the sandbox refused the reader's token itself, and nothing was delivered.
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.status).toBe(403);
    expect(sent()[0]!.json).toEqual({ event_type: 'user.created' });
    expect(h.sandbox.inbox()).toHaveLength(inbox);
  });

  // A test event that may have reached the service is never sent again: a reset connection or a
  // gateway error can come after the service has delivered it.
  it('a connection reset after sending is reported, and the event is not sent again (exit 1)', async () => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', kind: 'reset' });
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(sent()).toHaveLength(1);
  });

  it('a 502 from a proxy (not JSON) is reported, and the event is not sent again (exit 1)', async () => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', kind: 'status', status: 502, body: '<html><body>Bad Gateway</body></html>' });
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/502/);
    expect(sent()).toHaveLength(1);
  });

  it('a 500 from the service is reported once and the event is not sent again (exit 1)', async () => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', kind: 'status', status: 500 });
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/500/);
    expect(sent()).toHaveLength(1);
  });
});
