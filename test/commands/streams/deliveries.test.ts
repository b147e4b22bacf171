// idm streams deliveries list / show against the sandbox, with failed deliveries made first (the
// demo stream whose webhook port is closed): TSV when piped, a table at a terminal, --json exactly as
// the service answered, the filters as query parameters, paging, validation that sends nothing, and
// the service's errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { direct } from '../../helpers/sandbox.js';

const INBOX = 'est_demoInboxBearer0000000';
const CLOSED = 'est_demoClosedPort00000000';
const UNKNOWN = 'est_0000000000000000000000';
const NO_EVENT = 'evt_0000000000000000000000';

let h: Harness;
/** The failed deliveries of CLOSED, oldest first as the service lists them: [user.created, user.created, user.deleted]. */
let failed: Array<{ id: string; type: string }>;

beforeAll(async () => {
  h = await startHarness({ delivery: 'sync' });
  for (const type of ['user.created', 'user.created', 'user.deleted']) {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', type, '--data', '{"object":{"user_id":"u-1"}}']);
    expect(result.code).toBe(3);
  }
  failed = h.sandbox
    .deliveries()
    .filter((d) => d.record.event_stream_id === CLOSED && d.record.status === 'failed')
    .map((d) => ({ id: d.record.id, type: d.record.event_type }));
  expect(failed).toHaveLength(3);
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

const listCalls = () => h.calls('GET').filter((call) => call.path === `/api/v2/event-streams/${CLOSED}/deliveries`);
const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('idm streams deliveries list', () => {
  it('piped: one failed delivery per line, six tab-separated columns, no header', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const rows = lines.map((line) => line.split('\t'));
    for (const cells of rows) {
      expect(cells).toHaveLength(6);
      expect(cells[2]).toBe('failed');
      expect(Number(cells[3])).toBeGreaterThan(0);
      expect(cells[4]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/); // the full time when piped
      expect(cells[5]).toMatch(/^Post "https:\/\/127\.0\.0\.1:\d+\/hook": connect ECONNREFUSED/);
    }
    expect(rows.map((cells) => [cells[0], cells[1]]).sort()).toEqual(failed.map((d) => [d.id, d.type]).sort());
    expect(listCalls()).toHaveLength(1);
    expect(listCalls()[0]!.url).toBe(`/api/v2/event-streams/${CLOSED}/deliveries`);
  });

  it('at a terminal: a header and aligned columns, the time to the minute, no tabs', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED], { env: { ...TTY_OUT, COLUMNS: '200' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EVENT ID\s+EVENT TYPE\s+STATUS\s+ATTEMPTS\s+LAST ATTEMPT\s+LAST ERROR$/);
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(1)) expect(line).toMatch(/^evt_\w{22} {2}user\.(created|deleted) +failed +\d+ +\d{4}-\d\d-\d\d \d\d:\d\d {2}Post "https/);
    expect(result.stdout).not.toMatch(/[\t│┌]/);
  });

  it('at a narrow terminal: no line wider than the terminal, the event id whole', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED], { env: { ...TTY_OUT, COLUMNS: '70' } });
    expect(result.code).toBe(0);
    for (const line of result.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(70);
    for (const { id } of failed) expect(result.stdout).toContain(id);
  });

  it('at 80 columns: the error keeps its cause (ECONNREFUSED), not the address it ends with', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED], { env: { ...TTY_OUT, COLUMNS: '80' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(1)) {
      expect([...line].length).toBeLessThanOrEqual(80);
      expect(line).toMatch(/ {2}Post "[^ ]*…ECONNREFUSED$/);
    }
  });

  it('--json: exactly the service answer ({deliveries: [...]}), nothing on stderr', async () => {
    const expected = (await direct(h.sandbox, `/event-streams/${CLOSED}/deliveries`)).body;
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(expected);
    expect(Object.keys(JSON.parse(result.stdout))).toContain('deliveries');
  });

  it('the filters become the query: statuses, event_types, date_from, date_to (Z form, no fractions)', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--status', 'failed', '--event-type', 'user.created', '--event-type', 'user.deleted', '--since', '2020-01-02T03:04:05.678Z', '--until', '2099-01-01']);
    expect(result.code).toBe(0);
    expect(query(listCalls()[0]!.url)).toEqual({ statuses: 'failed', event_types: 'user.created,user.deleted', date_from: '2020-01-02T03:04:05Z', date_to: '2099-01-01T00:00:00Z' });
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('a filter value given twice is sent once, in the order first given (review C5)', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--status', 'failed,failed', '--event-type', 'user.deleted,user.created', '--event-type', 'user.deleted']);
    expect(result.code).toBe(0);
    expect(query(listCalls()[0]!.url)).toMatchObject({ statuses: 'failed', event_types: 'user.deleted,user.created' });
  });

  it('--event-type filters what the service returns', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--event-type', 'user.deleted']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split('\t')[0]).toBe(failed.find((d) => d.type === 'user.deleted')!.id);
  });

  it('--since 1h is sent as a time an hour back', async () => {
    const before = Date.now();
    await h.idm(['streams', 'deliveries', 'list', CLOSED, '--since', '1h']);
    const after = Date.now();
    const sent = Date.parse(query(listCalls()[0]!.url).date_from!);
    expect(query(listCalls()[0]!.url).date_from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Whole seconds, from the clock during the run (read before and after it: no bound on its speed).
    expect(sent).toBeGreaterThanOrEqual(before - 3_600_000 - 1_000);
    expect(sent).toBeLessThanOrEqual(after - 3_600_000);
  });

  it('a window with none: nothing on stdout piped; "No failed deliveries." at a terminal', async () => {
    const piped = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--until', '2001-01-01T00:00:00Z']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('');
    const tty = await h.idm(['streams', 'deliveries', 'list', INBOX], { env: TTY_OUT });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('No failed deliveries.');
  });

  it('--take 1 at a terminal: one row and the command for the next page, which gives the next one', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--take', '1', '--event-type', 'user.created'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(query(listCalls()[0]!.url)).toMatchObject({ take: '1', event_types: 'user.created' });
    expect(result.stdout.match(/evt_\w{22}/g)).toHaveLength(1);
    const hint = new RegExp(`More deliveries: idm streams deliveries list ${CLOSED} --event-type user\\.created --from (\\S+) --take 1`).exec(result.stderr);
    expect(hint).not.toBeNull();
    const next = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--event-type', 'user.created', '--from', hint![1]!, '--take', '1']);
    const nextIds = next.stdout.match(/evt_\w{22}/g)!;
    expect(nextIds).toHaveLength(1);
    expect(nextIds[0]).not.toBe(result.stdout.match(/evt_\w{22}/)![0]);
  });

  it('--all --take 1: follows next to the end, every delivery once', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--all', '--take', '1']);
    expect(result.code).toBe(0);
    const ids = result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0]);
    expect(ids.sort()).toEqual(failed.map((d) => d.id).sort());
    expect(listCalls().length).toBeGreaterThanOrEqual(3);
  });

  // The service sends a `next` on every page when `take` is sent, the last one too, and it leads to
  // an empty page without one (wire-facts.md; the sandbox answers so).
  it('--take 5 at a terminal: the 3 deliveries and no next-page note, though the page has a next', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--take', '5'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout.match(/evt_\w{22}/g)!.sort()).toEqual(failed.map((d) => d.id).sort());
    expect(result.stderr).not.toContain('More deliveries');
    expect(listCalls()).toHaveLength(1);
    expect(typeof (await direct(h.sandbox, `/event-streams/${CLOSED}/deliveries?take=5`)).body.next).toBe('string');
  });

  it('--all --take 2 at a terminal: follows the last page\'s next to the empty page and stops there; nothing more shown', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--all', '--take', '2'], { env: { ...TTY_OUT, COLUMNS: '200' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EVENT ID/);
    expect(lines.slice(1).map((line) => line.split(' ')[0]).sort()).toEqual(failed.map((d) => d.id).sort());
    expect(result.stderr).not.toMatch(/More deliveries|No failed deliveries/);
    // Pages of 2, 1 and 0: the last answered without a next.
    expect(listCalls().map((call) => query(call.url).from === undefined)).toEqual([true, false, false]);
  });

  it('idm api --paginate with take: the pages merged, every delivery once, no next, ends at the empty page', async () => {
    const result = await h.idm(['api', 'GET', `/event-streams/${CLOSED}/deliveries`, '--paginate', '--query', 'take=2']);
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(Object.keys(doc)).toEqual(['deliveries']);
    expect(doc.deliveries.map((d: { id: string }) => d.id).sort()).toEqual(failed.map((d) => d.id).sort());
    expect(listCalls()).toHaveLength(3);
  });

  it('--all --json: one document with every delivery', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--all', '--take', '2', '--json']);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(Object.keys(doc)).toEqual(['deliveries']);
    expect(doc.deliveries.map((d: { id: string }) => d.id).sort()).toEqual(failed.map((d) => d.id).sort());
    expect(listCalls()).toHaveLength(3);
  });

  const invalid: Array<[string, string[], RegExp]> = [
    ['a bad stream id', ['streams', 'deliveries', 'list', 'est_1'], /Not a stream id: "est_1"/],
    ['an unknown event type', ['streams', 'deliveries', 'list', CLOSED, '--event-type', 'user.createdd'], /"user\.createdd" is not an event type/],
    ['a --since that is no time', ['streams', 'deliveries', 'list', CLOSED, '--since', 'yesterday'], /--since must be an RFC 3339 time .* not "yesterday"/],
    ['--take 0', ['streams', 'deliveries', 'list', CLOSED, '--take', '0'], /--take/],
    ['--take 101', ['streams', 'deliveries', 'list', CLOSED, '--take', '101'], /--take/],
    ['an empty --from', ['streams', 'deliveries', 'list', CLOSED, '--from', ''], /--from must not be empty/],
  ];
  it.each(invalid)('%s: exit 2, nothing sent', async (_name, args, message) => {
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(h.received()).toEqual([]);
  });

  it('404 for an unknown stream: exit 1, names it', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', UNKNOWN]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(UNKNOWN);
    expect(result.stderr).toContain('404');
  });

  it('a bare array (as the published description says) is read too', async () => {
    const items = [{ id: 'evt_bareBareBareBareBare0001', event_stream_id: CLOSED, event_type: 'user.created', status: 'failed', attempts: [{ status: 'failed', timestamp: '2025-07-29T04:32:04.491Z', error_message: '404 - {"error":"x"}' }] }];
    h.sandbox.addFault({ path: `/api/v2/event-streams/${CLOSED}/deliveries`, method: 'GET', kind: 'status', status: 200, body: JSON.stringify(items), headers: { 'content-type': 'application/json; charset=utf-8' } });
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('evt_bareBareBareBareBare0001\tuser.created\tfailed\t1\t2025-07-29T04:32:04.491Z\t404 - {"error":"x"}\n');
  });
});

describe('idm streams deliveries show', () => {
  it('piped: the summary as label<TAB>value, one "attempt" line per attempt, the hint for the data', async () => {
    const { id } = failed[2]!;
    const result = await h.idm(['streams', 'deliveries', 'show', CLOSED, id]);
    expect(result.code).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`GET /api/v2/event-streams/${CLOSED}/deliveries/${id}`]);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 4)).toEqual([`Delivery\t${id}`, `Stream\t${CLOSED}`, 'Event type\tuser.deleted', 'Status\tfailed']);
    expect(lines).toContain(`Event id\t${id}`);
    expect(lines.some((line) => /^Event source\turn:platform:/.test(line))).toBe(true);
    expect(lines.some((line) => /^Event time\t\d{4}-/.test(line))).toBe(true);
    const record = h.sandbox.deliveries().find((d) => d.record.id === id)!.record;
    const attempts = lines.filter((line) => line.startsWith('attempt\t'));
    expect(attempts).toHaveLength(record.attempts.length);
    for (const line of attempts) expect(line).toMatch(/^attempt\tfailed\t\d{4}-\d\d-\d\dT[^\t]+\tPost "https:[^\t]+\t\d+(\.\d+)? ms$/);
    expect(result.stderr).toBe(`The event's data: idm streams deliveries show ${CLOSED} ${id} --json | jq .event.data\n`);
  });

  it('the alias get, at a terminal: the record, then a table of attempts', async () => {
    const { id } = failed[1]!;
    const result = await h.idm(['streams', 'deliveries', 'get', CLOSED, id], { env: { ...TTY_OUT, COLUMNS: '200' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Delivery {2,}${id}\n`));
    expect(result.stdout).toMatch(/\n\nSTATUS\s+TIME\s+ERROR\s+DURATION\n/);
    expect(result.stdout).toMatch(/\nfailed {2}\d{4}-\S+ {2}Post "https:\/\/127\.0\.0\.1:\d+\/hook": connect ECONNREFUSED/);
    expect(result.stdout).not.toMatch(/[\t│┌]/);
  });

  it('--json: exactly the service answer, the event data included', async () => {
    const { id } = failed[0]!;
    const expected = (await direct(h.sandbox, `/event-streams/${CLOSED}/deliveries/${id}`)).body;
    const result = await h.idm(['streams', 'deliveries', 'show', CLOSED, id, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const shown = JSON.parse(result.stdout);
    expect(shown).toEqual(expected);
    expect(shown.event.data).toEqual({ object: { user_id: 'u-1' } });
  });

  it('statuses and fields it does not know are shown as they are (retrying, duration)', async () => {
    const record = {
      id: NO_EVENT,
      event_stream_id: CLOSED,
      event_type: 'user.created',
      status: 'retrying',
      attempts: [
        { status: 'failed', timestamp: '2025-07-29T04:32:04.491Z', error_message: '503 - busy', duration: 177.012509 },
        { status: 'retrying', timestamp: '2025-07-29T04:40:00.000Z' },
      ],
    };
    h.sandbox.addFault({ path: `/api/v2/event-streams/${CLOSED}/deliveries/${NO_EVENT}`, method: 'GET', kind: 'status', status: 200, body: JSON.stringify(record), headers: { 'content-type': 'application/json; charset=utf-8' } });
    const result = await h.idm(['streams', 'deliveries', 'show', CLOSED, NO_EVENT]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toContain('Status\tretrying');
    expect(lines).toContain('attempt\tfailed\t2025-07-29T04:32:04.491Z\t503 - busy\t177 ms');
    expect(lines.filter((line) => line.startsWith('attempt\tretrying\t2025-07-29T04:40:00.000Z'))).toHaveLength(1);
    expect(result.stderr).toBe(''); // no envelope, no data: no hint
  });

  it('404: exit 1, says only failed deliveries are kept', async () => {
    const result = await h.idm(['streams', 'deliveries', 'show', CLOSED, NO_EVENT]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Could not read delivery ${NO_EVENT} of stream ${CLOSED}`);
    expect(result.stderr).toContain('The service keeps failed deliveries only');
  });

  it('a bad event id: exit 2, nothing sent, the message in plain English', async () => {
    const result = await h.idm(['streams', 'deliveries', 'show', CLOSED, 'evt_x']);
    expect(result.code).toBe(2);
    expect(h.received()).toEqual([]);
    expect(result.stderr).toContain('evt_x');
    expect(result.stderr).toMatch(/An event id is evt_ and 22 letters or digits, 26 characters in all \(it has 5 characters\)/);
    expect(result.stderr).toMatch(/Not an event id: "evt_x"/);
  });

  it.each([
    ['a stream id where the event id goes', ['streams', 'deliveries', 'show', CLOSED, CLOSED]],
    ['no event id', ['streams', 'deliveries', 'show', CLOSED]],
    ['a bad stream id', ['streams', 'deliveries', 'show', 'est_', NO_EVENT]],
  ])('%s: exit 2, nothing sent', async (_name, args) => {
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(h.received()).toEqual([]);
  });
});

describe("a listing's 400 (the service refusing its query): the hint names what was sent, never a flag that was not", () => {
  const refuse = (path: string) => h.sandbox.addFault({ path, kind: 'status', status: 400, body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid query string paging options' }) });

  it.each([
    ['streams list, no flag: no flag to check (it said "Check --take (1-100)")', ['streams', 'list'], undefined],
    ['streams list --take 20', ['streams', 'list', '--take', '20'], 'Check --take (1-100: 20 was sent).'],
    ['streams list --all: the size --all sent', ['streams', 'list', '--all'], 'Check --take (1-100: 100 was sent).'],
    ['deliveries list, no flag (it named every filter and --take)', ['streams', 'deliveries', 'list', CLOSED], undefined],
    ['deliveries list --since --status', ['streams', 'deliveries', 'list', CLOSED, '--status', 'failed', '--since', '2026-11-01'], 'Check --status and --since.'],
    ['deliveries list --event-type --until --take', ['streams', 'deliveries', 'list', CLOSED, '--event-type', 'user.created', '--until', '2026-11-01', '--take', '5'], 'Check --event-type, --until and --take (1-100: 5 was sent).'],
  ])('%s', async (_name, args, hint) => {
    refuse(args[1] === 'list' ? '/api/v2/event-streams' : `/api/v2/event-streams/${CLOSED}/deliveries`);
    const result = await h.idm(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid query string paging options');
    expect(result.stderr).not.toMatch(/Check (--take \(1-100\)\.|the filters)/);
    if (hint === undefined) expect(result.stderr).not.toContain('Check ');
    else expect(result.stderr).toContain(hint);
  });
});
