// Issue 11, items 7, 11 and 14: idm refuses to write into a settings directory that is not the
// user's own or that others can write, never follows a planted symlink, validates profile names it
// reads, and turns file-system errors into clear errors naming the file. A settings file over 4 MB
// (src/config/files.ts SETTINGS_LIMIT) is never read: config.json and a credentials file are an
// error naming the file, a cached token or a recent listing is ignored and written anew.
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hostileServer, idm, isRoot, tempDir } from '../helpers/hostile-server.js';

let server: Awaited<ReturnType<typeof hostileServer>>;
beforeAll(async () => {
  server = await hostileServer(() => undefined);
});
afterAll(() => server.close());

const tokenRequests = () => server.seen.filter((request) => request.url.startsWith('/oauth/token'));
const login = (configDir: string) =>
  idm(['login', '--domain', server.url, '--client-id', 'hostile-client', '--client-secret-file', '-'], { env: { IDM_CONFIG_DIR: configDir }, stdin: 'hostile-client-secret-0123456789\n' });

describe('a settings directory that is not the user’s own', () => {
  beforeEach(() => {
    server.seen.length = 0;
  });

  it('one that others can write (0777): login refuses with the chmod that fixes it, and writes nothing', async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, 'idm');
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const result = await login(dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`idm will not write into ${dir}: other users can write into it (mode 777)`);
      expect(result.stderr).toContain(`Run: chmod 700 ${dir}`);
      expect(tokenRequests()).toEqual([]); // refused before the secret was sent
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
      expect(existsSync(join(dir, 'credentials'))).toBe(false);
    } finally {
      home.cleanup();
    }
  });

  it('one every user shares (mode 1777, as /tmp, root\'s own when idm runs as root): login refuses, and the fix is another directory, never a chmod of it', async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, 'tmp');
      mkdirSync(dir);
      chmodSync(dir, 0o1777);
      const result = await login(dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`Error: idm will not write into ${dir}: other users can write into it (mode 1777).\nSet IDM_CONFIG_DIR to a directory of your own (mktemp -d makes one): a directory every user shares, as /tmp, is to stay as it is.\n`);
      expect(tokenRequests()).toEqual([]);
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    } finally {
      home.cleanup();
    }
  });

  it.skipIf(!isRoot)('one every user shares that belongs to another user (as /tmp for everyone but root): no chown of it either', async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, 'tmp');
      mkdirSync(dir);
      chmodSync(dir, 0o1777);
      chownSync(dir, 65534, 65534);
      const result = await login(dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('belongs to another user (uid 65534)');
      expect(result.stderr).not.toMatch(/chown|chmod/);
      expect(result.stderr).toContain('Set IDM_CONFIG_DIR to a directory of your own');
    } finally {
      home.cleanup();
    }
  });

  it.skipIf(!isRoot)('one that belongs to another user, with config.json a symlink to a victim: refused, the victim untouched', async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, 'idm');
      const victim = join(home.dir, 'victim.json');
      writeFileSync(victim, '{"victim": true}\n', { mode: 0o644 });
      mkdirSync(dir, { mode: 0o777 });
      chmodSync(dir, 0o777);
      symlinkSync(victim, join(dir, 'config.json'));
      chownSync(dir, 65534, 65534);
      const result = await login(dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('belongs to another user (uid 65534)');
      expect(tokenRequests()).toEqual([]);
      expect(readFileSync(victim, 'utf8')).toBe('{"victim": true}\n');
      expect((await import('node:fs')).statSync(victim).mode & 0o777).toBe(0o644);
    } finally {
      home.cleanup();
    }
  });

  it('config.json a symlink in the user’s own directory: refused, the target untouched', async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, 'idm');
      mkdirSync(dir, { mode: 0o700 });
      const victim = join(home.dir, 'victim.json');
      writeFileSync(victim, '{}\n', { mode: 0o644 });
      symlinkSync(victim, join(dir, 'config.json'));
      const result = await login(dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('it is a symlink');
      expect(tokenRequests()).toEqual([]);
      expect(existsSync(join(dir, 'credentials'))).toBe(false);
      expect(readFileSync(victim, 'utf8')).toBe('{}\n');
    } finally {
      home.cleanup();
    }
  });

  it('reading still works, with a warning, and no token is cached there', async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, 'idm');
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const result = await idm(['streams', 'test', 'est_hostile00000000000000a', '--event-type', 'user.created'], { env: server.env(dir) });
      expect(result.stderr).toContain('The token cache in');
      expect(result.stderr).toContain('other users can write into it');
      expect(server.seen.some((request) => request.url.startsWith('/oauth/token'))).toBe(true);
      expect(existsSync(join(dir, 'tokens'))).toBe(false);
    } finally {
      home.cleanup();
    }
  });
});

describe('profile names read from config.json', () => {
  it('a planted `../../victim` is refused (exit 2 naming the file); logout deletes nothing outside', async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, 'a', 'idm');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const victim = join(home.dir, 'victim.json');
      writeFileSync(victim, 'precious');
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { '../../victim': { domain: server.url, clientId: 'c', authMethod: 'post' } } }));
      const result = await idm(['logout', '--profile', '../../victim'], { env: { IDM_CONFIG_DIR: dir } });
      expect(result.code).toBe(2);
      expect(existsSync(victim)).toBe(true);
      const read = await idm(['auth', 'status'], { env: { IDM_CONFIG_DIR: dir } });
      expect(read.code).toBe(2);
      expect(read.stderr).toContain(`The settings file ${join(dir, 'config.json')} has a profile whose name is not valid`);
    } finally {
      home.cleanup();
    }
  });

  it.each(['constructor', 'toString', '__proto__'])('--profile %s is just an unknown name (exit 4)', async (name) => {
    const home = tempDir();
    try {
      const result = await idm(['streams', 'list', '--profile', name], { env: { IDM_CONFIG_DIR: home.dir } });
      if (name === '__proto__') {
        expect(result.code).toBe(2); // not a valid profile name: it starts with an underscore
      } else {
        expect(result.code).toBe(4);
        expect(result.stderr).toContain(`There is no profile named "${name}"`);
      }
      expect(result.stderr).not.toContain('Cannot read properties');
    } finally {
      home.cleanup();
    }
  });
});

describe('file-system errors name the file', () => {
  it('config.json a directory: exit 2 naming it', async () => {
    const home = tempDir();
    try {
      mkdirSync(join(home.dir, 'config.json'));
      const result = await idm(['streams', 'list'], { env: { IDM_CONFIG_DIR: home.dir } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`Cannot read ${join(home.dir, 'config.json')}: it is a directory.`);
      expect(result.stderr).not.toContain('Unexpected error');
    } finally {
      home.cleanup();
    }
  });

  it("config.json a directory, in a directory whose name needs quoting: the read gives the write's fix, the shell-quoted mv", async () => {
    const home = tempDir();
    try {
      const dir = join(home.dir, "it's mine");
      mkdirSync(join(dir, 'config.json'), { recursive: true });
      const result = await idm(['profiles', 'list'], { env: { IDM_CONFIG_DIR: dir } });
      expect(result.code).toBe(2);
      const file = join(dir, 'config.json');
      expect(result.stderr).toBe(`Error: Cannot read ${file}: it is a directory.\nMove it away (idm keeps a file there): mv -- '${file.replace("'", "'\\''")}' '${file.replace("'", "'\\''")}.bak'\n`);
    } finally {
      home.cleanup();
    }
  });

  it('a credentials file that is a directory: exit 4 naming it', async () => {
    const home = tempDir();
    try {
      writeFileSync(join(home.dir, 'config.json'), JSON.stringify({ defaultProfile: 'p', profiles: { p: { domain: server.url, clientId: 'c', authMethod: 'post' } } }));
      mkdirSync(join(home.dir, 'credentials', 'p.json'), { recursive: true });
      const result = await idm(['streams', 'list'], { env: { IDM_CONFIG_DIR: home.dir } });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`Cannot read ${join(home.dir, 'credentials', 'p.json')}: it is a directory.`);
    } finally {
      home.cleanup();
    }
  });
});

describe('settings files far larger than idm writes (over 4 MB) are never read', () => {
  const GB = 1024 * 1024 * 1024;
  const TOO_LARGE = 'it holds more than 4 MB, the most idm reads of a settings file.';
  const profile = () => JSON.stringify({ defaultProfile: 'p', profiles: { p: { domain: server.url, clientId: 'c', authMethod: 'post' } } });

  /** A sparse file of `bytes` (nothing written: reading it whole would take the time and memory). */
  function sparse(path: string, bytes: number): void {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '');
    truncateSync(path, bytes);
  }

  it.each([
    ['a 1 GB sparse file', (file: string) => sparse(file, GB)],
    ['4 MB and one byte', (file: string) => writeFileSync(file, `{}${' '.repeat(4 * 1024 * 1024 - 1)}`)],
    ['a symlink to /dev/zero (read no further than the limit)', (file: string) => symlinkSync('/dev/zero', file)],
  ])('config.json as %s: exit 2 naming the file and the limit, for every command that reads it', async (_name, make) => {
    const home = tempDir();
    try {
      const file = join(home.dir, 'config.json');
      make(file);
      server.seen.length = 0;
      for (const args of [['streams', 'list'], ['profiles', 'list'], ['auth', 'status']]) {
        const result = await idm(args, { env: { IDM_CONFIG_DIR: home.dir } });
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toContain(`Cannot read ${file}: ${TOO_LARGE}`);
        expect(result.stderr).toContain(`move it away and log in again to recreate it: mv -- ${file} ${file}.bak && idm login\n`);
        expect(result.stderr).not.toContain('Unexpected error');
      }
      const json = await idm(['streams', 'list', '--json'], { env: { IDM_CONFIG_DIR: home.dir } });
      expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'bad_config', exitCode: 2 });
      expect(server.seen).toEqual([]);
    } finally {
      home.cleanup();
    }
  });

  it('config.json of exactly 4 MB is read', async () => {
    const home = tempDir();
    try {
      writeFileSync(join(home.dir, 'config.json'), profile() + ' '.repeat(4 * 1024 * 1024 - profile().length));
      const result = await idm(['profiles', 'list', '--json'], { env: { IDM_CONFIG_DIR: home.dir } });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('"p"');
    } finally {
      home.cleanup();
    }
  });

  it('a credentials file of 1 GB: exit 4 naming it, nothing sent', async () => {
    const home = tempDir();
    try {
      writeFileSync(join(home.dir, 'config.json'), profile());
      const file = join(home.dir, 'credentials', 'p.json');
      sparse(file, GB);
      server.seen.length = 0;
      const result = await idm(['streams', 'list'], { env: { IDM_CONFIG_DIR: home.dir } });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`Cannot read ${file}: ${TOO_LARGE}`);
      // The login that writes it anew is that profile's: pasted as it is, it must not log in the default one.
      expect(result.stderr).toContain(`move it away and log in again to recreate it: mv -- ${file} ${file}.bak && idm login --profile p\n`);
      expect(server.seen).toEqual([]);
    } finally {
      home.cleanup();
    }
  });

  it('a cached token over 4 MB is ignored like a damaged one, unread: a token is fetched and replaces it', async () => {
    const home = tempDir();
    try {
      const env = server.env(home.dir);
      const args = ['streams', 'test', 'est_hostile00000000000000a', '--event-type', 'user.created'];
      const first = await idm(args, { env });
      const [cached] = readdirSync(join(home.dir, 'tokens')).filter((name) => name.endsWith('.json'));
      const file = join(home.dir, 'tokens', cached!);
      const token = readFileSync(file, 'utf8');
      writeFileSync(file, token + ' '.repeat(4 * 1024 * 1024)); // still the valid token, then spaces
      server.seen.length = 0;
      const second = await idm(args, { env });
      expect(second.code).toBe(first.code);
      expect(second.stderr).not.toContain('Unexpected error');
      expect(tokenRequests()).toHaveLength(1);
      expect(statSync(file).size).toBeLessThan(4096);
    } finally {
      home.cleanup();
    }
  });
});
