// POST /event-streams/{id}/test in the synchronous mode (`delivery: 'sync'`: delivered before the
// answer): real HTTPS deliveries to the inbox, failures, simulated receivers, request errors. The
// asynchronous default, deliveries, redelivery and statistics: ./lifecycle.test.ts.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { TestDeliverySchema } from '../../src/schemas/index.js';
import { credentialsEnv, runIdm, tempConfigDir } from '../helpers/cli.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ delivery: 'sync' });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});

let created = 0;
async function createWebhook(authorization: Record<string, string>, endpoint: string): Promise<string> {
  const res = await call(sb(), 'POST', '/api/v2/event-streams', {
    token,
    body: {
      // A name of its own: the service answers 409 for a name in use.
      name: `hook-${authorization.method}-${++created}`,
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: endpoint, webhook_authorization: authorization } },
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const sendTest = (id: string, body: unknown = { event_type: 'user.created' }) =>
  call(sb(), 'POST', `/api/v2/event-streams/${id}/test`, { token, body });

describe('successful webhook deliveries (HTTPS inbox)', () => {
  const cases: Array<[string, Record<string, string>, string, string]> = [
    ['bearer', { method: 'bearer', token: 'tok-123' }, 'authorization', 'Bearer tok-123'],
    ['basic', { method: 'basic', username: 'hook', password: 'pw-456' }, 'authorization', `Basic ${Buffer.from('hook:pw-456').toString('base64')}`],
    ['custom_header', { method: 'custom_header', header_key: 'X-Hook-Secret', header_value: 'hv-789' }, 'x-hook-secret', 'hv-789'],
  ];
  it.each(cases)('%s: the inbox receives the envelope with the stored authorization', async (method, authorization, header, value) => {
    const id = await createWebhook(authorization, `${sb().inboxUrl}/${method}`);
    const res = await sendTest(id, { event_type: 'user.created' });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(TestDeliverySchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ event_stream_id: id, status: 'success', event_type: 'user.created' });
    expect(res.body.id).toMatch(/^evt_[A-Za-z0-9]{22}$/);
    expect(res.body.attempts).toEqual([{ status: 'success', timestamp: expect.stringMatching(/Z$/), duration: expect.any(Number) }]);
    expect(res.body).not.toHaveProperty('event');

    const received = sb().inbox().filter((entry) => entry.path === `/inbox/${method}`);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers[header]).toBe(value);
    expect(received[0]!.body).toMatchObject({
      specversion: '1.0',
      id: res.body.id,
      type: 'user.created',
      source: expect.stringMatching(/^urn:platform:/),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { object: expect.objectContaining({ user_id: expect.any(String) }) },
    });
    // The same, as scripts in another process see it.
    const viaHttp = await call(sb(), 'GET', '/sandbox/inbox');
    expect(viaHttp.body.filter((entry: { path: string }) => entry.path === `/inbox/${method}`)).toHaveLength(1);
  });

  it('a given data object is the raw payload of the envelope', async () => {
    const res = await sendTest('est_demoInboxBearer0000000', { event_type: 'user.deleted', data: { object: { user_id: 'u-1' }, note: 'x' } });
    expect(res.body.status).toBe('success');
    const last = sb().inbox().at(-1)!;
    expect(last.headers.authorization).toBe('Bearer sandbox-demo-token');
    expect((last.body as { data: unknown }).data).toEqual({ object: { user_id: 'u-1' }, note: 'x' });
  });
});

describe('failed webhook deliveries', () => {
  it('a closed port: status failed, the attempts of the real schedule (4) with their errors, and the envelope', async () => {
    const inboxBefore = sb().inbox().length;
    const res = await sendTest('est_demoClosedPort00000000');
    expect(res.status).toBe(202);
    expect(TestDeliverySchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ event_stream_id: 'est_demoClosedPort00000000', status: 'failed', event_type: 'user.created' });
    expect(res.body.attempts).toHaveLength(4);
    for (const attempt of res.body.attempts) {
      expect(attempt).toMatchObject({ status: 'failed', timestamp: expect.any(String), duration: expect.any(Number) });
      expect(attempt.error_message).toContain('ECONNREFUSED');
    }
    expect(res.body.event).toMatchObject({ specversion: '1.0', id: res.body.id, type: 'user.created', data: { object: expect.any(Object) } });
    expect(sb().inbox().length).toBe(inboxBefore);
  });

  it("the closed port stays closed while the sandbox runs: no other process can be given it and answer the deliveries meant to fail", async () => {
    const stream = await call(sb(), 'GET', '/api/v2/event-streams/est_demoClosedPort00000000', { token });
    const port = Number(new URL(stream.body.destination.configuration.webhook_endpoint).port);
    const taker = createServer();
    const outcome = await new Promise<string>((resolve) => {
      taker.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      taker.listen(port, '127.0.0.1', () => taker.close(() => resolve('listening')));
    });
    expect(outcome).toBe('EADDRINUSE');
  });

  it('idm streams test --wait reads a failed answer as final: exit 3 at once, not "retries to come"', async () => {
    const work = tempConfigDir();
    try {
      const result = await runIdm(['streams', 'test', 'est_demoClosedPort00000000', '--event-type', 'user.created', '--wait'], { configDir: work.dir, env: credentialsEnv(sb()) });
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toContain('Delivery failed after 4 attempts; the service will not retry it.');
      expect(result.stderr).not.toContain('retries to come');
    } finally {
      work.cleanup();
    }
  });

  it('a receiver answering 500 fails with the status in the message', async () => {
    const id = await createWebhook({ method: 'bearer', token: 't' }, `${sb().inboxUrl}/status/500`);
    const res = await sendTest(id);
    expect(res.body.status).toBe('failed');
    expect(res.body.attempts.map((a: { error_message: string }) => a.error_message)).toEqual(Array(4).fill(expect.stringMatching(/^500 - /)));
    // The recorded attempts have these fields only: the receiver's status is in the message alone.
    for (const attempt of res.body.attempts) expect(Object.keys(attempt).sort()).toEqual(['duration', 'error_message', 'status', 'timestamp']);
    expect(sb().inbox().filter((entry) => entry.path === '/inbox/status/500')).toHaveLength(4);
  });

  it('never sends off the machine: a non-loopback endpoint is one refused attempt', async () => {
    const id = await createWebhook({ method: 'bearer', token: 't' }, 'https://203.0.113.10/hook');
    const res = await sendTest(id);
    expect(res.body.status).toBe('failed');
    expect(res.body.attempts).toHaveLength(1);
    expect(res.body.attempts[0].error_message).toContain('sandbox delivers only to loopback');
  });
});

describe('a secret Node cannot send in a header', () => {
  it('a bearer token with a line break: one failed attempt naming the header, not a 500', async () => {
    const before = sb().inbox().length;
    const id = await createWebhook({ method: 'bearer', token: 'tok\nsecond-line' }, `${sb().inboxUrl}/line-break`);
    const res = await sendTest(id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'failed', attempts: [{ status: 'failed' }] });
    expect(res.body.attempts).toHaveLength(1);
    expect(res.body.attempts[0].error_message).toMatch(/^Post "https:\/\/127\.0\.0\.1:\d+\/inbox\/line-break": Invalid character in header content \["Authorization"\]$/);
    expect(sb().inbox().length).toBe(before);
  });
});

describe('simulated receivers', () => {
  it.each([
    ['eventbus', 'est_demoEventbus0000000000'],
    ['action', 'est_demoAction000000000000'],
  ])('%s: recorded as delivered to a simulated receiver', async (destination, id) => {
    // The demo action stream is disabled, and a disabled stream takes no test event.
    expect((await call(sb(), 'PATCH', `/api/v2/event-streams/${id}`, { token, body: { status: 'enabled' } })).status).toBe(200);
    const res = await sendTest(id, { event_type: 'group.created' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ event_stream_id: id, status: 'success', attempts: [{ status: 'success' }] });
    const entry = sb().deliveries().find((d) => d.record.id === res.body.id)!;
    expect(entry).toMatchObject({ destination, event: { type: 'group.created', data: { object: expect.any(Object) } } });
    const viaHttp = await call(sb(), 'GET', '/sandbox/deliveries');
    expect(viaHttp.body.some((d: { record: { id: string } }) => d.record.id === res.body.id)).toBe(true);
  });
});

describe('test request errors', () => {
  it('400 invalid_uri for an id that is not 26 characters', async () => {
    const res = await sendTest('est_short');
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('invalid_uri');
  });

  it('404 for an unknown stream', async () => {
    const res = await sendTest('est_5RTZiB9C532j383njbXibB');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'The requested stream does not exist.' });
  });

  it.each([
    ['an unknown event type', { event_type: 'user.exploded' }, 'on property event_type.'],
    ['no event type', {}, 'on property event_type.'],
    ['data that is not an object', { event_type: 'user.created', data: [1, 2] }, "'must be an object' on property data."],
  ])('400 invalid_body for %s, and nothing is delivered', async (_label, body, field) => {
    const before = sb().deliveries().length;
    const res = await sendTest('est_demoInboxBearer0000000', body);
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('invalid_body');
    expect(res.body.message).toContain(field);
    expect(sb().deliveries().length).toBe(before);
  });
});

describe('the attempt timeout (deliveryTimeoutMs, --delivery-timeout)', () => {
  it('a receiver that accepts and never answers: each attempt fails after the timeout given, naming it', async () => {
    // Accepts the connection and says nothing (not even the TLS handshake): only the timeout ends an attempt.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const own = await startSandbox({ delivery: 'sync', deliveryTimeoutMs: 200 });
    try {
      const ownToken = await getToken(own);
      const created = await call(own, 'POST', '/api/v2/event-streams', {
        token: ownToken,
        body: {
          name: 'silent-hook',
          subscriptions: [{ event_type: 'user.created' }],
          destination: { type: 'webhook', configuration: { webhook_endpoint: `https://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`, webhook_authorization: { method: 'bearer', token: 't' } } },
        },
      });
      expect(created.status).toBe(201);
      const res = await call(own, 'POST', `/api/v2/event-streams/${created.body.id}/test`, { token: ownToken, body: { event_type: 'user.created' } });
      expect(res.body.status).toBe('failed');
      expect(res.body.attempts.map((a: { error_message: string }) => a.error_message)).toEqual(Array(4).fill(expect.stringMatching(/: no answer within 0\.2 s$/)));
    } finally {
      await own.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('is whole milliseconds from 1 to 600000', async () => {
    for (const deliveryTimeoutMs of [0, -1, 1.5, 600_001, Number.NaN]) {
      await expect(startSandbox({ deliveryTimeoutMs })).rejects.toThrow('deliveryTimeoutMs must be whole milliseconds from 1 to 600000');
    }
  });
});
