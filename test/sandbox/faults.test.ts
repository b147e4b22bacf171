// Fault injection: status, reset, stall, latency; count, path and method matching; runtime control.
// Each test arms the faults it needs on a sandbox without any (they are disarmed after every test),
// so that any one of them runs alone (-t) as in the file; the faults armed at start have a sandbox
// of their own.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { credentialsEnv, runIdm, tempConfigDir } from '../helpers/cli.js';
import { call, getToken, useSandbox, type Sandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
afterEach(() => sb().clearFaults());
const streams = (token: string, sandbox: Sandbox = sb()) => call(sandbox, 'GET', '/api/v2/event-streams?take=1', { token });

describe('faults', () => {
  it('a fault set at start answers the next matching request, then the sandbox behaves again', async () => {
    const own = await startSandbox({ faults: [{ kind: 'status', status: 503, path: '/api/v2/event-streams', method: 'GET', count: 1 }] });
    try {
      const token = await getToken(own); // POST /oauth/token does not match
      const first = await streams(token, own);
      expect(first.status).toBe(503);
      expect(first.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' });
      expect((await streams(token, own)).status).toBe(200);
      // Recorded like any request.
      expect(own.requests.filter((r) => r.path === '/api/v2/event-streams').map((r) => r.status)).toEqual([503, 200]);
    } finally {
      await own.close();
    }
  });

  it('a raw body and extra headers (an HTML 502 from a proxy), for N requests', async () => {
    const token = await getToken(sb());
    sb().addFault({ kind: 'status', status: 502, body: '<html><body>Bad Gateway</body></html>', headers: { 'X-Proxy': 'edge' }, count: 2 });
    for (let n = 0; n < 2; n++) {
      const res = await streams(token);
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('x-proxy')).toBe('edge');
      expect(res.text).toBe('<html><body>Bad Gateway</body></html>');
    }
    expect((await streams(token)).status).toBe(200);
  });

  it('a 429 fault carries the rate-limit headers; on the token endpoint, the token shape and Retry-After', async () => {
    const token = await getToken(sb());
    sb().addFault({ kind: 'status', status: 429, path: '/api/v2' });
    const before = Date.now();
    const api = await streams(token);
    const after = Date.now();
    expect(api.status).toBe(429);
    expect(api.body.errorCode).toBe('too_many_requests');
    // Unix seconds, a second or two after the answer (clocks read around it: no assertion on speed).
    expect(Number(api.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(before / 1000 + 1);
    expect(Number(api.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(after / 1000 + 2);
    sb().addFault({ kind: 'status', status: 429, path: '/oauth/token', headers: { 'Retry-After': '7' } });
    const res = await call(sb(), 'POST', '/oauth/token', { body: 'grant_type=client_credentials', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'too_many_requests', error_description: 'Global limit has been reached' });
    expect(res.headers.get('retry-after')).toBe('7');
  });

  it("on the token endpoint, a 401 or 403 fault answers what the service answers (wire-facts.md), and idm gives that answer's fix", async () => {
    const tokenCall = () =>
      call(sb(), 'POST', '/oauth/token', {
        body: `grant_type=client_credentials&client_id=${sb().clients.admin.clientId}&client_secret=${sb().clients.admin.clientSecret}&audience=${encodeURIComponent(`${sb().url}/api/v2/`)}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    sb().addFault({ kind: 'status', status: 401, path: '/oauth/token' });
    const refused = await tokenCall();
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });
    sb().addFault({ kind: 'status', status: 403, path: '/oauth/token' });
    const denied = await tokenCall();
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      error: 'access_denied',
      error_description: `Client is not authorized to access "${sb().url}/api/v2/". You need to create a "client-grant" associated to this API.`,
    });
    sb().addFault({ kind: 'status', status: 400, path: '/oauth/token' });
    expect((await tokenCall()).body).toEqual({ error: 'invalid_request', error_description: 'Bad Request' });
    expect((await tokenCall()).status).toBe(200);
    // A 2xx fault is no error: it was answered {error: 'invalid_request', error_description: 'OK'} with status 200.
    sb().addFault({ kind: 'status', status: 200, path: '/oauth/token' });
    const ok = await tokenCall();
    expect([ok.status, ok.body]).toEqual([200, {}]);

    // idm (the binary) gives the fix for what the service said: a client grant, not a wrong secret.
    const { dir, cleanup } = tempConfigDir();
    try {
      sb().addFault({ kind: 'status', status: 403, path: '/oauth/token' });
      const result = await runIdm(['streams', 'list', '--json'], { configDir: dir, env: credentialsEnv(sb()) });
      expect(result.code).toBe(4);
      const error = JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!).error;
      expect(error).toMatchObject({ status: 403, code: 'access_denied' });
      expect(error.hint).toContain('(a client grant)');
    } finally {
      cleanup();
    }
  });

  it('matches method and path: other requests pass untouched', async () => {
    const token = await getToken(sb());
    sb().addFault({ kind: 'status', status: 500, method: 'POST', path: '/api/v2/event-streams' });
    expect((await streams(token)).status).toBe(200);
    const res = await call(sb(), 'POST', '/api/v2/event-streams/est_demoEventbus0000000000/test', { token, body: { event_type: 'user.created' } });
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Internal Server Error');
  });

  it('reset destroys the connection', async () => {
    const token = await getToken(sb());
    sb().addFault({ kind: 'reset', path: '/api/v2' });
    await expect(streams(token)).rejects.toThrow();
    expect(sb().requests.at(-1)).toMatchObject({ path: '/api/v2/event-streams', status: 0 });
    expect((await streams(token)).status).toBe(200);
  });

  it('stall never answers (the client gives up)', async () => {
    const token = await getToken(sb());
    sb().addFault({ kind: 'stall', path: '/api/v2' });
    const before = sb().requests.length;
    const stop = new AbortController();
    let settled = false;
    const res = fetch(`${sb().url}/api/v2/event-streams`, { headers: { Authorization: `Bearer ${token}` }, signal: stop.signal }).finally(() => (settled = true));
    // Given up once the sandbox has the request (a state, not a time): unanswered until then.
    await vi.waitFor(() => expect(sb().requests.length).toBeGreaterThan(before), { timeout: 30_000 });
    expect(settled).toBe(false);
    stop.abort();
    await expect(res).rejects.toThrow(/abort/i);
    expect(sb().requests.at(-1)).toMatchObject({ path: '/api/v2/event-streams', status: 0 });
  });

  it('latency delays the answer and then answers normally', async () => {
    const token = await getToken(sb());
    sb().addFault({ kind: 'latency', ms: 500, path: '/api/v2' });
    const before = Date.now();
    expect((await streams(token)).status).toBe(200);
    // A lower bound only (a busy machine makes it longer, never shorter); 10 ms for clock rounding.
    expect(Date.now() - before).toBeGreaterThanOrEqual(490);
    expect((await call(sb(), 'GET', '/sandbox/faults')).body).toEqual({ faults: [] });
  });

  it('is controlled over HTTP: POST, GET and DELETE /sandbox/faults', async () => {
    const token = await getToken(sb());
    const added = await call(sb(), 'POST', '/sandbox/faults', { body: [{ kind: 'status', status: 500, count: 'Infinity', path: '/api/v2' }] });
    expect(added.status).toBe(201);
    expect(added.body.faults).toEqual([{ kind: 'status', status: 500, count: 'Infinity', remaining: 'Infinity', path: '/api/v2' }]);
    expect((await streams(token)).status).toBe(500);
    expect((await streams(token)).status).toBe(500);
    expect((await call(sb(), 'DELETE', '/sandbox/faults')).status).toBe(204);
    expect((await streams(token)).status).toBe(200);

    const bad = await call(sb(), 'POST', '/sandbox/faults', { body: { kind: 'status' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('status');
    expect((await call(sb(), 'POST', '/sandbox/faults', { body: { kind: 'explode' } })).status).toBe(400);
  });

  it('close() ends a stalled connection promptly', async () => {
    const own = await startSandbox({ seed: {}, faults: [{ kind: 'stall' }] });
    try {
      const pending = fetch(`${own.url}/api/v2/event-streams`).then(
        () => 'answered',
        () => 'failed',
      );
      // Closed once the sandbox holds the stalled request (a state, bounded so that a failure says so).
      await vi.waitFor(() => expect(own.requests).toHaveLength(1), { timeout: 30_000 });
      await own.close();
      expect(await pending).toBe('failed');
    } finally {
      await own.close();
    }
  });
});

describe('status faults: statuses that have no body, and none that is no answer', () => {
  it('an informational status (1xx) is refused when armed, naming the field; nothing is armed', async () => {
    const before = (await call(sb(), 'GET', '/sandbox/faults')).body.faults.length;
    const res = await call(sb(), 'POST', '/sandbox/faults', { body: { kind: 'status', status: 101 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid fault: status: must be at least 200');
    expect((await call(sb(), 'GET', '/sandbox/faults')).body.faults).toHaveLength(before);
    expect(() => sb().addFault({ kind: 'status', status: 100 })).toThrow();
  });

  it('a 204 fault answers without a body or Content-Length, and the connection serves the next request', async () => {
    const token = await getToken(sb());
    sb().addFault({ kind: 'status', status: 204, path: '/api/v2/event-streams', count: 1 });
    const res = await streams(token);
    expect(res.status).toBe(204);
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.text).toBe('');
    expect((await streams(token)).status).toBe(200);
  });
});

describe("a fault's headers are checked when it is armed", () => {
  // Before, these were armed (201) and every matching request was then answered 500 "Sandbox
  // failure: Header name must be a valid HTTP token", or framed wrongly (a Content-Length of the
  // fault's own beside the sandbox's).
  it.each([
    [{ 'X\nY': '1' }, 'is not a valid header name'],
    [{ 'X-Note': 'caf\u00e9\u0100' }, 'must be printable ASCII, without line breaks or spaces around it'],
    [{ 'X-Note': 'a\r\nSet-Cookie: x=1' }, 'must be printable ASCII, without line breaks or spaces around it'],
    [{ 'content-length': '1' }, 'is set by the sandbox itself (it frames every answer)'],
    [{ 'Transfer-Encoding': 'chunked' }, 'is set by the sandbox itself (it frames every answer)'],
  ])('%j: 400 naming the header, nothing armed, the next request answered normally', async (headers, problem) => {
    const res = await call(sb(), 'POST', '/sandbox/faults', { body: { kind: 'status', status: 503, headers } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`Invalid fault: headers.${Object.keys(headers)[0]}: ${problem}`);
    expect((await call(sb(), 'GET', '/sandbox/faults')).body.faults).toEqual([]);
    expect(() => sb().addFault({ kind: 'status', status: 503, headers })).toThrow();
    expect((await call(sb(), 'GET', '/')).status).toBe(200);
  });

  it('ordinary headers are still added (Retry-After, a proxy header, an empty value)', async () => {
    sb().addFault({ kind: 'status', status: 503, path: '/', headers: { 'Retry-After': '3', 'X-Proxy': 'edge node', 'X-Empty': '' } });
    const res = await call(sb(), 'GET', '/');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('x-proxy')).toBe('edge node');
  });
});

describe('a bad fault is refused with what is wrong in words', () => {
  // Before: count 0 was refused as 'must be at least 0' (positive() is > 0), and a path without its
  // leading slash as 'is not a valid starts_with'.
  it.each([
    [{ kind: 'status', status: 503, count: 0 }, 'Invalid fault: count: must be greater than 0'],
    [{ kind: 'status', status: 503, path: 'api/v2' }, 'Invalid fault: path: must begin with /'],
  ])('%j', async (fault, message) => {
    const res = await call(sb(), 'POST', '/sandbox/faults', { body: fault });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await call(sb(), 'GET', '/sandbox/faults')).body.faults).toEqual([]);
  });
});
