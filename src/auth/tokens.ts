// Access tokens: the client-credentials grant, and the on-disk cache that makes a second run (and a
// hundred parallel runs) cost no token request. Token issuance is metered per tenant, so one
// function, obtain(), decides: a fresh cached token is used as is; otherwise one process takes the
// lock and fetches while the others wait for its result and read it from the cache. Nothing is
// written to or removed from the cache without that lock: a run that cannot have it in time uses its
// token for itself and writes nothing. How a token request is sent (transport, retries, error
// mapping) is not this module's business: the caller hands in `fetchToken`.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { temporaryFileTarget } from '../core/dirs.js';
import { ConfigError, type Warning } from '../core/errors.js';
import { parseDomain, type Tenant } from '../config/domain.js';
import { acquireLock, checkWritableDir, isLock, lockTimeout, readTextIfExists, removeIfExists, waitingFor, writeFileAtomic, type DoneBeforeLock, type Lock, type LockHolder } from '../config/files.js';
import { tokensDir } from '../config/paths.js';
import type { ClientCredentials } from '../config/resolve.js';
import { fnv1a64 } from '../core/hash.js';
import { accessTokenProblem } from '../core/secrets.js';
import { audienceOf, buildTokenRequest, type TokenRequest } from './request.js';

export { audienceOf } from './request.js';

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

/** What the token endpoint answered, read. */
export interface TokenAnswer {
  accessToken: string;
  tokenType: string;
  /** Seconds. */
  expiresIn: number;
  scope?: string;
}

/** Sends one token request (with retries) and reads its answer; throws the mapped error. */
export type FetchToken = (request: TokenRequest) => Promise<TokenAnswer>;

/**
 * One file per (domain, client, audience); the audience follows from the domain. The name is a
 * readable prefix (host, client id cut and made safe) plus a hash of the full key, so that two
 * clients whose ids look alike never share a file. FNV-1a, not node:crypto, which stays off the warm
 * path; the file's content is checked against all three.
 */
export function tokenCacheFile(dir: string, tenant: Tenant, clientId: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9.-]/g, '_');
  const scheme = tenant.base.startsWith('http:') ? 'http_' : '';
  const key = fnv1a64(`${tenant.base}\n${clientId}\n${audienceOf(tenant)}`);
  return join(tokensDir(dir), `${scheme}${safe(tenant.host)}_${safe(clientId).slice(0, 64)}_${key}.json`);
}

const lockFileOf = (file: string) => `${file.slice(0, -'.json'.length)}.lock`;

export { accessTokenProblem, MAX_ACCESS_TOKEN_CHARS } from '../core/secrets.js';

/** A token is reused until shortly before it expires: a minute, or a quarter of a short lifetime. */
export function isFresh(token: CachedToken, now = Date.now()): boolean {
  return now < freshEnd(token);
}

/** When a token stops being fresh: its expiry less the margin. */
function freshEnd(token: CachedToken): number {
  return token.expiresAt - Math.min(60_000, (token.expiresAt - token.obtainedAt) / 4);
}

/**
 * The cached token for this (domain, client, audience). A damaged file is ignored (the next token
 * fetched under the lock replaces it): reading never writes.
 */
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
      accessTokenProblem(token.accessToken) === undefined &&
      typeof token.expiresAt === 'number' &&
      typeof token.obtainedAt === 'number' &&
      token.domain === tenant.base &&
      token.clientId === clientId &&
      token.audience === audienceOf(tenant)
    ) {
      return token;
    }
  } catch {
    // truncated or garbage
  }
  return undefined;
}

/** Whether the cache file still holds `accessToken` (another run may have replaced or removed it). */
function cacheHolds(file: string, accessToken: string): boolean {
  try {
    return readTextIfExists(file)?.includes(JSON.stringify(accessToken)) ?? false;
  } catch {
    return false;
  }
}

/**
 * Removes the cached token of a client (logout), holding the token lock so that a run fetching a
 * token at that moment cannot write it back afterwards. Returns whether there was one. When the lock
 * cannot be had in time, the token is not removed: the error names the holder, and says what the
 * caller already did (logout removed the secret; `before`, given the file) or that nothing was written.
 */
export async function removeCachedToken(
  dir: string,
  tenant: Tenant,
  clientId: string,
  signal?: AbortSignal,
  waitMs = 120_000,
  before?: (file: string) => DoneBeforeLock,
  /** Where to say, once the wait for a run fetching the token lasts, whose lock it is (output.note). */
  note?: (text: string) => void,
): Promise<boolean> {
  const file = tokenCacheFile(dir, tenant, clientId);
  if (!existsSync(tokensDir(dir))) return false; // no run has ever fetched a token here
  const staleMs = 300_000;
  const lock = await acquireLock(lockFileOf(file), { waitMs, staleMs, signal, ...(note ? { onWait: (holder: LockHolder) => note(waitingFor(lockFileOf(file), holder, staleMs)) } : {}) });
  if (!isLock(lock)) throw lockTimeout('remove the cached token', lockFileOf(file), lock, before?.(file));
  try {
    removeLeftovers(file);
    return removeIfExists(file);
  } finally {
    lock.release();
  }
}

/**
 * The temporary files of writes of `file` that a run killed during them (kill -9) left: copies of a
 * token that logout would never remove. Called holding the lock of `file`, when no other run writes it.
 */
function removeLeftovers(file: string): void {
  try {
    for (const name of readdirSync(dirname(file))) if (temporaryFileTarget(name) === basename(file)) removeIfExists(join(dirname(file), name));
  } catch {
    // left: the directory cannot be read or changed
  }
}

/**
 * The other profiles (not `name`) that would use the cached token of `profile` (the same domain,
 * client and audience: the same cache file) and can still fetch with it (a secret stored). While
 * there is one, logout and profiles remove keep the token: removing it would cost that profile a
 * new, metered token.
 */
export function profilesSharingToken(dir: string, profiles: Readonly<Record<string, { domain: string; clientId: string }>>, name: string, profile: { domain: string; clientId: string }, hasSecret: (name: string) => boolean): string[] {
  const fileOf = (entry: { domain: string; clientId: string }) => {
    try {
      return tokenCacheFile(dir, parseDomain(entry.domain, 'The profile domain'), entry.clientId);
    } catch {
      return undefined; // a profile whose domain cannot be read shares nothing
    }
  };
  const file = fileOf(profile);
  return Object.keys(profiles)
    .filter((other) => other !== name && fileOf(profiles[other]!) === file && hasSecret(other))
    .sort();
}

/** A cached token refused for a missing scope is replaced once it is this old (README, "The token cache"). */
export const SCOPE_RECHECK_MS = 5 * 60_000;

export interface TokenSourceOptions {
  tenant: Tenant;
  dir: string;
  /** Client credentials, or a ready token (IDM_ACCESS_TOKEN) used as is. */
  client?: ClientCredentials;
  accessToken?: string;
  /**
   * The credentials file the client's secret was read from: a token is cached only while it is still
   * there. Logout removes it before it removes the cached token under the lock, so a run that read
   * the secret before and fetches after does not cache a token for a profile logged out.
   */
  secretFile?: string;
  fetchToken: FetchToken;
  /** The longest a process fetching a token can take (its attempts and waits): others wait that long. */
  holdMs: number;
  signal?: AbortSignal;
  /** Called once when the cache cannot be used (an unwritable directory, a full disk). */
  onCacheProblem?: (warning: Warning) => void;
  /** How long this run waited for the token lock (another process fetching): counted as waiting (--max-wait). */
  onLockWait?: (ms: number) => void;
  /** Once, when the lock is found held and the wait for its holder begins (the --debug trace says so). */
  onLockWaiting?: () => void;
  now?: () => number;
  /** A clock that does not jump when the wall clock is set (NTP steps, by hand), in ms; tests drive it. */
  monotonic?: () => number;
}

export interface TokenSource {
  readonly source: 'client' | 'environment';
  /** A token for the management API: this run's, a fresh cached one, or a new one (once across processes). */
  get(): Promise<string>;
  /**
   * The API refused `token` (401): drop it from the cache. Returns true when the request may be sent
   * once more with another token: for a token read from the disk cache (revoked, rotated keys) or
   * one no longer fresh (it expired while the request was on its way), never for IDM_ACCESS_TOKEN.
   * A fresh token fetched in this run and refused would be refused again, and issuance is metered.
   */
  invalidate(token: string): Promise<boolean>;
  /** Fetch a new token whatever the cache holds, and cache it (login: proves the credentials). */
  refresh(): Promise<CachedToken>;
  /** The API answered 403 insufficient_scope to `token`: drop it if older than SCOPE_RECHECK_MS. */
  scopeRefused(token: string): Promise<void>;
  /** The last token this run used or obtained, for showing scopes and expiry. */
  readonly cached: CachedToken | undefined;
}

export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const { tenant, dir, client } = options;
  const now = options.now ?? Date.now;
  const monotonic = options.monotonic ?? (() => performance.now());
  if (options.accessToken !== undefined) {
    const token = options.accessToken;
    const refresh = async (): Promise<CachedToken> => {
      throw new Error('refresh: IDM_ACCESS_TOKEN cannot be refreshed');
    };
    return { source: 'environment', get: async () => token, invalidate: async () => false, scopeRefused: async () => {}, refresh, cached: undefined };
  }
  if (!client) throw new Error('createTokenSource: no credentials');
  const file = tokenCacheFile(dir, tenant, client.clientId);
  let current: CachedToken | undefined;
  let fetchedHere: CachedToken | undefined;
  /**
   * When (by `monotonic`) the token fetched here stops being fresh. The wall clock may be set back
   * while a run holds it: by that clock alone, a token the service has let expire still looks fresh,
   * and its 401 was taken for a refusal of the credentials (no new token, the run failed).
   */
  let fetchedFreshUntil = Infinity;
  /** The obtain() under way, shared by requests that need a token at the same moment (a page asked for early). */
  let obtaining: Promise<CachedToken> | undefined;
  let cacheUsable = true;

  const cacheProblem = (error: unknown) => {
    if (!cacheUsable) return;
    cacheUsable = false;
    const why = error instanceof ConfigError ? error.message.replace(/\.$/, '') : ((error as NodeJS.ErrnoException).code ?? 'an error');
    options.onCacheProblem?.({
      message: `The token cache in ${tokensDir(dir)} cannot be used (${why}): this run gets a token of its own.`,
      hint: (error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'Free some disk space.' : error instanceof ConfigError ? error.hint : (missingDirHint() ?? 'Make the directory writable by you (idm creates it 0700).'),
    });
  };

  /**
   * The directory cannot be made where it is to be (a HOME that does not exist, or is not the user's:
   * a container run as another --user, HOME=/): the fix is another directory, not a chmod of one idm
   * never made (every run warned, 'Make the directory writable', and spent a token).
   */
  const missingDirHint = (): string | undefined => {
    if (existsSync(dir)) return undefined;
    let at = dir;
    while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
    return `Set IDM_CONFIG_DIR to a directory of your own: ${at} is not writable by you, so ${dir} cannot be made.`;
  };

  /** The cache is written only into directories that are the user's own (config/files.ts checkWritableDir). */
  let dirsChecked = false;
  const checkDirs = () => {
    if (dirsChecked) return;
    dirsChecked = true;
    try {
      checkWritableDir(dir);
      checkWritableDir(tokensDir(dir));
    } catch (error) {
      cacheProblem(error);
    }
  };

  const fresh = (): CachedToken | undefined => {
    const token = cacheUsable ? readCachedToken(file, tenant, client.clientId) : undefined;
    return token && isFresh(token, now()) ? token : undefined;
  };

  /** A new token from the token endpoint, for this run; not written anywhere. */
  async function fetchNew(): Promise<CachedToken> {
    checkDirs();
    const obtainedAt = now();
    const startedAt = monotonic();
    const answer = await options.fetchToken(await buildTokenRequest(tenant, client!));
    fetchedHere = {
      accessToken: answer.accessToken,
      tokenType: answer.tokenType,
      obtainedAt,
      expiresAt: obtainedAt + answer.expiresIn * 1000,
      scope: answer.scope,
      domain: tenant.base,
      clientId: client!.clientId,
      audience: audienceOf(tenant),
    };
    fetchedFreshUntil = startedAt + (freshEnd(fetchedHere) - obtainedAt);
    return fetchedHere;
  }

  /**
   * Writes `token` to the cache. Only while holding the lock; a token that is not fresh (the server
   * said it expires now), or fetched with a secret removed since (logout), serves this run only.
   */
  function store(token: CachedToken): CachedToken {
    if (!cacheUsable || !isFresh(token, now())) return token;
    if (options.secretFile !== undefined && !existsSync(options.secretFile)) return token;
    removeLeftovers(file);
    try {
      writeFileAtomic(file, `${JSON.stringify(token)}\n`);
    } catch (error) {
      cacheProblem(error); // costs a token per run, but the command works
    }
    return token;
  }

  /**
   * The token lock, waiting as long as a fetch may take (or until `until` says the wait is over):
   * undefined when it was not had, and then nothing may be written.
   */
  async function lockCache(until?: () => boolean): Promise<Lock | undefined> {
    const started = now();
    let waiting = false;
    // acquireLock asks `until` only once the lock was found held: the wait for its holder begins.
    const held = () => {
      if (!waiting) {
        waiting = true;
        options.onLockWaiting?.();
      }
      return until?.() ?? false;
    };
    try {
      const lock = await acquireLock(lockFileOf(file), { waitMs: options.holdMs + 5_000, staleMs: options.holdMs + 10_000, until: held, signal: options.signal });
      return isLock(lock) ? lock : undefined;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      cacheProblem(error); // the lock cannot even be created: no cache this run
      return undefined;
    } finally {
      // Waiting for a holder that waits out a rate limit is waiting too: without this, each of N
      // parallel runs would wait for the one before it and then for itself, N times --max-wait. A lock
      // that was free was not waited for: the milliseconds its file took are not --max-wait's.
      if (waiting) options.onLockWait?.(now() - started);
    }
  }

  /** The one path to a token: cache, else lock + re-check + fetch; waiters pick up the holder's result. */
  async function obtain(): Promise<CachedToken> {
    checkDirs(); // a token planted in someone else's directory is not read either
    const cached = fresh();
    if (cached) return cached;
    if (!cacheUsable) return fetchNew();
    let seen: CachedToken | undefined;
    const lock = await lockCache(() => (seen = fresh()) !== undefined);
    // Another run wrote a fresh token while we waited; or the holder took longer than it may: a token
    // of our own, used for this run only (the cache is the holder's to write).
    if (!lock) return seen ?? (await fetchNew());
    return withLock(lock, async () => fresh() ?? store(await fetchNew()));
  }

  /** Removes `token` from the cache under the lock, if the cache still holds it. */
  async function drop(token: string): Promise<void> {
    if (!cacheUsable || !cacheHolds(file, token)) return;
    // Not had in time: the holder is fetching a token that replaces this one; nothing is removed.
    const lock = await lockCache(() => !cacheHolds(file, token));
    if (!lock) return;
    try {
      if (cacheHolds(file, token)) removeIfExists(file);
    } catch {
      // a read-only directory: the refused token stays, and the next run is refused and replaces it
    } finally {
      lock.release();
    }
  }

  return {
    source: 'client',
    async get() {
      // Checked before every request of a run, in memory: a long run (--all, --wait polling) outlives
      // a short-lived token, and one sent near its expiry may expire before the service reads it.
      if (!(current && (isFresh(current, now()) || (current === fetchedHere && expiresAtOnce(current))))) {
        obtaining ??= obtain().finally(() => (obtaining = undefined));
        current = await obtaining;
      }
      return current.accessToken;
    },
    async invalidate(token) {
      if (current?.accessToken === token) current = undefined;
      await drop(token);
      // Fetched in this run and still fresh: refused for what it is (credentials, API access), not
      // for its age; a new one would be refused too. Any other token is replaced once: each request
      // retries once (api/retry.ts exchange), so there is no loop.
      const own = fetchedHere?.accessToken === token ? fetchedHere : undefined;
      return !(own && ((isFresh(own, now()) && monotonic() < fetchedFreshUntil) || expiresAtOnce(own)));
    },
    async refresh() {
      checkDirs();
      const lock = cacheUsable ? await lockCache() : undefined;
      current = lock ? await withLock(lock, async () => store(await fetchNew())) : await fetchNew();
      return current;
    },
    async scopeRefused(token) {
      if (current?.accessToken === token && now() - current.obtainedAt > SCOPE_RECHECK_MS) {
        current = undefined;
        await drop(token);
      }
    },
    get cached() {
      return current;
    },
  };
}

/** The server said the token expires now (`expires_in: 0`): it serves the run that fetched it, never cached. */
const expiresAtOnce = (token: CachedToken) => token.expiresAt <= token.obtainedAt;

async function withLock<T>(lock: Lock, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    lock.release();
  }
}
