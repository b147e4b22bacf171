// Issue 11, items 8, 10 and 16, with real processes and file systems: a lock is never left behind
// (a failed write, a full disk, SIGTERM/SIGHUP/SIGINT during a token fetch), a lock of a reused pid
// is stale, an unwritable cache degrades to running without it, logout takes the token lock, a
// closed stdout ends the command quietly, and a signal in the wizard leaves the cursor visible.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, isLock } from '../../src/config/files.js';
import { BIN, cliEnv, spawnIdm } from '../helpers/cli.js';
import { hostileServer, idm, isRoot, tempDir, tokenBody, type Answer, type Seen } from '../helpers/hostile-server.js';

let answer: (request: Seen) => Answer | 'stall' | undefined = () => undefined;
let server: Awaited<ReturnType<typeof hostileServer>>;
beforeAll(async () => {
  server = await hostileServer((request) => answer(request));
});
beforeEach(() => {
  answer = () => undefined;
  server.seen.length = 0;
});
afterAll(() => server.close());

const LIST = { eventStreams: [] };
const listOrToken = (request: Seen): Answer | undefined => (request.url.startsWith('/api/v2/event-streams') ? { body: LIST } : undefined);
const lockFiles = (dir: string) => (existsSync(join(dir, 'tokens')) ? readdirSync(join(dir, 'tokens')).filter((name) => name.endsWith('.lock')) : []);

/** Polls `condition` (no timing assertion: it only waits for a state, with a generous bound). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

describe('signals during a token fetch', () => {
  it.each([
    ['SIGTERM', 143, 'Stopped by SIGTERM.'],
    ['SIGHUP', 129, 'Stopped by SIGHUP.'],
    ['SIGINT', 130, 'Interrupted.'],
  ] as const)('%s: exit %i, the lock released', async (signal, code, message) => {
    const home = tempDir();
    answer = (request) => (request.url.startsWith('/oauth/token') ? 'stall' : listOrToken(request));
    try {
      const run = spawnIdm(['streams', 'list'], { configDir: home.dir, env: server.env(home.dir) });
      await until(() => server.stalledCount() > 0 && lockFiles(home.dir).length > 0, 'the token request, under its lock');
      run.child.kill(signal);
      const result = await run.done;
      expect(result.code).toBe(code);
      expect(result.stderr).toContain(message);
      expect(lockFiles(home.dir)).toEqual([]);
    } finally {
      server.release({ body: tokenBody() });
      home.cleanup();
    }
  });
});

describe('stale locks', () => {
  it('a lock of a live process that started at another time (a reused pid) is broken at once', async () => {
    const home = tempDir();
    const sleeper = (await import('node:child_process')).spawn('sleep', ['60']);
    try {
      const path = join(home.dir, 'x.lock');
      writeFileSync(path, `${sleeper.pid} 1 nonce ${Date.now()}\n`);
      const lock = await acquireLock(path, { waitMs: 0, staleMs: 3_600_000 });
      expect(isLock(lock)).toBe(true);
      if (isLock(lock)) lock.release();
      expect(existsSync(path)).toBe(false);
    } finally {
      sleeper.kill();
      home.cleanup();
    }
  });

  it('an empty lock file (a holder that died between create and write) is broken once it is a few seconds old', async () => {
    const home = tempDir();
    try {
      const path = join(home.dir, 'x.lock');
      writeFileSync(path, '');
      const old = new Date(Date.now() - 60_000);
      utimesSync(path, old, old);
      const lock = await acquireLock(path, { waitMs: 0, staleMs: 3_600_000 });
      expect(isLock(lock)).toBe(true);
      if (isLock(lock)) lock.release();
    } finally {
      home.cleanup();
    }
  });

  it('a live holder is respected: the lock is not taken', async () => {
    const home = tempDir();
    try {
      const path = join(home.dir, 'x.lock');
      const first = await acquireLock(path, { waitMs: 0, staleMs: 3_600_000 });
      expect(isLock(first)).toBe(true);
      const second = await acquireLock(path, { waitMs: 0, staleMs: 3_600_000 });
      expect(second).toEqual({ held: true, holderPid: process.pid });
      if (isLock(first)) first.release();
    } finally {
      home.cleanup();
    }
  });
});

describe('logout and a token fetch at the same moment', () => {
  it('logout waits for the token lock, so the token fetched meanwhile does not stay on disk', async () => {
    const home = tempDir();
    try {
      answer = listOrToken;
      const login = await idm(['login', '--domain', server.url, '--client-id', 'hostile-client', '--client-secret-file', '-'], { env: { IDM_CONFIG_DIR: home.dir }, stdin: 'hostile-client-secret-0123456789\n' });
      expect(login.code).toBe(0);
      for (const name of readdirSync(join(home.dir, 'tokens'))) unlinkSync(join(home.dir, 'tokens', name)); // the next run must fetch
      answer = (request) => (request.url.startsWith('/oauth/token') ? 'stall' : listOrToken(request));
      const list = spawnIdm(['streams', 'list'], { configDir: home.dir });
      await until(() => server.stalledCount() > 0 && lockFiles(home.dir).length > 0, 'the fetch under the token lock');
      const logout = spawnIdm(['logout'], { configDir: home.dir });
      await until(() => !existsSync(join(home.dir, 'credentials', 'default.json')), 'logout removing the secret, then waiting for the token lock');
      server.release({ body: tokenBody() });
      const [listed, loggedOut] = await Promise.all([list.done, logout.done]);
      expect(listed.code).toBe(0);
      expect(loggedOut.code).toBe(0);
      expect(readdirSync(join(home.dir, 'tokens')).filter((name) => name.endsWith('.json'))).toEqual([]);
    } finally {
      home.cleanup();
    }
  });
});

describe.skipIf(!isRoot)('full and read-only file systems (a small tmpfs)', () => {
  let mount: string;
  let root: ReturnType<typeof tempDir>;
  beforeAll(() => {
    root = tempDir();
    mount = join(root.dir, 'fs');
    mkdirSync(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]);
  });
  afterAll(() => {
    execFileSync('umount', [mount]);
    root.cleanup();
  });

  it('a full disk: the command works without the cache (one notice), leaves no lock, and the next run caches again', async () => {
    const dir = join(mount, 'idm');
    mkdirSync(dir, { mode: 0o700 });
    mkdirSync(join(dir, 'tokens'), { mode: 0o700 });
    answer = listOrToken;
    const filler = join(mount, 'filler');
    try {
      writeFileSync(filler, Buffer.alloc(1024 * 1024));
    } catch {
      // full: what was wanted
    }
    const full = await idm(['streams', 'list'], { env: server.env(dir) });
    expect(full.code).toBe(0);
    expect(full.stderr.match(/The token cache in/g)).toHaveLength(1);
    expect(lockFiles(dir)).toEqual([]);
    rmSync(filler);
    const freed = await idm(['streams', 'list'], { env: server.env(dir) });
    expect(freed.code).toBe(0);
    expect(freed.stderr).toBe('');
    expect(readdirSync(join(dir, 'tokens')).filter((name) => name.endsWith('.json'))).toHaveLength(1);
  });

  it('a read-only settings directory: listing works without the cache, logout is a clear error', async () => {
    const dir = join(mount, 'ro');
    answer = listOrToken;
    const login = await idm(['login', '--domain', server.url, '--client-id', 'hostile-client', '--client-secret-file', '-'], { env: { IDM_CONFIG_DIR: dir }, stdin: 'hostile-client-secret-0123456789\n' });
    expect(login.code).toBe(0);
    for (const name of readdirSync(join(dir, 'tokens'))) unlinkSync(join(dir, 'tokens', name));
    execFileSync('mount', ['-o', 'remount,ro', mount]);
    try {
      const list = await idm(['streams', 'list'], { env: { IDM_CONFIG_DIR: dir } });
      expect(list.code).toBe(0);
      expect(list.stderr).toContain('The token cache in');
      const logout = await idm(['logout'], { env: { IDM_CONFIG_DIR: dir } });
      expect(logout.code).toBe(2);
      expect(logout.stderr).toMatch(/Could not write .*: the file system is read-only; nothing was changed\./);
      expect(logout.stderr).not.toContain('Unexpected error');
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mount]);
    }
  });
});

describe('a closed stdout', () => {
  it('`idm streams list --all | head -1`: exit 0, nothing on stderr, no more requests', async () => {
    const home = tempDir();
    let pages = 0;
    answer = (request) => {
      if (!request.url.startsWith('/api/v2/event-streams')) return undefined;
      pages++;
      const items = Array.from({ length: 100 }, (_, i) => ({ id: `est_${String(pages * 1000 + i).padStart(22, '0')}`, name: 'x'.repeat(200) }));
      return { body: { eventStreams: items, next: `page${pages}` } };
    };
    try {
      const run = spawnIdm(['streams', 'list', '--all'], { configDir: home.dir, env: server.env(home.dir) });
      await new Promise<void>((resolve) => run.child.stdout.once('data', () => resolve()));
      run.child.stdout.destroy();
      const result = await run.done;
      expect(result.signal).toBeNull();
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(pages).toBeLessThan(20);
    } finally {
      home.cleanup();
    }
  });

  it('`idm streams list --debug 2>&1 | head -1` (stderr the same closed pipe): exit 0, no more requests', async () => {
    const home = tempDir();
    answer = (request) => (request.url.startsWith('/oauth/token') ? 'stall' : listOrToken(request));
    try {
      // sh makes stderr a copy of stdout, as 2>&1 does; the test reads the pipe as head would.
      const child = spawn('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', process.execPath, BIN, 'streams', 'list', '--debug'], { env: cliEnv(home.dir, server.env(home.dir)), stdio: ['ignore', 'pipe', 'ignore'] });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await until(() => server.stalledCount() > 0, 'the token request');
      child.stdout.destroy(); // head -1 has its line and exits
      server.release({ body: tokenBody() }); // its trace is the next write
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(server.api()).toEqual([]);
    } finally {
      home.cleanup();
    }
  });

  it('a closed stderr alone: what went there is dropped, and stdout still gets the whole result', async () => {
    const home = tempDir();
    answer = (request) => (request.url.startsWith('/oauth/token') ? 'stall' : listOrToken(request));
    try {
      const run = spawnIdm(['streams', 'list', '--debug', '--json'], { configDir: home.dir, env: server.env(home.dir) });
      await new Promise<void>((resolve) => run.child.stderr.once('data', () => resolve()));
      await until(() => server.stalledCount() > 0, 'the token request');
      run.child.stderr.destroy();
      server.release({ body: tokenBody() });
      const result = await run.done;
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(LIST);
      expect(server.api()).toHaveLength(1);
    } finally {
      home.cleanup();
    }
  });
});

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasTmux && !process.env.CI)('a signal in the wizard', () => {
  it('SIGTERM at a list prompt (which hides the cursor): exit 143, the cursor shown again', async () => {
    const home = tempDir();
    answer = (request) => (request.url.endsWith('/default-mapping') ? { body: { mapping: [{ platform: 'email', idp: 'primaryEmail' }] } } : undefined);
    const socket = `idm-security-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    const env = server.env(home.dir);
    try {
      const pidFile = join(home.dir, 'pid');
      const command = ['env', '-u', 'CI', `IDM_CONFIG_DIR=${home.dir}`, `IDM_DOMAIN=${env.IDM_DOMAIN}`, 'IDM_CLIENT_ID=c', 'IDM_CLIENT_SECRET=hostile-client-secret-0123456789', process.execPath, BIN, 'provisioning', 'create', 'con_hostile000000001'];
      // Without CI, which keeps idm from asking anything even at a terminal.
      // The pid of idm itself (exec keeps the shell's), not of anything else whose command line matches.
      tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'w', '-x', '100', '-y', '30', `sh -c 'echo $$ > ${pidFile}; exec ${command.join(' ')}'; echo EXIT=$?; sleep 600`);
      await until(() => tmux('capture-pane', '-p', '-t', 'w').includes('What next?'), 'the mapping menu');
      expect(tmux('display-message', '-p', '-t', 'w', '#{cursor_flag}').trim()).toBe('0'); // the menu hides it
      const pid = (await import('node:fs')).readFileSync(pidFile, 'utf8').trim();
      process.kill(Number(pid), 'SIGTERM');
      await until(() => tmux('capture-pane', '-p', '-t', 'w').includes('EXIT='), 'the exit');
      expect(tmux('capture-pane', '-p', '-t', 'w')).toContain('EXIT=143');
      expect(tmux('display-message', '-p', '-t', 'w', '#{cursor_flag}').trim()).toBe('1');
    } finally {
      try {
        tmux('kill-server');
      } catch {
        // gone
      }
      home.cleanup();
    }
  });
});
