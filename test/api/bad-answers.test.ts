// Bad answers from the server, through the built binary: the sandbox's faults answer in place of the
// service (HTML pages, truncated or empty bodies, wrong types, 65 MB, redirects), and a raw TCP server
// speaks broken HTTP. Each gives a clear error and exit 1, or a tolerant display; never a crash
// (an "Unexpected error" or a stack trace) and never a hang.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Server, type Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../src/api/http.js';
import { Redactor } from '../../src/api/redact.js';
import { InterruptedError } from '../../src/core/errors.js';
import type { FaultSpec } from '../../src/sandbox/index.js';
import { credentialsEnv, runInProcess, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { fakeServer, tokenAnswer } from '../helpers/fake-server.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const STREAM = 'est_demoInboxBearer0000000';
const CONNECTION = 'con_googleAppsDemo01';
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

/** No crash: neither the catch-all message nor a stack trace, and the process exited by itself. */
function noCrash(result: RunResult): void {
  expect(result.signal).toBeNull();
  expect(result.stderr).not.toContain('Unexpected error');
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

const json = (status: number, body: unknown, extra: Partial<FaultSpec> = {}): FaultSpec => ({
  kind: 'status',
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json; charset=utf-8' },
  ...extra,
});

const LIST = ['streams', 'list'];
const TEST = ['streams', 'test', STREAM, '--event-type', 'user.created'];
const CREATE = ['provisioning', 'create', CONNECTION];
const paths = { list: '/api/v2/event-streams', test: `/api/v2/event-streams/${STREAM}/test`, create: `/api/v2/connections/${CONNECTION}/directory-provisioning` };

describe('answers idm cannot use: exit 1 with what was wrong', () => {
  const host = () => new URL(h.sandbox.url).host;
  it.each([
    ['an HTML 502 page (three times: a GET is retried)', LIST, paths.list, { kind: 'status', status: 502, body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>', count: 3 }, /answered 502 Bad Gateway with a body that is not JSON/],
    ['truncated JSON', LIST, paths.list, json(200, '{"eventStreams": [{"id": "est_'), /answered 200 with truncated or invalid JSON/],
    ['a 200 with an empty body', LIST, paths.list, json(200, ''), /answered 200 with an empty body/],
    ['eventStreams that is not a list', LIST, paths.list, json(200, { eventStreams: { id: 'est_1' } }), /answered 200 with no eventStreams list/],
    ['an array instead of the page', LIST, paths.list, json(200, [{ id: 'est_1' }]), /answered 200 with an array instead of a page of eventStreams/],
    ['JSON null', LIST, paths.list, json(200, 'null'), /answered 200 with null instead of a page of eventStreams/],
    ['a test answered with an array', TEST, paths.test, json(202, [1, 2]), /answered 202 with an array instead of a delivery record/],
    ['a test answered 202 with no body', TEST, paths.test, json(202, ''), /answered 202 with an empty body instead of a delivery record/],
    ['a 201 with no body for provisioning', CREATE, paths.create, json(201, ''), /answered 201 with an empty body instead of a provisioning configuration/],
    ['a 301 redirect', LIST, paths.list, { kind: 'status', status: 301, headers: { location: 'https://elsewhere.example.com/api/v2/event-streams' } }, /answered 301, a redirect to https:\/\/elsewhere\.example\.com\/api\/v2\/event-streams\.\nidm does not follow redirects/],
    ['a 307 redirect of a POST', TEST, paths.test, { kind: 'status', status: 307, headers: { location: '/elsewhere' } }, /answered 307, a redirect to \/elsewhere\./],
  ] as Array<[string, string[], string, FaultSpec, RegExp]>)('%s', async (_name, args, path, fault, message) => {
    h.sandbox.addFault({ path, ...fault });
    const result = await h.idm(args);
    noCrash(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/(^|\n)Error: /);
    expect(result.stderr).toMatch(message);
    if (message.source.includes('answered 2') || message.source.includes('answered 3')) expect(result.stderr).toContain(host());
  });

  it('a change answered 2xx that cannot be read was made all the same: the hint is its check, never "run again" (a second stream, another test event)', async () => {
    const CREATE_STREAM = ['streams', 'create', '--name', 'unreadable-answer', '--event-type', 'user.created', '--action', 'act_unreadable'];
    for (const [args, path, fault, hint] of [
      [TEST, paths.test, json(202, [1, 2]), `The test event may have been sent all the same ('idm streams deliveries list ${STREAM}' lists it if its delivery failed); running this again sends another.`],
      [CREATE_STREAM, paths.list, { kind: 'status', status: 201, body: '<html>created</html>' }, "The stream may have been created all the same: check with 'idm streams list' before running this again (a second create makes a second stream)."],
      [CREATE, paths.create, json(201, ''), `Provisioning may have been created on ${CONNECTION} all the same: check with 'idm provisioning show ${CONNECTION}' before running this again.`],
      // A read keeps its own advice: running it again changes nothing.
      [LIST, paths.list, json(200, '{"eventStreams": ['), 'The service or a proxy in between sent something unexpected; run again with --debug to see it.'],
    ] as Array<[string[], string, FaultSpec, string]>) {
      h.sandbox.addFault({ path, ...fault });
      const result = await h.idm([...args, '--json']);
      noCrash(result);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ code: 'bad_response', hint });
    }
  });

  it('an answer larger than 8 MB is refused, not buffered, and not asked for again', async () => {
    h.sandbox.addFault({ path: paths.list, kind: 'status', status: 200, body: 'x'.repeat(9 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    const result = await h.idm(LIST);
    noCrash(result);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Could not list event streams: ${host()} answered 200 with an answer larger than 8 MB.`);
    expect(h.calls('GET')).toHaveLength(1);
  });

  it('--debug traces an answer whose body cannot be read: its status, time and headers (a request id), and why its body is not shown', async () => {
    for (const [fault, why] of [
      [{ body: '{}', headers: { 'content-encoding': 'zstd', 'x-request-id': 'req-zstd-1' } }, 'a body in an encoding idm cannot read (Content-Encoding: zstd)'],
      [{ body: 'not gzip', headers: { 'content-encoding': 'gzip', 'x-request-id': 'req-gzip-1' } }, 'a gzip body that could not be decompressed'],
      [{ body: 'x'.repeat(9 * 1024 * 1024), headers: { 'x-request-id': 'req-large-1' } }, 'an answer larger than 8 MB'],
    ] as Array<[Partial<FaultSpec>, string]>) {
      h.sandbox.addFault({ path: paths.list, kind: 'status', status: 200, ...fault });
      for (const flags of [['--debug'], ['--debug', '--json']]) {
        const result = await h.idm([...LIST, ...flags]);
        noCrash(result);
        expect(result.code, why).toBe(1);
        const trace = flags.includes('--json') ? result.stderr.trimEnd().split('\n').map((line) => JSON.parse(line).debug ?? '').join('\n') : result.stderr;
        expect(trace, why).toMatch(new RegExp(`\\n< 200 \\(\\d+ ms\\)\\n(< [^\\n]*\\n)*< x-request-id: ${fault.headers!['x-request-id']}\\n(< [^\\n]*\\n)*< \\[body not shown: ${why.replace(/[()]/g, '\\$&')}\\]`));
        h.sandbox.addFault({ path: paths.list, kind: 'status', status: 200, ...fault });
      }
      h.sandbox.clearFaults();
    }
  });

  it.each([
    ['access_token is not a string', { access_token: 5, expires_in: 60 }, /answered 200 with no access_token/],
    ['an array', [1], /answered 200 with no access_token/],
    ['an HTML page', '<html>login</html>', /answered 200 with a body that is not JSON/],
    ['a token_type other than Bearer', { access_token: 'abc.def.ghi', token_type: 'mac\u001b[2J', expires_in: 60 }, /answered 200 with a token_type other than Bearer\.\n/],
    ['a token_type that is not a string', { access_token: 'abc.def.ghi', token_type: 7, expires_in: 60 }, /answered 200 with a token_type other than Bearer\.\n/],
  ] as Array<[string, unknown, RegExp]>)('the token endpoint answers 200 with %s: exit 1', async (_name, body, message) => {
    h.sandbox.addFault({ path: '/oauth/token', ...json(200, body) });
    const result = await cold(LIST);
    noCrash(result);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it('the token endpoint redirects (a wrong domain behind a login page): exit 1, not followed', async () => {
    h.sandbox.addFault({ path: '/oauth/token', kind: 'status', status: 302, headers: { location: 'https://login.example.com/' } });
    const result = await cold(LIST);
    noCrash(result);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: Could not get an access token:');
    expect(result.stderr).toContain('a redirect to https://login.example.com/');
  });
});

describe('odd but usable answers: shown as they are', () => {
  it('entries that are not objects, a stream without destination, odd subscriptions: a row each, exit 0', async () => {
    const page = { eventStreams: [null, 7, { id: 'est_noDestination000000000', name: 'bare' }, { id: 'est_oddTypes0000000000000', subscriptions: [null, 3, { event_type: { a: 1 } }], destination: { type: 'webhook', configuration: null } }], next: 42 };
    h.sandbox.addFault({ path: paths.list, ...json(200, page) });
    const piped = await h.idm(LIST);
    noCrash(piped);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('\t\t\t\t\t\n7\t\t\t\t\t\nest_noDestination000000000\tbare\t\t\t\t\nest_oddTypes0000000000000\t\t\twebhook\t,,{"a":1}\t\n');
    h.sandbox.addFault({ path: paths.list, ...json(200, page) });
    const table = await h.idm(LIST, { env: { IDM_FORCE_TTY: 'stdout', NO_COLOR: '1' } });
    noCrash(table);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('est_noDestination000000000');
    expect(table.stderr).toContain('More streams: idm streams list --from 42 --take 50'); // a numeric cursor, read as one
    h.sandbox.addFault({ path: paths.list, ...json(200, page) });
    const asJson = await h.idm([...LIST, '--json']);
    expect(JSON.parse(asJson.stdout)).toEqual(page); // exactly as received
  });

  it('a delivery record with wrong types: the fields it has, exit 0 (or 3 when it says failed)', async () => {
    h.sandbox.addFault({ path: paths.test, ...json(202, { status: 5, attempts: {}, event: [] }) });
    const odd = await h.idm(TEST);
    noCrash(odd);
    expect(odd.code).toBe(0);
    expect(odd.stdout).toContain('Status\t5\n');
    h.sandbox.addFault({ path: paths.test, ...json(202, { status: 'failed', attempts: [null, 'x', { status: 1 }], event: { id: null } }) });
    const failed = await h.idm(TEST);
    noCrash(failed);
    expect(failed.code).toBe(3);
    expect(failed.stdout).toContain('attempt\t1\t\t\n');
  });

  it('a provisioning configuration with wrong types: exit 0, the mapping rows it can read', async () => {
    h.sandbox.addFault({ path: paths.create, ...json(201, { connection_id: 7, mapping: [null, 1, { platform: {}, idp: 'x' }] }) });
    const result = await h.idm(CREATE);
    noCrash(result);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Connection\t7\nmapping\t{}\tx\n');
  });
});

describe('broken HTTP from a raw TCP server', () => {
  let server: Server;
  let behave: (socket: Socket) => void = () => {};
  const sockets = new Set<Socket>();
  let url = '';
  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      socket.once('data', () => behave(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  // Each case is tried 3 times (a GET), within a small --max-wait. Only a server that never ends its
  // answer meets the short --timeout; an answer that comes is waited for as long as it takes, so that
  // a busy machine cannot turn it into a timeout.
  const run = (timeout: string) => {
    const args = ['--timeout', timeout, '--max-wait', '0.2', ...LIST];
    const { dir, cleanup } = tempConfigDir();
    // A ready token: the raw server plays the management API only.
    return runInProcess(args, { configDir: dir, env: { IDM_DOMAIN: url, IDM_ACCESS_TOKEN: 'raw-server-token-not-a-jwt' } }).finally(cleanup);
  };

  it.each([
    ['not HTTP at all', (s: Socket) => s.end('hello, this is not HTTP\r\n\r\n'), /Error: Could not list event streams: 127\.0\.0\.1:\d+ answered with something that is not valid HTTP \(HPE_INVALID_CONSTANT\)\.\n(Tried \d times( within --max-wait \([\d.]+ s\))?\. )?Check the domain and its port/],
    ['a body longer than its Content-Length', (s: Socket) => s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"eventStreams": []}'), /answered with something that is not valid HTTP \(HPE_/],
    ['a Content-Length that is no number', (s: Socket) => s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: lots\r\n\r\n{"eventStreams": []}'), /answered with something that is not valid HTTP \(HPE_INVALID_CONTENT_LENGTH\)/],
    ['a body shorter than its Content-Length, then closed', (s: Socket) => s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"eventStreams": ['), /the connection (was reset|closed)/],
    ['headers, then a body that never ends', (s: Socket) => s.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"eventStreams": ['), /did not answer within 0.5 s/],
    ['a status line and nothing more', (s: Socket) => s.write('HTTP/1.1 200 OK\r\n'), /did not answer within 0.5 s/],
  ] as Array<[string, (s: Socket) => void, RegExp]>)('%s: exit 1, never a hang', async (_name, answer, message) => {
    behave = answer;
    const result = await run(message.source.includes('did not answer') ? '0.5' : '30');
    noCrash(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it('--debug traces an answer whose body never came whole: its status, time and headers (a request id), and why its body is not shown', async () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-Id: req-cut-1\r\nContent-Length: 500\r\n\r\n{"eventStreams": [';
    for (const [answer, timeout, why] of [
      [(s: Socket) => s.end(head), '30', 'the connection closed before the answer was complete'],
      [(s: Socket) => s.write(head), '0.5', 'the rest of the answer did not come in time'],
    ] as Array<[(s: Socket) => void, string, string]>) {
      behave = answer;
      const { dir, cleanup } = tempConfigDir();
      const result = await runInProcess(['--timeout', timeout, '--max-wait', '0.2', '--debug', ...LIST], { configDir: dir, env: { IDM_DOMAIN: url, IDM_ACCESS_TOKEN: 'raw-server-token-not-a-jwt' } }).finally(cleanup);
      // With --debug the failure's cause prints its stack (README): noCrash() does not apply.
      expect(result.stderr).not.toContain('Unexpected error');
      expect(result.code, why).toBe(1);
      expect(result.stderr, why).toMatch(new RegExp(`\\n< 200 \\(\\d+ ms\\)\\n< content-type: application/json\\n< x-request-id: req-cut-1\\n< content-length: 500\\n< \\[body not shown: ${why}\\]\\n`));
    }
  });

  // The stall above, stopped with Ctrl-C rather than waited out: what came is what --debug is for.
  it('--debug traces such an answer also when idm is stopped (Ctrl-C) while its body stalls', async () => {
    behave = (s: Socket) => s.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-Id: req-stopped-1\r\nContent-Length: 500\r\n\r\n{"eventStreams": [');
    const stop = new AbortController();
    const reason = new InterruptedError('SIGINT');
    const traces: string[] = [];
    const transport = createTransport({ redactor: new Redactor(), debug: (text) => void traces.push(text), signal: stop.signal });
    // Stopped as the answer's status and headers arrive (node reports them here, before idm's handler).
    const stopAtHeaders = () => stop.abort(reason);
    subscribe('http.client.response.finish', stopAtHeaders);
    try {
      const sent = transport.send({ method: 'GET', url: new URL('/api/v2/event-streams', url), headers: {} }, { endpoint: 'management', action: 'list event streams', host: new URL(url).host }, 30_000);
      await expect(sent).rejects.toBe(reason);
    } finally {
      unsubscribe('http.client.response.finish', stopAtHeaders);
      transport.close();
    }
    expect(traces.join('')).toMatch(/\n?< 200 \(\d+ ms\)\n< content-type: application\/json\n< x-request-id: req-stopped-1\n< content-length: 500\n< \[body not shown: idm was stopped before the rest of the answer came\]\n/);
  });
});

describe('a compressed answer (idm sends no Accept-Encoding, which allows any coding)', () => {
  const page = JSON.stringify({ eventStreams: [{ id: 'est_compressedAnswer000000', name: 'squeezed', status: 'enabled', subscriptions: [], destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://example.com/h' } } }] });
  // Each case: the Content-Encoding and the bytes of the management answer; the token answer is gzipped too.
  async function listWith(encoding: string, body: Buffer) {
    const server = await fakeServer((request, res) => {
      if (request.url.startsWith('/oauth/token')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return res.end(gzipSync(JSON.stringify(tokenAnswer(1))));
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': encoding });
      res.end(body);
    });
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runInProcess(['streams', 'list', '--max-wait', '0.2'], { configDir: dir, env: { IDM_DOMAIN: server.url, IDM_CLIENT_ID: 'cid', IDM_CLIENT_SECRET: 'compressed-secret-0123456789' } });
      return { result, gets: server.seen.filter((request) => request.method === 'GET').length, host: new URL(server.url).host };
    } finally {
      cleanup();
      await server.close();
    }
  }

  it.each([
    ['gzip', gzipSync(page)],
    ['deflate', deflateSync(page)],
    ['deflate', deflateRawSync(page)],
    ['br', brotliCompressSync(page)],
    ['gzip, br', brotliCompressSync(gzipSync(page))],
  ] as Array<[string, Buffer]>)('%s is decoded: the page is shown, exit 0', async (encoding, body) => {
    const { result } = await listWith(encoding, body);
    noCrash(result);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^est_compressedAnswer000000\tsqueezed\t/);
  });

  it.each([
    ['a coding idm cannot read', 'zstd', Buffer.from('(\xb5/\xfd not really'), 'a body in an encoding idm cannot read (Content-Encoding: zstd)'],
    ['bytes that are not gzip', 'gzip', Buffer.from('not gzip at all'), 'a gzip body that could not be decompressed'],
    ['a gzip bomb (200 MB of spaces)', 'gzip', gzipSync(Buffer.alloc(200 * 1024 * 1024, 32)), 'an answer larger than 8 MB once decompressed (gzip)'],
  ] as Array<[string, string, Buffer, string]>)('%s: exit 1 naming it, memory bounded, asked once', async (_name, encoding, body, problem) => {
    const { result, gets, host } = await listWith(encoding, body);
    noCrash(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Error: Could not list event streams: ${host} answered 200 with ${problem}.`);
    expect(gets).toBe(1);
  });
});

/** A run with an empty token cache, so that it asks the token endpoint. */
async function cold(args: string[]): Promise<RunResult> {
  const { dir, cleanup } = tempConfigDir();
  try {
    return await runInProcess(args, { configDir: dir, env: credentialsEnv(h.sandbox) });
  } finally {
    cleanup();
  }
}
