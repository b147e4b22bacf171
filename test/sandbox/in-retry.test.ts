// A delivery whose retries are still to come, as the real service shows it (wire-facts.md: listed
// items are `status: "failed"`, with attempts `failed` or `retrying`; the recordings never show a
// `retrying` delivery). The sandbox used to list such a delivery as `retrying`. The retry delays are
// set far beyond any test here, so the delivery stays between its first and second attempt; the
// test waits for the first attempt by polling with a deadline, and asserts nothing about time.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const CLOSED = 'est_demoClosedPort00000000';
const HOUR = 3_600_000;
const sb = useSandbox({ retryDelaysMs: [HOUR, HOUR, HOUR] });
let token = '';
let eventId = '';
const api = (method: string, path: string, body?: unknown) => call(sb(), method, `/api/v2${path}`, { token, body });

beforeAll(async () => {
  token = await getToken(sb());
  const sent = await api('POST', `/event-streams/${CLOSED}/test`, { event_type: 'user.created' });
  expect(sent.status).toBe(202);
  eventId = sent.body.id as string;
  // The first attempt (a connection error) is made at once; the next one would be an hour later.
  const deadline = Date.now() + 30_000;
  while ((await api('GET', `/event-streams/${CLOSED}/deliveries/${eventId}`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the first attempt was never recorded');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

describe('a delivery with retries to come', () => {
  it('is listed as `failed`, with the one attempt made so far', async () => {
    const list = await api('GET', `/event-streams/${CLOSED}/deliveries`);
    expect(list.status).toBe(200);
    const item = (list.body.deliveries as Array<Record<string, unknown>>).find((d) => d.id === eventId)!;
    expect(item.status).toBe('failed');
    expect(item.attempts).toEqual([expect.objectContaining({ status: 'failed', error_message: expect.stringMatching(/ECONNREFUSED/) })]);
  });

  it('reads as `failed` on its own, and a `statuses=failed` filter finds it', async () => {
    const one = await api('GET', `/event-streams/${CLOSED}/deliveries/${eventId}`);
    expect(one.body).toMatchObject({ id: eventId, status: 'failed' });
    const failed = await api('GET', `/event-streams/${CLOSED}/deliveries?statuses=failed`);
    expect((failed.body.deliveries as Array<{ id: string }>).map((d) => d.id)).toContain(eventId);
    const retrying = await api('GET', `/event-streams/${CLOSED}/deliveries?statuses=retrying`);
    expect(retrying.body.deliveries).toEqual([]);
  });

  it('cannot be redelivered while its retries run: 409, one and many, and nothing appended', async () => {
    const one = await api('POST', `/event-streams/${CLOSED}/redeliver/${eventId}`);
    expect(one.status).toBe(409);
    expect(one.body.message).toBe('The event is not in a state that allows redelivery.');
    const many = await api('POST', `/event-streams/${CLOSED}/redeliver`, {});
    expect(many.status).toBe(409);
    expect(many.body.message).toBe('One or more events is not in a state that allows redelivery.');
    expect((await api('GET', `/event-streams/${CLOSED}/deliveries/${eventId}`)).body.attempts).toHaveLength(1);
  });
});
