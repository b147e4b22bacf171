// The token bucket: headers on every answer, the real 429 bodies, and its default.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { call, getToken, recordSandboxSecrets, tokenRequest, useSandbox, type Sandbox } from '../helpers/sandbox.js';

// Refilling one request every ~17 minutes: nothing refills during the test. A sandbox of its own for
// each test, so that each one spends the buckets itself and runs alone (-t) as in the file.
let limited: Sandbox | undefined;
beforeEach(async () => {
  limited = await startSandbox({ rateLimit: { limit: 3, refillPerSecond: 0.001 } });
  recordSandboxSecrets(limited);
});
afterEach(async () => {
  await limited?.close();
  limited = undefined;
});
const sb = () => limited!;

describe('rate limiting', () => {
  it('sends X-RateLimit-* on every management answer, then 429 with the real body when empty', async () => {
    const token = await getToken(sb());
    const start = Math.floor(Date.now() / 1000);
    const answers = [];
    for (let n = 0; n < 4; n++) answers.push(await call(sb(), 'GET', '/api/v2/event-streams?take=1', { token }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-limit'))).toEqual(['3', '3', '3', '3']);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    const reset = Number(answers[3]!.headers.get('x-ratelimit-reset'));
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThan(start); // Unix seconds, in the future
    expect(reset).toBeLessThan(start + 5000);
    expect(answers[3]!.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answers[3]!.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: 'Global limit has been reached', errorCode: 'too_many_requests' });
  });

  it('once empty, refuses even unauthenticated requests, with the headers', async () => {
    const token = await getToken(sb());
    for (let n = 0; n < 3; n++) expect((await call(sb(), 'GET', '/api/v2/event-streams?take=1', { token })).status).toBe(200);
    const res = await call(sb(), 'GET', '/api/v2/event-streams');
    expect(res.status).toBe(429);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('the token endpoint has its own bucket and answers 429 too_many_requests with Retry-After', async () => {
    // getToken takes one; two more succeed, the fourth is refused.
    await getToken(sb());
    const { clientId, clientSecret } = sb().clients.admin;
    const params = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: `${sb().url}/api/v2/` };
    const statuses = [];
    let last;
    for (let n = 0; n < 3; n++) {
      last = await tokenRequest(sb(), params);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(last!.body).toEqual({ error: 'too_many_requests', error_description: 'Global limit has been reached' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
  });

  it('control endpoints are not limited', async () => {
    expect((await call(sb(), 'GET', '/sandbox/stats')).status).toBe(200);
  });
});

describe('the default bucket', () => {
  const generous = useSandbox();
  it('is generous, and its headers are still sent', async () => {
    const token = await getToken(generous());
    const res = await call(generous(), 'GET', '/api/v2/event-streams', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(9000);
  });
});
