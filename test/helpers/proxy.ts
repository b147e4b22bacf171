// A small HTTP proxy on loopback for the proxy tests: CONNECT tunnels (what HTTPS goes through) and
// absolute-form requests (plain HTTP), each recorded with its Proxy-Authorization. It forwards to
// loopback only (the tests' tenants are sandboxes there; the loopback guard refuses anything else),
// and can ask for credentials (407) or refuse every request with a status of the test's choosing.
import { request as httpRequest, createServer, type IncomingMessage } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

export interface ProxySeen {
  method: string;
  /** host:port for a CONNECT, the absolute URL for a forwarded request. */
  target: string;
  proxyAuthorization?: string;
}

export interface TestProxy {
  /** http://127.0.0.1:PORT (https:// with `tls`) */
  url: string;
  port: number;
  seen: ProxySeen[];
  /** Bytes carried from the client through CONNECT tunnels. */
  tunnelled(): number;
  /** Resolves once the proxy has seen `count` requests. */
  seenCount(count: number): Promise<void>;
  /**
   * Resolves once the client's connection that carried request number `index` (0 first) has closed,
   * with how many requests the proxy had seen then: a CONNECT idm gave up on closed before the next
   * attempt, or only when the run ended.
   */
  closed(index: number): Promise<number>;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** `user:password`: anything without them as Basic credentials is answered 407. */
  credentials?: string;
  /** The Proxy-Authenticate challenges of its 407s (default `Basic realm="test"`). */
  authenticate?: string;
  /** Every request is answered with this status (403, 502...) instead of being carried. */
  refuse?: number;
  /** With `refuse`: the Retry-After of its answers (a proxy's 429 or 503 that says when to come back). */
  retryAfter?: string;
  /** Every CONNECT is answered with these bytes, then the connection closed (a proxy answering garbage). */
  raw?: string;
  /** Opens each tunnel itself and speaks TLS in it with this certificate, as a proxy that inspects TLS (it forwards nothing). */
  intercept?: { cert: string; key: string };
  /** Every CONNECT is answered 200 and the tunnel then carries nothing (a proxy whose tunnel never reaches the tenant). */
  deadTunnel?: boolean;
  /** Every request is taken and never answered (a proxy that hangs). */
  silent?: boolean;
  /** Refuses (403) a request without a User-Agent, as some corporate proxies' policies do. */
  requireUserAgent?: boolean;
  /** An https:// proxy: clients speak TLS to it with this certificate (then its url is https://). */
  tls?: { cert: string; key: string };
  /** With `tls`: a client certificate signed by this CA is required (a proxy that wants mutual TLS). */
  clientCa?: string;
  /** With `tls`: the newest TLS version it speaks (a proxy on TLS 1.2, whose alerts come as EPROTO). */
  maxVersion?: 'TLSv1.2' | 'TLSv1.3';
}

export async function startProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const seen: ProxySeen[] = [];
  const sockets = new Set<Socket>();
  let bytes = 0;
  const expected = options.credentials === undefined ? undefined : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  // Per request seen, how many requests had been seen when its client connection closed.
  const closings: Array<Promise<number>> = [];
  const challenge = options.authenticate ?? 'Basic realm="test"';
  const record = (req: IncomingMessage, target: string) => {
    const socket = req.socket;
    // The end of what the client sends, or the close: the server allows half-open connections.
    closings.push(
      socket.destroyed || socket.readableEnded
        ? Promise.resolve(seen.length + 1)
        : new Promise((resolve) => {
            const done = () => resolve(seen.length);
            socket.once('end', done).once('close', done);
          }),
    );
    const entry: ProxySeen = { method: req.method ?? '', target };
    if (req.headers['proxy-authorization'] !== undefined) entry.proxyAuthorization = req.headers['proxy-authorization'];
    seen.push(entry);
    for (const waiter of waiting.filter((one) => seen.length >= one.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  /** The status to refuse this request with, or undefined to carry it. */
  const refusal = (req: IncomingMessage): number | undefined => {
    if (options.refuse !== undefined) return options.refuse;
    if (options.requireUserAgent && req.headers['user-agent'] === undefined) return 403;
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) return 407;
    return undefined;
  };
  const loopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';

  const handler = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    const target = req.url ?? '';
    record(req, target);
    const status = refusal(req);
    if (status !== undefined) {
      res.writeHead(status, { ...(status === 407 ? { 'proxy-authenticate': challenge } : {}), ...(options.retryAfter !== undefined ? { 'retry-after': options.retryAfter } : {}), 'content-type': 'text/html' });
      res.end(`<html><body>proxy says ${status}</body></html>`);
      return;
    }
    const url = new URL(target);
    if (url.protocol !== 'http:' || !loopback(url.hostname)) {
      res.writeHead(400).end('loopback only');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const forward = httpRequest({ host: url.hostname, port: url.port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  };
  const server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key, ...(options.clientCa ? { ca: options.clientCa, requestCert: true, rejectUnauthorized: true } : {}), ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}) }, handler) : createServer(handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    record(req, target);
    client.on('error', () => {});
    // What is sent is read and dropped: its end (the client closing) is then seen.
    if (options.silent) return void client.resume();
    if (options.deadTunnel) {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      client.resume();
      return;
    }
    if (options.raw !== undefined) {
      client.end(options.raw);
      return;
    }
    const status = refusal(req);
    if (status !== undefined) {
      const extra = `${status === 407 ? `Proxy-Authenticate: ${challenge}\r\n` : ''}${options.retryAfter !== undefined ? `Retry-After: ${options.retryAfter}\r\n` : ''}`;
      client.end(`HTTP/1.1 ${status} Refused\r\n${extra}Via: 1.1 test-proxy\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    if (options.intercept) {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      const inspected = new TLSSocket(client, { isServer: true, cert: options.intercept.cert, key: options.intercept.key });
      inspected.on('error', () => client.destroy());
      return;
    }
    const match = /^(.+):(\d+)$/.exec(target);
    if (!match || !loopback(match[1]!)) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(Number(match[2]), match[1]!.replace(/^\[|\]$/g, ''));
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      client.on('data', (chunk: Buffer) => (bytes += chunk.length));
      client.pipe(upstream).pipe(client);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    seen,
    tunnelled: () => bytes,
    seenCount: (count) => (seen.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }))),
    closed: (index) => closings[index] ?? Promise.reject(new Error(`the proxy has seen no request ${index}`)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
