// The sandbox answers as the interface defines: every kind of answer it gives, over real HTTP, parsed
// with the matching schema of src/schemas (strict where the interface's records are: an unknown or
// missing field fails). The CLI reads answers by hand (tolerant, and without zod at start-up); these
// schemas are the written contract that the sandbox is held to here.
import { describe, expect, it } from 'vitest';
import { DEMO_IDS, startSandbox } from '../../src/sandbox/index.js';
import {
  ApiErrorBodySchema,
  DefaultMappingResponseSchema,
  EventStreamSchema,
  ListStreamsResponseSchema,
  ProvisioningConfigSchema,
  TestDeliverySchema,
  TokenErrorBodySchema,
  TokenResponseSchema,
} from '../../src/schemas/index.js';
import { call, getToken, recordSandboxSecrets, tokenRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ streams: 150, retryDelaysMs: [0, 0, 0] });
const api = '/api/v2';

describe('the sandbox answers as src/schemas defines', () => {
  it('list pages, to the last one (no next)', async () => {
    const token = await getToken(sb());
    let next: string | undefined;
    let pages = 0;
    let streams = 0;
    do {
      const res = await call(sb(), 'GET', `${api}/event-streams?take=100${next ? `&from=${next}` : ''}`, { token });
      expect(res.status).toBe(200);
      const page = ListStreamsResponseSchema.parse(res.body);
      next = page.next;
      pages += 1;
      streams += page.eventStreams.length;
    } while (next !== undefined);
    expect([pages, streams]).toEqual([2, 156]);
  });

  it('a stream record', async () => {
    const res = await call(sb(), 'GET', `${api}/event-streams/${DEMO_IDS.inboxBasic}`, { token: await getToken(sb()) });
    expect(res.status).toBe(200);
    expect(EventStreamSchema.parse(res.body)).toEqual(res.body);
  });

  it('test deliveries: the pending answer, and a failed delivery with its attempts and envelope', async () => {
    const token = await getToken(sb());
    const test = (id: string) => call(sb(), 'POST', `${api}/event-streams/${id}/test`, { token, body: { event_type: 'user.created' } });
    const pending = await test(DEMO_IDS.inboxBearer);
    expect(pending.status).toBe(202);
    expect(TestDeliverySchema.parse(pending.body)).toMatchObject({ status: 'pending', attempts: [] });
    const failed = await test(DEMO_IDS.closedPort);
    await sb().idle();
    const read = await call(sb(), 'GET', `${api}/event-streams/${DEMO_IDS.closedPort}/deliveries/${failed.body.id}`, { token });
    const record = TestDeliverySchema.parse(read.body);
    expect(record.status).toBe('failed');
    expect(record.event).toBeDefined();
    expect(record.attempts).toHaveLength(4);
    expect(record.attempts.every((attempt) => attempt.error_message !== undefined)).toBe(true);
  });

  it('a provisioning configuration (created and read), and a default mapping', async () => {
    const token = await getToken(sb());
    const path = `${api}/connections/${DEMO_IDS.googleApps}/directory-provisioning`;
    const created = await call(sb(), 'POST', path, { token, body: { synchronize_groups: 'all' } });
    expect(created.status).toBe(201);
    // Shown once the connection has a configuration (404 before: wire-facts.md).
    const mapping = await call(sb(), 'GET', `${path}/default-mapping`, { token });
    expect(mapping.status).toBe(200);
    expect(DefaultMappingResponseSchema.parse(mapping.body).mapping.length).toBeGreaterThan(0);
    expect(ProvisioningConfigSchema.parse(created.body)).toEqual(created.body);
    const read = await call(sb(), 'GET', path, { token });
    expect(ProvisioningConfigSchema.parse(read.body)).toEqual(created.body);
    // The sandbox's own account of its connections follows (idm sandbox start prints it).
    expect(sb().connections().find((connection) => connection.id === DEMO_IDS.googleApps)?.provisioning).toBe('configured');
  });

  it('management error bodies: 400, 401, 403, 404, 409, and an injected 503', async () => {
    const admin = await getToken(sb());
    const reader = await getToken(sb(), 'reader');
    const errors = [
      await call(sb(), 'GET', `${api}/event-streams?take=0`, { token: admin }),
      await call(sb(), 'GET', `${api}/event-streams`),
      await call(sb(), 'POST', `${api}/event-streams/${DEMO_IDS.inboxBearer}/test`, { token: reader, body: { event_type: 'user.created' } }),
      await call(sb(), 'GET', `${api}/event-streams/est_0000000000000000000000`, { token: admin }),
      await call(sb(), 'POST', `${api}/connections/${DEMO_IDS.googleAppsConfigured}/directory-provisioning`, { token: admin, body: {} }),
    ];
    sb().addFault({ path: `${api}/event-streams`, kind: 'status', status: 503 });
    errors.push(await call(sb(), 'GET', `${api}/event-streams`, { token: admin }));
    expect(errors.map((res) => res.status)).toEqual([400, 401, 403, 404, 409, 503]);
    for (const res of errors) expect(ApiErrorBodySchema.parse(res.body).statusCode).toBe(res.status);
  });

  it('a token, and the token endpoint errors', async () => {
    const { clientId, clientSecret } = sb().clients.admin;
    const audience = `${sb().url}/api/v2/`;
    const granted = await tokenRequest(sb(), { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience });
    expect(granted.status).toBe(200);
    expect(TokenResponseSchema.parse(granted.body).token_type).toBe('Bearer');
    const refused = [
      await tokenRequest(sb(), { grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong', audience }),
      await tokenRequest(sb(), { grant_type: 'password', client_id: clientId, client_secret: clientSecret, audience }),
    ];
    expect(refused.map((res) => res.status)).toEqual([401, 400]);
    for (const res of refused) expect(TokenErrorBodySchema.parse(res.body).error).not.toBe('');
  });

  it('rate limited: 429 on the management interface and on the token endpoint', async () => {
    const sandbox = await startSandbox({ seed: {}, rateLimit: { limit: 1, refillPerSecond: 0.001 } });
    recordSandboxSecrets(sandbox, {});
    try {
      const token = await getToken(sandbox); // the token bucket's one request
      await call(sandbox, 'GET', `${api}/event-streams`, { token }); // the API bucket's one request
      const limited = await call(sandbox, 'GET', `${api}/event-streams`, { token });
      expect(limited.status).toBe(429);
      expect(ApiErrorBodySchema.parse(limited.body).statusCode).toBe(429);
      const { clientId, clientSecret } = sandbox.clients.admin;
      const tokenLimited = await tokenRequest(sandbox, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: `${sandbox.url}/api/v2/` });
      expect(tokenLimited.status).toBe(429);
      expect(TokenErrorBodySchema.parse(tokenLimited.body).error_description).toBe('Global limit has been reached');
    } finally {
      await sandbox.close();
    }
  });
});
