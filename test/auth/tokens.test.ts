// The token source and its on-disk cache (src/auth/tokens.ts), with a fake fetchToken: a fresh cached
// token is used as is; a cold run fetches while holding the token lock and writes the cache under it;
// a lock held by another live process past the wait means this run's own token, used and not written;
// a refused token is dropped only under the lock; logout's removal likewise. No write without the lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TokenRequest } from '../../src/auth/request.js';
import { createTokenSource, removeCachedToken, tokenCacheFile, type CachedToken, type TokenAnswer } from '../../src/auth/tokens.js';
import { parseDomain } from '../../src/config/domain.js';
import { tokensDir } from '../../src/config/paths.js';
import { IdmError } from '../../src/core/errors.js';
import { tempConfigDir } from '../helpers/cli.js';

const tenant = parseDomain('http://127.0.0.1:9', 'The domain');
const client = { clientId: 'client-one', authMethod: 'post' as const, clientSecret: 'not-a-real-secret' };
/** With holdMs 0 a waiter gives up after 5 s: the shortest wait the source allows. */
const HOLD_MS = 0;

let dir: string;
let cleanup: () => void;
let file: string;
let lockFile: string;
beforeEach(() => {
  ({ dir, cleanup } = tempConfigDir());
  mkdirSync(tokensDir(dir), { recursive: true, mode: 0o700 });
  file = tokenCacheFile(dir, tenant, client.clientId);
  lockFile = file.replace(/\.json$/, '.lock');
});
afterEach(() => cleanup());

/** Another process, alive for the whole file: a holder of the lock. */
let other: ChildProcess;
beforeAll(() => {
  other = spawn('sleep', ['600'], { stdio: 'ignore' });
});
afterAll(() => {
  other.kill('SIGKILL');
});

/** The token lock as acquireLock writes it, held by the other process. */
function holdLock(): string {
  const pid = other.pid!;
  let start = '-';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '-';
  } catch {
    // no /proc: the lock's age decides, and it is fresh
  }
  const content = `${pid} ${start} other-nonce ${Date.now()}\n`;
  writeFileSync(lockFile, content, { mode: 0o600 });
  return content;
}

function cached(accessToken: string, obtainedAt = Date.now()): CachedToken {
  return { accessToken, tokenType: 'Bearer', obtainedAt, expiresAt: obtainedAt + 3_600_000, domain: tenant.base, clientId: client.clientId, audience: `${tenant.base}/api/v2/` };
}

/**
 * A token source whose fetchToken answers `token-N` (valid `expiresIn` seconds) and records, for each
 * call, who held the lock; `now` is its clock (the real one unless a test drives time).
 */
function source(options: { expiresIn?: number; now?: () => number; monotonic?: () => number; onLockWait?: (ms: number) => void } = {}) {
  const calls: Array<{ request: TokenRequest; lock: string | undefined }> = [];
  const fetchToken = async (request: TokenRequest): Promise<TokenAnswer> => {
    calls.push({ request, lock: existsSync(lockFile) ? readFileSync(lockFile, 'utf8') : undefined });
    return { accessToken: `token-${calls.length}`, tokenType: 'Bearer', expiresIn: options.expiresIn ?? 3600 };
  };
  const tokens = createTokenSource({ tenant, dir, client, fetchToken, holdMs: HOLD_MS, now: options.now, monotonic: options.monotonic, onLockWait: options.onLockWait });
  return { tokens, calls };
}

const cacheText = () => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

describe('the token source', () => {
  it('a fresh cached token is used as is: no token request, nothing written', async () => {
    const text = `${JSON.stringify(cached('from-the-cache'))}\n`;
    writeFileSync(file, text, { mode: 0o600 });
    const { tokens, calls } = source();
    expect(await tokens.get()).toBe('from-the-cache');
    expect(calls).toEqual([]);
    expect(cacheText()).toBe(text);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('a cached token read once serves the run while fresh (--all asks for one per page); a refused one is read again', async () => {
    writeFileSync(file, `${JSON.stringify(cached('from-the-cache'))}\n`, { mode: 0o600 });
    const { tokens, calls } = source();
    expect(await tokens.get()).toBe('from-the-cache');
    // Another run replaces the cache: this run keeps the token it has, without reading the file again.
    writeFileSync(file, `${JSON.stringify(cached('written-by-another-run'))}\n`, { mode: 0o600 });
    expect(await tokens.get()).toBe('from-the-cache');
    // Refused by the server: the file is read again (and holds another run's token, which is used).
    await tokens.invalidate('from-the-cache');
    expect(await tokens.get()).toBe('written-by-another-run');
    expect(calls).toEqual([]);
  });

  it('a cold run fetches while holding the lock, writes the cache under it, and releases it', async () => {
    const { tokens, calls } = source();
    expect(await tokens.get()).toBe('token-1');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.lock).toMatch(new RegExp(`^${process.pid} `)); // ours, during the fetch
    expect(JSON.parse(cacheText()!)).toMatchObject({ accessToken: 'token-1', clientId: client.clientId, domain: tenant.base });
    expect(existsSync(lockFile)).toBe(false);
    // The next source (the next run) reads it.
    const next = source();
    expect(await next.tokens.get()).toBe('token-1');
    expect(next.calls).toEqual([]);
  });

  it('a lock that was free is no wait: nothing is counted against --max-wait, however long taking it took', async () => {
    let clock = Date.now();
    const waits: number[] = [];
    // Every reading of the clock is a second later: taking the free lock "took" seconds.
    const { tokens, calls } = source({ now: () => (clock += 1_000), onLockWait: (ms) => waits.push(ms) });
    expect(await tokens.get()).toBe('token-1');
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('a damaged cache file is not removed by reading it; the token fetched under the lock replaces it', async () => {
    writeFileSync(file, '{"accessToken": "eyJ', { mode: 0o600 });
    const { tokens, calls } = source();
    expect(await tokens.get()).toBe('token-1');
    expect(calls[0]!.lock).toMatch(new RegExp(`^${process.pid} `));
    expect(JSON.parse(cacheText()!).accessToken).toBe('token-1');
  });

  it('the lock held by another live process past the wait: the fetched token is used, the cache untouched', async () => {
    const expired = `${JSON.stringify(cached('expired', Date.now() - 7_200_000))}\n`;
    writeFileSync(file, expired, { mode: 0o600 });
    const held = holdLock();
    const { tokens, calls } = source();
    expect(await tokens.get()).toBe('token-1');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.lock).toBe(held); // fetched without the lock: so nothing is written
    expect(cacheText()).toBe(expired);
    expect(readFileSync(lockFile, 'utf8')).toBe(held); // the holder's lock is left alone
    // The rest of the run uses it without asking again.
    expect(await tokens.get()).toBe('token-1');
    expect(calls).toHaveLength(1);
  });

  it('while another process holds the lock, a fresh token it writes ends the wait and is used', async () => {
    holdLock();
    const { tokens, calls } = source();
    const got = tokens.get();
    writeFileSync(file, `${JSON.stringify(cached('written-by-the-holder'))}\n`, { mode: 0o600 });
    expect(await got).toBe('written-by-the-holder');
    expect(calls).toEqual([]);
  });

  it('login (refresh) fetches and writes under the lock; with the lock held elsewhere it writes nothing', async () => {
    const { tokens, calls } = source();
    expect((await tokens.refresh()).accessToken).toBe('token-1');
    expect(calls[0]!.lock).toMatch(new RegExp(`^${process.pid} `));
    expect(JSON.parse(cacheText()!).accessToken).toBe('token-1');

    const before = cacheText();
    const held = holdLock();
    const other = source();
    expect((await other.tokens.refresh()).accessToken).toBe('token-1');
    expect(other.calls[0]!.lock).toBe(held);
    expect(cacheText()).toBe(before);
  });
});

describe('a refused token (invalidate)', () => {
  it('a cached token refused (401) is dropped under the lock, and one new token may be fetched', async () => {
    writeFileSync(file, `${JSON.stringify(cached('refused'))}\n`, { mode: 0o600 });
    const { tokens, calls } = source();
    expect(await tokens.get()).toBe('refused');
    expect(await tokens.invalidate('refused')).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(lockFile)).toBe(false);
    expect(await tokens.get()).toBe('token-1');
    expect(calls[0]!.lock).toMatch(new RegExp(`^${process.pid} `));
    expect(await tokens.invalidate('token-1')).toBe(false); // fetched in this run: refused again would be the same
  });

  it('with the lock held by another live process, the refused token is not removed (that process replaces it)', async () => {
    const text = `${JSON.stringify(cached('refused'))}\n`;
    writeFileSync(file, text, { mode: 0o600 });
    const { tokens } = source();
    expect(await tokens.get()).toBe('refused');
    const held = holdLock();
    expect(await tokens.invalidate('refused')).toBe(true);
    expect(cacheText()).toBe(text);
    expect(readFileSync(lockFile, 'utf8')).toBe(held);
  });

  it('a token another run has replaced meanwhile is not removed', async () => {
    writeFileSync(file, `${JSON.stringify(cached('refused'))}\n`, { mode: 0o600 });
    const { tokens } = source();
    expect(await tokens.get()).toBe('refused');
    const replaced = `${JSON.stringify(cached('replaced'))}\n`;
    writeFileSync(file, replaced, { mode: 0o600 });
    await tokens.invalidate('refused');
    expect(cacheText()).toBe(replaced);
  });
});

describe('a run that outlives its tokens (a clock the test drives)', () => {
  // Tokens valid 4 s: fresh for 3 s (a quarter of a short lifetime is the margin).
  let clock: number;
  const now = () => clock;
  beforeEach(() => (clock = Date.now()));

  it('every get() checks the expiry: a token near expiry is replaced before it is sent, one token request each time', async () => {
    const { tokens, calls } = source({ expiresIn: 4, now });
    expect(await tokens.get()).toBe('token-1');
    clock += 2_999;
    expect(await tokens.get()).toBe('token-1'); // still fresh: no request, no file read
    clock += 1; // within the margin: it may expire on its way
    expect(await tokens.get()).toBe('token-2');
    clock += 3_000;
    expect(await tokens.get()).toBe('token-3');
    expect(await tokens.get()).toBe('token-3');
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(call.lock).toMatch(new RegExp(`^${process.pid} `)); // each under the lock
    expect(JSON.parse(cacheText()!).accessToken).toBe('token-3');
  });

  it('a cached token read from disk is replaced the same way once it nears expiry', async () => {
    writeFileSync(file, `${JSON.stringify({ ...cached('from-the-cache', clock), expiresAt: clock + 4_000 })}\n`, { mode: 0o600 });
    const { tokens, calls } = source({ expiresIn: 4, now });
    expect(await tokens.get()).toBe('from-the-cache');
    clock += 3_000;
    expect(await tokens.get()).toBe('token-1');
    expect(calls).toHaveLength(1);
  });

  it('requests that need a new token at the same moment share one token request', async () => {
    const { tokens, calls } = source({ expiresIn: 4, now });
    expect(await Promise.all([tokens.get(), tokens.get()])).toEqual(['token-1', 'token-1']);
    clock += 3_500;
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(['token-2', 'token-2', 'token-2']);
    expect(calls).toHaveLength(2);
  });

  it('a 401 on a token that expired meanwhile leads to a new token, for every such token of the run; a 401 on a fresh one does not', async () => {
    const { tokens, calls } = source({ expiresIn: 4, now });
    expect(await tokens.get()).toBe('token-1');
    clock += 3_500; // sent while fresh, refused after its expiry (a slow answer)
    expect(await tokens.invalidate('token-1')).toBe(true);
    expect(await tokens.get()).toBe('token-2');
    clock += 4_000;
    expect(await tokens.invalidate('token-2')).toBe(true); // the second expiry of the run: replaced too
    expect(await tokens.get()).toBe('token-3');
    expect(await tokens.invalidate('token-3')).toBe(false); // just fetched: refused for what it is, not its age
    expect(calls).toHaveLength(3);
  });
});

describe('a wall clock set back while a run holds its token', () => {
  it('a 401 on the token fetched here, after its lifetime has passed by a clock that does not jump, leads to a new token', async () => {
    let clock = Date.now();
    let elapsed = 0;
    const { tokens, calls } = source({ expiresIn: 3600, now: () => clock, monotonic: () => elapsed });
    expect(await tokens.get()).toBe('token-1');
    // An hour and more goes by (the service lets the token expire), while the wall clock is set back two hours.
    elapsed += 3_700_000;
    clock += 3_700_000 - 7_200_000;
    expect(await tokens.invalidate('token-1')).toBe(true);
    expect(await tokens.get()).toBe('token-2');
    // Fresh by both clocks: refused for what it is, not for its age.
    expect(await tokens.invalidate('token-2')).toBe(false);
    expect(calls).toHaveLength(2);
  });
});

describe('removeCachedToken (logout)', () => {
  it('removes the cached token under the lock', async () => {
    writeFileSync(file, `${JSON.stringify(cached('cached'))}\n`, { mode: 0o600 });
    expect(await removeCachedToken(dir, tenant, client.clientId)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(lockFile)).toBe(false);
    expect(await removeCachedToken(dir, tenant, client.clientId)).toBe(false);
  });

  it('with the lock held by another live process: removes nothing, and the error names the holder', async () => {
    const text = `${JSON.stringify(cached('cached'))}\n`;
    writeFileSync(file, text, { mode: 0o600 });
    holdLock();
    const error = await removeCachedToken(dir, tenant, client.clientId, undefined, 200).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdmError);
    expect((error as IdmError).message).toBe(`Could not remove the cached token: ${lockFile} is locked by idm process ${other.pid}; nothing was written.`);
    expect((error as IdmError).exitCode).toBe(1);
    expect(cacheText()).toBe(text);
  });
});
