// Numbers a double cannot hold (12345678901234567890, 1e400) in the service's answers are shown as
// the service wrote them in every table, tab-separated line and record, not rounded or as `null`:
// streams, deliveries and their attempts, stats, provisioning configurations. Through the sandbox,
// which answers such bodies for a path (a fault of kind `status` with a body).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../helpers/harness.js';

const STREAM = 'est_demoClosedPort00000000';
const EVENT = 'evt_0000000000000000000000';
const CONNECTION = 'con_exactNumbers0001';
const BIG = '12345678901234567890';
const HUGE = '1e400';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

/** The sandbox answers `body` (JSON text, as written) to the next GET of `path`. */
const answer = (path: string, body: string) =>
  h.sandbox.addFault({ path, method: 'GET', kind: 'status', status: 200, body, headers: { 'content-type': 'application/json; charset=utf-8' }, count: Infinity });

describe('numbers a double cannot hold are shown as the service wrote them', () => {
  it('streams list, piped and in a table: a name and a creation time that are such numbers', async () => {
    answer('/api/v2/event-streams', `{"eventStreams":[{"id":"${STREAM}","name":${BIG},"status":"enabled","subscriptions":[{"event_type":${HUGE}}],"created_at":${HUGE}}]}`);
    const piped = await h.idm(['streams', 'list']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`${STREAM}\t${BIG}\tenabled\t\t${HUGE}\t${HUGE}\n`);
    const table = await h.idm(['streams', 'list'], { env: { ...TTY_OUT, COLUMNS: '160' } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^${STREAM}\\s+${BIG}\\s+enabled\\s+${HUGE}\\s+${HUGE}$`, 'm'));
  });

  it('streams show: known and unknown fields', async () => {
    answer(`/api/v2/event-streams/${STREAM}`, `{"id":"${STREAM}","name":"n","status":"enabled","destination":{"type":"action","configuration":{"action_id":${BIG}}},"retries":${HUGE},"limits":{"rate":${BIG}}}`);
    const result = await h.idm(['streams', 'show', STREAM]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(`Action\t${BIG}`);
    expect(lines).toContain(`retries\t${HUGE}`);
    expect(lines).toContain(`limits\t{"rate":${BIG}}`);
  });

  it('deliveries show: an attempt duration and a status', async () => {
    answer(
      `/api/v2/event-streams/${STREAM}/deliveries/${EVENT}`,
      `{"id":"${EVENT}","event_stream_id":"${STREAM}","event_type":"user.created","status":${BIG},"attempts":[{"status":"failed","timestamp":"2025-07-29T04:32:04.491Z","error_message":"503","duration":${HUGE}},{"status":"failed","timestamp":"2025-07-29T04:32:05.491Z","error_message":"503","duration":${BIG}},{"status":"failed","timestamp":"2025-07-29T04:32:07.491Z","error_message":"503","duration":20.04}]}`,
    );
    const result = await h.idm(['streams', 'deliveries', 'show', STREAM, EVENT]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(`Status\t${BIG}`);
    expect(lines).toContain(`attempt\tfailed\t2025-07-29T04:32:04.491Z\t503\t${HUGE} ms`);
    expect(lines).toContain(`attempt\tfailed\t2025-07-29T04:32:05.491Z\t503\t${BIG} ms`);
    expect(lines).toContain('attempt\tfailed\t2025-07-29T04:32:07.491Z\t503\t20 ms');
  });

  it('stats: counts and totals, piped and in the chart', async () => {
    answer(
      `/api/v2/event-streams/${STREAM}/stats`,
      `{"id":"${STREAM}","name":"s","window":{"date_from":"2025-07-29T02:00:00.000Z","date_to":"2025-07-29T04:00:00.000Z","bucket_interval":{"scale_factor":3600}},"buckets":["2025-07-29T02:00:00.000Z","2025-07-29T03:00:00.000Z"],"metrics":[{"name":"platform.event_streams.successful_deliveries","window_total":${BIG},"data":[${BIG},0]},{"name":"platform.event_streams.failed_deliveries","window_total":${HUGE},"data":[1,${HUGE}]}]}`,
    );
    const piped = await h.idm(['streams', 'stats', STREAM]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`2025-07-29T02:00:00.000Z\t${BIG}\t1\n2025-07-29T03:00:00.000Z\t0\t${HUGE}\n`);
    const chart = await h.idm(['streams', 'stats', STREAM], { env: TTY_OUT });
    expect(chart.code).toBe(0);
    expect(chart.stdout).toMatch(new RegExp(`^2025-07-29 02:00\\s+${BIG}\\s+1\\b`, 'm'));
    expect(chart.stdout).toMatch(new RegExp(`^2025-07-29 03:00\\s+0\\s+${HUGE}\\b`, 'm'));
    expect(chart.stdout).toMatch(new RegExp(`^Total\\s+${BIG}\\s+${HUGE}\\b`, 'm'));
  });

  it('provisioning list and show', async () => {
    const record = `{"connection_id":"${CONNECTION}","connection_name":"c","strategy":"google-apps","synchronize_automatically":${HUGE},"synchronize_groups":${BIG},"mapping":[{"platform":"email","idp":${BIG}}],"last_synchronization_status":${HUGE}}`;
    answer('/api/v2/connections-directory-provisionings', `{"directory_provisionings":[${record}]}`);
    const list = await h.idm(['provisioning', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(`${CONNECTION}\tc\tgoogle-apps\t1\t${HUGE}\t${BIG}\t${HUGE}\n`);
    answer(`/api/v2/connections/${CONNECTION}/directory-provisioning`, record);
    const show = await h.idm(['provisioning', 'show', CONNECTION]);
    expect(show.stderr).toBe('');
    expect(show.code).toBe(0);
    const lines = show.stdout.split('\n');
    expect(lines).toContain(`Synchronize automatically\t${HUGE}`);
    expect(lines).toContain(`Synchronize groups\t${BIG}`);
    expect(lines).toContain(`Last synchronization status\t${HUGE}`);
    expect(lines).toContain(`mapping\temail\t${BIG}`);
  });

  it('outside cells too: a destination that is such a number, the stats title, the state a stream was left in', async () => {
    answer('/api/v2/event-streams', `{"eventStreams":[{"id":"${STREAM}","name":"n","status":"enabled","destination":${BIG}}]}`);
    const list = await h.idm(['streams', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(`${STREAM}\tn\tenabled\t${BIG}\t\t\n`);
    h.sandbox.clearFaults(); // the list's answer would also be the answer to every path under it
    answer(`/api/v2/event-streams/${STREAM}/stats`, `{"name":${BIG},"window":{},"buckets":[],"metrics":[]}`);
    const stats = await h.idm(['streams', 'stats', STREAM], { env: TTY_OUT });
    expect(stats.code).toBe(0);
    expect(stats.stdout.split('\n')[0]).toMatch(new RegExp(`^${BIG}  `));
    h.sandbox.addFault({ path: `/api/v2/event-streams/${STREAM}`, method: 'PATCH', kind: 'status', status: 200, body: `{"id":"${STREAM}","status":${HUGE}}`, headers: { 'content-type': 'application/json' } });
    const enable = await h.idm(['streams', 'enable', STREAM]);
    expect(enable.code).toBe(0);
    expect(enable.stderr).toContain(`The service answered that stream ${STREAM} is ${HUGE}, not enabled.`);
  });

  it('--json still prints them as received', async () => {
    answer(`/api/v2/event-streams/${STREAM}`, `{"id":"${STREAM}","retries":${HUGE},"n":${BIG}}`);
    const result = await h.idm(['streams', 'show', STREAM, '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`"retries": ${HUGE}`);
    expect(result.stdout).toContain(`"n": ${BIG}`);
  });
});
