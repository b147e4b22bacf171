// The request log kept for tests is bounded (REQUEST_LOG_SIZE, README: Control endpoints): a sandbox
// that serves a CI pipeline for hours keeps the latest requests, not all of them.
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { REQUEST_LOG_CHARS, REQUEST_LOG_SIZE } from '../../src/sandbox/index.js';
import { call, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: {} });

describe('the request log', () => {
  it(`keeps the latest ${REQUEST_LOG_SIZE.toLocaleString('en')} to ${(REQUEST_LOG_SIZE + 1_000).toLocaleString('en')} requests, dropping the oldest`, async () => {
    const total = REQUEST_LOG_SIZE + 1_500;
    // In rounds of 50 at once: every request of a round is answered before the next round starts.
    for (let first = 0; first < total; first += 50) {
      const round = Array.from({ length: Math.min(50, total - first) }, (_, i) => first + i);
      const answers = await Promise.all(round.map((n) => call(sb(), 'GET', `/?n=${n}`)));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    }
    const { requests } = sb();
    expect(requests.length).toBeGreaterThanOrEqual(REQUEST_LOG_SIZE);
    expect(requests.length).toBeLessThan(REQUEST_LOG_SIZE + 1_000);
    const kept = requests.map((request) => Number(new URL(request.url, 'http://x').searchParams.get('n')));
    // The newest are all there; what was dropped is the oldest.
    expect(new Set(kept)).toEqual(new Set(Array.from({ length: requests.length }, (_, i) => total - requests.length + i)));
    expect(kept).not.toContain(0);
    // The control endpoint serves the same bounded log, and is not recorded itself.
    const listed = await call(sb(), 'GET', '/sandbox/requests');
    expect(listed.body).toHaveLength(requests.length);
    expect((await call(sb(), 'GET', '/sandbox/stats')).body.requests).toBe(requests.length);
  });
});

describe('the request log, for large bodies', () => {
  // Bodies may be 1 MiB each: bounded by count alone, 11,000 of them were 11 GB, and GET
  // /sandbox/requests answered 500 `Sandbox failure: Invalid string length` past some 500 of them.
  it(`keeps at most ${REQUEST_LOG_CHARS / 1024 / 1024} Mi characters, dropping the oldest; GET /sandbox/requests still answers`, async () => {
    const body = 'b'.repeat(1024 * 1024);
    const total = Math.ceil(REQUEST_LOG_CHARS / body.length) + 16;
    // Eight at a time, but the last one alone: requests sent together are logged in the order they
    // end, so only a request sent after the others is sure to be the newest.
    const post = (n: number) => call(sb(), 'POST', `/big?n=${n}`, { body, headers: { 'Content-Type': 'text/plain' } });
    for (let first = 0; first < total - 1; first += 8) {
      const round = Array.from({ length: Math.min(8, total - 1 - first) }, (_, i) => first + i);
      const answers = await Promise.all(round.map(post));
      expect(answers.every((answer) => answer.status === 404)).toBe(true);
    }
    expect((await post(total - 1)).status).toBe(404);
    const big = sb().requests.filter((request) => request.path === '/big');
    expect(big.length).toBeLessThan(total);
    expect(big.length).toBeGreaterThan(0);
    expect(sb().requests.reduce((sum, request) => sum + request.body.length, 0)).toBeLessThanOrEqual(REQUEST_LOG_CHARS);
    // What is kept is the newest, whole.
    expect(big.at(-1)!.url).toBe(`/big?n=${total - 1}`);
    expect(big.every((request) => request.body === body)).toBe(true);
    const listed = await call(sb(), 'GET', '/sandbox/requests');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(sb().requests.length);
  });
});

/** POSTs text to the HTTPS inbox (its certificate is the sandbox's own: not checked here, on loopback). */
function postToInbox(path: string, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${sb().inboxUrl}${path}`, { method: 'POST', rejectUnauthorized: false, headers: { 'Content-Type': 'text/plain' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe("the inbox's records, for large bodies", () => {
  // Unbounded before: anyone POSTing to the inbox grew it without end, and GET /sandbox/inbox answered
  // 500 `Sandbox failure: Invalid string length` past some 500 bodies of 1 MiB.
  it('are bounded as the request log is: the newest kept whole, GET /sandbox/inbox still answers', async () => {
    const body = 'i'.repeat(1024 * 1024);
    const total = Math.ceil(REQUEST_LOG_CHARS / body.length) + 16;
    // The last one alone, as for the request log: bodies sent together are kept in the order they end.
    for (let first = 0; first < total - 1; first += 8) {
      const round = Array.from({ length: Math.min(8, total - 1 - first) }, (_, i) => first + i);
      expect(await Promise.all(round.map((n) => postToInbox(`/big?n=${n}`, body)))).toEqual(round.map(() => 200));
    }
    expect(await postToInbox(`/big?n=${total - 1}`, body)).toBe(200);
    const kept = sb().inbox().filter((record) => record.path.startsWith('/inbox/big'));
    expect(kept.length).toBeLessThan(total);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.at(-1)!.path).toBe(`/inbox/big?n=${total - 1}`);
    expect(kept.every((record) => record.body === body)).toBe(true);
    expect(kept.reduce((sum, record) => sum + (record.body as string).length, 0)).toBeLessThanOrEqual(REQUEST_LOG_CHARS);
    const listed = await call(sb(), 'GET', '/sandbox/inbox');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(sb().inbox().length);
  });
});

describe('the request log shows headers as sent', () => {
  // Node keeps only the first of a repeated Authorization, Content-Type, User-Agent (and a few more)
  // in req.headers: the log showed one Authorization where a client had sent two.
  it('a repeated Authorization (or User-Agent) is recorded with every value', async () => {
    const { connect } = await import('node:net');
    const port = Number(new URL(sb().url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text)).on('error', reject);
      socket.write('GET /api/v2/event-streams?dup=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer first\r\nAuthorization: Bearer second\r\nUser-Agent: a\r\nUser-Agent: b\r\nConnection: close\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    const record = sb().requests.find((request) => request.url === '/api/v2/event-streams?dup=1')!;
    expect(record.headers.authorization).toBe('Bearer first, Bearer second');
    expect(record.headers['user-agent']).toBe('a, b');
    expect((await call(sb(), 'GET', '/sandbox/requests')).body.at(-1).headers.authorization).toBe('Bearer first, Bearer second');
  });
});
