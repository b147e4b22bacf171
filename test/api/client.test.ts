// The management client against a scripted server on loopback: headers, the token cache, the one
// retry after a 401, and the mapping of every kind of failure to a message and exit code.
import { readdirSync } from 'node:fs';
import { refusingPort } from '../helpers/ports.js';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { createManagement } from '../../src/api/management/index.js';
import { createDeps } from '../../src/cli/factory.js';
import type { GlobalOptions } from '../../src/cli/program.js';
import type { IO } from '../../src/io/io.js';
import { ApiError } from '../../src/core/errors.js';
import { captureIO, INSUFFICIENT_SCOPE_BODY } from '../helpers/deps.js';
import { fakeServer, json, tokenAnswer, type Handler } from '../helpers/fake-server.js';
import { credentialsEnv, tempConfigDir } from '../helpers/cli.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(handler: Handler, env: Record<string, string> = {}, globals: { timeout?: number; debug?: boolean; json?: boolean } = {}) {
  const server = await fakeServer(handler);
  cleanups.push(() => server.close());
  const { dir, cleanup } = tempConfigDir();
  cleanups.push(cleanup);
  const captured = captureIO({
    env: { IDM_CONFIG_DIR: dir, ...credentialsEnv(server.url, { clientId: 'cid', clientSecret: 'sekrit-value' }), ...env },
  });
  const client = () => clientFor(captured.io, globals);
  return { server, captured, client, dir };
}

/** The management client a command of this run would get: built by the factory from the flags. */
async function clientFor(io: IO, globals: Partial<GlobalOptions> = {}): Promise<ApiClient> {
  await io.configure({ json: Boolean(globals.json) });
  const deps = createDeps(io, () => ({ json: false, color: false, input: false, debug: false, ...globals }));
  cleanups.push(() => deps.close());
  return (await deps.api()).client;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

let tokens = 0;
const standard: Handler = (req, res) => {
  if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(++tokens));
  return json(res, 200, { eventStreams: [], extra: 1 });
};

describe('management client', () => {
  it('sends the token request form and the bearer token, and reuses the cached token in the next run', async () => {
    const { server, client } = await setup(standard);
    const first = await client();
    const answer = await first.request({ method: 'GET', path: '/event-streams', action: 'list event streams', query: { take: 5, from: undefined } });
    expect(answer.body).toEqual({ eventStreams: [], extra: 1 });
    const [token, list] = server.seen;
    expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token!.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'cid',
      client_secret: 'sekrit-value',
      audience: `${server.url}/api/v2/`,
    });
    expect(list!.url).toBe('/api/v2/event-streams?take=5');
    expect(list!.headers.authorization).toMatch(/^Bearer eyJ/);
    expect(list!.headers['user-agent']).toMatch(/^idm\/\d+\.\d+\.\d+/);
    await (await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' });
    expect(server.seen.filter((r) => r.url === '/oauth/token')).toHaveLength(1);
  });

  it('clients whose ids look alike in a file name keep separate token caches (no eviction run after run)', async () => {
    const { server, dir } = await setup(standard);
    const long = 'c'.repeat(100);
    const ids = ['cid/x', 'cid_x', 'cid:x', `${long}-one`, `${long}-two`];
    const run = async (clientId: string) => {
      const captured = captureIO({ env: { IDM_CONFIG_DIR: dir, ...credentialsEnv(server.url, { clientId, clientSecret: 'sekrit-value' }) } });
      const c = await clientFor(captured.io);
      try {
        await c.request({ method: 'GET', path: '/event-streams', action: 'list event streams' });
      } finally {
        await c.close();
      }
    };
    for (const id of [...ids, ...ids]) await run(id);
    expect(server.seen.filter((r) => r.url === '/oauth/token')).toHaveLength(ids.length);
    const files = readdirSync(join(dir, 'tokens')).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(ids.length);
    for (const file of files) expect(file).toMatch(/^http_127\.0\.0\.1_\d+_[\w.-]{1,64}_[0-9a-f]{16}\.json$/);
  });

  it('sends HTTP Basic credentials with IDM_AUTH_METHOD=basic', async () => {
    const { server, client } = await setup(standard, { IDM_AUTH_METHOD: 'basic' });
    await (await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' });
    expect(server.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('cid:sekrit-value').toString('base64')}`);
    expect(server.seen[0]!.body).not.toContain('client_secret');
  });

  it('after a 401 on a cached token drops it, fetches one new token and retries once; a second 401 is exit 4', async () => {
    let lists = 0;
    let refuse = false;
    const { server, client } = await setup((req, res) => {
      if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(++tokens));
      lists++;
      if (!refuse) return json(res, 200, { eventStreams: [] });
      return json(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid token.' });
    });
    await (await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }); // caches a token
    refuse = true;
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe('Could not list event streams: Invalid token (401 unauthorized).');
    expect(lists).toBe(3);
    expect(server.seen.filter((r) => r.url === '/oauth/token')).toHaveLength(2);
  });

  it('a 401 on a token fetched in this run asks for no second token', async () => {
    const { server, client } = await setup((req, res) => {
      if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(++tokens));
      return json(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid token.' });
    });
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.exitCode).toBe(4);
    expect(server.seen.map((r) => r.url)).toEqual(['/oauth/token', '/api/v2/event-streams']);
  });

  it('maps a 403 insufficient_scope to exit 4 naming the scope and the fix', async () => {
    const { client } = await setup((req, res) => {
      if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(++tokens));
      return json(res, 403, INSUFFICIENT_SCOPE_BODY);
    });
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams', scope: 'read:event_streams' }));
    expect(error.exitCode).toBe(4);
    expect(error.code).toBe('insufficient_scope');
    expect(error.message).toContain('lacks the scope read:event_streams');
    expect(error.hint).toContain('Grant the scope read:event_streams to client cid');
  });

  it('maps a 429 to exit 5 with the reset time from X-RateLimit-Reset', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120; // beyond --max-wait (60 s): no waiting
    const { client } = await setup((req, res) => {
      if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(++tokens));
      return json(res, 429, { statusCode: 429, error: 'Too Many Requests', message: 'Global limit has been reached', errorCode: 'too_many_requests' }, { 'x-ratelimit-reset': String(reset) });
    });
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.exitCode).toBe(5);
    expect(error.hint).toContain(new Date(reset * 1000).toISOString().replace('.000Z', 'Z'));
    expect(error.toJSON().error).toMatchObject({ status: 429, code: 'too_many_requests', resetAt: new Date(reset * 1000).toISOString(), exitCode: 5 });
  });

  it("treats the token endpoint's 500 'Global limit has been reached' as a rate limit", async () => {
    const { client } = await setup((_req, res) => json(res, 500, { error: 'server_error', error_description: 'Global limit has been reached' }, { 'retry-after': '120' }));
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.exitCode).toBe(5);
    expect(error.message).toContain('Global limit has been reached');
  });

  it('maps token endpoint refusals to exit 4 with the server words', async () => {
    const { client } = await setup((_req, res) => json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' }));
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe('Could not get an access token: Client authentication failed (401 invalid_client).');
  });

  it('reports an HTML 502, truncated JSON, an empty 200 and a redirect as exit 1 without crashing', async () => {
    const html502 = (res: import('node:http').ServerResponse) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    };
    // A GET meeting a 502 is tried 3 times (src/api/retry.ts): the proxy answers all three.
    const answers: Array<(res: import('node:http').ServerResponse) => void> = [
      html502,
      html502,
      html502,
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"eventStreams": [{"id": "est_');
      },
      (res) => {
        res.writeHead(200);
        res.end();
      },
      (res) => {
        res.writeHead(302, { location: 'https://elsewhere.example.com/' });
        res.end();
      },
    ];
    let i = 0;
    const { client } = await setup((req, res) => (req.url === '/oauth/token' ? json(res, 200, tokenAnswer(++tokens)) : answers[i++]!(res)));
    const c = await client();
    const messages: string[] = [];
    for (let n = 0; n < answers.length - 2; n++) {
      const error = await failure(c.request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
      expect(error.exitCode).toBe(1);
      messages.push(error.message);
    }
    expect(messages[0]).toMatch(/answered 502 Bad Gateway with a body that is not JSON/);
    expect(messages[1]).toMatch(/truncated or invalid JSON/);
    expect(messages[2]).toMatch(/an empty body/);
    expect(messages[3]).toBe('Could not list event streams: 127.0.0.1:' + new URL(c.baseUrl).port + ' answered 302, a redirect to https://elsewhere.example.com/.');
  });

  it('any 2xx is a success: a 200 where 201 is documented is read, an empty 200 where 204 is documented is no body; --debug says so', async () => {
    const { client, server, captured } = await setup(
      (req, res) => {
        if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(++tokens));
        if (req.method === 'POST') return json(res, 200, { id: 'est_1', name: 'n', extra: true });
        res.writeHead(200);
        res.end();
      },
      {},
      { debug: true },
    );
    const api = createManagement(await client());
    expect(await api.streams.create({ name: 'n' })).toEqual({ id: 'est_1', name: 'n', extra: true });
    await expect(api.streams.delete('est_1')).resolves.toBeUndefined();
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /oauth/token', 'POST /api/v2/event-streams', 'DELETE /api/v2/event-streams/est_1']);
    expect(captured.stderr()).toContain('(200 where 201 is documented for POST /event-streams: read as a success)');
    expect(captured.stderr()).toContain('(200 where 204 is documented for DELETE /event-streams/est_1: read as a success)');
    // Where a body is documented, an empty one is still a bad answer.
    const error = await failure(api.streams.get('est_1'));
    expect(error.message).toMatch(/answered 200 with an empty body/);
  });

  it('reports a closed port as a network failure naming the host (exit 1)', async () => {
    const refusing = await refusingPort();
    cleanups.push(() => refusing.close());
    const { port } = refusing;
    const { client } = await setup(standard, { IDM_DOMAIN: `http://127.0.0.1:${port}` });
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.exitCode).toBe(1);
    expect(error.code).toBe('network');
    expect(error.message).toContain(`could not reach 127.0.0.1:${port}: the connection was refused`);
  });

  it('gives up on a server that never answers after --timeout, naming the host', async () => {
    const { client, server } = await setup((req, res) => {
      if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(++tokens));
      // never answers
      void res;
    }, {}, { timeout: 0.3 });
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain(`${new URL(server.url).host} did not answer within 0.3 s`);
  });

  it('--debug traces requests and answers with every secret redacted', async () => {
    const { client, captured } = await setup(standard, {}, { debug: true });
    await (await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' });
    const trace = captured.stderr();
    expect(trace).toContain('> POST');
    expect(trace).toContain('< 200');
    expect(trace).toContain('client_secret=[redacted]');
    expect(trace).toContain('authorization: Bearer [redacted]');
    expect(trace).toContain('"access_token":"[redacted]"');
    expect(trace).not.toContain('sekrit-value');
    expect(trace).not.toMatch(/eyJhbGciOiJub25lIn0\.\w+/);
  });

  it('a short secret (4+ characters) is masked by value in --debug traces and in error messages', async () => {
    const { client, captured } = await setup(
      (req, res) =>
        req.url === '/oauth/token'
          ? json(res, 401, { error: 'invalid_client', error_description: 'wrong secret s3cr5 for cid' })
          : json(res, 200, { eventStreams: [] }),
      { IDM_CLIENT_SECRET: 's3cr5' },
      { debug: true },
    );
    const error = await failure((await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' }));
    expect(error.message).toBe('Could not get an access token: wrong secret [redacted] for cid (401 invalid_client).');
    expect(captured.stderr()).toContain('< 401');
    expect(captured.stderr()).not.toContain('s3cr5');
  });

  it('--debug with --json: one {"debug": ...} object per request and per answer, still redacted', async () => {
    const { client, captured } = await setup(standard, {}, { debug: true, json: true });
    await (await client()).request({ method: 'GET', path: '/event-streams', action: 'list event streams' });
    const lines = captured.stderr().trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => Object.keys(line))).toEqual([['debug'], ['debug'], ['debug'], ['debug']]);
    expect(lines[0].debug).toMatch(/^> POST http:\/\/127\.0\.0\.1:\d+\/oauth\/token\n/);
    expect(lines[0].debug).toContain('client_secret=[redacted]');
    expect(captured.stderr()).not.toContain('sekrit-value');
  });
});
