// Many idm processes at once against one config directory: one token request for 20 cold runs, a
// lock left by a killed process does not block the next run, and parallel logins lose no profile.
// The same at scale (100 at once, 200 runs) is in test/stress/ (npm run test:stress).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm, spawnIdm } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { useConfigDirs } from '../helpers/deps.js';

const sandbox = useSandbox();
const configDir = useConfigDirs();
afterEach(() => sandbox().clearFaults());

const credentials = () => credentialsEnv(sandbox(), 'reader');

describe('parallel runs', () => {
  it('20 cold `idm streams list` started at once make one token request in total', async () => {
    const dir = configDir();
    const issued = sandbox().tokensIssued();
    const runs = await Promise.all(Array.from({ length: 20 }, () => runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env: credentials() })));
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^est_\w{22}\t/);
    }
    expect(sandbox().tokensIssued() - issued).toBe(1);
    // Lock released, cache valid JSON, no temporary files left.
    expect(readdirSync(join(dir, 'tokens'))).toEqual([expect.stringMatching(new RegExp(`^http_127\\.0\\.0\\.1_${new URL(sandbox().url).port}_${sandbox().clients.reader.clientId}_[0-9a-f]{16}\\.json$`))]);
  });

  it('a lock left by a process killed with SIGKILL does not block the next run', async () => {
    const dir = configDir();
    // The first run takes the lock, then its token request hangs; it is killed while holding the lock.
    sandbox().addFault({ path: '/oauth/token', kind: 'stall', count: 1 });
    const seen = sandbox().requests.length;
    const holder = spawnIdm(['streams', 'list'], { configDir: dir, env: credentials() });
    const tokens = join(dir, 'tokens');
    // Killed only once its token request has reached the sandbox (and hangs there): the lock is held.
    const holding = () => existsSync(tokens) && readdirSync(tokens).some((f) => f.endsWith('.lock')) && sandbox().requests.slice(seen).some((r) => r.path === '/oauth/token');
    for (let i = 0; i < 1200 && !holding(); i++) await new Promise((r) => setTimeout(r, 50));
    const lock = readdirSync(tokens).find((f) => f.endsWith('.lock'));
    expect(lock).toBeDefined();
    expect(readFileSync(join(tokens, lock!), 'utf8')).toMatch(new RegExp(`^${holder.child.pid} \\d+ \\S+ \\d+( \\S+)?\\n$`)); // pid, start, nonce, time, host
    holder.child.kill('SIGKILL');
    await holder.done;

    // A live holder would make it wait longer than a fetch may take (3 x 30 s + 60 s, and 5 s more),
    // past the harness's kill limit; a dead one is noticed at once.
    const issued = sandbox().tokensIssued();
    const next = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env: credentials() });
    expect(next.signal).toBeNull();
    expect(next.code).toBe(0);
    expect(sandbox().tokensIssued() - issued).toBe(1);
    expect(readdirSync(tokens).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('parallel logins into one config directory lose no profile and leave valid files', async () => {
    const dir = configDir();
    const secret = join(configDir(), 'secret'); // outside the config directory, removed with the others
    writeFileSync(secret, sandbox().clients.reader.clientSecret);
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const runs = await Promise.all(
      names.map((name) =>
        runIdm(['login', '--profile', name, '--domain', sandbox().url, '--client-id', sandbox().clients.reader.clientId, '--client-secret-file', secret], {
          configDir: dir,
        }),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual(names);
    expect(names).toContain(config.defaultProfile);
    expect(readdirSync(join(dir, 'credentials')).sort()).toEqual(names.map((n) => `${n}.json`));
    expect(readdirSync(dir).filter((f) => f.includes('.tmp') || f.endsWith('.lock'))).toEqual([]);
  });
});

describe('logout while a run is about to fetch a token', () => {
  it('a run that read its secret before logout removed it, and fetches after, uses its token but does not cache it: nothing is left for the profile logged out', async () => {
    const dir = configDir();
    const { url, clients } = sandbox();
    const secretFile = join(configDir(), 'secret');
    writeFileSync(secretFile, clients.reader.clientSecret);
    const login = await runIdm(['login', '--profile', 'p', '--domain', url, '--client-id', clients.reader.clientId, '--client-secret-file', secretFile], { configDir: dir });
    expect(login.code, login.stderr).toBe(0);
    const tokens = join(dir, 'tokens');
    for (const file of readdirSync(tokens)) rmSync(join(tokens, file)); // a cold cache
    // Another run of the same client (the same cache file) holds the token lock: its request hangs.
    sandbox().addFault({ path: '/oauth/token', kind: 'stall', count: 1 });
    const seen = sandbox().requests.length;
    const holder = spawnIdm(['streams', 'list'], { configDir: dir, env: credentials() });
    const holding = () => readdirSync(tokens).some((f) => f.endsWith('.lock')) && sandbox().requests.slice(seen).some((r) => r.path === '/oauth/token');
    for (let i = 0; i < 1200 && !holding(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(holding()).toBe(true);
    // The profile's run has read its secret and waits for that lock (its --debug trace says so).
    const run = spawnIdm(['streams', 'list', '--profile', 'p', '--take', '1', '--debug'], { configDir: dir });
    let runErr = '';
    run.child.stderr.on('data', (chunk: string) => (runErr += chunk));
    for (let i = 0; i < 1200 && !runErr.includes('its lock is held'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(runErr).toContain('its lock is held');
    // Logout's first step (the secret, under the settings lock); its cached token is none yet.
    rmSync(join(dir, 'credentials', 'p.json'));
    holder.child.kill('SIGTERM');
    expect((await holder.done).code).toBe(143);
    const result = await run.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^est_\w{22}\t/);
    expect(readdirSync(tokens)).toEqual([]);
  });
});

describe('the token lock and --max-wait', () => {
  it('the time a run waited for another process to fetch the token counts against its --max-wait: behind a rate limit it stops at once (exit 5), not after a --max-wait of its own', async () => {
    const dir = configDir();
    sandbox().addFault({ path: '/oauth/token', kind: 'stall', count: 1 });
    const seen = sandbox().requests.length;
    const tokenRequests = () => sandbox().requests.slice(seen).filter((r) => r.path === '/oauth/token').length;
    const holder = spawnIdm(['streams', 'list'], { configDir: dir, env: credentials() });
    const tokens = join(dir, 'tokens');
    const holding = () => existsSync(tokens) && readdirSync(tokens).some((f) => f.endsWith('.lock')) && tokenRequests() === 1;
    for (let i = 0; i < 1200 && !holding(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(holding()).toBe(true);
    const waiter = spawnIdm(['streams', 'list', '--max-wait', '5', '--json', '--debug'], { configDir: dir, env: credentials() });
    // Its --debug trace says when it found the lock held, which is after its wait for the holder began:
    // 5.5 s from then, at least its whole --max-wait went by waiting (a lower bound, however slowly
    // the waiter started; a fixed pause from its spawn was not, as its start-up came out of it).
    let waiterErr = '';
    waiter.child.stderr.on('data', (chunk: string) => (waiterErr += chunk));
    for (let i = 0; i < 1200 && !waiterErr.includes('its lock is held'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(waiterErr).toContain('its lock is held');
    await new Promise((r) => setTimeout(r, 5_500));
    expect(tokenRequests()).toBe(1);
    // The token endpoint is rate limited from now on; the holder ends (its lock released).
    sandbox().addFault({ path: '/oauth/token', kind: 'status', status: 429, count: Infinity });
    holder.child.kill('SIGTERM');
    expect((await holder.done).code).toBe(143);
    const result = await waiter.done;
    expect(result.code, result.stderr).toBe(5);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, Record<string, unknown>>).filter((line) => !('debug' in line));
    expect(lines.filter((line) => 'wait' in line)).toEqual([]);
    expect(lines.at(-1)!.error).toMatchObject({ status: 429, exitCode: 5 });
    expect(lines.at(-1)!.error!.hint).toContain('--max-wait');
    // One token request of its own, no retry: its waiting was spent behind the holder.
    expect(tokenRequests()).toBe(2);
    expect(readdirSync(tokens).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });
});
