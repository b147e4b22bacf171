// Seeds, generated streams, the control endpoints, HTTPS for the tenant, and close().
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { startSandbox, SeedError, DEFAULT_SEED, DEMO_IDS } from '../../src/sandbox/index.js';
import { EventStreamSchema } from '../../src/schemas/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const seed = {
  tokenLifetime: 600,
  // Delivered before the answer: the seed's switch to the synchronous mode.
  delivery: 'sync',
  streams: [
    {
      id: 'est_seededSeededSeeded0001',
      name: 'seeded-hook',
      subscriptions: [{ event_type: 'user.created' }],
      destination: {
        type: 'webhook',
        configuration: { webhook_endpoint: '{inbox}/seeded', webhook_authorization: { method: 'custom_header', header_key: 'x-token', header_value: 'seeded-value' } },
      },
      created_at: '2025-01-02T03:04:05.678Z',
    },
    { name: 'seeded-action', status: 'disabled', subscriptions: [{ event_type: 'group.created' }], destination: { type: 'action', configuration: { action_id: 'act-1' } } },
  ],
  connections: [{ name: 'only-gw', strategy: 'google-apps' }],
};
const sb = useSandbox({ seed, streams: 3 });

describe('seed', () => {
  it('holds exactly the seeded and generated streams, as valid records, with {inbox} replaced', async () => {
    const token = await getToken(sb());
    const res = await call(sb(), 'GET', '/api/v2/event-streams', { token });
    const streams = res.body.eventStreams;
    expect(streams.map((s: { name: string }) => s.name)).toEqual(['seeded-hook', 'seeded-action', 'generated-1', 'generated-2', 'generated-3']);
    for (const stream of streams) expect(EventStreamSchema.parse(stream)).toEqual(stream);
    expect(streams[0]).toMatchObject({
      id: 'est_seededSeededSeeded0001',
      created_at: '2025-01-02T03:04:05.678Z',
      updated_at: '2025-01-02T03:04:05.678Z',
      destination: { configuration: { webhook_endpoint: `${sb().inboxUrl}/seeded`, webhook_authorization: { method: 'custom_header', header_key: 'x-token' } } },
    });
    expect(res.text).not.toContain('seeded-value');
    expect(streams[1].status).toBe('disabled');
  });

  it('an event-bus stream has a partner event source, as POST makes it: the seed\'s own, or one named in the recorded form', async () => {
    const bus = (name: string, source?: string) => ({
      name,
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'eu-west-1', ...(source ? { cloud_partner_event_source: source } : {}) } },
    });
    const sandbox = await startSandbox({ seed: { streams: [bus('named', 'cloud.partner/platform.com/mine/platform.events'), bus('unnamed')] }, streams: 2 });
    try {
      const res = await call(sandbox, 'GET', '/api/v2/event-streams', { token: await getToken(sandbox) });
      const sources = res.body.eventStreams
        .filter((stream: { destination: { type: string } }) => stream.destination.type === 'eventbus')
        .map((stream: { destination: { configuration: { cloud_partner_event_source?: string } } }) => stream.destination.configuration.cloud_partner_event_source);
      expect(sources).toEqual(['cloud.partner/platform.com/mine/platform.events', expect.stringMatching(/^cloud\.partner\/platform\.com\/sandbox-[0-9a-f-]{36}\/platform\.events$/), expect.stringMatching(/^cloud\.partner\/platform\.com\/sandbox-[0-9a-f-]{36}\/platform\.events$/)]);
    } finally {
      await sandbox.close();
    }
  });

  it('{inbox} and {closed} anywhere in an endpoint are the URLs of this run (the seed parsed once, before the ports were known)', async () => {
    const hook = (name: string, endpoint: string) => ({
      name,
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: endpoint, webhook_authorization: { method: 'bearer', token: 'placeholder-token' } } },
    });
    const sandbox = await startSandbox({ seed: { streams: [hook('closed', '{closed}/x?back={inbox}'), hook('literal', 'https://example.com/{not-a-placeholder}')] } });
    try {
      const res = await call(sandbox, 'GET', '/api/v2/event-streams', { token: await getToken(sandbox) });
      const [closed, literal] = res.body.eventStreams.map((stream: { destination: { configuration: { webhook_endpoint: string } } }) => stream.destination.configuration.webhook_endpoint);
      const [base, back] = closed.split('/x?back=');
      expect(base).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(new URL(base).port).not.toBe(new URL(sandbox.url).port);
      expect(back).toBe(sandbox.inboxUrl);
      expect(literal).toBe('https://example.com/{not-a-placeholder}');
    } finally {
      await sandbox.close();
    }
  });

  it('delivers with the seeded secret', async () => {
    const token = await getToken(sb());
    const res = await call(sb(), 'POST', '/api/v2/event-streams/est_seededSeededSeeded0001/test', { token, body: { event_type: 'user.created' } });
    expect(res.body.status).toBe('success');
    expect(sb().inbox().at(-1)!.headers['x-token']).toBe('seeded-value');
  });

  it('takes the token lifetime from the seed', async () => {
    const { clientId, clientSecret } = sb().clients.admin;
    const res = await call(sb(), 'POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: `${sb().apiUrl}/` },
    });
    expect(res.body.expires_in).toBe(600);
  });

  it.each([
    ['a stream without a destination', { streams: [{ name: 'x' }] }, 'streams.0.destination'],
    ['a short id', { streams: [{ ...seed.streams[1], id: 'short' }] }, 'streams.0.id'],
    ['an id used twice', { streams: [seed.streams[0], seed.streams[0]] }, 'streams.1.id'],
    ['a name used twice', { streams: [seed.streams[1], seed.streams[1]] }, 'streams.1.name'],
    ['provisioning on an unsupported strategy', { connections: [{ name: 'db', strategy: 'platform', provisioning: {} }] }, 'connections.0.provisioning'],
    ['an unknown key', { colour: 'red' }, 'colour'],
    ['an empty bucket', { rateLimit: { limit: 0, refillPerSecond: 1 } }, 'rateLimit.limit'],
  ])('refuses an invalid seed, naming the field: %s', async (_label, bad, field) => {
    const error = await startSandbox({ seed: bad }).then(
      (started) => started.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeedError);
    expect((error as Error).message).toContain(field);
  });

  it('the seed example of the documentation starts', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = /#+ Seed format[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)![1]!;
    const documented = await startSandbox({ seed: JSON.parse(example) });
    try {
      expect(documented.stats()).toMatchObject({ streams: 2, connections: 3 });
    } finally {
      await documented.close();
    }
  });

  it('the default seed has the documented demo streams and connections', () => {
    expect(DEFAULT_SEED.streams.map((s) => s.id)).toEqual([
      DEMO_IDS.inboxBearer, DEMO_IDS.inboxBasic, DEMO_IDS.inboxHeader, DEMO_IDS.closedPort, DEMO_IDS.eventbus, DEMO_IDS.action,
    ]);
    for (const id of DEFAULT_SEED.streams.map((s) => s.id)) expect(id).toMatch(/^est_[A-Za-z0-9]{22}$/);
    for (const id of DEFAULT_SEED.connections.map((c) => c.id)) expect(id).toMatch(/^con_[A-Za-z0-9]{16}$/);
  });
});

describe('control endpoints', () => {
  it('GET /sandbox/stats, /sandbox/requests; control calls are not recorded', async () => {
    const token = await getToken(sb());
    await call(sb(), 'GET', '/api/v2/event-streams?take=2', { token });
    const stats = await call(sb(), 'GET', '/sandbox/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      tokensIssued: sb().tokensIssued(),
      streams: 5,
      connections: 1,
      requests: sb().requests.length,
      inbox: sb().inbox().length,
      deliveries: sb().deliveries().length,
      faults: 0,
    });
    const requests = await call(sb(), 'GET', '/sandbox/requests');
    const last = requests.body.at(-1);
    expect(last).toMatchObject({ method: 'GET', url: '/api/v2/event-streams?take=2', path: '/api/v2/event-streams', status: 200, body: '' });
    expect(last.headers.authorization).toBe(`Bearer ${token}`);
    expect(sb().requests.some((r) => r.path.startsWith('/sandbox'))).toBe(false);
  });

  it('404 for an unknown control path, listing the endpoints', async () => {
    const res = await call(sb(), 'GET', '/sandbox/nothing');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('GET /sandbox/stats');
  });

  it('405 with Allow for a control path asked with a method it does not take; faults unchanged', async () => {
    const put = await call(sb(), 'PUT', '/sandbox/faults', { body: { kind: 'status', status: 503 } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, DELETE');
    expect(put.body.message).toBe('Method Not Allowed. /sandbox/faults takes GET, HEAD, POST, DELETE');
    const post = await call(sb(), 'POST', '/sandbox/stats');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await call(sb(), 'HEAD', '/sandbox/stats')).status).toBe(200);
    expect((await call(sb(), 'GET', '/sandbox/faults')).body).toEqual({ faults: [] });
  });
});

describe('HTTPS tenant and close()', () => {
  it('serves the tenant over HTTPS with the given certificate', async () => {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const secure = await startSandbox({ seed: {}, tls: { cert: pems.cert, key: pems.private } });
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${secure.url}/api/v2/event-streams`, { ca: pems.cert }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(401); // reached the API over TLS; no token
    } finally {
      await secure.close();
    }
  });

  it('close() is idempotent and frees the port', async () => {
    const own = await startSandbox({ seed: {} });
    await own.close();
    await own.close();
    await expect(fetch(`${own.url}/sandbox/stats`)).rejects.toThrow();
  });
});
