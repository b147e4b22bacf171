// A failed delivery as the real service shows it (/work/shared/reference/recorded-lifecycle.json,
// GET …/deliveries and …/deliveries/{event_id}): the keys of its attempts and of its event envelope
// in the recorded order (the envelope's differs from the test answer's: the service writes it anew). The receiver refuses with 404, as the recorded one did.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

interface Pair { response: { body: Record<string, any> } } // eslint-disable-line @typescript-eslint/no-explicit-any
const endpoints = (JSON.parse(readFileSync('/work/shared/reference/recorded-lifecycle.json', 'utf8')) as { endpoints: Record<string, Pair[]> }).endpoints;
const recorded = endpoints['GET /event-streams/{id}/deliveries/{event_id}']!.map((pair) => pair.response.body);

const sb = useSandbox({ seed: { streams: [] }, retryDelaysMs: [0, 0, 0] });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const api = (method: string, path: string, body?: unknown) => call(sb(), method, `/api/v2${path}`, { token, body });

describe('a failed delivery, as recorded', () => {
  it('attempts {status, error_message, timestamp, duration}; the envelope id, source, specversion, type, time, data, a0tenant, a0stream', async () => {
    const created = await api('POST', '/event-streams', {
      name: 'refused',
      subscriptions: [{ event_type: 'user.updated' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: `${sb().inboxUrl}/status/404`, webhook_authorization: { method: 'bearer', token: 'tok-1' } } },
    });
    const test = await api('POST', `/event-streams/${created.body.id}/test`, { event_type: 'user.updated' });
    expect(test.status).toBe(202);
    await sb().idle();
    const one = await api('GET', `/event-streams/${created.body.id}/deliveries/${test.body.id}`);
    const listed = await api('GET', `/event-streams/${created.body.id}/deliveries`);
    for (const delivery of [one.body, listed.body.deliveries[0]]) {
      for (const shape of recorded) {
        expect(Object.keys(delivery)).toEqual(Object.keys(shape));
        expect(Object.keys(delivery.attempts[0])).toEqual(Object.keys(shape.attempts[0]));
        // The service's own keys after these: a0tenant and a0stream (no a0purpose in a listing).
        expect(Object.keys(delivery.event)).toEqual(Object.keys(shape.event));
      }
      expect(delivery.event).toMatchObject({ a0stream: created.body.id, a0tenant: new URL(sb().url).host });
    }
  });
});

describe('the test answer\'s envelope, as recorded', () => {
  const answers = endpoints['POST /event-streams/{id}/test']!.map((pair) => pair.response.body);

  it('specversion, id, source, type, time, data, then a0purpose "test", a0stream (the stream) and a0tenant', async () => {
    const created = await api('POST', '/event-streams', {
      name: 'accepted',
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: `${sb().inboxUrl}/accepted`, webhook_authorization: { method: 'bearer', token: 'tok-2' } } },
    });
    const test = await api('POST', `/event-streams/${created.body.id}/test`, { event_type: 'user.created' });
    expect(test.status).toBe(202);
    for (const shape of answers) {
      expect(Object.keys(test.body)).toEqual(Object.keys(shape));
      expect(Object.keys(test.body.event)).toEqual(Object.keys(shape.event));
      expect(shape.event.a0purpose).toBe('test');
    }
    expect(test.body.event).toMatchObject({ a0purpose: 'test', a0stream: created.body.id, a0tenant: new URL(sb().url).host });
    await sb().idle();
  });
});

describe('a page of several deliveries, as recorded', () => {
  const pages = endpoints['GET /event-streams/{id}/deliveries']!.map((pair) => pair.response.body.deliveries as Array<{ event: { time: string } }>).filter((page) => page.length > 1);

  it('lists them oldest first: the events\' times ascend, as on every recorded page', async () => {
    const times = (page: Array<{ event: { time: string } }>) => page.map((delivery) => Date.parse(delivery.event.time));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(times(page)).toEqual([...times(page)].sort((a, b) => a - b));
    const created = await api('POST', '/event-streams', {
      name: 'refused-several',
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: `${sb().inboxUrl}/status/404`, webhook_authorization: { method: 'bearer', token: 'tok-3' } } },
    });
    const sent: string[] = [];
    for (const type of ['user.created', 'user.updated', 'user.deleted']) sent.push((await api('POST', `/event-streams/${created.body.id}/test`, { event_type: type })).body.id);
    await sb().idle();
    const listed = await api('GET', `/event-streams/${created.body.id}/deliveries`);
    expect(listed.body.deliveries.map((delivery: { id: string }) => delivery.id)).toEqual(sent);
  });
});
