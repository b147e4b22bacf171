// The retry policy of src/api/retry.ts, through real HTTP on loopback (a scripted server) with a
// recorded wait instead of a sleep: which answers are tried again, for how long idm waits, and when
// it gives up. The waits for real, through the built binary, are in ./retries-e2e.test.ts.
import { refusingPort } from '../helpers/ports.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorFromNetwork, NetworkError, RateLimitError, type FailureContext } from '../../src/api/errors.js';
import { createTransport } from '../../src/api/http.js';
import { Redactor } from '../../src/api/redact.js';
import { rateLimitReset, serverWaitMs } from '../../src/api/errors.js';
import { retryBudget, retryDecision, send, type SendPolicy, type WaitNotice } from '../../src/api/retry.js';
import { ApiError } from '../../src/core/errors.js';
import { fakeServer, json, type Handler } from '../helpers/fake-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NOW = Date.parse('2030-01-01T00:00:00Z');

async function setup(handler: Handler, policy: Partial<SendPolicy> & { method?: string } = {}) {
  const server = await fakeServer(handler);
  const transport = createTransport({ redactor: new Redactor() });
  cleanups.push(() => server.close(), () => transport.close());
  const waits: Array<{ ms: number; notice: WaitNotice }> = [];
  const full: SendPolicy = {
    timeoutMs: 30_000, // bounds a hang only: every scripted answer comes at once
    idempotent: (policy.method ?? 'GET') === 'GET',
    budget: retryBudget(60_000),
    wait: async (ms, notice) => void waits.push({ ms, notice }),
    random: () => 0.5,
    now: () => NOW,
    ...policy,
  };
  const context: FailureContext = { endpoint: 'management', action: 'list event streams', host: new URL(server.url).host };
  const run = (path = '/api/v2/event-streams', body?: string) =>
    send(transport, { method: policy.method ?? 'GET', url: new URL(path, server.url), headers: {}, body }, context, full);
  return { server, run, waits, policy: full };
}

/** Answers each request with the next of `answers` (the last one repeats), dated NOW like the policy's clock. */
function script(...answers: Array<[number, unknown, Record<string, string>?]>): Handler {
  let n = 0;
  return (_req, res) => {
    const [status, body, extra] = answers[Math.min(n++, answers.length - 1)]!;
    const headers = { date: new Date(NOW).toUTCString(), ...extra };
    if (typeof body === 'string') {
      res.writeHead(status, { 'content-type': 'text/html', ...headers });
      res.end(body);
    } else json(res, status, body, headers);
  };
}

const limited = { statusCode: 429, error: 'Too Many Requests', message: 'Global limit has been reached', errorCode: 'too_many_requests' };
const seconds = (ms: number) => String(Math.floor(ms / 1000));

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('how long to wait', () => {
  it('reads X-RateLimit-Reset (Unix seconds) against the server clock, Retry-After in seconds, the later of the two', () => {
    expect(serverWaitMs({ 'x-ratelimit-reset': seconds(NOW + 5_000) }, NOW)).toBe(5_000);
    // The server's clock runs 10 minutes ahead: its Date header keeps the wait at 5 s.
    expect(serverWaitMs({ 'x-ratelimit-reset': seconds(NOW + 600_000 + 5_000), date: new Date(NOW + 600_000).toUTCString() }, NOW)).toBe(5_000);
    expect(serverWaitMs({ 'retry-after': '3' }, NOW)).toBe(3_000);
    expect(serverWaitMs({ 'retry-after': '3', 'x-ratelimit-reset': seconds(NOW + 7_000) }, NOW)).toBe(7_000);
    expect(serverWaitMs({ 'x-ratelimit-reset': seconds(NOW - 5_000) }, NOW)).toBe(0); // already past
    expect(serverWaitMs({ 'x-ratelimit-reset': 'soon' }, NOW)).toBeUndefined();
    expect(serverWaitMs({}, NOW)).toBeUndefined();
  });

  it('reports the reset time the wait was measured with (the later header), so the hint cannot contradict the refusal', () => {
    const headers = { 'retry-after': '30', 'x-ratelimit-reset': seconds(NOW + 1_000) };
    expect(rateLimitReset(headers, NOW)?.getTime()).toBe(Math.ceil((NOW + 30_000) / 1000) * 1000);
    const skewed = { 'x-ratelimit-reset': seconds(NOW + 600_000 + 5_000), date: new Date(NOW + 600_000).toUTCString() };
    expect(rateLimitReset(skewed, NOW)?.getTime()).toBe(Math.ceil((NOW + 5_000) / 1000) * 1000);
  });

  it('backs off faults exponentially with full jitter, capped', () => {
    const answer = { response: { status: 503, headers: {}, text: '' } };
    expect(retryDecision(answer, 1, true, () => 1, NOW)?.waitMs).toBe(500);
    expect(retryDecision(answer, 2, true, () => 1, NOW)?.waitMs).toBe(1_000);
    expect(retryDecision(answer, 10, true, () => 1, NOW)?.waitMs).toBe(8_000);
    expect(retryDecision(answer, 2, true, () => 0, NOW)?.waitMs).toBe(0);
  });
});

describe('rate limits (any method)', () => {
  it('429 with X-RateLimit-Reset (header names in any case): waits until the reset plus jitter, then succeeds', async () => {
    const { run, waits, server } = await setup(script([429, limited, { 'X-RATELIMIT-RESET': seconds(NOW + 2_000) }], [200, { eventStreams: [] }]));
    const response = await run();
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(2);
    expect(server.seen).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]!.ms).toBe(2_000 + 500); // random() = 0.5 of a second of jitter
    expect(waits[0]!.notice).toMatchObject({ reason: 'rate_limited', what: 'rate limited (429)', attempt: 2, attempts: 3 });
  });

  it('a POST is retried on 429 too: the server refused it before doing anything', async () => {
    const { run, server } = await setup(script([429, limited, { 'retry-after': '1' }], [202, { status: 'success' }]), { method: 'POST' });
    expect((await run('/api/v2/event-streams/x/test', '{}')).status).toBe(202);
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('at most 3 attempts, then exit 5 with the reset time in the message, the hint and the --json error', async () => {
    const reset = NOW + 1_000;
    const { run, server, waits } = await setup(script([429, limited, { 'x-ratelimit-reset': seconds(reset) }]));
    const error = await rejection(run());
    expect(server.seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.exitCode).toBe(5);
    expect(error.message).toMatch(/^Rate limited by 127\.0\.0\.1:\d+ while trying to list event streams \(429 too_many_requests: Global limit has been reached\), still after 3 attempts\.$/);
    // The reset is reported on the clock the policy read the answer with (the test's NOW), one second on.
    expect(error.hint).toBe('The limit resets at 2030-01-01T00:00:01Z (in 1 s); run again after that.');
    expect(error.toJSON().error).toMatchObject({ status: 429, exitCode: 5, resetAt: '2030-01-01T00:00:01.000Z' });
  });

  it('a reset beyond --max-wait: no waiting at all, exit 5 at once saying so', async () => {
    const reset = NOW + 90_000;
    const { run, server, waits } = await setup(script([429, limited, { 'x-ratelimit-reset': seconds(reset) }]));
    const error = await rejection(run());
    expect(server.seen).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error.exitCode).toBe(5);
    expect(error.hint).toContain('waiting for it would take longer than what is left of --max-wait (60 s of 60 s)');
    expect(error.hint).toMatch(/^The limit resets at 2030-01-01T00:01:30Z \(in 90 s\)/);
    expect(error.toJSON().error.resetAt).toBe('2030-01-01T00:01:30.000Z');
  });

  it('the hint says the wait the server gave, not one more second: Retry-After: 120 is "in 120 s" whatever the milliseconds of the clock', async () => {
    const { run } = await setup(script([429, limited, { 'retry-after': '120' }]), { now: () => NOW + 400 });
    const error = await rejection(run());
    expect(error.hint).toMatch(/^The limit resets at 2030-01-01T00:02:01Z \(in 120 s\); /);
  });

  it('a Retry-After given as an HTTP date is read by one clock, the policy\'s: the hint says the wait the policy refused', async () => {
    const date = new Date(NOW + 90_000).toUTCString();
    const limitedBy = await setup(script([429, limited, { 'retry-after': date }]));
    const rateLimit = await rejection(limitedBy.run());
    expect(limitedBy.waits).toEqual([]);
    expect(rateLimit.hint).toMatch(/^The limit resets at 2030-01-01T00:01:30Z \(in 90 s\); waiting for it would take longer/);
    const busy = await setup(script([503, '<html>busy</html>', { 'retry-after': new Date(NOW + 300_000).toUTCString() }]));
    const fault = await rejection(busy.run());
    expect(busy.waits).toEqual([]);
    expect(fault.hint).toMatch(/^The service asked to be tried again in 300 s \(Retry-After\), longer than/);
  });

  it('one budget for the whole run: what one request waited, the next cannot', async () => {
    const { run, server, waits, policy } = await setup(script([429, limited, { 'retry-after': '40' }], [200, {}], [429, limited, { 'retry-after': '40' }]));
    expect((await run()).status).toBe(200);
    expect(policy.budget.waitedMs).toBe(40_500);
    const error = await rejection(run());
    expect(error.exitCode).toBe(5);
    expect(server.seen).toHaveLength(3);
    expect(waits).toHaveLength(1);
  });

  it("the token endpoint's 'Global limit has been reached' is a rate limit whatever its status", async () => {
    const { run, server } = await setup(
      script([500, { error: 'server_error', error_description: 'Global limit has been reached' }, { 'retry-after': '1' }], [200, { access_token: 'x' }]),
      { method: 'POST', idempotent: true },
    );
    expect((await run('/oauth/token', 'grant_type=client_credentials')).status).toBe(200);
    expect(server.seen).toHaveLength(2);
  });
});

describe('faults', () => {
  it.each([500, 502, 503, 504, 408])('GET: %i is tried again with backoff, 3 attempts at most', async (status) => {
    const { run, server, waits } = await setup(script([status, '<html>down</html>']));
    const error = await rejection(run());
    expect(server.seen).toHaveLength(3);
    expect(waits.map((w) => w.ms)).toEqual([250, 500]); // half (random 0.5) of 500 ms, then of 1 s
    expect(error.status).toBe(status);
    expect(error.exitCode).toBe(1);
    expect(error.hint).toMatch(/^Tried 3 times\./);
  });

  it('GET: a 502 then a 200 is a success', async () => {
    const { run, server } = await setup(script([502, '<html>Bad Gateway</html>'], [200, { eventStreams: [] }]));
    expect((await run()).status).toBe(200);
    expect(server.seen).toHaveLength(2);
  });

  it('GET: 4xx other than 408 and 429 are answers, never retried', async () => {
    for (const status of [400, 401, 403, 404, 409]) {
      const { run, server } = await setup(script([status, { statusCode: status, message: 'no' }]));
      expect((await run()).status).toBe(status);
      expect(server.seen).toHaveLength(1);
    }
  });

  it.each([500, 502, 504, 408])('POST: %i may have been processed, so it is not sent again', async (status) => {
    const { run, server, waits } = await setup(script([status, '<html>oops</html>']), { method: 'POST' });
    expect((await run('/api/v2/event-streams/x/test', '{}')).status).toBe(status);
    expect(server.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('POST: a 503 without Retry-After is not sent again; with Retry-After (not processed) it is', async () => {
    const plain = await setup(script([503, '<html>busy</html>']), { method: 'POST' });
    expect((await plain.run('/x', '{}')).status).toBe(503);
    expect(plain.server.seen).toHaveLength(1);
    const told = await setup(script([503, '<html>busy</html>', { 'retry-after': '2' }], [201, {}]), { method: 'POST' });
    expect((await told.run('/x', '{}')).status).toBe(201);
    expect(told.server.seen).toHaveLength(2);
    expect(told.waits[0]!.ms).toBe(2_000 + 250);
  });

  it('a connection reset: GET is tried again, POST is not (it may have arrived)', async () => {
    let n = 0;
    const resetFirst: Handler = (req, res) => {
      if (n++ === 0) return void res.socket?.destroy();
      json(res, 200, { ok: req.method });
    };
    const get = await setup(resetFirst);
    expect((await get.run()).status).toBe(200);
    expect(get.waits[0]!.notice).toMatchObject({ reason: 'network', what: 'the connection was reset' });
    n = 0;
    const post = await setup(resetFirst, { method: 'POST' });
    const error = await rejection(post.run('/x', '{}'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).requestSent).toBe(true);
    expect(post.server.seen).toHaveLength(1);
  });

  it('a refused connection: even a POST is tried again (nothing reached the server), then exit 1', async () => {
    const refusing = await refusingPort();
    cleanups.push(() => refusing.close());
    const { port } = refusing;
    const transport = createTransport({ redactor: new Redactor() });
    cleanups.push(() => transport.close());
    const waits: number[] = [];
    const policy: SendPolicy = { timeoutMs: 30_000, idempotent: false, budget: retryBudget(60_000), wait: async (ms) => void waits.push(ms), random: () => 1 };
    const context: FailureContext = { endpoint: 'management', action: 'send a test event', host: `127.0.0.1:${port}` };
    const error = await rejection(send(transport, { method: 'POST', url: new URL(`http://127.0.0.1:${port}/x`), headers: {}, body: '{}' }, context, policy));
    expect(error.code).toBe('network');
    expect(error.message).toContain('the connection was refused');
    expect(error.hint).toMatch(/^Tried 3 times\./);
    expect(waits).toEqual([500, 1_000]);
  });

  it('a certificate that fails verification is not tried again', () => {
    const tls = errorFromNetwork(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), { endpoint: 'management', action: 'x', host: 'h' });
    expect(tls.code).toBe('tls');
    expect(retryDecision({ error: tls }, 1, true, () => 0, NOW)).toBeUndefined();
  });

  it("a proxy's answer to the CONNECT: 408, 429 and 5xx are asked again for any method (the tenant never saw it), after its Retry-After when it gives one; 403 and 407 are not", () => {
    const proxy = { name: 'proxy.corp:3128', variable: 'HTTPS_PROXY' };
    const refused = (status: number, retryAfter?: string) =>
      errorFromNetwork(Object.assign(new Error(`the proxy answered ${status}`), { code: 'EPROXY', proxy, proxyStatus: status, proxyRetryAfter: retryAfter }), { endpoint: 'management', action: 'x', host: 'h' });
    for (const status of [408, 429, 502, 503]) expect(retryDecision({ error: refused(status) }, 1, false, () => 1, NOW)?.waitMs).toBe(500);
    // The wait it asked for is firm (not cut to --max-wait), plus the jitter.
    expect(retryDecision({ error: refused(429, '7') }, 1, false, () => 1, NOW)).toMatchObject({ waitMs: 7_500, firmMs: 7_000 });
    expect(retryDecision({ error: refused(503, new Date(NOW + 20_000).toUTCString()) }, 2, true, () => 0, NOW)).toMatchObject({ waitMs: 20_000, firmMs: 20_000 });
    for (const status of [403, 407]) expect(retryDecision({ error: refused(status, '1') }, 1, true, () => 1, NOW)).toBeUndefined();
  });

  it('a server that never answers: each attempt ends at the timeout, naming the host; GET tries 3 times', async () => {
    const { run, server, waits } = await setup(() => {}, { timeoutMs: 200 });
    const error = await rejection(run());
    expect(error.code).toBe('timeout');
    expect(error.message).toBe(`Could not list event streams: ${new URL(server.url).host} did not answer within 0.2 s.`);
    // The server (in this process) may read the last request after idm gave up on it: waited for.
    await vi.waitFor(() => expect(server.seen.length).toBeGreaterThanOrEqual(3), { timeout: 30_000 });
    expect(server.seen).toHaveLength(3);
    expect(waits.map((w) => w.notice.reason)).toEqual(['timeout', 'timeout']);
  });

  it('a Retry-After beyond what is left of --max-wait is not cut to it: no wait started, one attempt, the hint says why', async () => {
    const { run, server, waits } = await setup(script([503, '<html>busy</html>', { 'retry-after': '300' }], [200, {}]));
    const error = await rejection(run());
    expect(waits).toEqual([]);
    expect(server.seen).toHaveLength(1);
    expect(error.hint).toBe('The service asked to be tried again in 300 s (Retry-After), longer than what is left of --max-wait (60 s of 60 s); run again after that, or allow a longer wait with --max-wait SECONDS.');
  });

  it('a Retry-After that fits what is left of --max-wait is waited: only the jitter idm adds is cut', async () => {
    // 60 s asked, 60 s left: the server's time is waited (not 60 s and up to 0.5 s more, which is beyond).
    const { run, server, waits } = await setup(script([503, '<html>busy</html>', { 'retry-after': '60' }], [200, {}]), { random: () => 1 });
    expect((await run()).status).toBe(200);
    expect(waits.map((w) => w.ms)).toEqual([60_000]);
    expect(server.seen).toHaveLength(2);
  });

  it("a rate limit's reset that fits what is left of --max-wait is waited: only the jitter is cut", async () => {
    const { run, server, waits } = await setup(script([429, limited, { 'retry-after': '60' }], [200, {}]), { random: () => 1 });
    expect((await run()).status).toBe(200);
    expect(waits.map((w) => w.ms)).toEqual([60_000]);
    expect(server.seen).toHaveLength(2);
  });

  it('--max-wait used up and Retry-After: 0: the hint says nothing is left of it, not that 0 s is longer than 0 s', async () => {
    const spent = () => ({ maxWaitMs: 60_000, waitedMs: 60_000 });
    const busy = await setup(script([503, '<html>busy</html>', { 'retry-after': '0' }], [200, {}]), { budget: spent() });
    const fault = await rejection(busy.run());
    expect(busy.server.seen).toHaveLength(1);
    expect(fault.hint).toBe('The service asked to be tried again in 0 s (Retry-After), but nothing is left of --max-wait (60 s); run again, or allow a longer wait with --max-wait SECONDS.');
    const limitedBy = await setup(script([429, limited, { 'retry-after': '0' }], [200, {}]), { budget: spent() });
    const rateLimit = await rejection(limitedBy.run());
    expect(rateLimit.exitCode).toBe(5);
    expect(rateLimit.hint).toBe('The limit resets at 2030-01-01T00:00:00Z (in 0 s), but nothing is left of --max-wait (60 s); run again, or allow a longer wait with --max-wait SECONDS.');
    // A budget of 0 (--max-wait itself is more than 0; IDM_MAX_WAIT too): the same words.
    const none = await setup(script([429, limited, { 'retry-after': '0' }], [200, {}]), { budget: retryBudget(0) });
    expect((await rejection(none.run())).hint).toContain('but nothing is left of --max-wait (0 s); run again,');
  });

  it('a fault backoff is cut to what is left of --max-wait; nothing left, no more attempts', async () => {
    const { run, server, waits } = await setup(script([502, '<html/>']), { budget: retryBudget(300), random: () => 1 });
    await rejection(run());
    expect(waits.map((w) => w.ms)).toEqual([300]);
    expect(server.seen).toHaveLength(2);
  });
});

