// Access tokens: the client-credentials grant, and the on-disk cache that makes a second run (and 20
// parallel runs) cost no token request. Token issuance is metered per tenant, so one function,
// obtainToken(), decides everything: a fresh cached token is used as is; otherwise one process takes
// the lock and fetches while the others wait for its result and read it from the cache.
import { join } from 'node:path';
import { errorFromAnswer, badAnswer, type FailureContext } from '../api/errors.js';
import type { Transport } from '../api/http.js';
import { MAX_ATTEMPTS, send, type SendPolicy } from '../api/retry.js';
import type { Redactor } from '../api/redact.js';
import type { Tenant } from '../config/domain.js';
import { acquireLock, readTextIfExists, removeIfExists, writeFileAtomic } from '../config/files.js';
import { tokensDir } from '../config/paths.js';
import type { ClientCredentials } from '../config/resolve.js';
import { peekClaims } from './jwt.js';
import { USER_AGENT } from '../cli/version.js';


export interface CachedToken {
  accessToken: string;
  tokenType: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  obtainedAt: number;
  scope?: string;
  domain: string;
  clientId: string;
  audience: string;
}

/** The management audience of a tenant: its base URL plus `/api/v2/` (with the slash). */
export function audienceOf(tenant: Tenant): string {
  return `${tenant.base}/api/v2/`;
}

/** 64-bit FNV-1a of the UTF-8 text, as 16 hex digits: a short, stable, non-cryptographic fingerprint. */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

/**
 * One file per (domain, client, audience); the audience follows from the domain. The name is a
 * readable prefix (host, client id cut and made safe) plus a hash of the full key, so that two
 * clients whose ids look alike never share a file (and evict each other's token every run). FNV-1a,
 * not node:crypto, which stays off the warm path; the file's content is checked against all three.
 */
export function tokenCacheFile(dir: string, tenant: Tenant, clientId: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9.-]/g, '_');
  const scheme = tenant.base.startsWith('http:') ? 'http_' : '';
  const key = fnv1a64(`${tenant.base}\n${clientId}\n${audienceOf(tenant)}`);
  return join(tokensDir(dir), `${scheme}${safe(tenant.host)}_${safe(clientId).slice(0, 64)}_${key}.json`);
}

/** A token is reused until shortly before it expires: a minute, or a quarter of a short lifetime. */
export function isFresh(token: CachedToken, now = Date.now()): boolean {
  const margin = Math.min(60_000, (token.expiresAt - token.obtainedAt) / 4);
  return now < token.expiresAt - margin;
}

/** The cached token for this (domain, client, audience). A damaged file is removed and ignored. */
export function readCachedToken(file: string, tenant: Tenant, clientId: string): CachedToken | undefined {
  let text: string | undefined;
  try {
    text = readTextIfExists(file);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const token = JSON.parse(text) as CachedToken;
    if (
      typeof token.accessToken === 'string' &&
      token.accessToken !== '' &&
      typeof token.expiresAt === 'number' &&
      typeof token.obtainedAt === 'number' &&
      token.domain === tenant.base &&
      token.clientId === clientId &&
      token.audience === audienceOf(tenant)
    ) {
      return token;
    }
  } catch {
    // truncated or garbage: rebuilt below
  }
  try {
    removeIfExists(file);
  } catch {
    // read-only directory: the next write reports it
  }
  return undefined;
}

/** Drops the cached token, but only if it is still `accessToken` (another run may have replaced it). */
export function dropCachedToken(file: string, accessToken: string): void {
  try {
    const text = readTextIfExists(file);
    if (text !== undefined && text.includes(JSON.stringify(accessToken))) removeIfExists(file);
  } catch {
    // nothing to drop
  }
}

function formEncode(text: string): string {
  return new URLSearchParams({ v: text }).toString().slice(2);
}

export interface TokenAnswer {
  accessToken: string;
  tokenType: string;
  expiresIn: number;
  scope?: string;
}

/** One client-credentials request to `<domain>/oauth/token` with the client's authentication method. */
export async function fetchToken(options: {
  transport: Transport;
  redactor: Redactor;
  tenant: Tenant;
  client: ClientCredentials;
  /** Retried like a GET: asking again for a token changes nothing (but counts against the quota). */
  policy: SendPolicy;
  /** What to do when the credentials are refused (FailureContext.fixCredentials). */
  fixCredentials?: string;
}): Promise<TokenAnswer> {
  const { tenant, client, redactor } = options;
  const audience = audienceOf(tenant);
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, audience });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
    'user-agent': USER_AGENT,
  };
  if (client.authMethod === 'private_key_jwt') {
    const { makeClientAssertion } = await import('./assertion.js'); // node:crypto, only to sign
    const assertion = makeClientAssertion({ clientId: client.clientId, audience: `${tenant.base}/`, privateKeyPem: client.privateKeyPem ?? '', alg: client.signingAlg });
    redactor.add(assertion);
    form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    form.set('client_assertion', assertion);
  } else if (client.authMethod === 'basic') {
    redactor.add(client.clientSecret);
    // RFC 6749 2.3.1: each part form-urlencoded, then Base64 (a no-op for the usual [A-Za-z0-9_-] secrets).
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret ?? '')}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    redactor.add(client.clientSecret);
    form.set('client_secret', client.clientSecret ?? '');
  }
  const context: FailureContext = { endpoint: 'token', action: 'get an access token', host: tenant.host, clientId: client.clientId, fixCredentials: options.fixCredentials, redact: (text) => redactor.text(text) };
  const response = await send(options.transport, { method: 'POST', url: new URL('/oauth/token', tenant.base), headers, body: form.toString() }, context, options.policy);
  if (response.status < 200 || response.status >= 300) throw errorFromAnswer(response, context);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.text) as Record<string, unknown>;
  } catch {
    throw badAnswer(context, response.status, 'a body that is not JSON');
  }
  const accessToken = body?.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') throw badAnswer(context, response.status, 'no access_token');
  redactor.add(accessToken);
  // expires_in is set per API: never assume a day. Without it, the token's own exp, else one minute.
  let expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : undefined;
  if (expiresIn === undefined) {
    const exp = peekClaims(accessToken)?.exp;
    expiresIn = typeof exp === 'number' ? Math.max(0, exp - Date.now() / 1000) : 60;
  }
  return {
    accessToken,
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
    expiresIn,
    scope: typeof body.scope === 'string' ? body.scope : undefined,
  };
}

/** A cached token refused for a missing scope is replaced once it is this old (README, "The token cache"). */
export const SCOPE_RECHECK_MS = 5 * 60_000;

export interface TokenProviderOptions {
  transport: Transport;
  redactor: Redactor;
  tenant: Tenant;
  dir: string;
  /** How token requests are sent: timeout, retries, the run's budget of waiting. */
  policy: SendPolicy;
  /** Client credentials, or a ready token (IDM_ACCESS_TOKEN) used as is. */
  client?: ClientCredentials;
  accessToken?: string;
  /** What to do when the credentials are refused (FailureContext.fixCredentials). */
  fixCredentials?: string;
}

export interface TokenProvider {
  readonly source: 'client' | 'environment';
  /** A token for the management API: from the cache when fresh, else fetched (once across processes). */
  get(): Promise<string>;
  /**
   * The API refused `token` (401): drop it from the cache. Returns true when one new token may be
   * fetched: only for a token read from the disk cache (revoked, rotated keys), once per run, never
   * for IDM_ACCESS_TOKEN. A token fetched in this very run and refused would be refused again, and
   * issuance is metered.
   */
  invalidate(token: string): boolean;
  /** Fetch a new token whatever the cache holds, and cache it (login: proves the credentials). */
  refresh(): Promise<CachedToken>;
  /**
   * The API answered 403 insufficient_scope to `token`: drop it if it is older than
   * SCOPE_RECHECK_MS, so that a scope granted since is picked up soon, without a token per run.
   */
  scopeRefused(token: string): void;
  /** The last token this run used or obtained, for showing scopes and expiry. */
  readonly cached: CachedToken | undefined;
}

export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const { tenant, dir, client, redactor } = options;
  if (options.accessToken !== undefined) {
    redactor.add(options.accessToken);
    const token = options.accessToken;
    const refresh = async (): Promise<CachedToken> => {
      throw new Error('refresh: IDM_ACCESS_TOKEN cannot be refreshed');
    };
    return { source: 'environment', get: async () => token, invalidate: () => false, scopeRefused: () => {}, refresh, cached: undefined };
  }
  if (!client) throw new Error('createTokenProvider: no credentials');
  const file = tokenCacheFile(dir, tenant, client.clientId);
  let current: CachedToken | undefined;
  let refetched = false;
  /** Tokens this process obtained from the token endpoint (not read from the cache). */
  const fetchedHere = new Set<string>();

  const fresh = (): CachedToken | undefined => {
    const token = readCachedToken(file, tenant, client.clientId);
    return token && isFresh(token) ? token : undefined;
  };

  async function fetchAndStore(): Promise<CachedToken> {
    const obtainedAt = Date.now();
    const answer = await fetchToken({ transport: options.transport, redactor, tenant, client: client!, policy: options.policy, fixCredentials: options.fixCredentials });
    fetchedHere.add(answer.accessToken);
    const token: CachedToken = {
      accessToken: answer.accessToken,
      tokenType: answer.tokenType,
      obtainedAt,
      expiresAt: obtainedAt + answer.expiresIn * 1000,
      scope: answer.scope,
      domain: tenant.base,
      clientId: client!.clientId,
      audience: audienceOf(tenant),
    };
    try {
      writeFileAtomic(file, `${JSON.stringify(token)}\n`);
    } catch {
      // An unwritable cache costs a token per run, but the command still works.
    }
    return token;
  }

  /** The one path to a token: cache, else lock + re-check + fetch; waiters pick up the holder's result. */
  async function obtain(): Promise<CachedToken> {
    const cached = fresh();
    if (cached) return cached;
    let seen: CachedToken | undefined;
    // A holder is bounded by its attempts and its waits (a rate-limited token endpoint makes it wait:
    // better the others wait for its token than each ask for their own); a killed one is noticed at
    // once by its pid.
    const { timeoutMs, budget } = options.policy;
    const holderMs = MAX_ATTEMPTS * timeoutMs + budget.maxWaitMs;
    const lock = await acquireLock(`${file.slice(0, -'.json'.length)}.lock`, {
      waitMs: holderMs + 5_000,
      staleMs: holderMs + 10_000,
      until: () => (seen = fresh()) !== undefined,
    });
    if (!lock) return seen ?? (await fetchAndStore()); // waited long enough: fetch without the lock
    try {
      return fresh() ?? (await fetchAndStore());
    } finally {
      lock.release();
    }
  }

  return {
    source: 'client',
    async get() {
      current = await obtain();
      redactor.add(current.accessToken);
      return current.accessToken;
    },
    invalidate(token) {
      dropCachedToken(file, token);
      if (refetched || fetchedHere.has(token)) return false;
      refetched = true;
      return true;
    },
    async refresh() {
      current = await fetchAndStore();
      return current;
    },
    scopeRefused(token) {
      if (current?.accessToken === token && Date.now() - current.obtainedAt > SCOPE_RECHECK_MS) dropCachedToken(file, token);
    },
    get cached() {
      return current;
    },
  };
}
