// idm streams stats against the sandbox, after a few test deliveries (some delivered, some failed):
// the window sent as date_from/date_to, one TSV line per bucket when piped, a chart with totals at a
// terminal, --json exactly as answered, the service's recorded shape read tolerantly, validation
// that sends nothing, and the errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { direct } from '../../helpers/sandbox.js';

const INBOX = 'est_demoInboxBearer0000000';
const CLOSED = 'est_demoClosedPort00000000';
const ACTION = 'est_demoAction000000000000';
const UNKNOWN = 'est_0000000000000000000000';
const DELIVERED = 3;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ delivery: 'sync' });
  for (let i = 0; i < DELIVERED; i++) expect((await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created'])).code).toBe(0);
  expect((await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created'])).code).toBe(3);
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

const statsCalls = (id: string) => h.calls('GET').filter((call) => call.path === `/api/v2/event-streams/${id}/stats`);
const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);
/** A fixed window around now, whole seconds: the same for idm and for the GET made here. */
const windowAroundNow = () => {
  const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return { since: at(Date.now() - 3 * 3_600_000), until: at(Date.now() + 3_600_000) };
};
type Metric = { name: string; data: number[]; window_total: number };
const metric = (body: Record<string, unknown>, name: string) => (body.metrics as Metric[]).find((m) => m.name === `platform.event_streams.${name}_deliveries`)!;

// A recorded answer of the real service (shared/reference/recorded-lifecycle.json), hourly buckets.
const RECORDED_HOURLY = {
  id: INBOX,
  name: 'failing-webhook-test-stream',
  window: { date_from: '2025-07-29T02:00:00.000Z', date_to: '2025-07-29T04:00:00.000Z', bucket_interval: { scale_factor: 3600 } },
  buckets: ['2025-07-29T02:00:00.000Z', '2025-07-29T03:00:00.000Z', '2025-07-29T04:00:00.000Z'],
  metrics: [
    { name: 'platform.event_streams.successful_deliveries', window_total: 12, type: 'sum', data: [2, 0, 10] },
    { name: 'platform.event_streams.failed_deliveries', window_total: 3, type: 'sum', data: [0, 3, 0] },
  ],
};
const answer = (id: string, body: unknown) =>
  h.sandbox.addFault({ path: `/api/v2/event-streams/${id}/stats`, method: 'GET', kind: 'status', status: 200, body: JSON.stringify(body), headers: { 'content-type': 'application/json; charset=utf-8' } });

describe('idm streams stats: piped', () => {
  it('no flags: no window sent (the service default), one line per bucket: time, successful, failed', async () => {
    const result = await h.idm(['streams', 'stats', INBOX]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(statsCalls(INBOX)).toHaveLength(1);
    expect(statsCalls(INBOX)[0]!.url).toBe(`/api/v2/event-streams/${INBOX}/stats`);
    const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.length).toBeGreaterThan(1);
    for (const cells of rows) {
      expect(cells).toHaveLength(3);
      expect(cells[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(cells[1]).toMatch(/^\d+$/);
      expect(cells[2]).toMatch(/^\d+$/);
    }
    expect(rows.reduce((sum, cells) => sum + Number(cells[1]), 0)).toBe(DELIVERED);
    expect(rows.reduce((sum, cells) => sum + Number(cells[2]), 0)).toBe(0);
  });

  it('--since/--until: sent as date_from/date_to; the lines are the buckets and counts the service gave', async () => {
    const { since, until } = windowAroundNow();
    const expected = (await direct(h.sandbox, `/event-streams/${CLOSED}/stats?date_from=${since}&date_to=${until}`)).body;
    h.mark();
    const result = await h.idm(['streams', 'stats', CLOSED, '--since', since, '--until', until]);
    expect(result.code).toBe(0);
    expect(query(statsCalls(CLOSED)[0]!.url)).toEqual({ date_from: since, date_to: until });
    const ok = metric(expected, 'successful').data;
    const failed = metric(expected, 'failed').data;
    const lines = (expected.buckets as string[]).map((bucket, i) => `${bucket}\t${ok[i]}\t${failed[i]}`);
    expect(result.stdout).toBe(`${lines.join('\n')}\n`);
    expect(failed.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('--since 6h: date_from six hours back, in the Z form without fractions', async () => {
    const before = Date.now();
    const result = await h.idm(['streams', 'stats', INBOX, '--since', '6h']);
    const after = Date.now();
    expect(result.code).toBe(0);
    const { date_from, ...rest } = query(statsCalls(INBOX)[0]!.url);
    expect(rest).toEqual({});
    expect(date_from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Whole seconds, from the clock during the run (read before and after it: no bound on its speed).
    expect(Date.parse(date_from!)).toBeGreaterThanOrEqual(before - 6 * 3_600_000 - 1_000);
    expect(Date.parse(date_from!)).toBeLessThanOrEqual(after - 6 * 3_600_000);
  });

  it('a recorded answer: one line per bucket, counts from data', async () => {
    answer(INBOX, RECORDED_HOURLY);
    const result = await h.idm(['streams', 'stats', INBOX]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('2025-07-29T02:00:00.000Z\t2\t0\n2025-07-29T03:00:00.000Z\t0\t3\n2025-07-29T04:00:00.000Z\t10\t0\n');
  });

  it('a metric missing or short: counted as 0, never a crash', async () => {
    answer(INBOX, { ...RECORDED_HOURLY, metrics: [{ name: 'platform.event_streams.successful_deliveries', data: [5] }] });
    const result = await h.idm(['streams', 'stats', INBOX]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('2025-07-29T02:00:00.000Z\t5\t0\n2025-07-29T03:00:00.000Z\t0\t0\n2025-07-29T04:00:00.000Z\t0\t0\n');
  });
});

describe('idm streams stats: a count that is not a number is shown as it came (README: wrong types are shown as they are), never as 0', () => {
  const ODD = {
    ...RECORDED_HOURLY,
    metrics: [
      { name: 'platform.event_streams.successful_deliveries', type: 'sum', data: ['12', 0, 10] },
      { name: 'platform.event_streams.failed_deliveries', window_total: '3 (approx.)', type: 'sum', data: [null, { n: 3 }, 0] },
    ],
  };

  it('piped: each as the service wrote it (null as empty, as every field idm shows)', async () => {
    answer(INBOX, ODD);
    const result = await h.idm(['streams', 'stats', INBOX]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('2025-07-29T02:00:00.000Z\t12\t\n2025-07-29T03:00:00.000Z\t0\t{"n":3}\n2025-07-29T04:00:00.000Z\t10\t0\n');
  });

  it('at a terminal: shown as written, escaped, in their columns; no bar for them; a total that is not a number, or added up past one, has no share', async () => {
    answer(INBOX, { ...ODD, metrics: [{ ...ODD.metrics[0]!, data: ['12\u001b[2J', 0, 10] }, ODD.metrics[1]!] });
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '100' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    const lines = result.stdout.trimEnd().split('\n');
    const header = lines.findIndex((line) => line.startsWith('TIME'));
    const rows = lines.slice(header, header + 5);
    expect(rows[1]).toMatch(/^2025-07-29 02:00 +12\\x1b\[2J +$/);
    expect(rows[2]).toMatch(/^2025-07-29 03:00 +0 +\{"n":3\}$/);
    expect(rows[3]).toMatch(/^2025-07-29 04:00 +10 +0  █+$/);
    expect(rows[4]).toMatch(/^Total +10 +3 \(approx\.\)$/);
    expect(result.stdout).not.toContain('delivered');
    // Where FAILED ends is the same on every row.
    const end = (line: string) => line.replace(/ {2}█+$/u, '').length;
    expect(rows.map(end)).toEqual(Array(5).fill(end(rows[0]!)));
  });
});

describe('idm streams stats: numbers beyond 24 columns', () => {
  // Counts used to be cut at 24 columns like text, numbers too: a count of 25 digits or more showed
  // as "…", while the README promises numbers as written.
  it('at a terminal: a count or total of 30 digits is shown whole, in its column; text of that length is still cut', async () => {
    const big = '123456789012345678901234567890';
    const body = `{"id":"${INBOX}","name":"big","window":{"date_from":"2025-07-29T02:00:00.000Z","date_to":"2025-07-29T03:00:00.000Z","bucket_interval":{"scale_factor":3600}},"buckets":["2025-07-29T02:00:00.000Z","2025-07-29T03:00:00.000Z"],"metrics":[{"name":"platform.event_streams.successful_deliveries","window_total":${big},"type":"sum","data":[${big},0]},{"name":"platform.event_streams.failed_deliveries","window_total":"${'x'.repeat(30)}","type":"sum","data":[0,0]}]}`;
    h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/stats`, method: 'GET', kind: 'status', status: 200, body, headers: { 'content-type': 'application/json; charset=utf-8' } });
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '120' } });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const header = lines.findIndex((line) => line.startsWith('TIME'));
    const rows = lines.slice(header, header + 4);
    expect(rows[1]).toMatch(new RegExp(`^2025-07-29 02:00  ${big} +0  █+$`));
    expect(rows[3]).toMatch(new RegExp(`^Total +${big} +x{23}…$`));
    // Where FAILED ends is the same on every row.
    const end = (line: string) => line.replace(/ {2}█+$/u, '').length;
    expect(rows.map(end)).toEqual(Array(4).fill(end(rows[0]!)));
  });
});

describe('idm streams stats: at a terminal and --json', () => {
  it('hourly: the name and window, a row per bucket (date and hour), bars, the totals and the share', async () => {
    answer(INBOX, RECORDED_HOURLY);
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '80' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('failing-webhook-test-stream  2025-07-29 02:00 → 2025-07-29 04:00, hourly (UTC)');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^TIME\s+OK\s+FAILED$/);
    expect(lines[3]).toMatch(/^2025-07-29 02:00\s+2\s+0 {2}█+$/);
    expect(lines[4]).toMatch(/^2025-07-29 03:00\s+0\s+3 {2}▒+$/);
    expect(lines[5]).toMatch(/^2025-07-29 04:00\s+10\s+0 {2}█+$/);
    // The longest bar is the busiest bucket.
    expect(lines[5]!.match(/█/g)!.length).toBeGreaterThan(lines[3]!.match(/█/g)!.length);
    expect(lines[6]).toMatch(/^Total\s+12\s+3 {2}\(80% delivered\)$/);
    // The chart's rows fit the terminal (the bars are scaled to it).
    for (const line of lines.slice(2)) expect([...line].length).toBeLessThanOrEqual(80);
    expect(result.stderr).toBe('█ successful  ▒ failed\n');
  });

  // The title line (name, window from and to as full timestamps) is not fitted to the terminal: at
  // 80 columns it is 102 characters and wraps, while every row under it is fitted.
  it('hourly at 80 columns: the title line fits the terminal too', async () => {
    answer(INBOX, RECORDED_HOURLY);
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '80' } });
    expect(result.code).toBe(0);
    const title = result.stdout.split('\n')[0]!;
    expect(title).toContain('failing-webhook-test-stream');
    expect([...title].length).toBeLessThanOrEqual(80);
  });

  it.each([44, 40, 34])('at %i columns every line fits: the window under the name, shorter bars (none at all when no room), the share on its own line', async (columns) => {
    answer(INBOX, RECORDED_HOURLY);
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: String(columns) } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThan(columns);
    expect(lines[0]).toBe('failing-webhook-test-stream');
    expect(lines[1]).toMatch(/^2025-07-29 02:00 → 2025-07-29/);
    expect(result.stdout).toMatch(/^Total\s+12\s+3/m);
    expect(result.stdout).toContain('80% delivered');
  });

  it('the two bars of a row never take more than the room there is (each is rounded on its own)', async () => {
    answer(INBOX, { ...RECORDED_HOURLY, buckets: RECORDED_HOURLY.buckets.slice(0, 2), metrics: [
      { name: 'platform.event_streams.successful_deliveries', window_total: 2, type: 'sum', data: [1, 1] },
      { name: 'platform.event_streams.failed_deliveries', window_total: 1, type: 'sum', data: [1, 0] },
    ] });
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '80' } });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[3]).toMatch(/█+▒+$/);
    for (const line of lines) expect([...line].length).toBeLessThan(80);
  });

  it('a name with control characters is measured as shown (escaped): the title still fits', async () => {
    answer(INBOX, { ...RECORDED_HOURLY, name: `evil\u001b]0;x\u0007name${'\u0001'.repeat(20)}` });
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '40' } });
    const [title] = result.stdout.split('\n');
    expect(title).toMatch(/^evil\\x1b\]0;x\\x07name/);
    expect(result.stdout).not.toContain('\u001b');
    expect([...title!].length).toBeLessThan(40);
  });

  it('buckets the service wrote oddly (control characters, wide characters) are measured as shown: the counts stay in their columns', async () => {
    answer(INBOX, { ...RECORDED_HOURLY, buckets: ['\u001b[2J\u202eabc', '2025-07-29T03:00:00.000Z', '日本語の時間'] });
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '80' } });
    const lines = result.stdout.trimEnd().split('\n');
    expect(result.stdout).not.toContain('\u001b');
    const header = lines.findIndex((line) => line.startsWith('TIME'));
    const rows = lines.slice(header, header + 5);
    expect(rows[1]).toMatch(/^\\x1b\[2J\\u202eabc +2 +0 /);
    expect(rows[3]).toMatch(/^日本語の時間 +10 +0 /);
    // Where FAILED ends, in terminal columns (each of those six characters takes two).
    const width = (text: string) => [...text].reduce((sum, ch) => sum + (/\p{Script=Han}|\p{Script=Hiragana}/u.test(ch) ? 2 : 1), 0);
    const end = (line: string) => width(/^.*?\s\d+ +\d+(?=  |$)/u.exec(line)![0]);
    expect(rows.slice(1).map(end)).toEqual(Array(4).fill(width(rows[0]!)));
  });

  it('counts that do not add up (a bucket wider than the window_total sent): every row keeps its columns and fits', async () => {
    answer(INBOX, { ...RECORDED_HOURLY, metrics: [
      { name: 'platform.event_streams.successful_deliveries', window_total: 3, type: 'sum', data: [12345678, 0, 1] },
      { name: 'platform.event_streams.failed_deliveries', window_total: 0, type: 'sum', data: [0, 5, 0] },
    ] });
    const result = await h.idm(['streams', 'stats', INBOX], { env: { ...TTY_OUT, COLUMNS: '80' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const header = lines.findIndex((line) => line.startsWith('TIME'));
    const rows = lines.slice(header, header + 5);
    expect(rows[1]).toMatch(/^2025-07-29 02:00 +12345678 +0 /);
    expect(rows[4]).toMatch(/^Total +3 +0/);
    // Where FAILED ends is the same on every row, the header's too.
    const end = (line: string) => line.replace(/ {2}(?:[█▒]+|\(.*\))$/u, '').length;
    expect(rows.map(end)).toEqual(Array(5).fill(end(rows[0]!)));
    for (const line of lines) expect([...line].length).toBeLessThan(80);
  });

  it('daily: the date alone; no deliveries: says so', async () => {
    answer(INBOX, {
      id: INBOX,
      name: 'quiet',
      window: { date_from: '2025-07-15T00:00:00.000Z', date_to: '2025-07-16T00:00:00.000Z', bucket_interval: { scale_factor: 86400 } },
      buckets: ['2025-07-15T00:00:00.000Z', '2025-07-16T00:00:00.000Z'],
      metrics: [
        { name: 'platform.event_streams.successful_deliveries', window_total: 0, type: 'sum', data: [0, 0] },
        { name: 'platform.event_streams.failed_deliveries', window_total: 0, type: 'sum', data: [0, 0] },
      ],
    });
    const result = await h.idm(['streams', 'stats', INBOX], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('daily (UTC)');
    expect(result.stdout).toMatch(/\n2025-07-15\s+0\s+0\n/);
    expect(result.stdout).toMatch(/\nTotal\s+0\s+0 {2}\(no deliveries\)\n/);
  });

  it('the sandbox at a terminal: the stream name and the deliveries made', async () => {
    const result = await h.idm(['streams', 'stats', INBOX, '--since', '1h'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^demo-inbox-bearer {2}\S+ \S+ → \S+ \S+, hourly \(UTC\)\n/);
    expect(result.stdout).toMatch(new RegExp(`\\nTotal\\s+${DELIVERED}\\s+0 {2}\\(100% delivered\\)\\n`));
  });

  it('--json: exactly the service answer for the same window', async () => {
    const { since, until } = windowAroundNow();
    const expected = (await direct(h.sandbox, `/event-streams/${INBOX}/stats?date_from=${since}&date_to=${until}`)).body;
    const result = await h.idm(['streams', 'stats', INBOX, '--since', since, '--until', until, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('--json keeps what idm does not read, as received', async () => {
    const odd = { ...RECORDED_HOURLY, extra: true, metrics: [...RECORDED_HOURLY.metrics, { name: 'platform.event_streams.new_metric', data: [1, 2, 3] }] };
    answer(INBOX, odd);
    const result = await h.idm(['streams', 'stats', INBOX, '--json']);
    expect(JSON.parse(result.stdout)).toEqual(odd);
  });
});

describe('idm streams stats: validation and errors', () => {
  it.each([
    ['a bad stream id', ['streams', 'stats', 'est_nope'], /Not a stream id: "est_nope"/],
    ['a --since that is no time', ['streams', 'stats', INBOX, '--since', 'nope'], /--since must be an RFC 3339 time .* not "nope"/],
    ['an --until that is no time', ['streams', 'stats', INBOX, '--until', '5 minutes'], /--until must be an RFC 3339 time/],
    ['an unknown flag', ['streams', 'stats', INBOX, '--take', '3'], /--take/],
  ])('%s: exit 2, nothing sent', async (_name, args, message) => {
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(h.received()).toEqual([]);
  });

  it('404: exit 1, names the stream', async () => {
    const result = await h.idm(['streams', 'stats', UNKNOWN]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(UNKNOWN);
    expect(result.stderr).toContain('idm streams list');
  });

  it('400 from the service (a window it refuses): exit 1, the hint about --since/--until', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${ACTION}/stats`,
      kind: 'status',
      status: 400,
      body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid date range', errorCode: 'invalid_query_string' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'stats', ACTION, '--since', '2026-01-01T00:00:00Z', '--until', '2026-01-02T00:00:00Z']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid date range');
    expect(result.stderr).toContain('Check --since and --until');
  });
});
