// The retry policy end to end, rate limits: the built binary against the sandbox, which really answers
// 429 (its X-RateLimit-Reset one second ahead) at the API and the token endpoint. What the sandbox
// received and what idm printed are asserted; waits are real here, a second or two each.
import { describe, expect, it } from 'vitest';
import { nowSeconds, runCold, statuses, useHarness } from '../helpers/retry-harness.js';

const h = useHarness();

describe('rate limits', () => {
  it('429 on a GET: waits for X-RateLimit-Reset (1 s ahead), says so in one line, retries and succeeds', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429 }); // X-RateLimit-Reset: now + 1 s
    const result = await h().idm(['streams', 'list', '--take', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(statuses(h(), '/api/v2/event-streams')).toEqual([429, 200]);
    const host = new URL(h().sandbox.url).host;
    expect(result.stderr).toMatch(new RegExp(`^Rate limited \\(429\\) at ${host} \\(list event streams\\): trying again in [1-3] s, attempt 2 of 3\\.\\n$`));
  });

  it('in CI the wait is the same one line', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(nowSeconds()) } });
    const result = await h().idm(['streams', 'list', '--take', '1'], { env: { CI: 'true' } });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^Rate limited \(429\) at .*attempt 2 of 3\.$/)]);
  });

  it('429 at the token endpoint (Retry-After): waits, then one token is issued and the command works', async () => {
    const issued = h().sandbox.tokensIssued();
    h().sandbox.addFault({ path: '/oauth/token', kind: 'status', status: 429, headers: { 'Retry-After': '0', 'X-RateLimit-Reset': String(nowSeconds()) } });
    const result = await runCold(h(), ['streams', 'list', '--take', '1']); // a cold cache: it asks for a token
    expect(result.code).toBe(0);
    expect(statuses(h(), '/oauth/token', 'POST')).toEqual([429, 200]);
    expect(h().sandbox.tokensIssued() - issued).toBe(1);
    expect(result.stderr).toContain('Rate limited (429) at');
  });

  it('the token endpoint\'s 500 "Global limit has been reached" is waited out like a 429', async () => {
    h().sandbox.addFault({
      path: '/oauth/token',
      kind: 'status',
      status: 500,
      body: JSON.stringify({ error: 'server_error', error_description: 'Global limit has been reached' }),
      headers: { 'content-type': 'application/json', 'Retry-After': '0' },
    });
    const result = await runCold(h(), ['streams', 'list', '--take', '1']);
    expect(result.code).toBe(0);
    expect(statuses(h(), '/oauth/token', 'POST')).toEqual([500, 200]);
    expect(result.stderr).toContain('Rate limited (500) at');
  });

  it('a reset beyond --max-wait (IDM_MAX_WAIT=2): exit 5 at once, the reset time in the --json error, nothing else on stderr', async () => {
    const reset = nowSeconds() + 30;
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(reset) }, count: 3 });
    const result = await h().idm(['streams', 'list', '--json'], { env: { IDM_MAX_WAIT: '2' } });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(statuses(h(), '/api/v2/event-streams')).toEqual([429]);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { error } = JSON.parse(lines[0]!);
    expect(error).toMatchObject({ status: 429, code: 'too_many_requests', resetAt: new Date(reset * 1000).toISOString(), exitCode: 5 });
    expect(error.hint).toContain('waiting for it would take longer than what is left of --max-wait (2 s of 2 s)');
  });

  it('still limited after 3 attempts: exit 5 with the reset time in the message', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(nowSeconds()) }, count: 3 });
    const result = await h().idm(['streams', 'list', '--max-wait', '10']);
    expect(result.code).toBe(5);
    expect(statuses(h(), '/api/v2/event-streams')).toEqual([429, 429, 429]);
    expect(result.stderr).toMatch(/Error: Rate limited by 127\.0\.0\.1:\d+ while trying to list event streams \(429 too_many_requests: Global limit has been reached\), still after 3 attempts\./);
    expect(result.stderr).toMatch(/The limit resets at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
  });
});

describe('parallel runs against a rate limit', () => {
  it('8 cold runs at once, 4 of their requests refused with 429: one token request, the 429s waited out, every run exits 0', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const { recordSandboxSecrets } = await import('../helpers/sandbox.js');
    const { credentialsEnv, runInProcess, tempConfigDir } = await import('../helpers/cli.js');
    const small = await startSandbox();
    recordSandboxSecrets(small);
    // The refusals are switched on, not hoped for from runs that happen to overlap.
    small.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(nowSeconds() + 1) }, count: 4 });
    const { dir, cleanup } = tempConfigDir();
    try {
      const env = credentialsEnv(small, 'reader');
      const runs = await Promise.all(Array.from({ length: 8 }, () => runInProcess(['streams', 'list', '--take', '1'], { configDir: dir, env })));
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/^est_\w{22}\t/);
      }
      expect(small.tokensIssued()).toBe(1);
      const lists = small.requests.filter((r) => r.path === '/api/v2/event-streams').map((r) => r.status);
      expect(lists.filter((s) => s === 200)).toHaveLength(8);
      expect(lists.filter((s) => s === 429)).toHaveLength(4);
      // Each 429 waited out with one line. Which runs met them is not asserted: a refused run's retry
      // (after a random jitter) may come before another run's first request and meet the next 429.
      expect(runs.flatMap((r) => r.stderr.split('\n').filter((line) => line.startsWith('Rate limited (429)')))).toHaveLength(4);
    } finally {
      cleanup();
      await small.close();
    }
  });
});
