// The event-stream lifecycle as the real service has it (wire-facts.md): asynchronous test
// deliveries on the real retry schedule (its delays set to 0 here: no test waits on the clock),
// failed deliveries listed and shown, redelivery, statistics, and a disabled stream. Every wait is
// on sandbox.idle(), never on time.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const CLOSED = 'est_demoClosedPort00000000';
const INBOX = 'est_demoInboxBearer0000000';
const sb = useSandbox({ retryDelaysMs: [0, 0, 0] });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const api = (method: string, path: string, body?: unknown) => call(sb(), method, `/api/v2${path}`, { token, body });
const test = (id: string, type = 'user.created') => api('POST', `/event-streams/${id}/test`, { event_type: type });

async function webhook(endpoint: string): Promise<string> {
  const res = await api('POST', '/event-streams', {
    name: `hook-${Math.random().toString(36).slice(2, 8)}`,
    subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.deleted' }],
    destination: { type: 'webhook', configuration: { webhook_endpoint: endpoint, webhook_authorization: { method: 'bearer', token: 'tok-1' } } },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('asynchronous test deliveries', () => {
  it('answer 202 pending with the envelope and no attempt, then deliver in the background', async () => {
    const before = sb().inbox().length;
    const res = await test(INBOX);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'pending', attempts: [], event_stream_id: INBOX, event: { id: res.body.id, type: 'user.created' } });
    await sb().idle();
    expect(sb().inbox().length).toBe(before + 1);
    const entry = sb().deliveries().find((d) => d.record.id === res.body.id)!;
    expect(entry.record).toMatchObject({ status: 'success', attempts: [{ status: 'success' }] });
    // A successful delivery is not listed, nor found: the service keeps failed ones only.
    expect((await api('GET', `/event-streams/${INBOX}/deliveries/${res.body.id}`)).status).toBe(404);
  });

  it('a connection error is tried 4 times in all, then the delivery is failed', async () => {
    const res = await test(CLOSED);
    await sb().idle();
    const one = await api('GET', `/event-streams/${CLOSED}/deliveries/${res.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body.status).toBe('failed');
    expect(one.body.attempts).toHaveLength(4);
    for (const attempt of one.body.attempts) expect(attempt).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/^Post "https:\/\/127\.0\.0\.1:\d+\/hook": .*ECONNREFUSED/) });
    expect(one.body.event).toMatchObject({ id: res.body.id, type: 'user.created' });
  });

  it('a 4xx from the receiver is not retried; a 5xx is, like a connection error', async () => {
    const refusing = await webhook(`${sb().inboxUrl}/status/404`);
    const failing = await webhook(`${sb().inboxUrl}/status/503`);
    const [a, b] = [await test(refusing), await test(failing)];
    await sb().idle();
    const attempts = async (stream: string, id: string) => (await api('GET', `/event-streams/${stream}/deliveries/${id}`)).body.attempts;
    expect(await attempts(refusing, a.body.id)).toEqual([expect.objectContaining({ status: 'failed', error_message: expect.stringMatching(/^404 - /) })]);
    expect(await attempts(failing, b.body.id)).toHaveLength(4);
  });

  it('a disabled stream takes no test event: 400', async () => {
    const res = await test('est_demoAction000000000000', 'group.created');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, errorCode: 'invalid_body', message: 'Test events cannot be sent to a disabled event stream.' });
  });
});

describe('deliveries', () => {
  it('lists failed deliveries only, oldest first (as recorded), in the {deliveries, next} wrapper, with filters and pages', async () => {
    const stream = await webhook(`${sb().inboxUrl}/status/410`);
    const sent = [];
    for (const type of ['user.created', 'user.deleted', 'user.created']) sent.push((await test(stream, type)).body.id as string);
    await sb().idle();
    const all = await api('GET', `/event-streams/${stream}/deliveries`);
    expect(all.status).toBe(200);
    expect(all.body.deliveries.map((d: { id: string }) => d.id)).toEqual(sent);
    expect(all.body).not.toHaveProperty('next');
    const created = await api('GET', `/event-streams/${stream}/deliveries?event_types=user.created&statuses=failed`);
    expect(created.body.deliveries.map((d: { id: string }) => d.id)).toEqual([sent[0], sent[2]]);
    const first = await api('GET', `/event-streams/${stream}/deliveries?take=2`);
    expect(first.body.deliveries).toHaveLength(2);
    expect(typeof first.body.next).toBe('string');
    const second = await api('GET', `/event-streams/${stream}/deliveries?take=2&from=${first.body.next}`);
    expect(second.body.deliveries.map((d: { id: string }) => d.id)).toEqual([sent[2]]);
    // As recorded: with take sent, the last page has a next too (pages of 4 and 1 with take=50);
    // it leads to an empty page without one.
    expect(typeof second.body.next).toBe('string');
    const third = await api('GET', `/event-streams/${stream}/deliveries?take=2&from=${second.body.next}`);
    expect(third.body).toEqual({ deliveries: [] });
    const recorded = await api('GET', `/event-streams/${stream}/deliveries?event_types=user.created&take=50`);
    expect(recorded.body.deliveries).toHaveLength(2);
    expect(typeof recorded.body.next).toBe('string');
    expect((await api('GET', `/event-streams/${stream}/deliveries?event_types=user.created&take=50&from=${recorded.body.next}`)).body).toEqual({ deliveries: [] });
    const future = await api('GET', `/event-streams/${stream}/deliveries?date_from=2999-01-01T00:00:00Z`);
    expect(future.body.deliveries).toEqual([]);
  });

  it.each([
    ['date_from with fractions', '?date_from=2026-01-01T00:00:00.000Z'],
    ['date_to with an offset', '?date_to=2026-01-01T00:00:00%2B01:00'],
    ['date_from on 30 February', '?date_from=2026-02-30T00:00:00Z'],
    ['date_to at 24:00', '?date_to=2026-11-28T24:00:00Z'],
    ['take 0', '?take=0'],
    ['an unknown event type', '?event_types=user.exploded'],
  ])('400 for %s', async (_name, query) => {
    const res = await api('GET', `/event-streams/${CLOSED}/deliveries${query}`);
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
  });

  it.each([
    ['event_types', '?event_types=user.created&event_types=user.updated', "Query validation error: 'event_types' must be given once (comma-separate a list: a,b)."],
    ['statuses', '?statuses=failed&statuses=failed', "Query validation error: 'statuses' must be given once (comma-separate a list: a,b)."],
    ['date_from', '?date_from=2026-01-01T00:00:00Z&date_from=2026-01-02T00:00:00Z', "Query validation error: 'date_from' must be given once."],
    ['take', '?take=1&take=2', 'Invalid query string paging options'],
  ])('a repeated %s is refused (400 invalid_query_string), not half read', async (_name, query, message) => {
    const res = await api('GET', `/event-streams/${CLOSED}/deliveries${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message, errorCode: 'invalid_query_string' });
  });

  // The cursor was an offset into the list, which changes while a client pages through it: a
  // delivery that failed meanwhile came in at the top (when the list was newest first) and the next
  // page began with the last item again; one redelivered with success left it and the next page
  // skipped an item (a script that pages with the SDK and redelivers each delivery missed every other page).
  describe('paging while the list changes', () => {
    const ids = (res: Awaited<ReturnType<typeof api>>) => res.body.deliveries.map((d: { id: string }) => d.id);

    it('a delivery that fails meanwhile comes after the others: none is shown twice', async () => {
      const stream = await webhook(`${sb().inboxUrl}/status/400`);
      const sent: string[] = [];
      for (let n = 0; n < 3; n++) sent.push((await test(stream)).body.id as string);
      await sb().idle();
      const first = await api('GET', `/event-streams/${stream}/deliveries?take=2`);
      expect(ids(first)).toEqual([sent[0], sent[1]]);
      const newer = (await test(stream)).body.id as string;
      await sb().idle();
      const second = await api('GET', `/event-streams/${stream}/deliveries?take=2&from=${first.body.next}`);
      expect(ids(second)).toEqual([sent[2], newer]);
    });

    it('a delivery redelivered with success meanwhile leaves the list without the next page skipping one', async () => {
      const stream = await webhook(`${sb().inboxUrl}/status/400`);
      const sent: string[] = [];
      for (let n = 0; n < 4; n++) sent.push((await test(stream)).body.id as string);
      await sb().idle();
      const first = await api('GET', `/event-streams/${stream}/deliveries?take=2`);
      expect(ids(first)).toEqual([sent[0], sent[1]]);
      // The receiver is fixed, and the page's deliveries are redelivered: they succeed.
      const fixed = await api('PATCH', `/event-streams/${stream}`, {
        destination: { type: 'webhook', configuration: { webhook_endpoint: `${sb().inboxUrl}/ok`, webhook_authorization: { method: 'bearer', token: 'tok-1' } } },
      });
      expect(fixed.status).toBe(200);
      for (const id of ids(first)) expect((await api('POST', `/event-streams/${stream}/redeliver/${id}`)).status).toBe(202);
      await sb().idle();
      const second = await api('GET', `/event-streams/${stream}/deliveries?take=2&from=${first.body.next}`);
      expect(ids(second)).toEqual([sent[2], sent[3]]);
    });
  });

  it('read:event_streams or read:event_deliveries lists; one delivery needs read:event_deliveries', async () => {
    const reader = await getToken(sb(), 'reader');
    expect((await call(sb(), 'GET', `/api/v2/event-streams/${CLOSED}/deliveries`, { token: reader })).status).toBe(200);
    const one = await call(sb(), 'GET', `/api/v2/event-streams/${CLOSED}/deliveries/evt_0000000000000000000000`, { token: reader });
    expect(one.status).toBe(403);
    expect(one.body.message).toBe('Insufficient scope; expected any of: read:event_deliveries.');
  });
});

describe('a delivery whose request cannot be made', () => {
  it('a bearer token with a line break: the delivery fails (listed, one attempt), it does not stay pending', async () => {
    const res = await api('POST', '/event-streams', {
      name: 'line-break-token',
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: `${sb().inboxUrl}/line-break`, webhook_authorization: { method: 'bearer', token: 'tok\nsecond-line' } } },
    });
    expect(res.status).toBe(201);
    const sent = await test(res.body.id);
    expect(sent.body.status).toBe('pending');
    await sb().idle();
    const listed = await api('GET', `/event-streams/${res.body.id}/deliveries`);
    expect(listed.body.deliveries.map((d: { id: string }) => d.id)).toEqual([sent.body.id]);
    expect(listed.body.deliveries[0]).toMatchObject({ status: 'failed', attempts: [{ status: 'failed' }] });
    expect(listed.body.deliveries[0].attempts).toHaveLength(1);
    expect(listed.body.deliveries[0].attempts[0].error_message).toContain('Invalid character in header content ["Authorization"]');
  });
});

describe('redelivery', () => {
  it('one event: 202 {}, a retrying attempt appended, then new attempts; 409 while it runs', async () => {
    const sent = (await test(CLOSED)).body.id as string;
    await sb().idle();
    const path = `/event-streams/${CLOSED}/redeliver/${sent}`;
    const res = await api('POST', path);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({});
    const during = await api('GET', `/event-streams/${CLOSED}/deliveries/${sent}`);
    expect(during.body.attempts[4]).toMatchObject({ status: 'retrying' });
    expect((await api('POST', path)).body).toMatchObject({ statusCode: 409, message: 'The event is not in a state that allows redelivery.' });
    await sb().idle();
    const after = await api('GET', `/event-streams/${CLOSED}/deliveries/${sent}`);
    expect(after.body.attempts).toHaveLength(9);
    expect(after.body.status).toBe('failed');
  });

  it('many: the failed deliveries the body matches, 202 {}; 409 when one is being delivered', async () => {
    const stream = await webhook(`${sb().inboxUrl}/status/400`);
    const ids = [(await test(stream, 'user.created')).body.id, (await test(stream, 'user.deleted')).body.id];
    await sb().idle();
    const res = await api('POST', `/event-streams/${stream}/redeliver`, { event_types: ['user.deleted'] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({});
    expect((await api('POST', `/event-streams/${stream}/redeliver`, {})).body).toMatchObject({ statusCode: 409, message: 'One or more events is not in a state that allows redelivery.' });
    await sb().idle();
    const attempts = async (id: string) => (await api('GET', `/event-streams/${stream}/deliveries/${id}`)).body.attempts.length;
    expect([await attempts(ids[0]), await attempts(ids[1])]).toEqual([1, 3]);
    expect((await api('POST', '/event-streams/est_0000000000000000000000/redeliver', {})).status).toBe(404);
  });

  it('many: a bad date in the body is an error of the body (Payload validation error, invalid_body), not of the query', async () => {
    // 30 February and 24:00 too: Date.parse took them (as 2 March and the next day's midnight).
    for (const [field, value] of [['date_from', 'yesterday'], ['date_to', '2026-01-01T00:00:00.000Z'], ['date_from', '2026-02-30T00:00:00Z'], ['date_to', '2026-11-28T24:00:00Z']] as const) {
      const res = await api('POST', `/event-streams/${CLOSED}/redeliver`, { [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: `Payload validation error: '${field}' must be a date-time like 2025-07-29T04:00:00Z.`,
        errorCode: 'invalid_body',
      });
    }
  });
});

describe('statistics', () => {
  it('count what was delivered: successful and failed attempts, in hourly buckets for a short window', async () => {
    const stream = await webhook(`${sb().inboxUrl}/ok`);
    await test(stream);
    await test(stream);
    await sb().idle();
    const since = new Date(Date.now() - 20 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const res = await api('GET', `/event-streams/${stream}/stats?date_from=${since}`);
    expect(res.status).toBe(200);
    expect(res.body.window.bucket_interval).toEqual({ scale_factor: 3600 });
    expect(res.body.metrics).toEqual([
      { name: 'platform.event_streams.successful_deliveries', window_total: 2, type: 'sum', data: expect.any(Array) },
      { name: 'platform.event_streams.failed_deliveries', window_total: 0, type: 'sum', data: expect.any(Array) },
    ]);
    expect(res.body.buckets.length).toBe(res.body.metrics[0].data.length);
  });
});
