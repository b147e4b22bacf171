// The sandbox: a local tenant on 127.0.0.1 that speaks the management interface and the token
// endpoint as the real service does (../shared/spec/interface.md, wire-facts.md), with an HTTPS
// webhook inbox, rate limiting, fault injection and control endpoints. See README: Sandbox.
import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { control, stats } from './control.js';
import { Faults, faultReply } from './faults.js';
import { apiError, closeServer, flatHeaders, json, readBody, Reply, tokenError, writeReply } from './http.js';
import { randomAlphanumeric } from './ids.js';
import { DEFAULT_RETRY_DELAYS_MS } from './delivery.js';
import { startInbox } from './inbox.js';
import { DEFAULT_RATE_LIMIT, TokenBucket } from './ratelimit.js';
import { routeApi } from './router.js';
import { defaultMapping } from './samples.js';
import { applySeed, DEFAULT_SEED, generateStreams, parseSeed } from './seed.js';
import { StreamStore } from './store.js';
import type { RegisteredClient, Tenant } from './tenant.js';
import { ALL_SCOPES, tokenEndpoint } from './tokens.js';
import type { FaultSpec, RecordedRequest, Sandbox, SandboxClient, SandboxOptions } from './types.js';

export type { FaultSpec, RecordedRequest, Sandbox, SandboxClient, SandboxConnection, SandboxOptions } from './types.js';
export { DEFAULT_SEED, DEMO_IDS, SeedError } from './seed.js';

export const DEFAULT_TOKEN_LIFETIME = 86_400;
/** `requests` keeps the latest 10,000 to 20,000 (a long benchmark must not grow it without bound). */
const MAX_RECORDED = 10_000;

const generateRsa = promisify(generateKeyPair);

async function rsaKeyPair(): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
  return generateRsa('rsa', { modulusLength: 2048 });
}

async function keyPairFromPem(pem: string): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'rsa') throw new RangeError('signingKeyPem must be an RSA private key');
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

async function makeClient(name: string, scopes: readonly string[]): Promise<RegisteredClient> {
  const { privateKey, publicKey } = await rsaKeyPair();
  return {
    name,
    clientId: randomAlphanumeric(32),
    clientSecret: randomBytes(48).toString('base64url'),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    signingAlg: 'RS256',
    scopes: [...scopes],
    publicKey,
  };
}

/** A loopback port that refuses connections: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function checkOptions(options: SandboxOptions): void {
  const { port, streams, tokenLifetime, rateLimit } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) throw new RangeError('port must be from 0 to 65535');
  if (streams !== undefined && (!Number.isInteger(streams) || streams < 0)) throw new RangeError('streams must be a whole number');
  if (tokenLifetime !== undefined && (!Number.isInteger(tokenLifetime) || tokenLifetime <= 0)) {
    throw new RangeError('tokenLifetime must be a positive whole number of seconds');
  }
  if (rateLimit !== undefined && !(rateLimit.limit >= 1 && rateLimit.refillPerSecond > 0)) {
    throw new RangeError('rateLimit needs limit >= 1 and refillPerSecond > 0');
  }
  if (options.retryDelaysMs !== undefined && !options.retryDelaysMs.every((ms) => Number.isFinite(ms) && ms >= 0)) throw new RangeError('retryDelaysMs must be milliseconds >= 0');
  if (options.syncDurationMs !== undefined && !(Number.isFinite(options.syncDurationMs) && options.syncDurationMs >= 0)) throw new RangeError('syncDurationMs must be milliseconds >= 0');
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  // Fail fast on a bad seed, before the keys are generated (placeholders are filled in later).
  parseSeed(options.seed ?? DEFAULT_SEED, { inbox: 'https://127.0.0.1/inbox', closed: 'https://127.0.0.1:1' });
  const [inbox, signingKeys, admin, reader, refusedPort] = await Promise.all([
    startInbox(),
    options.signingKeyPem === undefined ? rsaKeyPair() : keyPairFromPem(options.signingKeyPem),
    makeClient('admin', ALL_SCOPES),
    makeClient('reader', ['read:event_streams']),
    closedPort(),
  ]);
  const closing = new AbortController();
  const faults = new Faults();
  let tenant: Tenant;
  let seededIds: string[] = [];
  try {
    const seed = parseSeed(options.seed ?? DEFAULT_SEED, { inbox: inbox.url, closed: `https://127.0.0.1:${refusedPort}` });
    const rateLimit = options.rateLimit ?? seed.rateLimit ?? DEFAULT_RATE_LIMIT;
    tenant = {
      url: '', // set once listening
      issuer: '',
      audience: '',
      clients: new Map([admin, reader].map((client) => [client.clientId, client])),
      signing: { ...signingKeys, kid: randomAlphanumeric(16) },
      tokenLifetime: options.tokenLifetime ?? seed.tokenLifetime ?? DEFAULT_TOKEN_LIFETIME,
      tokensIssued: 0,
      usedAssertionIds: new Map(),
      streams: new StreamStore(),
      connections: new Map(),
      deliveries: [],
      inbox,
      faults,
      buckets: { api: new TokenBucket(rateLimit), token: new TokenBucket(rateLimit) },
      requests: [],
      closing: closing.signal,
      now: options.now ?? Date.now,
      timing: {
        delivery: options.delivery ?? seed.delivery ?? 'async',
        retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        syncDurationMs: options.syncDurationMs ?? 2_000,
      },
      background: new Set(),
    };
    applySeed(tenant, seed);
    seededIds = tenant.streams.all().map((stream) => stream.record.id);
    generateStreams(tenant, options.streams ?? 0);
    for (const fault of options.faults ?? []) faults.add(fault);
  } catch (error) {
    await inbox.close();
    throw error;
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    handle(tenant, req, res, options.onRequest).catch((error: unknown) => {
      writeReply(res, apiError(500, `Sandbox failure: ${(error as Error)?.message ?? String(error)}`));
    });
  };
  // With requestCert, a client without a certificate signed by `ca` is refused in the handshake (mutual TLS).
  const { cert, key, ca, requestCert } = options.tls ?? {};
  const server = options.tls ? createHttpsServer({ cert, key, ca, requestCert, rejectUnauthorized: Boolean(requestCert) }, handler) : createHttpServer(handler);
  // Longer than any client's idle keep-alive, so that a reused connection is never closed under it
  // (Node's default of 5 s races clients that keep sockets longer); close() ends idle ones at once.
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await inbox.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  tenant.url = url;
  tenant.issuer = `${url}/`;
  tenant.audience = `${url}/api/v2/`;

  const publicClient = ({ publicKey: _publicKey, ...client }: RegisteredClient): SandboxClient => client;
  let closed: Promise<void> | undefined;
  return {
    url,
    apiUrl: `${url}/api/v2`,
    tokenUrl: `${url}/oauth/token`,
    inboxUrl: inbox.url,
    clients: { admin: publicClient(admin), reader: publicClient(reader) },
    requests: tenant.requests,
    tokensIssued: () => tenant.tokensIssued,
    inbox: () => inbox.records,
    deliveries: () => tenant.deliveries,
    connections: () =>
      [...tenant.connections.values()].map(({ id, name, strategy, provisioning }) => ({
        id,
        name,
        strategy,
        provisioning: provisioning ? 'configured' : defaultMapping(strategy) ? 'not configured' : 'unsupported',
      })),
    seededStreams: () => seededIds.flatMap((id) => {
      const stream = tenant.streams.get(id);
      return stream ? [{ id, name: stream.record.name }] : [];
    }),
    stats: () => stats(tenant),
    addFault: (fault: FaultSpec) => void faults.add(fault),
    clearFaults: () => faults.clear(),
    idle: async () => {
      // Work may start more work (a redelivery's attempts): wait until none is left.
      while (tenant.background.size > 0) await Promise.all([...tenant.background]);
    },
    close: () =>
      (closed ??= (async () => {
        closing.abort();
        await Promise.all([closeServer(server), inbox.close()]);
      })()),
  };
}

function remember(tenant: Tenant, record: RecordedRequest): void {
  tenant.requests.push(record);
  if (tenant.requests.length >= 2 * MAX_RECORDED) tenant.requests.splice(0, MAX_RECORDED);
}

async function handle(
  tenant: Tenant,
  req: IncomingMessage,
  res: ServerResponse,
  onRequest: ((request: RecordedRequest) => void) | undefined,
): Promise<void> {
  const body = await readBody(req);
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  const headers = flatHeaders(req.headers);

  if (path === '/sandbox' || path.startsWith('/sandbox/')) {
    writeReply(res, settle(() => control(tenant, method, path, body, headers['content-type'])));
    return;
  }

  const record: RecordedRequest = { method, url: req.url ?? '/', path, headers, body: body ?? '', status: 0, at: Date.now() };
  remember(tenant, record);
  const finish = (reply: Reply | undefined) => {
    if (reply) {
      record.status = reply.status;
      writeReply(res, reply);
    }
    onRequest?.(record);
  };

  const { latency, fault } = tenant.faults.take(method, path);
  if (latency > 0) {
    try {
      await sleep(latency, undefined, { signal: tenant.closing });
    } catch {
      return; // closed meanwhile
    }
  }
  if (fault?.kind === 'reset') {
    req.socket.destroy();
    return finish(undefined);
  }
  if (fault?.kind === 'stall') return finish(undefined); // never answered; close() ends the socket
  if (fault?.kind === 'status') return finish(faultReply(fault, path));

  if (body === undefined) return finish(apiError(413, 'Payload content length greater than maximum allowed: 1048576'));
  finish(await settleAsync(() => dispatch(tenant, method, path, url.searchParams, headers, body)));
}

async function dispatch(
  tenant: Tenant,
  method: string,
  path: string,
  query: URLSearchParams,
  headers: Record<string, string>,
  body: string,
): Promise<Reply> {
  if (path === '/oauth/token' || path === '/oauth/token/') {
    if (method !== 'POST') return tokenError(405, 'invalid_request', 'The token endpoint accepts POST only.', { Allow: 'POST' });
    const bucket = tenant.buckets.token.take();
    if (!bucket.allowed) {
      return tokenError(429, 'too_many_requests', 'Global limit has been reached', { ...bucket.headers, 'Retry-After': String(bucket.retryAfter) });
    }
    return settle(() => tokenEndpoint(tenant, { headers, body })).withHeaders(bucket.headers);
  }
  if (path === '/api/v2' || path.startsWith('/api/v2/')) {
    const bucket = tenant.buckets.api.take();
    if (!bucket.allowed) return apiError(429, 'Global limit has been reached', 'too_many_requests', bucket.headers);
    const reply = await settleAsync(() => routeApi(tenant, method, path.slice('/api/v2'.length), { query, headers, body }));
    return reply.withHeaders(bucket.headers);
  }
  if (path === '/.well-known/jwks.json' && method === 'GET') {
    const jwk = tenant.signing.publicKey.export({ format: 'jwk' });
    return json(200, { keys: [{ ...jwk, kid: tenant.signing.kid, use: 'sig', alg: 'RS256' }] });
  }
  if (path === '/' && method === 'GET') return json(200, { sandbox: true, api: `${tenant.url}/api/v2`, control: `${tenant.url}/sandbox` });
  return apiError(404, 'Not Found');
}

/** Handlers throw their error Replies; this turns them back into answers. */
function settle(fn: () => Reply): Reply {
  try {
    return fn();
  } catch (error) {
    if (error instanceof Reply) return error;
    throw error;
  }
}

async function settleAsync(fn: () => Promise<Reply> | Reply): Promise<Reply> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Reply) return error;
    throw error;
  }
}

