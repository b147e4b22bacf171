// The sandbox's HTTP plumbing: handlers return (or throw) a Reply, and one function writes it. Error
// bodies come in the two shapes of the real service: the management interface's
// {statusCode, error, message, errorCode?} and the token endpoint's {error, error_description}.
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { z } from 'zod';
import { nestsDeeper } from '../core/json-depth.js';
import { LIMITS } from '../schemas/constants.js';
import { describeIssues } from '../schemas/index.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
/** Bodies above this answer 413, as the real service's proxy does. */
export const MAX_BODY_BYTES = LIMITS.requestBodyBytes;

export class Reply {
  constructor(
    readonly status: number,
    /** A value sent as JSON, or a raw string (`raw`), or nothing (204). */
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
    readonly raw = false,
  ) {}

  withHeaders(headers: Record<string, string>): Reply {
    return new Reply(this.status, this.body, { ...headers, ...this.headers }, this.raw);
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return new Reply(status, body, headers);
}

/** An answer without a body (204): with the JSON Content-Type all the same, as the service sends it (recorded). */
export function empty(status: number, headers: Record<string, string> = {}): Reply {
  return new Reply(status, undefined, { 'Content-Type': JSON_TYPE, ...headers });
}

export function reason(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}

/**
 * The methods a resource takes, for a 405's `Allow` (and its message): HEAD after GET, since HEAD is
 * served wherever GET is (RFC 9110: Allow lists the methods the resource supports).
 */
export function allowed(methods: readonly string[]): string[] {
  return methods.flatMap((method) => (method === 'GET' && !methods.includes('HEAD') ? ['GET', 'HEAD'] : [method]));
}

/** A management-interface error. `errorCode` is optional on the real service (absent on 404s). */
export function apiError(status: number, message: string, errorCode?: string, headers: Record<string, string> = {}): Reply {
  return json(status, { statusCode: status, error: reason(status), message, ...(errorCode ? { errorCode } : {}) }, headers);
}

/** The token endpoint's paths: its answers, refusals included, are in the OAuth shape (tokenError). */
export function isTokenPath(path: string): boolean {
  return path === '/oauth/token' || path === '/oauth/token/';
}

/** A token-endpoint error. */
export function tokenError(status: number, error: string, description: string, headers: Record<string, string> = {}): Reply {
  return json(status, { error, error_description: description }, headers);
}

/**
 * A refusal before the request is routed, in the error shape of the endpoint its target names: the
 * token endpoint's {error: `oauthError`, error_description}, the management shape elsewhere.
 */
export function refusal(target: string | undefined, status: number, oauthError: string, message: string): Reply {
  return isTokenPath(requestUrl(target)?.pathname ?? '') ? tokenError(status, oauthError, message) : apiError(status, message);
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  let payload: string | undefined;
  // 204 and 304 have no body (RFC 9110): nor a Content-Length, which a client would wait to read.
  if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304) {
    payload = reply.raw ? String(reply.body) : JSON.stringify(reply.body);
    const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    if (!hasType) headers['Content-Type'] = reply.raw ? 'text/html; charset=utf-8' : JSON_TYPE;
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** The whole request body as text; undefined when it is larger than `limit` (MAX_BODY_BYTES unless told). */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Header values as single strings, names in lower case (as node gives them). */
export function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function isJsonType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * The 415 for a body not sent as JSON, naming the type it was sent as and the one to send: `curl -d`
 * sends application/x-www-form-urlencoded unless told otherwise, and a bare 'Unsupported Media Type'
 * left the fix to be guessed.
 */
function unsupportedMediaType(contentType: string | undefined): Reply {
  const sent = (contentType ?? '').split(';')[0]!.trim().slice(0, 100);
  const as = sent === '' ? 'without a Content-Type' : `as ${sent}`;
  return apiError(415, `Unsupported Media Type: the body was sent ${as}; send it as JSON with Content-Type: application/json.`);
}

/**
 * A management request body as JSON. No body at all reads as `{}` (every body field of the
 * provisioning request is optional); a body that is not JSON, or not sent as JSON, is refused as
 * the real service's framework refuses it.
 */
export function parseJsonBody(body: string, contentType: string | undefined): unknown {
  if (body.trim() === '') return {};
  if (!isJsonType(contentType)) throw unsupportedMediaType(contentType);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw apiError(400, 'Invalid request payload JSON format');
  }
  if (nestsDeeper(parsed, MAX_BODY_DEPTH)) {
    throw apiError(400, `Payload validation error: 'The payload is nested deeper than ${MAX_BODY_DEPTH} levels'.`, 'invalid_body');
  }
  return parsed;
}

/**
 * The deepest nesting a request body (a test event's free-form `data`) may have. JSON.parse takes
 * any depth, but JSON.stringify recurses: a value nested some thousands deep, once kept, would make
 * every later answer that holds it (the delivery, GET /sandbox/deliveries, the --state-dir save) a
 * stack overflow. Far beyond any real event (the sample user is 4 deep).
 */
export const MAX_BODY_DEPTH = 100;

/**
 * Parses with a shared schema, or throws the real 400 naming the field, in the service's shape:
 * `Payload validation error: 'what is wrong' on property path.` (wire-facts.md).
 */
export function validateBody<S extends z.core.$ZodType>(schema: S, value: unknown): z.core.output<S> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '');
  const what = issue.code === 'unrecognized_keys' ? `Additional properties not allowed: ${issue.keys.join(', ')}` : describeIssues(new z.ZodError([{ ...issue, path: [] }]));
  throw apiError(400, `Payload validation error: '${what}'${path ? ` on property ${path}` : ''}.`, 'invalid_body');
}

export function isoNow(): string {
  return new Date().toISOString();
}

const PLAIN_HTTP_ERRORS = new Set(['ERR_SSL_HTTP_REQUEST', 'ERR_SSL_WRONG_VERSION_NUMBER']);

/**
 * A plain-HTTP request sent to the HTTPS tenant (`curl http://…` where `--https` serves https://):
 * answered 400 in plain HTTP on the connection under the TLS one, naming the URL to use, where the
 * client got the connection closed ('Empty reply from server', 'other side closed') and no cause.
 * OpenSSL tells such a request from a handshake: ERR_SSL_HTTP_REQUEST for GET, POST, HEAD and PUT,
 * ERR_SSL_WRONG_VERSION_NUMBER for other bytes that are no TLS record (PATCH, DELETE). The connection
 * under a TLSSocket is Node's `_parent` (not public: without it, the connection is closed as before).
 */
export function answerPlainHttp(error: Error & { code?: string }, socket: { _parent?: unknown }, httpsUrl: string): void {
  const raw = socket._parent as Socket | undefined;
  if (!PLAIN_HTTP_ERRORS.has(error.code ?? '') || !raw || raw.destroyed || !raw.writable) return;
  raw.end(rawApiError(400, `This port serves HTTPS, and a plain HTTP request was sent to it: send it to ${httpsUrl}.`));
}

/** A management-interface error written straight to a socket (no ServerResponse), the connection closed after it. */
function rawApiError(status: number, message: string): string {
  const body = JSON.stringify({ statusCode: status, error: reason(status), message });
  return `HTTP/1.1 ${status} ${reason(status)}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** What Node answers a request its parser refused (its own choice of status), and the sandbox's words for it. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, `The request headers are larger than the sandbox reads (${maxHeaderSize} bytes in all).`],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions of the request body are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time.'],
};

/**
 * A request Node's HTTP parser refused ('clientError': malformed, headers too large, too slow):
 * answered as Node would (the same status, only when no answer has begun on the connection, then
 * closed), but with a body in the management error shape where Node sends a bare status line. The
 * parser's code (HPE_INVALID_METHOD, ...) is named; nothing of the request is quoted back.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null }): void {
  if (socket.writable && !socket._httpMessage?.headersSent && error.code !== 'ECONNRESET') {
    const code = /^[A-Z_]+$/.test(error.code ?? '') ? error.code! : undefined;
    const [status, message] = CLIENT_ERRORS[code ?? ''] ?? [400, `The request is not valid HTTP/1.1${code ? ` (${code})` : ''}.`];
    socket.write(rawApiError(status, message));
  }
  socket.destroy();
}

/**
 * A CONNECT (the sandbox's URL given as a proxy: HTTPS_PROXY, `curl -x`): 405 in the management error
 * shape, then closed, where Node closes such a connection without a word (curl: 'Proxy CONNECT aborted').
 */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => {});
  if (socket.writable) socket.end(rawApiError(405, 'This is an idm sandbox tenant, not a proxy: it takes no CONNECT. Send requests to it directly, not through it.'));
  else socket.destroy();
}

/** A request with an Expect header other than 100-continue: 417, as Node answers it, in the error shape of the endpoint asked. */
export function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  writeReply(res, refusal(req.url, 417, 'invalid_request', 'The sandbox takes no Expect header but Expect: 100-continue.').withHeaders({ Connection: 'close' }));
  req.resume();
}

type ClosableServer = Pick<NetServer, 'on'> & { close(done: () => void): unknown; closeAllConnections(): void };

const openSockets = new WeakMap<object, Set<Socket>>();

/**
 * Keeps the server's every TCP connection from its first byte, for closeServer. An HTTPS server's
 * closeAllConnections() knows only connections that finished the TLS handshake: a client that
 * connects and never sends (or stops mid-handshake) would hold close() until the handshake timeout
 * (120 s), and Ctrl-C with it. Call where the server is made, before it listens.
 */
export function trackSockets<S extends Pick<NetServer, 'on'>>(server: S): S {
  const sockets = new Set<Socket>();
  openSockets.set(server, sockets);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return server;
}

/** Stops listening and ends every open connection at once (keep-alive, stalled and silent ones too). */
export function closeServer(server: ClosableServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
    for (const socket of openSockets.get(server) ?? []) socket.destroy();
  });
}

/**
 * The request-target as a URL (`base` for a path alone), or undefined when it cannot be read as one (`//[`).
 * A target that begins with `//` is a path (origin-form, RFC 9112) whose first segment is empty, not a
 * host: read relative to `base`, `//127.0.0.1/api/v2/event-streams` was served as `/api/v2/event-streams`
 * (and recorded so), where the service answers 404 for the path it was sent.
 */
export function requestUrl(target: string | undefined, base = 'http://127.0.0.1'): URL | undefined {
  try {
    const url = new URL(target ?? '/', base);
    return target?.startsWith('//') ? new URL(`${base}${target}`) : url;
  } catch {
    return undefined;
  }
}
