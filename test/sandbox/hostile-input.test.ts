// Hostile input over real HTTP: what a client may send that no real client would. The sandbox answers
// it as an error and stays whole: every later answer, the control endpoints included, still works.
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { connect } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/sandbox/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});

/**
 * Sends a raw HTTP/1.1 request (what fetch would refuse to send) and reads the whole answer: to the
 * tenant, or to the HTTPS inbox (its certificate is the sandbox's own: not checked here, on loopback).
 */
function rawRequest(head: string, to: 'tenant' | 'inbox' = 'tenant'): Promise<string> {
  return new Promise((resolve, reject) => {
    const port = Number(new URL(to === 'inbox' ? sb().inboxUrl : sb().url).port);
    const socket = to === 'inbox' ? connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }) : connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** POSTs a JSON text to the HTTPS inbox (its certificate is the sandbox's own: not checked here, on loopback). */
function postToInbox(path: string, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${sb().inboxUrl}${path}`, { method: 'POST', rejectUnauthorized: false, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe('deeply nested JSON', () => {
  it('a test event whose data nests 100,000 deep is refused (400 invalid_body) and leaves the deliveries readable', async () => {
    const deliveriesBefore = sb().deliveries().length;
    const res = await call(sb(), 'POST', `/api/v2/event-streams/${DEMO_IDS.eventbus}/test`, {
      token,
      body: `{"event_type":"user.created","data":{"a":${nested(100_000)}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation error: 'The payload is nested deeper than 100 levels'.",
      errorCode: 'invalid_body',
    });
    expect(sb().deliveries()).toHaveLength(deliveriesBefore);
    expect((await call(sb(), 'GET', '/sandbox/deliveries')).status).toBe(200);
  });

  it('data nested 99 deep (100 with the body) is taken, and brackets inside strings do not count', async () => {
    const res = await call(sb(), 'POST', `/api/v2/event-streams/${DEMO_IDS.eventbus}/test`, {
      token,
      body: `{"event_type":"user.created","data":{"a":${nested(98)},"b":"${'['.repeat(500)}"}}`,
    });
    expect(res.status).toBe(202);
    await sb().idle();
    expect((await call(sb(), 'GET', '/sandbox/deliveries')).status).toBe(200);
  });

  it('the inbox keeps a body too deep to answer again as text, and GET /sandbox/inbox still answers', async () => {
    expect(await postToInbox('/deep', nested(100_000))).toBe(200);
    const inbox = await call(sb(), 'GET', '/sandbox/inbox');
    expect(inbox.status).toBe(200);
    const deep = inbox.body.find((entry: { path: string }) => entry.path === '/inbox/deep');
    expect(typeof deep.body).toBe('string');
  });
});

describe('large bodies at the inbox', () => {
  // Reviewed defect: the inbox read bodies up to the tenant's own limit, 1 MiB, and kept a larger one
  // as '' while answering 200: a test event whose data was near 1 MiB was delivered 'success', and
  // GET /sandbox/inbox showed an empty body.
  it('a test event with the largest data the tenant takes is kept whole', async () => {
    // The request is 1 MiB to the byte, the tenant's limit; the envelope delivered is larger.
    const blob = 'x'.repeat(1024 * 1024 - JSON.stringify({ event_type: 'user.created', data: { object: { blob: '' } } }).length);
    const res = await call(sb(), 'POST', `/api/v2/event-streams/${DEMO_IDS.inboxBearer}/test`, { token, body: { event_type: 'user.created', data: { object: { blob } } } });
    expect(res.status).toBe(202);
    await sb().idle();
    const record = sb().inbox().findLast((one) => one.path === '/inbox/demo-bearer')!;
    expect((record.body as { id: string; data: { object: { blob: string } } }).id).toBe(res.body.id);
    expect((record.body as { data: { object: { blob: string } } }).data.object.blob).toBe(blob);
    expect(sb().deliveries().at(-1)!.record.status).toBe('success');
  });

  it('a test event whose numbers grow when written again (1e20 is sent as 21 digits) is kept whole', async () => {
    // Reviewed defect: the inbox kept bodies up to 2 MiB, but the tenant delivers its event as
    // JSON.stringify writes it, where 1e20 takes 21 digits: a test request the tenant took (1 MiB of
    // such numbers) was delivered as 4.4 MiB, refused 413 by the sandbox's own inbox, and failed.
    const empty = JSON.stringify({ event_type: 'user.created', data: { object: { n: [] } } }).length;
    const n = Math.floor((1024 * 1024 - empty + 1) / '1e20,'.length);
    const body = `{"event_type":"user.created","data":{"object":{"n":[${Array(n).fill('1e20').join(',')}]}}}`;
    expect(body.length).toBeLessThanOrEqual(1024 * 1024);
    const res = await call(sb(), 'POST', `/api/v2/event-streams/${DEMO_IDS.inboxBearer}/test`, { token, body });
    expect(res.status).toBe(202);
    await sb().idle();
    expect(sb().deliveries().at(-1)!.record.status).toBe('success');
    const record = sb().inbox().findLast((one) => one.path === '/inbox/demo-bearer')!;
    expect((record.body as { id: string }).id).toBe(res.body.id);
    const numbers = (record.body as { data: { object: { n: number[] } } }).data.object.n;
    expect(numbers).toHaveLength(n);
    expect(numbers.every((one) => one === 1e20)).toBe(true);
  });

  it('a body over its limit (5 MiB) is refused 413 and recorded without it, not taken as received', async () => {
    expect(await postToInbox('/huge', 'y'.repeat(5 * 1024 * 1024 + 1))).toBe(413);
    expect(sb().inbox().at(-1)).toMatchObject({ path: '/inbox/huge', body: '' });
  });
});

describe('request-targets that are no URL', () => {
  it.each(['GET //[ HTTP/1.1', 'GET http://a:b HTTP/1.1', 'POST http://[::1/api/v2/event-streams HTTP/1.1'])('%s: 400 in the management shape, recorded', async (line) => {
    const answer = await rawRequest(line);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Invalid request URL' });
    const target = line.split(' ')[1]!;
    expect(sb().requests.at(-1)).toMatchObject({ method: line.split(' ')[0], url: target, status: 400 });
  });
});

describe("requests Node's parser refuses: its status, with a body in the management shape", () => {
  const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  it.each([
    ['headers over the limit', `GET / HTTP/1.1\r\nX-Big: ${'a'.repeat(17_000)}`, 431, 'Request Header Fields Too Large', /^The request headers are larger than the sandbox reads \(\d+ bytes in all\)\.$/],
    ['a method HTTP does not have', 'BREW / HTTP/1.1', 400, 'Bad Request', /^The request is not valid HTTP\/1\.1 \(HPE_INVALID_METHOD\)\.$/],
    ['an Expect other than 100-continue', 'GET /api/v2/event-streams HTTP/1.1\r\nExpect: magic', 417, 'Expectation Failed', /^The sandbox takes no Expect header but Expect: 100-continue\.$/],
  ])('%s', async (_name, head, status, error, message) => {
    const answer = await rawRequest(head);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} ${error}\r\n`));
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(body(answer)).toEqual({ statusCode: status, error, message: expect.stringMatching(message) });
    expect((await call(sb(), 'GET', '/sandbox/stats')).status).toBe(200);
  });
});

describe('CONNECT (the sandbox given as a proxy: HTTPS_PROXY, curl -x)', () => {
  // Reviewed defect: Node closed the connection without an answer (curl: 'Proxy CONNECT aborted').
  it('is answered 405 in the management shape, then closed', async () => {
    const answer = await rawRequest('CONNECT example.com:443 HTTP/1.1');
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: 'This is an idm sandbox tenant, not a proxy: it takes no CONNECT. Send requests to it directly, not through it.',
    });
    expect((await call(sb(), 'GET', '/sandbox/stats')).status).toBe(200);
  });
});

describe('an Expect other than 100-continue on the token endpoint', () => {
  // Reviewed defect: the 417 was in the management shape there too, where the token endpoint's errors are OAuth's.
  it.each(['/oauth/token', '/oauth/token/'])('%s: 417 {error, error_description}', async (path) => {
    const answer = await rawRequest(`POST ${path} HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\nExpect: magic`);
    expect(answer).toMatch(/^HTTP\/1\.1 417 Expectation Failed\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'invalid_request', error_description: 'The sandbox takes no Expect header but Expect: 100-continue.' });
  });
});

describe('the inbox records headers as sent', () => {
  // Reviewed defect: it kept the first of a repeated Authorization (Node's req.headers), where the
  // request log shows every value: a webhook sender that sends two was recorded as sending one.
  it('a repeated Authorization (or User-Agent) is recorded with every value', async () => {
    const answer = await rawRequest('POST /inbox/twice HTTP/1.1\r\nAuthorization: Bearer first\r\nAuthorization: Bearer second\r\nUser-Agent: a\r\nUser-Agent: b\r\nContent-Length: 0', 'inbox');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(sb().inbox().at(-1)!.headers).toMatchObject({ authorization: 'Bearer first, Bearer second', 'user-agent': 'a, b' });
  });
});

describe('the inbox, asked in plain HTTP', () => {
  // Reviewed defect: the connection was closed without an answer (curl: 'Empty reply from server'),
  // where the tenant's HTTPS port answers such a request 400 naming the https:// URL.
  it('answers 400 naming the https:// URL, and goes on taking deliveries', async () => {
    const { origin } = new URL(sb().inboxUrl);
    const res = await fetch(`${origin.replace(/^https:/, 'http:')}/inbox/plain`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(`This port serves HTTPS, and a plain HTTP request was sent to it: send it to ${origin}.`);
    expect(await postToInbox('/after-plain', '{}')).toBe(200);
  });
});

describe('the inbox, for a request-target that is no URL', () => {
  it('answers 400 and keeps taking deliveries (it dropped the connection)', async () => {
    const answer = await rawRequest('POST //[ HTTP/1.1', 'inbox');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'bad request', message: 'Invalid request URL' });
    expect(await postToInbox('/after', '{}')).toBe(200);
  });
});

describe('the token endpoint answers in its own shape, with the rate-limit headers', () => {
  const large = 'a'.repeat(1024 * 1024 + 1);

  it('a body over 1 MiB: 413 {error, error_description}', async () => {
    const res = await call(sb(), 'POST', '/oauth/token', { body: large, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: 'Payload content length greater than maximum allowed: 1048576' });
    expect(res.headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it('a GET: 405 with Allow and the rate-limit headers', async () => {
    const res = await call(sb(), 'GET', '/oauth/token');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body.error).toBe('invalid_request');
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  it('a management body over 1 MiB: 413 in the management shape, with the rate-limit headers', async () => {
    const res = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: large });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'Payload content length greater than maximum allowed: 1048576' });
    expect(res.headers.get('x-ratelimit-limit')).toBe('10000');
  });
});

describe('HEAD', () => {
  // RFC 9110: every server supports GET and HEAD; the service answers HEAD as GET without the body.
  // The sandbox answered 405 on every GET route and 404 on `/` (so `curl -sfI "$url/"` never saw it up).
  it('is answered as GET, with its status and headers and no body, and recorded as HEAD', async () => {
    const path = '/api/v2/event-streams?take=2';
    const get = await call(sb(), 'GET', path, { token });
    const head = await call(sb(), 'HEAD', path, { token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(sb().requests.at(-1)).toMatchObject({ method: 'HEAD', path: '/api/v2/event-streams', status: 200 });
    expect((await call(sb(), 'HEAD', path)).status).toBe(401);
    expect((await call(sb(), 'HEAD', '/')).status).toBe(200);
    expect((await call(sb(), 'HEAD', '/.well-known/jwks.json')).status).toBe(200);
    expect((await call(sb(), 'HEAD', '/sandbox/stats')).status).toBe(200);
    // The raw answer has no body after the headers, and the connection is still usable.
    const raw = await rawRequest(`HEAD /api/v2/event-streams/${DEMO_IDS.inboxBearer}`);
    expect(raw.startsWith('HTTP/1.1 401')).toBe(true);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
  });
});

describe('a request-target that begins with //', () => {
  // It is a path whose first segment is empty (RFC 9112 origin-form), not a host: it was read as
  // `//host/path`, so `//127.0.0.1/api/v2/event-streams` was answered (and recorded) as
  // `/api/v2/event-streams`, where the service answers 404 for the path sent.
  it('is routed and recorded as the path it is', async () => {
    const answer = await rawRequest(`GET //127.0.0.1/api/v2/event-streams HTTP/1.1\r\nAuthorization: Bearer ${token}`);
    expect(answer).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(sb().requests.at(-1)).toMatchObject({ url: '//127.0.0.1/api/v2/event-streams', path: '//127.0.0.1/api/v2/event-streams', status: 404 });
    expect(await rawRequest('GET //sandbox/stats HTTP/1.1')).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
  });
});

describe('more than one Host header', () => {
  // Reviewed defect: the first Host was judged and the rest ignored, so `Host: 127.0.0.1` then
  // `Host: rebind.attacker.example` was served, where RFC 9112 3.2 has a server answer 400.
  const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  const message = 'The request has more than one Host header: send one (RFC 9112, section 3.2).';
  it.each(['/sandbox/requests', '/api/v2/event-streams', '/'])('%s: 400 in the management shape, nothing served', async (path) => {
    const answer = await rawRequest(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: rebind.attacker.example`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(body(answer)).toEqual({ statusCode: 400, error: 'Bad Request', message });
  });

  it('the token endpoint: 400 in its own shape; the same host twice too', async () => {
    const answer = await rawRequest('POST /oauth/token HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\nHost: 127.0.0.1');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(body(answer)).toEqual({ error: 'invalid_request', error_description: message });
    expect((await call(sb(), 'GET', '/sandbox/stats')).status).toBe(200);
  });
});

describe('an absolute-form request-target (GET http://host/path) that names another host', () => {
  // Reviewed defect: the Host header was judged and the target's host ignored, so
  // `GET http://rebind.attacker.example/sandbox/requests` with `Host: 127.0.0.1` was served, where
  // RFC 9112 3.2.2 has a server take the target's host and ignore Host.
  const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  const message = 'This sandbox answers requests for 127.0.0.1 and localhost only (the request-target names another host).';
  it.each(['/sandbox/requests', '/api/v2/event-streams'])('%s: 403 whatever the Host header says', async (path) => {
    const answer = await rawRequest(`GET http://rebind.attacker.example${path} HTTP/1.1`);
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(body(answer)).toEqual({ statusCode: 403, error: 'Forbidden', message });
  });

  it('the token endpoint: 403 in its own shape; a loopback target is served', async () => {
    const answer = await rawRequest('POST http://rebind.attacker.example/oauth/token HTTP/1.1\r\nContent-Length: 0');
    expect(body(answer)).toEqual({ error: 'access_denied', error_description: message });
    const port = new URL(sb().url).port;
    for (const target of [`http://127.0.0.1:${port}/sandbox/stats`, 'http://localhost/sandbox/stats']) {
      expect(await rawRequest(`GET ${target} HTTP/1.1`)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    }
  });
});

describe('no Host header', () => {
  // Reviewed defect: an HTTP/1.1 request without Host got Node's bare 400, no body (Node's own check,
  // before the handler), where every other refusal of the tenant has one.
  function send(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(sb().url).port), '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.write(text);
    });
  }
  const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  const message = 'The request has no Host header, which HTTP/1.1 requires: send one (RFC 9112, section 3.2).';

  it('HTTP/1.1: 400 with a body, in the token endpoint\'s shape there', async () => {
    const api = await send('GET /api/v2/event-streams HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(api).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(api).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(body(api)).toEqual({ statusCode: 400, error: 'Bad Request', message });
    const token = await send('POST /oauth/token HTTP/1.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    expect(token).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(body(token)).toEqual({ error: 'invalid_request', error_description: message });
  });

  it('HTTP/1.0, which has no Host, is served', async () => {
    const answer = await send('GET /sandbox/stats HTTP/1.0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(body(answer)).toHaveProperty('streams');
  });
});

describe('a Host header that names another host (a web page after DNS rebinding)', () => {
  // Reviewed defect: the sandbox answered whatever Host a request named, so a web page whose name
  // was made to resolve to 127.0.0.1 was its own origin to the browser: it read GET /sandbox/requests,
  // the client secrets sent included, and could arm faults or fetch tokens.
  function get(path: string, host: string, method = 'GET'): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${sb().url}${path}`, { method, headers: { host } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('is refused with 403 on the control and management endpoints; loopback names are served', async () => {
    const port = new URL(sb().url).port;
    for (const path of ['/sandbox/requests', '/sandbox/stats', '/api/v2/event-streams']) {
      for (const host of [`rebind.attacker.example:${port}`, 'rebind.attacker.example', `127.0.0.1.attacker.example:${port}`, `localhost.attacker.example:${port}`, `localhost..:${port}`, `evil.localhost.:${port}`]) {
        const answer = await get(path, host);
        expect(answer.status).toBe(403);
        expect(JSON.parse(answer.text)).toEqual({ statusCode: 403, error: 'Forbidden', message: 'This sandbox answers requests for 127.0.0.1 and localhost only (the Host header names another host).' });
      }
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', '127.0.0.1', `localhost.:${port}`, 'LocalHost.', `127.0.0.1.:${port}`]) expect((await get('/sandbox/stats', host)).status).toBe(200);
  });

  it('that is no host and port is 400, though the URL parser reads a loopback name out of it', async () => {
    // Reviewed defect: `evil.example@127.0.0.1`, `127.0.0.1/evil`, `localhost\\evil` were served as
    // loopback names, where RFC 9112 3.2 has a server answer 400 to a Host with an invalid value.
    for (const host of ['evil.example@127.0.0.1', '127.0.0.1/evil', '127.0.0.1#.evil.example', '127.0.0.1?x', 'localhost\\evil']) {
      const answer = await get('/sandbox/requests', host);
      expect([host, answer.status]).toEqual([host, 400]);
      expect(JSON.parse(answer.text)).toEqual({ statusCode: 400, error: 'Bad Request', message: 'The Host header is not a host with an optional port (RFC 9112, section 3.2).' });
    }
    const token = await get('/oauth/token', 'evil.example@127.0.0.1', 'POST');
    expect(JSON.parse(token.text)).toEqual({ error: 'invalid_request', error_description: 'The Host header is not a host with an optional port (RFC 9112, section 3.2).' });
    const port = new URL(sb().url).port;
    for (const host of [`[::1]:${port}`, '127.0.0.1:']) expect((await get('/sandbox/stats', host)).status).toBe(200);
  });

  it('is refused on the token endpoint in its own shape, {error, error_description}', async () => {
    // Reviewed defect: the token endpoint's 403 was written in the management shape, which an OAuth
    // client reads no error code from.
    const port = new URL(sb().url).port;
    for (const path of ['/oauth/token', '/oauth/token/']) {
      const answer = await get(path, `rebind.attacker.example:${port}`, 'POST');
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toEqual({ error: 'access_denied', error_description: 'This sandbox answers requests for 127.0.0.1 and localhost only (the Host header names another host).' });
    }
  });
});
