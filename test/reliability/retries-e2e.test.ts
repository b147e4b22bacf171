// The retry policy end to end: the built binary against the sandbox, which really answers 429 (its
// X-RateLimit-Reset one second ahead), 503, resets and stalls. What the sandbox received and what
// idm printed are asserted; waits are real here, so each test keeps them to a second or two.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../src/sandbox/index.js';
import { call, getToken } from '../helpers/sandbox.js';
import { connectionsSeed, gappsId, startHarness, type Harness } from '../commands/helpers.js';

const INBOX = 'est_demoInboxBearer0000000';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: { streams: DEFAULT_SEED.streams, connections: connectionsSeed(4).connections } });
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

const statuses = (path: string, method = 'GET') => h.received().filter((r) => r.path === path && r.method === method).map((r) => r.status);
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('rate limits', () => {
  it('429 on a GET: waits for X-RateLimit-Reset (1 s ahead), says so in one line, retries and succeeds', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429 }); // X-RateLimit-Reset: now + 1 s
    const result = await h.idm(['streams', 'list', '--take', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(statuses('/api/v2/event-streams')).toEqual([429, 200]);
    const host = new URL(h.sandbox.url).host;
    expect(result.stderr).toMatch(new RegExp(`^Rate limited \\(429\\) at ${host} \\(list event streams\\): trying again in [1-3] s, attempt 2 of 3\\.\\n$`));
  });

  it('in CI the wait is the same one line', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(nowSeconds()) } });
    const result = await h.idm(['streams', 'list', '--take', '1'], { env: { CI: 'true' } });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^Rate limited \(429\) at .*attempt 2 of 3\.$/)]);
  });

  it('429 at the token endpoint (Retry-After): waits, then one token is issued and the command works', async () => {
    const issued = h.sandbox.tokensIssued();
    h.sandbox.addFault({ path: '/oauth/token', kind: 'status', status: 429, headers: { 'Retry-After': '0', 'X-RateLimit-Reset': String(nowSeconds()) } });
    const result = await h.idm(['streams', 'list', '--take', '1'], { env: { IDM_CONFIG_DIR: undefined } });
    expect(result.code).toBe(0);
    expect(statuses('/oauth/token', 'POST')).toEqual([429, 200]);
    expect(h.sandbox.tokensIssued() - issued).toBe(1);
    expect(result.stderr).toContain('Rate limited (429) at');
  });

  it('the token endpoint\'s 500 "Global limit has been reached" is waited out like a 429', async () => {
    h.sandbox.addFault({
      path: '/oauth/token',
      kind: 'status',
      status: 500,
      body: JSON.stringify({ error: 'server_error', error_description: 'Global limit has been reached' }),
      headers: { 'content-type': 'application/json', 'Retry-After': '0' },
    });
    const result = await runCold(['streams', 'list', '--take', '1']);
    expect(result.code).toBe(0);
    expect(statuses('/oauth/token', 'POST')).toEqual([500, 200]);
    expect(result.stderr).toContain('Rate limited (500) at');
  });

  it('a reset beyond --max-wait (IDM_MAX_WAIT=2): exit 5 at once, the reset time in the --json error, nothing else on stderr', async () => {
    const reset = nowSeconds() + 30;
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(reset) }, count: 3 });
    const result = await h.idm(['streams', 'list', '--json'], { env: { IDM_MAX_WAIT: '2' } });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(statuses('/api/v2/event-streams')).toEqual([429]);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { error } = JSON.parse(lines[0]!);
    expect(error).toMatchObject({ status: 429, code: 'too_many_requests', resetAt: new Date(reset * 1000).toISOString(), exitCode: 5 });
    expect(error.hint).toContain('later than --max-wait allows (2 s)');
  });

  it('still limited after 3 attempts: exit 5 with the reset time in the message', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(nowSeconds()) }, count: 3 });
    const result = await h.idm(['streams', 'list', '--max-wait', '10']);
    expect(result.code).toBe(5);
    expect(statuses('/api/v2/event-streams')).toEqual([429, 429, 429]);
    expect(result.stderr).toMatch(/Error: Rate limited by 127\.0\.0\.1:\d+ while trying to list event streams \(429 too_many_requests: Global limit has been reached\), still after 3 attempts\./);
    expect(result.stderr).toMatch(/The limit resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
  });
});

describe('faults', () => {
  it('GET: two 503s then an answer: exit 0 after three attempts', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 503, count: 2 });
    const result = await h.idm(['streams', 'list', '--take', '1']);
    expect(result.code).toBe(0);
    expect(statuses('/api/v2/event-streams')).toEqual([503, 503, 200]);
    expect(result.stderr.match(/The service answered 503 at/g)).toHaveLength(2);
  });

  it('GET: an HTML 502 three times: exit 1, the 502 named, tried 3 times', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 502, body: '<html><body>Bad Gateway</body></html>', count: 3 });
    const result = await h.idm(['streams', 'list']);
    expect(result.code).toBe(1);
    expect(statuses('/api/v2/event-streams')).toEqual([502, 502, 502]);
    expect(result.stderr).toMatch(/Error: Could not list event streams: 127\.0\.0\.1:\d+ answered 502 Bad Gateway with a body that is not JSON\.\nTried 3 times\./);
  });

  it('GET: a connection reset is retried', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'reset' });
    const result = await h.idm(['streams', 'list', '--take', '1']);
    expect(result.code).toBe(0);
    expect(statuses('/api/v2/event-streams')).toEqual([0, 200]);
    expect(result.stderr).toMatch(/^The connection was reset at .*attempt 2 of 3\.\n$/);
  });

  it('POST test event: a 503 with Retry-After was not processed, so it is sent again, and delivered once', async () => {
    const deliveries = h.sandbox.deliveries().length;
    h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', kind: 'status', status: 503, headers: { 'Retry-After': '0' } });
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created']);
    expect(result.code).toBe(0);
    expect(statuses(`/api/v2/event-streams/${INBOX}/test`, 'POST')).toEqual([503, 202]);
    expect(h.sandbox.deliveries().length - deliveries).toBe(1);
  });

  it('POST test event: a 503 without Retry-After, a 500, a reset or a stall may have been processed: sent once', async () => {
    const deliveries = h.sandbox.deliveries().length;
    for (const fault of [
      { kind: 'status' as const, status: 503 },
      { kind: 'status' as const, status: 500 },
      { kind: 'reset' as const },
      { kind: 'stall' as const },
    ]) {
      h.mark();
      h.sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', ...fault });
      const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--timeout', '1']);
      expect(result.code).toBe(1);
      expect(h.calls('POST')).toHaveLength(1);
    }
    expect(h.sandbox.deliveries().length).toBe(deliveries);
  });
});

describe('--timeout', () => {
  it('bounds each request when the server accepts and never answers; the message names the host (IDM_TIMEOUT)', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'stall', count: 3 });
    const result = await h.idm(['streams', 'list', '--take', '1'], { env: { IDM_TIMEOUT: '0.5' } });
    expect(result.code).toBe(1);
    expect(statuses('/api/v2/event-streams')).toEqual([0, 0, 0]);
    expect(result.stderr).toContain(`Error: Could not list event streams: ${new URL(h.sandbox.url).host} did not answer within 0.5 s.`);
  });

  it('--timeout on a stalled token request, then the answer on the next attempt', async () => {
    h.sandbox.addFault({ path: '/oauth/token', kind: 'stall' });
    const result = await runCold(['streams', 'list', '--take', '1', '--timeout', '0.5']);
    expect(result.code).toBe(0);
    expect(statuses('/oauth/token', 'POST')).toEqual([0, 200]);
    expect(result.stderr).toMatch(/^No answer in time at .*\(get an access token\): trying again in 1 s, attempt 2 of 3\.\n$/);
  });

  it('a bad --timeout or IDM_MAX_WAIT is a usage error (exit 2), nothing sent', async () => {
    for (const [args, env] of [
      [['--timeout', '0'], {}],
      [['--timeout', 'soon'], {}],
      [[], { IDM_MAX_WAIT: '-1' }],
    ] as const) {
      const result = await h.idm([...args, 'streams', 'list'], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--(timeout|max-wait) must be a number of seconds/);
    }
    expect(h.received()).toEqual([]);
  });
});

describe('provisioning create after its own retried attempt', () => {
  // The first POST reached the service and created the configuration, but idm got a 503 with
  // Retry-After (a proxy). Simulated by creating it first, then answering the POST with that 503.
  async function createdBehindA503(id: string, body: Record<string, unknown>) {
    const created = await call(h.sandbox, 'POST', `/api/v2/connections/${id}/directory-provisioning`, { token: await getToken(h.sandbox), body });
    expect(created.status).toBe(201);
    h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'POST', kind: 'status', status: 503, headers: { 'Retry-After': '0' } });
    h.mark();
  }

  it('409 on the retry, and what exists is what was sent: reported as created (exit 0)', async () => {
    const id = gappsId(1);
    await createdBehindA503(id, { mapping: [{ platform: 'email', idp: 'primaryEmail' }], synchronize_groups: 'all' });
    const result = await h.idm(['provisioning', 'create', id, '--mapping', 'email=primaryEmail', '--sync-groups', 'all', '--json']);
    expect(result.code).toBe(0);
    expect(h.calls().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 503', 'POST 409', 'GET 200']); // POST, its retry, the read
    expect(JSON.parse(result.stdout)).toMatchObject({ connection_id: id, synchronize_groups: 'all', mapping: [{ platform: 'email', idp: 'primaryEmail' }] });
  });

  it('409 on the retry, but the configuration differs from what was sent: the 409 stands (exit 1)', async () => {
    const id = gappsId(2);
    await createdBehindA503(id, { synchronize_groups: 'selected' });
    const result = await h.idm(['provisioning', 'create', id, '--sync-groups', 'all']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('409');
    expect(h.calls().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 503', 'POST 409', 'GET 200']);
  });

  it('a 409 on the first attempt is the plain conflict: no read', async () => {
    const id = gappsId(3);
    await call(h.sandbox, 'POST', `/api/v2/connections/${id}/directory-provisioning`, { token: await getToken(h.sandbox), body: {} });
    h.mark();
    const result = await h.idm(['provisioning', 'create', id]);
    expect(result.code).toBe(1);
    expect(h.calls().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 409']);
  });
});

/** A run with an empty token cache (its own config dir), so that it asks for a token. */
async function runCold(args: string[]) {
  const { tempConfigDir, runIdm } = await import('../helpers/cli.js');
  const { dir, cleanup } = tempConfigDir();
  try {
    const admin = h.sandbox.clients.admin;
    return await runIdm(args, { configDir: dir, env: { IDM_DOMAIN: h.sandbox.url, IDM_CLIENT_ID: admin.clientId, IDM_CLIENT_SECRET: admin.clientSecret } });
  } finally {
    cleanup();
  }
}

describe('parallel runs against a small rate limit', () => {
  it('8 cold runs at once with a bucket of 4 per second: one token request, the 429s waited out, every run exits 0', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const { recordSandboxSecrets } = await import('../helpers/sandbox.js');
    const { runIdm, tempConfigDir } = await import('../helpers/cli.js');
    const small = await startSandbox({ rateLimit: { limit: 4, refillPerSecond: 4 } });
    recordSandboxSecrets(small);
    const { dir, cleanup } = tempConfigDir();
    try {
      const reader = small.clients.reader;
      const env = { IDM_DOMAIN: small.url, IDM_CLIENT_ID: reader.clientId, IDM_CLIENT_SECRET: reader.clientSecret };
      const runs = await Promise.all(Array.from({ length: 8 }, () => runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env, timeoutMs: 30_000 })));
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/^est_\w{22}\t/);
      }
      expect(small.tokensIssued()).toBe(1);
      const lists = small.requests.filter((r) => r.path === '/api/v2/event-streams').map((r) => r.status);
      expect(lists.filter((s) => s === 200)).toHaveLength(8);
      expect(lists.filter((s) => s === 429).length).toBeGreaterThan(0); // the limit was met, and waited out
      expect(runs.filter((r) => r.stderr.includes('Rate limited (429)')).length).toBeGreaterThan(0);
    } finally {
      cleanup();
      await small.close();
    }
  });
});
