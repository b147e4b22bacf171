// The sandbox: a local tenant on 127.0.0.1 that speaks the management interface and the token
// endpoint as the real service does (../shared/spec/interface.md, wire-facts.md), with an HTTPS
// webhook inbox, rate limiting, fault injection and control endpoints. See README: Sandbox.
import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { removeMade } from '../core/dirs.js';
import { isLoopbackHost } from '../core/net.js';
import { headerChars, pushBounded } from './bounded.js';
import { control, stats } from './control.js';
import { Faults, faultReply } from './faults.js';
import { allowed, answerClientError, answerConnect, answerExpectation, answerPlainHttp, apiError, closeServer, flatHeaders, isTokenPath, json, MAX_BODY_BYTES, readBody, refusal, Reply, requestUrl, tokenError, trackSockets, writeReply } from './http.js';
import { randomAlphanumeric } from './ids.js';
import { DEFAULT_RETRY_DELAYS_MS, DELIVERY } from './delivery.js';
import { startInbox, type Inbox } from './inbox.js';
import { DEFAULT_RATE_LIMIT, TokenBucket } from './ratelimit.js';
import { routeApi } from './router.js';
import { defaultMapping } from './samples.js';
import { createCa, fingerprintOf, issueCertificate, normalizeFingerprint, stillValid, type Pem } from './pki.js';
import { applySeed, DEFAULT_SEED, generateStreams, parseSeed, SeedError, StreamLimitError, type Seed } from './seed.js';
import { lockStateDir, loadState, rebase, StateSaver, type SavedState } from './state.js';
import { StreamStore } from './store.js';
import type { EventStream } from '../schemas/index.js';
import type { Connection, RegisteredClient, Tenant } from './tenant.js';
import { ALL_SCOPES, tokenEndpoint, type TokenRequest } from './tokens.js';
import { MAX_DELIVERY_TIMEOUT_MS, type FaultSpec, type RecordedRequest, type Sandbox, type SandboxCertificateClient, type SandboxClient, type SandboxOptions } from './types.js';

export type { FaultSpec, RecordedRequest, Sandbox, SandboxCertificateClient, SandboxClient, SandboxConnection, SandboxOptions } from './types.js';
export { DEFAULT_SEED, DEMO_IDS, SeedError, StreamLimitError } from './seed.js';
export { SandboxStateError } from './state.js';
// For `idm sandbox start`, which checks --fault values before starting one.
export { FaultSpecSchema } from './faults.js';
export { describeIssues } from '../schemas/index.js';

export const DEFAULT_TOKEN_LIFETIME = 86_400;
/** The request log keeps the latest 10,000 to 11,000 requests, and at most 64 Mi characters of them (bounded.ts). */
export { LOG_CHARS as REQUEST_LOG_CHARS, LOG_SIZE as REQUEST_LOG_SIZE } from './bounded.js';

/** Characters a recorded request holds (what GET /sandbox/requests will write for it, near enough). */
function recordedChars(record: RecordedRequest): number {
  return record.body.length + record.url.length + record.path.length + 100 + headerChars(record.headers);
}

const generateRsa = promisify(generateKeyPair);

async function rsaKeyPair(): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
  return generateRsa('rsa', { modulusLength: 2048 });
}

function keyPairFromPem(pem: string): { privateKey: KeyObject; publicKey: KeyObject } {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'rsa') throw new RangeError('signingKeyPem must be an RSA private key');
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

type SeedClients = NonNullable<Seed['clients']>;

async function makeSecretClient(name: 'admin' | 'reader', scopes: readonly string[], seeded: SeedClients['admin']): Promise<SandboxClient> {
  const { privateKey } = await rsaKeyPair();
  return {
    name,
    clientId: seeded?.clientId ?? randomAlphanumeric(32),
    clientSecret: seeded?.clientSecret ?? randomBytes(48).toString('base64url'),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    signingAlg: 'RS256',
    scopes: [...scopes],
    ...(seeded?.publicKeys?.length ? { publicKeys: [...seeded.publicKeys] } : {}),
  };
}

async function makeCertificateClient(ca: Pem, seeded: SeedClients['mtls']): Promise<SandboxCertificateClient> {
  const { cert, key } = await issueCertificate(ca, 'client', 'idm sandbox mtls client');
  const extra = (seeded?.certificateFingerprints ?? []).map((text) => normalizeFingerprint(text)!);
  return { name: 'mtls', clientId: seeded?.clientId ?? randomAlphanumeric(32), scopes: [...ALL_SCOPES], certPem: cert, keyPem: key, certificateFingerprints: [fingerprintOf(cert), ...extra] };
}

function registered(client: SandboxClient | SandboxCertificateClient): RegisteredClient {
  const { name, clientId, scopes } = client;
  return 'clientSecret' in client
    ? {
        name,
        clientId,
        scopes,
        clientSecret: client.clientSecret,
        publicKeys: [createPublicKey(client.privateKeyPem), ...(client.publicKeys ?? []).map((pem) => createPublicKey(pem))],
      }
    : { name, clientId, scopes, certificateFingerprints: client.certificateFingerprints };
}

interface RefusingPort {
  port: number;
  close(): Promise<void>;
}

/**
 * A loopback port that refuses connections for as long as the sandbox runs (the demo's closed-port
 * webhook). Not one bound and released: any process on the machine may be given that one next, and
 * then answer the deliveries meant to fail. This is the local end of a connection the sandbox keeps
 * to a server of its own: bound and not listening, so the kernel refuses every connection to it, and
 * no one else can bind it until close().
 */
async function holdRefusingPort(): Promise<RefusingPort> {
  const accepted: Socket[] = [];
  const server = createNetServer((socket) => void accepted.push(socket.on('error', () => {})));
  const close = async (holder?: Socket) => {
    holder?.destroy();
    for (const socket of accepted) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const holder = connect((server.address() as AddressInfo).port, '127.0.0.1');
  try {
    await new Promise<void>((resolve, reject) => holder.once('connect', resolve).once('error', reject));
  } catch (error) {
    await close(holder);
    throw error;
  }
  holder.on('error', () => {});
  return { port: holder.localPort!, close: () => close(holder) };
}

function checkOptions(options: SandboxOptions): void {
  const { port, streams, tokenLifetime, rateLimit, maxStreams } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) throw new RangeError('port must be from 0 to 65535');
  if (streams !== undefined && (!Number.isInteger(streams) || streams < 0)) throw new RangeError('streams must be a whole number');
  if (tokenLifetime !== undefined && (!Number.isInteger(tokenLifetime) || tokenLifetime <= 0)) {
    throw new RangeError('tokenLifetime must be a positive whole number of seconds');
  }
  if (rateLimit !== undefined && !(rateLimit.limit >= 1 && rateLimit.refillPerSecond > 0)) {
    throw new RangeError('rateLimit needs limit >= 1 and refillPerSecond > 0');
  }
  if (maxStreams !== undefined && (!Number.isInteger(maxStreams) || maxStreams <= 0)) throw new RangeError('maxStreams must be a positive whole number');
  if (options.retryDelaysMs !== undefined && !options.retryDelaysMs.every((ms) => Number.isFinite(ms) && ms >= 0)) throw new RangeError('retryDelaysMs must be milliseconds >= 0');
  if (options.deliveryTimeoutMs !== undefined && !(Number.isInteger(options.deliveryTimeoutMs) && options.deliveryTimeoutMs > 0 && options.deliveryTimeoutMs <= MAX_DELIVERY_TIMEOUT_MS)) {
    throw new RangeError(`deliveryTimeoutMs must be whole milliseconds from 1 to ${MAX_DELIVERY_TIMEOUT_MS}`);
  }
  if (options.syncDurationMs !== undefined && !(Number.isFinite(options.syncDurationMs) && options.syncDurationMs >= 0)) throw new RangeError('syncDurationMs must be milliseconds >= 0');
  if (options.mtls === 'handshake' && !options.https && !options.tls) throw new RangeError('mtls handshake needs https (or tls)');
}

/** Streams, connections and deliveries of a saved state, their webhooks moved to this run's inbox. */
function restoreData(tenant: Tenant, saved: SavedState, moves: ReadonlyArray<readonly [string, string]>): void {
  for (const { record, secret } of saved.streams) {
    const { destination } = record;
    const moved: EventStream =
      destination.type === 'webhook'
        ? { ...record, destination: { ...destination, configuration: { ...destination.configuration, webhook_endpoint: rebase(destination.configuration.webhook_endpoint, moves) } } }
        : record;
    tenant.streams.add(moved, secret);
  }
  for (const { lastSyncRequestedAt: _dropped, ...connection } of saved.connections as Array<Connection & { lastSyncRequestedAt?: number }>) {
    tenant.connections.set(connection.id, connection);
  }
  tenant.deliveries.push(...saved.deliveries);
}

/** What --state-dir keeps: everything but the request log, the inbox's records and what is running. */
function snapshot(tenant: Tenant, pieces: Omit<SavedState, 'version' | 'port' | 'tokenLifetime' | 'maxStreams' | 'signingKey' | 'streams' | 'connections' | 'deliveries'>): SavedState {
  return {
    version: 1,
    port: Number(new URL(tenant.url).port),
    tokenLifetime: tenant.tokenLifetime,
    ...(tenant.maxStreams === undefined ? {} : { maxStreams: tenant.maxStreams }),
    signingKey: { pem: tenant.signing.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), kid: tenant.signing.kid },
    ...pieces,
    streams: tenant.streams.all().map(({ record, secret }) => (secret === undefined ? { record } : { record, secret })),
    connections: [...tenant.connections.values()].map(({ synchronizing: _running, ...connection }) => connection),
    deliveries: tenant.deliveries,
  };
}

/** The listening tenant server: HTTPS when `tls` is given (asking for client certificates with mtls `handshake`). */
function createTenantServer(
  options: SandboxOptions,
  tls: Pem | undefined,
  ca: Pem | undefined,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): HttpServer | HttpsServer {
  // An HTTP/1.1 request without Host is answered by handle() (400 with a body), not by Node's bare 400.
  const http = { requireHostHeader: false };
  if (!tls) return answerBadRequests(trackSockets(createHttpServer(http, handler)));
  return answerBadRequests(trackSockets(createHttpsServer(
    options.mtls === 'handshake'
      ? // Every client is asked for a certificate, none is refused in the handshake: the token
        // endpoint decides, and answers invalid_client as the service does.
        { ...http, cert: tls.cert, key: tls.key, ca: ca?.cert, requestCert: true, rejectUnauthorized: false }
      : // With tls.requestCert (tests), a client without a certificate signed by `ca` is refused in the handshake.
        { ...http, cert: tls.cert, key: tls.key, ca: options.tls?.ca, requestCert: Boolean(options.tls?.requestCert), rejectUnauthorized: Boolean(options.tls?.requestCert) },
    handler,
  )));
}

/** Node's bare answers (400 malformed, 431 headers too large, 417 unknown Expect, CONNECT closed unanswered) with a body: the management error shape, the token endpoint's for a 417 there. */
function answerBadRequests<S extends HttpServer | HttpsServer>(server: S): S {
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectation);
  server.on('connect', answerConnect);
  return server;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  // Fail fast on a bad seed, before the keys are generated (placeholders are filled in later).
  const seed = parseSeed(options.seed ?? DEFAULT_SEED);
  if (seed.clients?.mtls && options.mtls === undefined) {
    throw new SeedError('Invalid seed: clients.mtls needs mutual TLS: start with --https --mtls, or --mtls-edge');
  }
  const { stateDir } = options;
  const lock = stateDir === undefined ? undefined : lockStateDir(stateDir);
  try {
    const saved = stateDir === undefined ? undefined : loadState(stateDir);
    // A tenant over its limit from the start is a contradiction (every create would be refused until
    // streams are deleted), not a plan: refused before anything is generated.
    const maxStreams = tenantMaxStreams(options, seed, saved);
    const streams = saved ? { saved: saved.streams.length } : { seeded: seed.streams?.length ?? 0, generated: options.streams ?? 0 };
    const count = saved ? saved.streams.length : (seed.streams?.length ?? 0) + (options.streams ?? 0);
    if (maxStreams !== undefined && count > maxStreams) throw new StreamLimitError(maxStreams, streams);
    return await open(options, seed, stateDir === undefined ? undefined : { dir: stateDir, saved, release: lock!.release });
  } catch (error) {
    // A failed start leaves no directory it made (one that holds something, such as state.json, stays).
    lock?.release();
    if (lock) removeMade(lock.made);
    throw error;
  }
}

/**
 * The plan's limit: the option's, else a new tenant's seed's, else the saved tenant's (kept by
 * --state-dir as its token lifetime is). One rule for the check at start and for the tenant.
 */
function tenantMaxStreams(options: SandboxOptions, seed: Seed, saved: SavedState | undefined): number | undefined {
  return options.maxStreams ?? (saved ? saved.maxStreams : seed.maxStreams);
}

async function open(options: SandboxOptions, seed: Seed, state: { dir: string; saved: SavedState | undefined; release: () => void } | undefined): Promise<Sandbox> {
  const saved = state?.saved;
  const seedClients = seed.clients ?? {};
  const wantsMtls = options.mtls !== undefined;
  /** The sandbox makes the server certificate (--https), rather than being given one (tls). */
  const issuesServer = Boolean(options.https) && !options.tls;
  // One CA signs the HTTPS certificate and the mtls client's: made once, then kept with the state.
  // A kept CA, server certificate or mtls client certificate that has expired (or soon will) is made
  // anew, as are those the old CA signed once it is: a tenant kept past their lifetime (825 and 365
  // days) would otherwise serve a certificate every client refuses, and refuse its own mtls client.
  const keptCa = saved?.ca && stillValid(saved.ca.cert) ? saved.ca : undefined;
  const ca = keptCa ?? (issuesServer || wantsMtls ? await createCa() : undefined);
  const savedMtls = saved?.clients.mtls;
  // Whatever fails from here on closes what was started (a started inbox would keep the process alive).
  const inboxStarting = startInbox();
  const refusingStarting = holdRefusingPort();
  let inbox: Inbox | undefined;
  let httpServer: HttpServer | HttpsServer | undefined;
  try {
    const [started, signingKeys, admin, reader, refusing, server, mtlsClient] = await Promise.all([
      inboxStarting,
      saved ? keyPairFromPem(saved.signingKey.pem) : options.signingKeyPem === undefined ? rsaKeyPair() : keyPairFromPem(options.signingKeyPem),
      saved?.clients.admin ?? makeSecretClient('admin', ALL_SCOPES, seedClients.admin),
      saved?.clients.reader ?? makeSecretClient('reader', ['read:event_streams'], seedClients.reader),
      refusingStarting,
      issuesServer ? (saved?.server && stillValid(saved.server.cert, ca) ? saved.server : issueCertificate(ca, 'server')) : undefined,
      wantsMtls
        ? savedMtls && stillValid(savedMtls.certPem, ca)
          ? savedMtls
          : // Renewed under the same client id, with the other certificates registered for it (a seed's).
            makeCertificateClient(ca!, savedMtls ? { clientId: savedMtls.clientId, certificateFingerprints: savedMtls.certificateFingerprints.slice(1) } : seedClients.mtls)
        : undefined,
    ]);
    inbox = started;
    const edgeKey = options.mtls === 'edge' ? (saved?.edgeKey ?? randomAlphanumeric(40)) : undefined;
    const closing = new AbortController();
    const faults = new Faults();
    const inboxUrl = inbox.url;
    const closedUrl = `https://127.0.0.1:${refusing.port}`;
    // A saved tenant is used as it was: the seed's settings apply only to a new one (README), the flags to both.
    const settings: Pick<Seed, 'tokenLifetime' | 'rateLimit' | 'delivery'> = saved ? {} : seed;
    const rateLimit = options.rateLimit ?? settings.rateLimit ?? DEFAULT_RATE_LIMIT;
    const maxStreams = tenantMaxStreams(options, seed, saved);
    const clients = [admin, reader, ...(mtlsClient ? [mtlsClient] : [])].map(registered);
    const tenant: Tenant = {
      url: '', // set once listening
      issuer: '',
      audience: '',
      clients: new Map(clients.map((client) => [client.clientId, client])),
      ...(options.mtls === 'handshake' ? { mtls: { mode: 'handshake' as const } } : edgeKey ? { mtls: { mode: 'edge' as const, edgeKey } } : {}),
      signing: { ...signingKeys, kid: saved?.signingKey.kid ?? randomAlphanumeric(16) },
      tokenLifetime: options.tokenLifetime ?? settings.tokenLifetime ?? saved?.tokenLifetime ?? DEFAULT_TOKEN_LIFETIME,
      ...(maxStreams === undefined ? {} : { maxStreams }),
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
        delivery: options.delivery ?? settings.delivery ?? 'async',
        retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        deliveryTimeoutMs: options.deliveryTimeoutMs ?? DELIVERY.timeoutMs,
        syncDurationMs: options.syncDurationMs ?? 2_000,
      },
      background: new Set(),
      changed: () => undefined,
    };
    if (saved) {
      // The saved tenant as it was: its seed and generated streams are not applied again.
      restoreData(tenant, saved, [
        [saved.inboxUrl, inboxUrl],
        [saved.closedUrl, closedUrl],
      ]);
    } else {
      applySeed(tenant, seed, { inbox: inboxUrl, closed: closedUrl });
    }
    const seededIds = tenant.streams.all().map((stream) => stream.record.id);
    if (!saved) generateStreams(tenant, options.streams ?? 0);
    for (const fault of options.faults ?? []) faults.add(fault);

    const handler = (req: IncomingMessage, res: ServerResponse) => {
      handle(tenant, req, res, options.onRequest).catch((error: unknown) => {
        writeReply(res, apiError(500, `Sandbox failure: ${(error as Error)?.message ?? String(error)}`));
      });
    };
    const tls = options.tls ?? server;
    const listening = createTenantServer(options, tls, ca, handler);
    httpServer = listening;
    // Longer than any client's idle keep-alive, so that a reused connection is never closed under it
    // (Node's default of 5 s races clients that keep sockets longer); close() ends idle ones at once.
    listening.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(options.port ?? saved?.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = listening.address() as AddressInfo;
    const url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    if (tls) listening.on('tlsClientError', (error: Error, socket: object) => answerPlainHttp(error, socket, url));
    tenant.url = url;
    tenant.issuer = `${url}/`;
    tenant.audience = `${url}/api/v2/`;

    let saver: StateSaver | undefined;
    if (state) {
      // What this run does not use is kept for the next one: the mtls client and the edge key of a
      // run with mutual TLS, the server certificate of a run with --https.
      const keptMtls = mtlsClient ?? saved?.clients.mtls;
      const keptServer = server ?? saved?.server;
      const keptEdgeKey = edgeKey ?? saved?.edgeKey;
      const pieces = {
        inboxUrl,
        closedUrl,
        clients: { admin, reader, ...(keptMtls ? { mtls: keptMtls } : {}) },
        ...(ca ? { ca } : {}),
        ...(keptServer ? { server: keptServer } : {}),
        ...(keptEdgeKey ? { edgeKey: keptEdgeKey } : {}),
      };
      saver = new StateSaver(state.dir, () => snapshot(tenant, pieces), options.onStateError);
      tenant.changed = () => saver!.changed();
      // A new tenant, or new credentials, are written at once (before they are printed); a loaded
      // tenant is not written again unless this run moved it.
      const grew = ca !== saved?.ca || keptServer !== saved?.server || keptMtls !== saved?.clients.mtls || keptEdgeKey !== saved?.edgeKey;
      if (!saved || grew) saver.now();
      else if (port !== saved.port || tenant.tokenLifetime !== saved.tokenLifetime || tenant.maxStreams !== saved.maxStreams) saver.changed();
    }

    let closed: Promise<void> | undefined;
    const opened = inbox;
    return {
      url,
      apiUrl: `${url}/api/v2`,
      tokenUrl: `${url}/oauth/token`,
      inboxUrl,
      clients: { admin, reader, ...(mtlsClient ? { mtls: mtlsClient } : {}) },
      // What to trust for the tenant's certificate: only when the sandbox issued it.
      ...(server && ca ? { caPem: ca.cert } : {}),
      ...(mtlsClient && ca ? { clientCaPem: ca.cert } : {}),
      ...(edgeKey ? { edgeKey } : {}),
      restored: saved !== undefined,
      requests: tenant.requests,
      tokensIssued: () => tenant.tokensIssued,
      inbox: () => opened.records,
      deliveries: () => tenant.deliveries,
      connections: () =>
        [...tenant.connections.values()].map(({ id, name, strategy, provisioning }) => ({
          id,
          name,
          strategy,
          provisioning: provisioning ? 'configured' : defaultMapping(strategy) ? 'not configured' : 'unsupported',
        })),
      seededStreams: () =>
        seededIds.flatMap((id) => {
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
          await Promise.all([closeServer(listening), opened.close(), refusing.close()]);
          // Aborted work ends at once; what it recorded is saved with the rest.
          await Promise.allSettled([...tenant.background]);
          if (state) {
            try {
              saver!.close();
            } finally {
              state.release();
            }
          }
        })()),
    };
  } catch (error) {
    const started = inbox ?? (await inboxStarting.catch(() => undefined));
    const held = await refusingStarting.catch(() => undefined);
    await Promise.all([started?.close(), held?.close(), httpServer?.listening ? closeServer(httpServer) : undefined]);
    throw error;
  }
}

function remember(tenant: Tenant, record: RecordedRequest): void {
  pushBounded(tenant.requests, record, recordedChars(record));
}

/**
 * A Host header's syntax (RFC 9112 3.2, RFC 3986 3.2.2): a name or address (an IPv6 one in brackets)
 * and an optional port. `evil.example@127.0.0.1`, `127.0.0.1/x` or `localhost\\x` are no host, though
 * the URL parser reads 127.0.0.1 or localhost out of them.
 */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/;

/** Whether a request's Host header names this machine (a client without one, HTTP/1.0, is no browser). */
function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  try {
    // `localhost.` is localhost written as a full name (browsers and resolvers keep it on this machine).
    return isLoopbackHost(new URL(`http://${host}`).hostname.replace(/(?<=^localhost)\.$/i, ''));
  } catch {
    return false;
  }
}

/**
 * The host of an absolute-form request-target (`GET http://host/path`, what clients send to a proxy),
 * which RFC 9112 3.2.2 has a server take instead of the Host header; undefined for a path (origin-form).
 */
function targetHost(target: string | undefined): string | undefined {
  if (target === undefined || target.startsWith('/')) return undefined;
  try {
    return new URL(target).host || undefined;
  } catch {
    return undefined;
  }
}

/** The refusal of a request whose Host (or absolute target) is not one this sandbox answers for, if it is not. */
function hostRefusal(req: IncomingMessage): Reply | undefined {
  // More than one Host is 400 (RFC 9112 3.2: a server MUST): req.headers keeps the first, which the
  // check below would judge while another reader of the request (a proxy in front) may take the last.
  if ((req.headersDistinct.host?.length ?? 0) > 1) {
    return refusal(req.url, 400, 'invalid_request', 'The request has more than one Host header: send one (RFC 9112, section 3.2).');
  }
  // Nor none in HTTP/1.1 (the same section; HTTP/1.0 has no Host, and its clients are no browsers).
  if (req.headers.host === undefined && req.httpVersion !== '1.0') {
    return refusal(req.url, 400, 'invalid_request', 'The request has no Host header, which HTTP/1.1 requires: send one (RFC 9112, section 3.2).');
  }
  // Nor one that is no host and port (the same section: a server MUST answer 400).
  if (req.headers.host !== undefined && !HOST_SYNTAX.test(req.headers.host)) {
    return refusal(req.url, 400, 'invalid_request', 'The Host header is not a host with an optional port (RFC 9112, section 3.2).');
  }
  const absolute = targetHost(req.url);
  if (!loopbackHost(absolute ?? req.headers.host)) {
    // A web page whose name was made to resolve to 127.0.0.1 (DNS rebinding) would otherwise be the
    // sandbox's own origin to the browser: it could read /sandbox/requests (the secrets sent) and act.
    // Answered in the shape of the endpoint asked: the token endpoint's is OAuth's.
    const names = absolute === undefined ? 'the Host header names' : 'the request-target names';
    return refusal(req.url, 403, 'access_denied', `This sandbox answers requests for 127.0.0.1 and localhost only (${names} another host).`);
  }
  return undefined;
}

async function handle(
  tenant: Tenant,
  req: IncomingMessage,
  res: ServerResponse,
  onRequest: ((request: RecordedRequest) => void) | undefined,
): Promise<void> {
  const body = await readBody(req);
  const refused = hostRefusal(req);
  if (refused) {
    // Not recorded (nothing of such a request is kept), but shown by --debug, as every request is.
    writeReply(res, refused);
    const target = req.url ?? '/';
    onRequest?.({ method: req.method ?? 'GET', url: target, path: requestUrl(target)?.pathname ?? target, headers: flatHeaders(req.headersDistinct), body: '', status: refused.status, at: Date.now() });
    return;
  }
  const method = req.method ?? 'GET';
  const headers = flatHeaders(req.headers);
  // The log shows every header as sent: req.headers keeps only the first of a repeated Authorization,
  // Content-Type, User-Agent, … (what the handlers act on, as the service does), headersDistinct all of them.
  const sent = flatHeaders(req.headersDistinct);
  const url = requestUrl(req.url);
  if (!url) {
    // A request-target that is no URL (`//[`, `http://a:b`): the client's error, recorded like any request.
    const record: RecordedRequest = { method, url: req.url ?? '', path: req.url ?? '', headers: sent, body: body ?? '', status: 400, at: Date.now() };
    remember(tenant, record);
    writeReply(res, apiError(400, 'Invalid request URL'));
    onRequest?.(record);
    return;
  }
  const path = url.pathname;
  // HEAD is answered as GET (RFC 9110: every server supports both; the service does), without the
  // body: Node's response to a HEAD request writes none. Recorded (and faulted) as the HEAD it was.
  const routed = method === 'HEAD' ? 'GET' : method;

  if (path === '/sandbox' || path.startsWith('/sandbox/')) {
    writeReply(res, settle(() => control(tenant, routed, path, body, headers['content-type'])));
    return;
  }

  const record: RecordedRequest = { method, url: req.url ?? '/', path, headers: sent, body: body ?? '', status: 0, at: Date.now() };
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
  if (fault?.kind === 'status') return finish(faultReply(fault, path, tenant.url));

  const reply = await settleAsync(() => dispatch(tenant, routed, path, url.searchParams, headers, body, peerCertificate(tenant, req)));
  // With --state-dir, a save is due (written shortly, with the other changes of the moment, and at close).
  if (method !== 'GET' && method !== 'HEAD' && path.startsWith('/api/v2/') && reply.status < 300) tenant.changed();
  finish(reply);
}

/** With mtls `handshake`: the certificate the client presented, if any, and whether the CA verified it. */
function peerCertificate(tenant: Tenant, req: IncomingMessage): TokenRequest['peer'] {
  if (tenant.mtls?.mode !== 'handshake') return undefined;
  const socket = req.socket as TLSSocket;
  const certificate = socket.getPeerCertificate();
  return certificate?.raw ? { der: certificate.raw, verified: socket.authorized } : undefined;
}

async function dispatch(
  tenant: Tenant,
  method: string,
  path: string,
  query: URLSearchParams,
  headers: Record<string, string>,
  /** undefined: larger than MAX_BODY_BYTES (413). */
  body: string | undefined,
  peer: TokenRequest['peer'],
): Promise<Reply> {
  const tooLarge = `Payload content length greater than maximum allowed: ${MAX_BODY_BYTES}`;
  if (isTokenPath(path)) {
    // Every answer of the token endpoint counts and carries the rate-limit headers, in its own error shape.
    const bucket = tenant.buckets.token.take();
    if (!bucket.allowed) {
      return tokenError(429, 'too_many_requests', 'Global limit has been reached', { ...bucket.headers, 'Retry-After': String(bucket.retryAfter) });
    }
    if (method !== 'POST') return tokenError(405, 'invalid_request', 'The token endpoint accepts POST only.', { ...bucket.headers, Allow: 'POST' });
    if (body === undefined) return tokenError(413, 'invalid_request', tooLarge, bucket.headers);
    return settle(() => tokenEndpoint(tenant, { headers, body, peer })).withHeaders(bucket.headers);
  }
  const isApi = path === '/api/v2' || path.startsWith('/api/v2/');
  if (body === undefined) {
    if (!isApi) return apiError(413, tooLarge);
    const bucket = tenant.buckets.api.take();
    return bucket.allowed ? apiError(413, tooLarge, undefined, bucket.headers) : apiError(429, 'Global limit has been reached', 'too_many_requests', bucket.headers);
  }
  if (isApi) {
    const bucket = tenant.buckets.api.take();
    if (!bucket.allowed) return apiError(429, 'Global limit has been reached', 'too_many_requests', bucket.headers);
    const reply = await settleAsync(() => routeApi(tenant, method, path.slice('/api/v2'.length), { query, headers, body }));
    return reply.withHeaders(bucket.headers);
  }
  if (path === '/.well-known/jwks.json' || path === '/') {
    // Another method on a path that exists is 405 with Allow, as the tenant's routes and the control paths answer.
    const methods = allowed(['GET']).join(', ');
    if (method !== 'GET') return apiError(405, `Method Not Allowed. ${path} takes ${methods}`).withHeaders({ Allow: methods });
    if (path === '/') return json(200, { sandbox: true, api: `${tenant.url}/api/v2`, control: `${tenant.url}/sandbox` });
    const jwk = tenant.signing.publicKey.export({ format: 'jwk' });
    return json(200, { keys: [{ ...jwk, kid: tenant.signing.kid, use: 'sig', alg: 'RS256' }] });
  }
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

