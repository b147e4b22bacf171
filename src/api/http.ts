// The one HTTP transport under the management client and the token provider: keep-alive
// connections (pages of a listing share one), a timeout per request, a cap on body size, --debug
// traces with secrets redacted, and network failures mapped to NetworkError.
//
// It is built on node:http/https rather than undici: importing undici costs about 50 ms per start
// (its HTTP parser is WebAssembly), node's own client about 5 ms, and idm's start-up is a budget
// (see README, "Start-up"). One attempt per call: retries belong to `send` in ./retry.ts.
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { InterruptedError } from '../core/errors.js';
import { USER_AGENT } from '../core/version.js';
import { badAnswer, errorFromNetwork, type FailureContext } from './errors.js';
import { ignoredAllProxy, proxyFor, type Proxy } from './proxy.js';
import type { Redactor } from './redact.js';

export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** A token endpoint's answer is traced with every string value masked. */
  secretAnswer?: boolean;
  /** Stops this request (abandoned, the stop reason thrown) instead of the transport's signal. */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** Set by send() (./retry.ts): how many times the request was sent to get this answer. */
  attempts?: number;
}

/** TLS material, already read and checked (api/tls.ts). Verification is never turned off. */
export interface TlsMaterial {
  ca?: string[];
  cert?: string;
  key?: string;
}

export interface TransportOptions {
  redactor: Redactor;
  /** Where --debug traces go (stderr); undefined when --debug is off. */
  debug?: (text: string) => void;
  tls?: TlsMaterial;
  /** Ctrl-C, SIGTERM: the request in flight is abandoned and the stop reason is thrown. */
  signal?: AbortSignal;
  /** Answers larger than this are refused (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

export interface Transport {
  /**
   * One attempt. Resolves with any HTTP answer (also 4xx/5xx); rejects with NetworkError, an ApiError
   * for an answer idm will not read (too large, an unknown coding: badAnswer), or the stop reason.
   */
  send(request: HttpRequest, context: FailureContext, timeoutMs: number): Promise<HttpResponse>;
  close(): void;
}

/**
 * Answers larger than this are a bad answer, not buffered: a page of 100 streams is about 100 KB,
 * and a hostile server must not make idm hold gigabytes (README, "Reliability and security").
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
const DEBUG_BODY_CHARS = 4000;

export function createTransport(options: TransportOptions): Transport {
  const agents = new Map<string, HttpAgent>();
  let clients: { http?: typeof import('node:http'); https?: typeof import('node:https') } = {};

  // CONNECT requests to a proxy still waiting for its answer: close() ends them.
  const tunnels = new Set<ClientRequest>();
  // TLS connections through a tunnel whose handshake has not finished (their socket is no longer "connecting").
  const handshaking = new WeakSet<object>();

  async function agentFor(protocol: string, proxy?: Proxy): Promise<{ agent: HttpAgent; request: typeof import('node:http').request }> {
    const key = proxy ? `${protocol} ${proxy.name} ${proxy.authorization ?? ''}` : protocol;
    if (protocol === 'https:') {
      // node:https (and TLS) load only when a tenant is reached over HTTPS. getBuiltinModule rather
      // than import(): an ESM import of a built-in first builds a facade of every export (~2 ms).
      const https = (clients.https ??= process.getBuiltinModule('node:https'));
      let agent = agents.get(key);
      if (!agent) {
        const agentOptions = { keepAlive: true, maxSockets: 8, rejectUnauthorized: true, ...options.tls };
        agent = proxy ? tunnelAgent(https, proxy, agentOptions) : new https.Agent(agentOptions);
        agents.set(key, agent);
      }
      return { agent, request: https.request as typeof import('node:http').request };
    }
    const http = (clients.http ??= process.getBuiltinModule('node:http'));
    let agent = agents.get(key);
    if (!agent) {
      if (proxy?.tls) {
        // Plain HTTP to an https:// proxy: the connection to the proxy is TLS.
        class ProxyTlsAgent extends http.Agent {
          override createConnection(): Duplex {
            return connectProxyTls(proxy!, options.tls?.ca);
          }
        }
        agent = new ProxyTlsAgent({ keepAlive: true, maxSockets: 8 });
      } else {
        agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      }
      agents.set(key, agent);
    }
    return { agent, request: http.request };
  }

  /**
   * An HTTPS agent whose connections go through `proxy`: an HTTP CONNECT to the tenant's host and
   * port, then TLS to the tenant inside the tunnel, as without a proxy (the tenant's name for SNI and
   * the certificate check, --ca-file, the client certificate). Kept alive like the direct ones.
   */
  function tunnelAgent(https: typeof import('node:https'), proxy: Proxy, agentOptions: import('node:https').AgentOptions): HttpAgent {
    const http = (clients.http ??= process.getBuiltinModule('node:http'));
    class TunnelAgent extends https.Agent {
      override createConnection(connectOptions: import('node:https').RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
        const host = connectOptions.host ?? connectOptions.hostname ?? '';
        const authority = `${host.includes(':') ? `[${host}]` : host}:${connectOptions.port ?? 443}`;
        // The request this connection is made for (send() below) ends its CONNECT when it gives up.
        const giveUp = (connectOptions as { tunnelSignal?: AbortSignal }).tunnelSignal;
        openTunnel(http, proxy, authority, tunnels, options.tls?.ca, traceTunnel, giveUp).then(
          (socket) => {
            let secure: Duplex;
            try {
              secure = super.createConnection({ ...connectOptions, socket } as import('node:https').RequestOptions)!;
            } catch (error) {
              socket.destroy();
              return callback?.(error as Error, undefined as unknown as Duplex);
            }
            handshaking.add(secure);
            secure.once('secureConnect', () => handshaking.delete(secure));
            callback?.(null, secure);
          },
          (error: Error) => callback?.(error, undefined as unknown as Duplex),
        );
        return undefined;
      }
    }
    return new TunnelAgent(agentOptions);
  }

  /** --debug: the CONNECT and the proxy's answer, headers masked as any (its Proxy-Authorization above all). */
  function traceTunnel(direction: '>' | '<', first: string, headers: Record<string, string | string[] | undefined>): void {
    if (!options.debug) return;
    const lines = [`${direction} ${first}`];
    for (const [name, value] of Object.entries(options.redactor.headers(headers))) lines.push(`${direction} ${name}: ${value}`);
    options.debug(`${lines.join('\n')}\n`);
  }

  function trace(request: HttpRequest): void {
    if (!options.debug) return;
    const { redactor } = options;
    // A query parameter may hold a secret (idm api --query access_token=…): masked by its name too.
    const lines = [`> ${request.method} ${redactor.target(request.url.toString())}`];
    for (const [name, value] of Object.entries(redactor.headers(request.headers))) lines.push(`> ${name}: ${value}`);
    if (request.body) lines.push(`> ${clip(redactor.body(request.body, request.headers['content-type']))}`);
    options.debug(`${lines.join('\n')}\n`);
  }

  /** `unread`: why the body is not shown (an answer idm refused to read: too large, an unknown coding). */
  function traceAnswer(response: HttpResponse, ms: number, secretAnswer: boolean | undefined, unread?: string): void {
    if (!options.debug) return;
    const { redactor } = options;
    const lines = [`< ${response.status} (${ms} ms)`];
    for (const [name, value] of Object.entries(redactor.headers(response.headers))) lines.push(`< ${name}: ${value}`);
    if (unread !== undefined) lines.push(`< [body not shown: ${unread}]`);
    else if (response.text) lines.push(`< ${clip(secretAnswer ? redactor.tokenAnswer(response.text) : redactor.body(response.text, response.headers['content-type']))}`);
    options.debug(`${lines.join('\n')}\n`);
  }

  return {
    async send(request, context, timeoutMs) {
      const signal = request.signal ?? options.signal;
      if (signal?.aborted) throw signal.reason;
      const proxy = proxyFor(request.url);
      if (proxy) options.redactor.add(proxy.authorization);
      const { agent, request: open } = await agentFor(request.url.protocol, proxy);
      // Named as messages name it: host:port, never the credentials of its URL.
      if (proxy) options.debug?.(`(through the proxy ${proxy.name}, from ${proxy.variable}${request.url.protocol === 'https:' ? ': a CONNECT tunnel' : ''})\n`);
      else if (options.debug) {
        const ignored = ignoredAllProxy(request.url);
        if (ignored) options.debug(`(${ignored.variable} is set, but idm does not read it: connecting directly; ${request.url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY'} is the one it reads)\n`);
      }
      trace(request);
      const started = Date.now();
      const maxBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
      let onAbort = () => {};
      const response = await new Promise<HttpResponse>((resolve, reject) => {
        let finished = false; // the whole request was handed to the socket
        // The connection is up: connected, and for https its TLS handshake done. Until then what was
        // handed to the socket waits in it, and the server cannot have seen any of the request (a
        // proxy's tunnel that never carries, a handshake that never ends).
        let ready = false;
        let timedOut = false;
        // A server that will not take idm's client certificate closes a TLS 1.3 connection right after
        // the handshake, before any answer: that is no "connection reset" to retry.
        let freshHandshake = false;
        let answered = false;
        // The status and headers of an answer whose body never came whole: traced once, as it fails.
        let partial: HttpResponse | undefined;
        // Plain HTTP through a proxy: whether the connection to the proxy was made (a failure before is the proxy's).
        const forwarded = proxy !== undefined && request.url.protocol === 'http:';
        let reachedProxy = false;
        // HTTPS through a proxy: the request gets its socket once the CONNECT tunnel is up.
        let tunnelled = false;
        const fail = (error: unknown) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          // Also when stopped (Ctrl-C at an answer that stalls): its status and headers came.
          if (partial) {
            const why = signal?.aborted ? 'idm was stopped before the rest of the answer came' : timedOut ? 'the rest of the answer did not come in time' : 'the connection closed before the answer was complete';
            traceAnswer(partial, Date.now() - started, request.secretAnswer, why);
            partial = undefined;
          }
          if (signal?.aborted) {
            // Stopped (Ctrl-C) after the whole request went out: the server may act on it all the same.
            if (finished && ready && signal.reason instanceof InterruptedError) signal.reason.requestSent = true;
            return reject(signal.reason);
          }
          if (error && typeof error === 'object') {
            // Out of time (or failed) before the proxy was reached or had opened the tunnel: the proxy's doing.
            if (proxy && (forwarded ? !reachedProxy : timedOut && !tunnelled)) (error as { proxy?: Proxy }).proxy = proxy;
            (error as { requestSent?: boolean }).requestSent = finished && ready;
            // A certificate refused although --ca-file was given: that file is not the authority that signed it.
            if (options.tls?.ca) (error as { caGiven?: boolean }).caGiven = true;
            // Through a tunnel: a certificate the tenant's authorities did not sign may be the proxy's own (TLS inspection).
            if (proxy && !forwarded && !(error as { proxy?: Proxy }).proxy) (error as { viaProxy?: Proxy }).viaProxy = proxy;
            // Connected directly with ALL_PROXY set: a failure says that proxy was not used.
            if (!proxy) {
              const ignored = ignoredAllProxy(request.url);
              if (ignored) (error as { ignoredProxy?: object }).ignoredProxy = ignored;
            }
            const hungUp = (error as NodeJS.ErrnoException).code === 'ECONNRESET';
            if (freshHandshake && hungUp && !answered && options.tls?.cert) (error as { clientCertRefused?: boolean }).clientCertRefused = true;
          }
          reject(errorFromNetwork(error, context, timedOut ? timeoutMs / 1000 : undefined));
        };
        const headers: Record<string, string> = { ...request.headers };
        if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
        // Through a tunnel: the agent hands it to the connection it makes for this request (tunnelAgent).
        const tunnelEnd = proxy && !forwarded ? new AbortController() : undefined;
        const requestOptions: RequestOptions = { method: request.method, headers, agent, ...(tunnelEnd ? { tunnelSignal: tunnelEnd.signal } : {}) };
        if (proxy && request.url.protocol === 'http:') {
          // Plain HTTP through the proxy: the absolute URL on the request line, to the proxy's address.
          headers.host = request.url.host;
          if (proxy.authorization) headers['proxy-authorization'] = proxy.authorization;
          Object.assign(requestOptions, { hostname: proxy.host, port: proxy.port, path: request.url.href });
        }
        const req: ClientRequest = open(request.url, requestOptions, (res: IncomingMessage) => {
          answered = true;
          if (forwarded && res.statusCode === 407) {
            // The proxy's, not the tenant's: it wants (other) credentials.
            res.resume();
            return fail(Object.assign(new Error('the proxy answered 407'), { code: 'EPROXY', proxy, proxyStatus: 407, proxyAuthenticate: headersOf(res)['proxy-authenticate'] }));
          }
          // Kept only for --debug (traceAnswer shows nothing else): every page of --all would copy its headers twice.
          if (options.debug) partial = { status: res.statusCode ?? 0, headers: headersOf(res), text: '' };
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              clearTimeout(timer);
              signal?.removeEventListener('abort', onAbort);
              // Its status and headers are traced all the same: what --debug is run again to see.
              partial = undefined;
              const problem = `an answer larger than ${maxBytes / 1024 / 1024} MB`;
              traceAnswer({ status: res.statusCode ?? 0, headers: headersOf(res), text: '' }, Date.now() - started, request.secretAnswer, problem);
              // Settled first: destroying the answer makes it report 'aborted', which is not the cause.
              reject(badAnswer(context, res.statusCode ?? 0, problem));
              res.removeAllListeners('error').removeAllListeners('aborted').on('error', () => {});
              req.removeAllListeners('error').on('error', () => {});
              res.destroy();
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', fail);
          res.on('aborted', () => fail(Object.assign(new Error('the connection closed before the answer was complete'), { code: 'ECONNRESET' })));
          res.on('end', () => {
            partial = undefined;
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            const out = headersOf(res);
            const status = res.statusCode ?? 0;
            let bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
            try {
              bytes = decode(bytes, out['content-encoding'], maxBytes);
            } catch (problem) {
              traceAnswer({ status, headers: out, text: '' }, Date.now() - started, request.secretAnswer, (problem as Error).message);
              return reject(badAnswer(context, status, (problem as Error).message));
            }
            resolve({ status, headers: out, text: bytes.toString('utf8') });
          });
        });
        // A request still waiting for its proxy's tunnel has no socket, and Node reports its destruction
        // only once it gets one (maybe never, from a proxy that hangs): it is failed here and then.
        // Its CONNECT, still unanswered, is ended too: else it stays open until the run ends.
        const stop = (error: Error) => {
          req.destroy(error);
          if (proxy && !forwarded && !tunnelled) {
            tunnelEnd?.abort(error);
            fail(error);
          }
        };
        const timer = setTimeout(() => {
          timedOut = true;
          stop(new Error('timeout'));
        }, timeoutMs);
        onAbort = () => stop(signal!.reason as Error);
        signal?.addEventListener('abort', onAbort, { once: true });
        req.on('error', fail);
        req.on('finish', () => (finished = true));
        req.on('socket', (socket) => {
          tunnelled = true;
          if (forwarded) {
            // An https:// proxy is reached once its TLS handshake is done, as for a tunnel (openTunnel):
            // its certificate, or plain text where TLS was expected, is the proxy's failure.
            if (socket.connecting) socket.once(proxy.tls ? 'secureConnect' : 'connect', () => (reachedProxy = true));
            else reachedProxy = true;
          }
          const encrypted = 'encrypted' in socket;
          if (socket.connecting || handshaking.has(socket)) socket.once(encrypted ? 'secureConnect' : 'connect', () => (ready = true));
          else ready = true;
          // Only a connection made for this request: a reused one finished its handshake long ago.
          if (!encrypted || !(socket.connecting || handshaking.has(socket))) return;
          socket.once('secureConnect', () => (freshHandshake = true));
        });
        req.end(request.body);
      });
      // A token endpoint's tokens are secrets from the moment they arrive: before any trace or message.
      if (request.secretAnswer) options.redactor.addTokens(response.text);
      traceAnswer(response, Date.now() - started, request.secretAnswer);
      return response;
    },
    close() {
      for (const tunnel of tunnels) tunnel.destroy();
      tunnels.clear();
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
      clients = {};
    },
  };
}

/**
 * A tunnel to `authority` (host:port) through `proxy`: its CONNECT answered 2xx, the socket then
 * carries bytes to the target. Any other answer (407, 403, 502...) rejects with an Error of code
 * EPROXY, the status and the Proxy-Authenticate challenges; a failure to reach the proxy, or of its
 * answer, rejects with the socket's error (`proxyReached` telling them apart). Either
 * carries `proxy`, for errorFromNetwork to name it. `trace` writes the CONNECT and the answer's
 * status and headers for --debug (what a refusal says of itself: Via, the proxy's error header).
 */
function openTunnel(
  http: typeof import('node:http'),
  proxy: Proxy,
  authority: string,
  pending: Set<ClientRequest>,
  ca: string[] | undefined,
  trace: (direction: '>' | '<', first: string, headers: Record<string, string | string[] | undefined>) => void,
  giveUp?: AbortSignal,
): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    if (giveUp?.aborted) return reject(giveUp.reason);
    // A User-Agent as curl and Go send: some proxies' policies refuse a CONNECT without one.
    const headers: Record<string, string> = { host: authority, 'user-agent': USER_AGENT };
    if (proxy.authorization) headers['proxy-authorization'] = proxy.authorization;
    const connect = http.request({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: authority,
      headers,
      setHost: false,
      // A connection of its own: no agent (which would make a plain one), or one to the proxy over TLS.
      ...(proxy.tls ? { createConnection: () => connectProxyTls(proxy, ca) } : { agent: false }),
    });
    pending.add(connect);
    // The request gave up (its timeout, Ctrl-C) before the proxy answered: the CONNECT's connection is closed.
    const onGiveUp = () => {
      pending.delete(connect);
      connect.removeAllListeners('error').on('error', () => {});
      connect.destroy();
      reject(giveUp!.reason);
    };
    giveUp?.addEventListener('abort', onGiveUp, { once: true });
    // Whether the proxy took the connection (its TLS handshake done, for an https:// one): a failure
    // after that is its answer (a close, bytes that are not HTTP), not a proxy out of reach.
    let reached = false;
    const started = Date.now();
    connect.once('socket', (socket: Duplex & { connecting?: boolean }) => {
      if (proxy.tls) socket.once('secureConnect', () => (reached = true));
      else if (socket.connecting) socket.once('connect', () => (reached = true));
      else reached = true;
    });
    connect.once('connect', (answer: IncomingMessage, socket: Duplex, head: Buffer) => {
      pending.delete(connect);
      giveUp?.removeEventListener('abort', onGiveUp);
      const status = answer.statusCode ?? 0;
      trace('<', `${status} (${Date.now() - started} ms, the proxy's answer)`, answer.headers);
      if (status >= 200 && status < 300) {
        if (head.length > 0) socket.unshift(head);
        return resolve(socket);
      }
      socket.destroy();
      const answered = headersOf(answer);
      reject(Object.assign(new Error(`the proxy answered ${status}`), { code: 'EPROXY', proxy, proxyStatus: status, proxyAuthenticate: answered['proxy-authenticate'], proxyRetryAfter: answered['retry-after'] }));
    });
    connect.once('error', (error: Error) => {
      pending.delete(connect);
      giveUp?.removeEventListener('abort', onGiveUp);
      reject(Object.assign(error, { proxy, proxyReached: reached }));
    });
    trace('>', `CONNECT ${authority} (to the proxy ${proxy.name})`, headers);
    connect.end();
  });
}

/**
 * A TLS connection to an https:// proxy, its certificate checked against its name with the same
 * authorities as the tenant's (--ca-file, NODE_EXTRA_CA_CERTS); idm's client certificate is for the
 * tenant only and is not presented.
 */
function connectProxyTls(proxy: Proxy, ca?: string[]): Duplex {
  const { connect } = process.getBuiltinModule('node:tls');
  const { isIP } = process.getBuiltinModule('node:net');
  return connect({ host: proxy.host, port: proxy.port, servername: isIP(proxy.host) ? undefined : proxy.host, ca, rejectUnauthorized: true, ALPNProtocols: ['http/1.1'] });
}

/**
 * The body as sent, whatever Content-Encoding a server or proxy chose: idm sends no Accept-Encoding,
 * which says any coding will do (RFC 9110 12.5.3), and some compress for it. gzip, deflate and br are
 * undone (node:zlib, loaded only then), never to more than `maxBytes`; another coding is a bad answer
 * naming it. Throws an Error whose message is the problem, for badAnswer().
 */
function decode(bytes: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const codings = (encoding ?? '').split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0 || bytes.length === 0) return bytes;
  const zlib = process.getBuiltinModule('node:zlib');
  const options = { maxOutputLength: maxBytes };
  // Applied in the order listed: undone from the last.
  for (const coding of codings.reverse()) {
    const undo: Record<string, (input: Buffer) => Buffer> = {
      gzip: (input) => zlib.gunzipSync(input, options),
      'x-gzip': (input) => zlib.gunzipSync(input, options),
      br: (input) => zlib.brotliDecompressSync(input, options),
      // deflate is the zlib format; some servers send the raw one.
      deflate: (input) => {
        try {
          return zlib.inflateSync(input, options);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'Z_DATA_ERROR') throw error;
          return zlib.inflateRawSync(input, options);
        }
      },
    };
    const step = Object.hasOwn(undo, coding) ? undo[coding]! : undefined;
    if (!step) throw new Error(`a body in an encoding idm cannot read (Content-Encoding: ${coding.replace(/[^\x21-\x7e]/g, '?').slice(0, 40)})`);
    try {
      bytes = step(bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new Error(`an answer larger than ${maxBytes / 1024 / 1024} MB once decompressed (${coding})`);
      }
      throw new Error(`a ${coding} body that could not be decompressed`);
    }
  }
  return bytes;
}

/** Header names in lower case; repeated headers joined with ", ". */
function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function clip(text: string): string {
  return text.length > DEBUG_BODY_CHARS ? `${text.slice(0, DEBUG_BODY_CHARS)}… (${text.length} characters)` : text;
}
