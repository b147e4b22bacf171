// The sandbox's contract, for idm's tests, its demo and benchmark, and `idm sandbox start`.
// Implementation: ./index.ts (startSandbox). Nothing here is loaded by other commands.

/** The longest attempt timeout a sandbox may be given (`--delivery-timeout`): ten minutes. Kept here, where `idm sandbox start` reads it without loading the sandbox. */
export const MAX_DELIVERY_TIMEOUT_MS = 600_000;

export interface SandboxClient {
  /** Which seeded client: `admin` has every scope, `reader` only read:event_streams. */
  name: string;
  clientId: string;
  clientSecret: string;
  /** PKCS#8 PEM private key registered for private_key_jwt (its public key is kept by the sandbox). */
  privateKeyPem: string;
  /** Algorithm of that key for client assertions. */
  signingAlg: 'RS256';
  scopes: string[];
  /** More public keys (SPKI PEM, RSA or EC P-256) registered for its assertions (seed `publicKeys`). */
  publicKeys?: string[];
}

/**
 * The mutual-TLS client (`mtls`): no secret; it gets a token by presenting its certificate (signed by
 * the sandbox's CA) with its client id.
 */
export interface SandboxCertificateClient {
  name: 'mtls';
  clientId: string;
  scopes: string[];
  /** PEM certificate and its private key (PKCS#8), for `idm login --auth-method tls_client_auth`. */
  certPem: string;
  keyPem: string;
  /** SHA-256 fingerprints of the certificates accepted for it: its own, then any a seed names. */
  certificateFingerprints: string[];
}

export interface FaultSpec {
  /** Only requests whose path starts with this (e.g. `/api/v2/event-streams`, `/oauth/token`). */
  path?: string;
  /** Only this HTTP method. */
  method?: string;
  /** How many matching requests the fault applies to (default 1; Infinity for all). */
  count?: number;
  /** What happens: answer this status (with a realistic body), reset the connection, never answer, or delay. */
  kind: 'status' | 'reset' | 'stall' | 'latency';
  /** For `status`. */
  status?: number;
  /** For `status`: extra response headers (e.g. Retry-After, X-RateLimit-Reset). */
  headers?: Record<string, string>;
  /** For `status`: the raw body to send instead of the default JSON error (e.g. an HTML 502 page). */
  body?: string;
  /** For `latency`: milliseconds added before handling. */
  ms?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. `/api/v2/event-streams?take=20`. */
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  at: number;
}

export interface SandboxOptions {
  /** 0 (default in tests) picks a free port. */
  port?: number;
  /** Always loopback. */
  host?: '127.0.0.1';
  /** Seed data (README: Sandbox: streams, connections, token lifetime, rate limit); default: the demo seed. */
  seed?: unknown;
  /** Generate this many extra streams (benchmarks, pagination tests). */
  streams?: number;
  /** Lifetime of issued access tokens in seconds (default 86400). */
  tokenLifetime?: number;
  /**
   * Token bucket per tenant (one for /api/v2, one for the token endpoint, each this size). Default:
   * 10,000 requests refilled at 10,000 per second, so the X-RateLimit-* headers are always real.
   */
  rateLimit?: { limit: number; refillPerSecond: number };
  /**
   * The most streams the tenant holds: a create beyond it answers the service's 409 (README: Sandbox).
   * The real number is not published; default: no limit.
   */
  maxStreams?: number;
  faults?: FaultSpec[];
  /**
   * Serve the tenant over HTTPS with this certificate (issue 5: test CA). With `requestCert`, only
   * clients presenting a certificate signed by `ca` get through (mutual TLS).
   */
  tls?: { cert: string; key: string; ca?: string; requestCert?: boolean };
  /**
   * Serve the tenant over HTTPS with a server certificate for 127.0.0.1 and localhost, signed by a
   * certificate authority the sandbox makes (kept in `stateDir`); `Sandbox.caPem` is what to trust.
   * `tls` gives a certificate instead.
   */
  https?: boolean;
  /**
   * Mutual-TLS client authentication for the `mtls` client: `handshake` asks every TLS client for a
   * certificate (needs HTTPS); `edge` trusts the headers of an edge network that did the handshake
   * (`client-certificate`, `client-certificate-ca-verified`, `cname-api-key`), as the real service does.
   */
  mtls?: 'handshake' | 'edge';
  /**
   * Keep the tenant in this directory (state.json, 0600): clients, keys, the CA, streams, connections,
   * deliveries; loaded at the next start, with the same port unless `port` is given. Changes are
   * written shortly after they happen (several at once) and at close().
   */
  stateDir?: string;
  /** With `stateDir`: a write of the state failed while running (it is tried again; close() throws if the last one fails). */
  onStateError?: (error: Error) => void;
  /** PKCS#8 PEM of the RSA key that signs access tokens (default: generated), so tests can mint expired or foreign-audience tokens. */
  signingKeyPem?: string;
  /** Called after each tenant request is answered (or reset, or stalled): `idm sandbox start --debug` logs with it. */
  onRequest?: (request: RecordedRequest) => void;
  /**
   * Test deliveries: `async` (default, as the real service: 202 `pending`, attempts in the background)
   * or `sync` (delivered before the 202 answer, which says how it went). A seed's `delivery` too.
   */
  delivery?: 'async' | 'sync';
  /** Waits before the 2nd, 3rd and 4th attempt after a connection error (default 1000, 2000, 4000 ms; tests: 0). */
  retryDelaysMs?: readonly number[];
  /** How long one webhook attempt waits for an answer before it fails as a timeout (default 3000 ms, as the service; tests: generous, so a loaded machine cannot fail a delivery). */
  deliveryTimeoutMs?: number;
  /** How long a simulated directory synchronization runs (default 2000 ms; tests: 0). */
  syncDurationMs?: number;
  /** The tenant's clock (default Date.now): timestamps, statistics windows, the 30-minute rule. */
  now?: () => number;
}

/** One test delivery: its record (attempts growing as they happen), the destination type, and the envelope. */
export interface SandboxDelivery {
  record: { id: string; event_stream_id: string; status: string; event_type: string; attempts: Array<Record<string, unknown>>; event?: unknown };
  destination: 'webhook' | 'eventbus' | 'action';
  event: { specversion: string; id: string; source: string; type: string; time: string; data: unknown };
}

/** A connection of the tenant, as `idm sandbox start` lists them (the wizard asks for their ids). */
export interface SandboxConnection {
  id: string;
  name: string;
  strategy: string;
  /** `configured`: a POST of directory provisioning answers 409; `unsupported`: its strategy has none (400). */
  provisioning: 'configured' | 'not configured' | 'unsupported';
}

export interface Sandbox {
  /** Tenant base, e.g. `http://127.0.0.1:43123` — what `idm login --domain` takes. */
  url: string;
  /** `${url}/api/v2` */
  apiUrl: string;
  /** `${url}/oauth/token` */
  tokenUrl: string;
  /** The HTTPS webhook inbox's base, e.g. `https://127.0.0.1:43124/inbox`. */
  inboxUrl: string;
  clients: { admin: SandboxClient; reader: SandboxClient; mtls?: SandboxCertificateClient };
  /** What a client trusts for the tenant's HTTPS certificate: the sandbox's CA, when it issued that certificate (`https` without `tls`), PEM. */
  caPem?: string;
  /** The CA that signed the `mtls` client's certificate (with `mtls`), PEM: what an edge verifies client certificates with. */
  clientCaPem?: string;
  /** With `mtls: 'edge'`: the `cname-api-key` an edge must forward. */
  edgeKey?: string;
  /** Loaded from `stateDir` (a seed and generated streams are applied only to a new tenant). */
  restored: boolean;
  /** The requests the tenant received (not the inbox's), oldest first: the latest 10,000 to 11,000 (the oldest are dropped a thousand at a time), and fewer when their bodies, URLs and headers pass 64 Mi characters. */
  requests: RecordedRequest[];
  /** Tokens issued so far. */
  tokensIssued(): number;
  /** What the webhook inbox received. */
  inbox(): Array<{ method: string; path: string; headers: Record<string, string>; body: unknown; at: number }>;
  /** Every test delivery, to any destination (eventbus and action go to a simulated receiver). */
  deliveries(): SandboxDelivery[];
  /** The connections, and where each stands with directory provisioning. */
  connections(): SandboxConnection[];
  /** Id and name of the streams that came from the seed (not the generated ones) and still exist. */
  seededStreams(): Array<{ id: string; name?: string }>;
  /** The counts of GET /sandbox/stats. */
  stats(): { tokensIssued: number; streams: number; connections: number; requests: number; inbox: number; deliveries: number; faults: number };
  addFault(fault: FaultSpec): void;
  clearFaults(): void;
  /** Resolves when no delivery or synchronization is running in the background. */
  idle(): Promise<void>;
  close(): Promise<void>;
}
