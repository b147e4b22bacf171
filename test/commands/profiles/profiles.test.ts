// idm profiles list / use / remove, and idm auth status over every profile: against real settings
// written by real logins to the sandbox, through main() in process.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, isLock, type Lock } from '../../../src/config/files.js';
import { runBash, runIdm, runInProcess, spawnIdm, stderrUntil, tempConfigDir } from '../../helpers/cli.js';
import { TTY_OUT } from '../../helpers/harness.js';
import { useSandbox } from '../../helpers/sandbox.js';

const sandbox = useSandbox();
let dir: string;
beforeEach(() => {
  const made = tempConfigDir();
  dir = made.dir;
  return () => {
    made.cleanup();
    // The secret files threeProfiles() writes beside the config directory.
    for (const client of ['admin', 'reader']) rmSync(`${made.dir}-${client}.secret`, { force: true });
  };
});

const idm = (args: string[], env: Record<string, string> = {}) => runInProcess(args, { configDir: dir, env });
const config = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

/** Three profiles: `default` (admin, post, the default), `prod` (admin, basic), `ro` (reader), each with a cached token. */
async function threeProfiles(): Promise<void> {
  const secret = (client: 'admin' | 'reader') => {
    const file = `${dir}-${client}.secret`;
    writeFileSync(file, sandbox().clients[client].clientSecret);
    return file;
  };
  const login = (name: string, client: 'admin' | 'reader', extra: string[] = []) =>
    idm(['login', '--profile', name, '--domain', sandbox().url, '--client-id', sandbox().clients[client].clientId, '--client-secret-file', secret(client), ...extra]);
  for (const result of [await login('default', 'admin'), await login('prod', 'admin', ['--auth-method', 'basic']), await login('ro', 'reader')]) expect(result.code, result.stderr).toBe(0);
}

describe('idm profiles list', () => {
  it('piped: one line per profile, the default first: name, default, domain, client, method, secret, token', async () => {
    await threeProfiles();
    const result = await idm(['profiles', 'list']);
    expect(result.code).toBe(0);
    const { admin, reader } = sandbox().clients;
    const lines = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(lines.map((cells) => cells.slice(0, 6))).toEqual([
      ['default', 'default', sandbox().url, admin.clientId, 'post', 'stored'],
      ['prod', '', sandbox().url, admin.clientId, 'basic', 'stored'],
      ['ro', '', sandbox().url, reader.clientId, 'post', 'stored'],
    ]);
    for (const cells of lines) expect(cells[6]).toMatch(/^valid \d{4}-\d\d-\d\dT/);
  });

  it('one profile whose secret file cannot be read: listed as unreadable with a warning, the others as before; auth status exits 0 (the default works)', async () => {
    await threeProfiles();
    const file = join(dir, 'credentials', 'prod.json');
    rmSync(file);
    mkdirSync(file); // EISDIR, as a file of another owner gives EACCES
    const warning = `Warning: Cannot read ${file}: it is a directory.\nMove it away (idm keeps a file there): mv -- ${file} ${file}.bak\n`;
    const listed = await idm(['profiles', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toBe(warning);
    expect(listed.stdout.trimEnd().split('\n').map((line) => line.split('\t').slice(0, 6)).map((cells) => [cells[0], cells[5]])).toEqual([
      ['default', 'stored'],
      ['prod', 'unreadable'],
      ['ro', 'stored'],
    ]);
    const json = await idm(['profiles', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).map((p: { name: string; secret: boolean }) => [p.name, p.secret])).toEqual([['default', true], ['prod', false], ['ro', true]]);
    const status = await idm(['auth', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toBe(warning);
    expect(status.stdout).toContain('Profile\tprod\n');
    expect(status.stdout).toContain('Secret\tunreadable (see the warning)\n');
    // That profile itself cannot be used, and says why (exit 4).
    expect((await idm(['auth', 'status', '--profile', 'prod'])).code).toBe(4);
  });

  it('logout and profiles remove of a profile whose secret file is a directory: exit 2, "Could not remove" it (not write), the fix, nothing changed (built binary)', async () => {
    await threeProfiles();
    const file = join(dir, 'credentials', 'ro.json');
    rmSync(file);
    mkdirSync(file);
    const error = `Error: Could not remove ${file}: a directory is in the way; nothing was changed.\nMove it away (idm keeps a file there): mv -- ${file} ${file}.bak\n`;
    for (const args of [['logout', '--profile', 'ro'], ['profiles', 'remove', 'ro', '--yes']]) {
      const result = await runIdm(args, { configDir: dir });
      expect([args, result.code, result.stderr]).toEqual([args, 2, error]);
    }
    expect(Object.keys(config().profiles).sort()).toEqual(['default', 'prod', 'ro']);
  });

  it("auth status when the unreadable secret is the default profile's: said once, as the error (exit 4), not also as a warning above it", async () => {
    await threeProfiles();
    const file = join(dir, 'credentials', 'default.json');
    rmSync(file);
    mkdirSync(file);
    const error = `Error: Cannot read ${file}: it is a directory.\nMove it away (idm keeps a file there): mv -- ${file} ${file}.bak\n`;
    const every = await idm(['auth', 'status']);
    expect(every.code).toBe(4);
    expect(every.stderr).toBe(error);
    expect(every.stdout).toContain('Profile\tdefault (the default)\n');
    expect(every.stdout).toContain('Secret\tunreadable (see the error)\n');
    expect(every.stdout).toContain('Profile\tro\n');
    // The only profile: listed all the same, the error once.
    for (const name of ['prod', 'ro']) expect((await idm(['profiles', 'remove', name, '--yes'])).code).toBe(0);
    const single = await idm(['auth', 'status']);
    expect(single.code).toBe(4);
    expect(single.stderr).toBe(error);
    expect(single.stdout).toContain('Secret\tunreadable (see the error)\n');
  });

  it('at a terminal, a table with the default marked; --json, the same as data', async () => {
    await threeProfiles();
    const table = await idm(['profiles', 'list'], { ...TTY_OUT, COLUMNS: '160' });
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+DEFAULT\s+DOMAIN\s+CLIENT\s+METHOD\s+SECRET\s+TOKEN$/);
    expect(table.stdout).toMatch(/^default\s+\*\s+http/m);
    const json = JSON.parse((await idm(['profiles', 'list', '--json'])).stdout);
    expect(json.map((p: { name: string }) => p.name)).toEqual(['default', 'prod', 'ro']);
    expect(json[0]).toMatchObject({ name: 'default', default: true, domain: sandbox().url, authMethod: 'post', secret: true, token: { state: 'valid' } });
  });

  it('at 80 columns, a long-named profile on http://127.0.0.1:PORT: the domain keeps its host\'s start and its port, the cut marked', async () => {
    const secret = `${dir}-admin.secret`;
    writeFileSync(secret, sandbox().clients.admin.clientSecret);
    for (const name of ['staging-environment-eu', 'production-tenant-west']) {
      const login = await idm(['login', '--profile', name, '--domain', sandbox().url, '--client-id', sandbox().clients.admin.clientId, '--client-secret-file', secret]);
      expect(login.code, login.stderr).toBe(0);
    }
    const table = await idm(['profiles', 'list'], { ...TTY_OUT, COLUMNS: '80' });
    expect(table.code).toBe(0);
    const port = new URL(sandbox().url).port;
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+DEFAULT\s+DOMAIN\s+CLIENT$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    for (const line of lines.slice(1)) {
      // It was `http:/…:PORT`: cut inside the scheme's slashes, the host gone.
      const domain = line.split(/\s{2,}/).find((cell) => cell.includes('…'));
      expect(domain).toMatch(new RegExp(`^(…|http://)127\\.[0-9.]*…?:${port}$`));
    }
  });

  it('no profiles: nothing on stdout, how to add one on stderr, exit 0', async () => {
    const result = await idm(['profiles', 'list']);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain("No profiles yet: run 'idm login' to store one.");
  });
});

describe('idm profiles use', () => {
  it('makes a profile the default; commands without --profile then use it', async () => {
    await threeProfiles();
    const result = await idm(['profiles', 'use', 'ro']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Profile "ro" is now the default (was "default").\n');
    expect(config().defaultProfile).toBe('ro');
    const status = await idm(['auth', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'ro', clientId: sandbox().clients.reader.clientId });
  });

  it('IDM_PROFILE naming another profile: the default is made all the same, and a warning says commands use the variable\'s profile while it is set', async () => {
    await threeProfiles();
    const result = await idm(['profiles', 'use', 'ro'], { IDM_PROFILE: 'prod' });
    expect(result.code).toBe(0);
    expect(config().defaultProfile).toBe('ro');
    expect(result.stderr).toBe('Profile "ro" is now the default (was "default").\nWarning: IDM_PROFILE is set (prod): commands use profile "prod", not the default "ro", while it is.\nUnset it (unset IDM_PROFILE) to use the default.\n');
    // The same profile as the variable's: nothing to warn of.
    expect((await idm(['profiles', 'use', 'prod'], { IDM_PROFILE: 'prod' })).stderr).toBe('Profile "prod" is now the default (was "ro").\n');
  });

  it('IDM_DOMAIN or IDM_CLIENT_ID naming another tenant or client than the new default: a warning says commands use them, not the default\'s (built binary)', async () => {
    await threeProfiles();
    const { admin, reader } = sandbox().clients;
    const bin = (args: string[], env: Record<string, string>) => runIdm(args, { configDir: dir, env });
    const domain = await bin(['profiles', 'use', 'ro'], { IDM_DOMAIN: 'https://other.example.com' });
    expect(domain.code, domain.stderr).toBe(0);
    expect(config().defaultProfile).toBe('ro');
    expect(domain.stderr).toBe(
      'Profile "ro" is now the default (was "default").\n' +
        `Warning: IDM_DOMAIN is set (https://other.example.com): commands use it, not the domain (${sandbox().url}) of the default "ro", while it is.\n` +
        'Unset it (unset IDM_DOMAIN) to use the default.\n',
    );
    // Both, with --json: the object on stdout as ever, one warning on stderr naming each.
    const both = await bin(['profiles', 'use', 'prod', '--json'], { IDM_DOMAIN: 'other.example.com', IDM_CLIENT_ID: reader.clientId });
    expect(both.code, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout)).toEqual({ default: 'prod', previous: 'ro' });
    expect(JSON.parse(both.stderr)).toEqual({
      warning: {
        message: `IDM_DOMAIN is set (https://other.example.com) and IDM_CLIENT_ID is set (${reader.clientId}): commands use them, not the domain (${sandbox().url}) and client (${admin.clientId}) of the default "prod", while they are.`,
        hint: 'Unset them (unset IDM_DOMAIN IDM_CLIENT_ID) to use the default.',
      },
    });
    // Variables naming the default's own tenant and client change nothing: no warning.
    expect((await bin(['profiles', 'use', 'default'], { IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: admin.clientId })).stderr).toBe('Profile "default" is now the default (was "prod").\n');
  });

  it('IDM_DOMAIN or IDM_CLIENT_ID set to a value commands refuse: the warning says commands stop with that error, not that they use it (built binary)', async () => {
    await threeProfiles();
    const bin = (args: string[], env: Record<string, string>) => runIdm(args, { configDir: dir, env });
    const env = { IDM_DOMAIN: 'not a domain' };
    const domain = await bin(['profiles', 'use', 'ro'], env);
    expect(domain.code, domain.stderr).toBe(0);
    expect(config().defaultProfile).toBe('ro');
    expect(domain.stderr).toBe(
      'Profile "ro" is now the default (was "default").\n' +
        'Warning: Commands stop with an error, not use the default "ro", while IDM_DOMAIN is set so: IDM_DOMAIN "not a domain" is not a host name or URL.\n' +
        'Correct it, or unset it (unset IDM_DOMAIN), to use the default.\n',
    );
    // What the warning says is what happens.
    const list = await bin(['streams', 'list'], env);
    expect([list.code, list.stderr.split('\n')[0]]).toEqual([2, 'Error: IDM_DOMAIN "not a domain" is not a host name or URL.']);
    // IDM_PROFILE naming no profile: so too (profile "prod" exists: the warning that commands use it is left for that case).
    const profile = await bin(['profiles', 'use', 'default'], { IDM_PROFILE: 'prdo' });
    expect(profile.code, profile.stderr).toBe(0);
    expect(profile.stderr).toBe(
      'Profile "default" is now the default (was "ro").\n' +
        'Warning: Commands stop with an error, not use the default "default", while IDM_PROFILE is set so: There is no profile named "prdo".\n' +
        'Correct it, or unset it (unset IDM_PROFILE), to use the default.\n',
    );
    const listed = await bin(['streams', 'list'], { IDM_PROFILE: 'prdo' });
    expect([listed.code, listed.stderr.split('\n')[0]]).toEqual([4, 'Error: There is no profile named "prdo".']);
    // IDM_CLIENT_SECRET or IDM_ACCESS_TOKEN that cannot be sent: so too, the value never shown.
    for (const [variable, value, problem] of [
      ['IDM_CLIENT_SECRET', 'ab', 'IDM_CLIENT_SECRET: the client secret is too short (2 characters)'],
      ['IDM_ACCESS_TOKEN', 'Bearer opaque-token-0123456789', 'IDM_ACCESS_TOKEN cannot be sent as a bearer token: it is the token with "Bearer " before it'],
      // A key kept base64-encoded (as CI secret stores do): it said 'commands use it, not the credentials'.
      ['IDM_PRIVATE_KEY', Buffer.from('-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n').toString('base64'), 'IDM_PRIVATE_KEY holds a base64-encoded PEM: it must hold the PEM itself or the path of a PEM file'],
    ] as const) {
      const secret = await bin(['profiles', 'use', 'default'], { [variable]: value });
      expect(secret.code, secret.stderr).toBe(0);
      expect(secret.stderr).toBe(
        'Profile "default" was already the default.\n' +
          `Warning: Commands stop with an error, not use the default "default", while ${variable} is set so: ${problem}.\n` +
          `Correct it, or unset it (unset ${variable}), to use the default.\n`,
      );
      const stopped = await bin(['streams', 'list'], { [variable]: value });
      expect([stopped.code, stopped.stderr.split('\n')[0]]).toEqual([2, `Error: ${problem}.`]);
    }
    // Both, one of them usable (IDM_ACCESS_TOKEN): commands stop all the same, and only that is said.
    const both = await bin(['profiles', 'use', 'prod', '--json'], { IDM_DOMAIN: 'http:/127.0.0.1', IDM_CLIENT_ID: 'a b', IDM_ACCESS_TOKEN: 'opaque-access-token-0123456789' });
    expect(both.code, both.stderr).toBe(0);
    expect(JSON.parse(both.stderr)).toEqual({
      warning: {
        message:
          'Commands stop with an error, not use the default "prod", while IDM_DOMAIN and IDM_CLIENT_ID are set so: IDM_DOMAIN "http:/127.0.0.1" is not a URL: http: takes two slashes (http://127.0.0.1); IDM_CLIENT_ID must be printable ASCII without spaces: character 2 is a space.',
        hint: 'Correct them, or unset them (unset IDM_DOMAIN IDM_CLIENT_ID), to use the default.',
      },
    });
  });

  it('IDM_ACCESS_TOKEN set: a warning says commands send it, not the new default\'s credentials, never showing it (built binary)', async () => {
    await threeProfiles();
    const token = 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6InJlYWQ6ZXZlbnRfc3RyZWFtcyJ9.sig-of-a-token';
    const result = await runIdm(['profiles', 'use', 'ro'], { configDir: dir, env: { IDM_ACCESS_TOKEN: token } });
    expect(result.code, result.stderr).toBe(0);
    expect(config().defaultProfile).toBe('ro');
    expect(result.stderr).toBe(
      'Profile "ro" is now the default (was "default").\n' +
        'Warning: IDM_ACCESS_TOKEN is set: commands use it, not the credentials of the default "ro", while it is.\n' +
        'Unset it (unset IDM_ACCESS_TOKEN) to use the default.\n',
    );
    // With IDM_DOMAIN too: one warning naming both.
    const both = await runIdm(['profiles', 'use', 'prod'], { configDir: dir, env: { IDM_ACCESS_TOKEN: token, IDM_DOMAIN: 'other.example.com' } });
    expect(both.stderr).toContain(`Warning: IDM_DOMAIN is set (https://other.example.com) and IDM_ACCESS_TOKEN is set: commands use them, not the domain (${sandbox().url}) and credentials of the default "prod", while they are.\n`);
    expect(both.stderr).not.toContain(token);
  });

  it('IDM_CLIENT_SECRET or IDM_PRIVATE_KEY set: a warning says commands send it, not the new default\'s stored credentials, never showing it (built binary)', async () => {
    // Reviewed defect: IDM_ACCESS_TOKEN was warned of (849b4fb), but a client secret or key left in
    // the environment, which every command sends for the default's client in place of its stored
    // one (refused as invalid_client, or another client's secret sent), was not: 'now the default' alone.
    await threeProfiles();
    const secret = 'a-secret-left-in-the-environment-0123456789';
    const result = await runIdm(['profiles', 'use', 'ro'], { configDir: dir, env: { IDM_CLIENT_SECRET: secret } });
    expect(result.code, result.stderr).toBe(0);
    expect(config().defaultProfile).toBe('ro');
    expect(result.stderr).toBe(
      'Profile "ro" is now the default (was "default").\n' +
        'Warning: IDM_CLIENT_SECRET is set: commands use it, not the credentials of the default "ro", while it is.\n' +
        'Unset it (unset IDM_CLIENT_SECRET) to use the default.\n',
    );
    expect(result.stderr).not.toContain(secret);
    // A key and a token: the credentials named once.
    const both = await runIdm(['profiles', 'use', 'prod'], { configDir: dir, env: { IDM_PRIVATE_KEY: '/nonexistent/key.pem', IDM_ACCESS_TOKEN: 'eyJhbGciOiJub25lIn0.e30.sig' } });
    expect(both.stderr).toContain('Warning: IDM_PRIVATE_KEY is set and IDM_ACCESS_TOKEN is set: commands use them, not the credentials of the default "prod", while they are.\n');
    expect(both.stderr).toContain('Unset them (unset IDM_PRIVATE_KEY IDM_ACCESS_TOKEN) to use the default.\n');
  });

  it('an unknown profile: exit 4 with the known ones, nothing written', async () => {
    await threeProfiles();
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await idm(['profiles', 'use', 'nope']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('There is no profile named "nope".');
    expect(result.stderr).toContain('Known profiles: default, prod, ro.');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('a name that cannot be a profile is a usage error', async () => {
    const result = await idm(['profiles', 'use', '../etc']);
    expect(result.code).toBe(2);
  });
});

describe('idm profiles use / remove without a name', () => {
  // Reviewed defect: commander's bare "Missing <name>." named no profile, while an unknown name lists them.
  it('a usage error (exit 2) that lists the known profiles; nothing changed', async () => {
    await threeProfiles();
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    for (const command of ['use', 'remove']) {
      const result = await idm(['profiles', command]);
      expect(result.code, command).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: Missing <name>: the profile.\nKnown profiles: default, prod, ro. Run 'idm profiles ${command} --help' for usage.\n`);
      const json = await idm(['profiles', command, '--json']);
      expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage', exitCode: 2, hint: expect.stringContaining('Known profiles: default, prod, ro.') });
    }
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    const help = await idm(['profiles', 'use', '--help']);
    expect(help.stdout).toContain('Usage: idm profiles use [options] <name>');
  });

  it('no profile at all: says there is none', async () => {
    const result = await idm(['profiles', 'use']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('There are no profiles yet.');
  });
});

describe('idm profiles remove', () => {
  it('with --yes: the settings and the secret file go; the cached token another profile of the same client uses stays, and that one keeps working', async () => {
    await threeProfiles();
    const result = await idm(['profiles', 'remove', 'prod', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('Removed profile "prod".\nKept its cached token: profile "default" uses it too.\n');
    expect(Object.keys(config().profiles).sort()).toEqual(['default', 'ro']);
    expect(existsSync(join(dir, 'credentials', 'prod.json'))).toBe(false);
    const list = await idm(['streams', 'list', '--take', '1']);
    expect(list.code).toBe(0);
  });

  it('the settings lock held by another idm: once the wait lasts, a note on stderr names that process and the fix if it hangs; released, the change is made (built binary)', async () => {
    await threeProfiles();
    const lockFile = join(dir, 'config.json.lock');
    // Held by a live process (this one) until the running idm has said that it waits.
    const held = await acquireLock(lockFile, { waitMs: 0, staleMs: 3_600_000 });
    expect(isLock(held)).toBe(true);
    const { child, done } = spawnIdm(['profiles', 'use', 'ro'], { configDir: dir });
    const notice = `Waiting for idm process ${process.pid}, which holds ${lockFile}… (if it hangs: kill ${process.pid})\n`;
    try {
      await stderrUntil(child, notice);
      expect(config().defaultProfile).toBe('default'); // nothing written while it waits
    } finally {
      (held as Lock).release();
    }
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`${notice}Profile "ro" is now the default (was "default").\n`);
    expect(config().defaultProfile).toBe('ro');

    // A lock made on another host (a shared home directory): no kill here; removed as the note says, the change is made.
    writeFileSync(lockFile, `4242 - nonce ${Date.now()} build-host-b\n`);
    const other = spawnIdm(['profiles', 'use', 'prod'], { configDir: dir });
    const said = await stderrUntil(other.child, '\n');
    expect(said).toBe(`Waiting for idm process 4242 on build-host-b, which holds ${lockFile}… (if no idm runs there, it is broken once a minute old, or now: rm -- ${lockFile})\n`);
    const rm = await runBash(/or now: (rm -- \S+)\)/.exec(said)![1]!, { cwd: dir, configDir: dir });
    expect(rm.code, rm.stderr).toBe(0);
    expect((await other.done).code).toBe(0);
    expect(config().defaultProfile).toBe('prod');
  });

  it('the token lock held past the wait: the error says the profile was removed (it was), and how to remove its token, not to run the command again', async () => {
    await threeProfiles();
    const tokenFile = join(dir, 'tokens', readdirSync(join(dir, 'tokens')).find((name) => name.includes(sandbox().clients.reader.clientId))!);
    const lockFile = tokenFile.replace(/\.json$/, '.lock');
    // Held by a live process (this one) for the whole wait; the wait's two minutes pass on a fake clock.
    const held = await acquireLock(lockFile, { waitMs: 0, staleMs: 3_600_000 });
    expect(isLock(held)).toBe(true);
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    let result;
    try {
      const pending = idm(['profiles', 'remove', 'ro', '--yes']);
      await vi.advanceTimersByTimeAsync(130_000);
      result = await pending;
    } finally {
      vi.useRealTimers();
      (held as Lock).release();
    }
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Waiting for idm process ${process.pid}, which holds ${lockFile}… (if it hangs: kill ${process.pid})\n` +
        `Error: Could not remove the cached token: ${lockFile} is locked by idm process ${process.pid}; profile "ro" was removed, its token stays cached.\n` +
        `When that process has finished, remove the token: rm -f -- ${tokenFile}\n`,
    );
    expect(Object.keys(config().profiles).sort()).toEqual(['default', 'prod']);
    // Running the command again could not help: the profile is gone.
    expect((await idm(['profiles', 'remove', 'ro', '--yes'])).code).toBe(4);
  });

  it('the default: `default` takes its place when it exists, else there is none (and the note says how to choose)', async () => {
    await threeProfiles();
    await idm(['profiles', 'use', 'prod']);
    const first = await idm(['profiles', 'remove', 'prod', '--yes']);
    expect(first.stderr).toContain('Profile "default" is the default now.');
    expect(config().defaultProfile).toBe('default');
    const second = await idm(['profiles', 'remove', 'default', '--yes']);
    expect(second.stderr).toContain("There is no default profile now: idm profiles use ro makes one.");
    expect(config().defaultProfile).toBeUndefined();
    // A command without --profile then says that none is the default and which to choose, not that
    // there is no profile at all (the binary, exit 4, nothing sent).
    const before = sandbox().requests.length;
    const run = await runIdm(['streams', 'list', '--json'], { configDir: dir });
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({
      code: 'no_credentials',
      message: 'No default profile: the stored profile is ro.',
      hint: "Make one the default ('idm profiles use ro'), or pass --profile NAME (IDM_PROFILE) to a command; 'idm login' stores a new one.",
    });
    expect(sandbox().requests.length).toBe(before);
    expect((await runIdm(['streams', 'list', '--take', '1', '--profile', 'ro'], { configDir: dir })).code).toBe(0);
  });

  it('without --yes and without a terminal: exit 2, nothing removed', async () => {
    await threeProfiles();
    const result = await idm(['profiles', 'remove', 'prod']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Run 'idm profiles remove prod --yes'.");
    expect(Object.keys(config().profiles)).toContain('prod');
    expect(readdirSync(join(dir, 'credentials'))).toContain('prod.json');
  });

  it('--json says what was removed', async () => {
    await threeProfiles();
    const result = await idm(['profiles', 'remove', 'ro', '--yes', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({ profile: 'ro', removedSecret: true, removedToken: true, default: 'default' });
  });
});

describe('a cached token shared by two profiles (the same domain and client)', () => {
  const tokenFiles = () => (existsSync(join(dir, 'tokens')) ? readdirSync(join(dir, 'tokens')).filter((file) => file.endsWith('.json')) : []);

  it('profiles remove of one keeps the token the other uses (removedToken false): the other needs no new token', async () => {
    await threeProfiles(); // default and prod: the admin client at the sandbox, one cached token
    expect(tokenFiles()).toHaveLength(2); // admin's and reader's
    const result = await idm(['profiles', 'remove', 'prod', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ profile: 'prod', removedSecret: true, removedToken: false, default: 'default' });
    expect(tokenFiles()).toHaveLength(2);
    const people = await idm(['profiles', 'remove', 'ro', '--yes']);
    expect(people.stderr).toBe('Removed profile "ro".\n'); // no one else uses the reader's token: gone
    expect(tokenFiles()).toHaveLength(1);
    const before = sandbox().requests.filter((request) => request.path === '/oauth/token').length;
    expect((await idm(['streams', 'list'])).code).toBe(0);
    expect(sandbox().requests.filter((request) => request.path === '/oauth/token').length).toBe(before);
  });

  it('logout of one keeps it too, and says who uses it; the last one with a secret removes it', async () => {
    await threeProfiles();
    const first = await idm(['logout', '--profile', 'prod']);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('Logged out of profile "prod": removed its secret.\nKept the cached token: profile "default" uses it too.\n');
    expect(tokenFiles()).toHaveLength(2);
    const last = await idm(['logout', '--json']);
    expect(JSON.parse(last.stdout)).toEqual({ profile: 'default', removedSecret: true, removedToken: true });
    expect(tokenFiles()).toHaveLength(1);
  });

  it('shared by several: each is named, as a sentence lists them ("default" and "stage")', async () => {
    await threeProfiles();
    const stage = await idm(['login', '--profile', 'stage', '--domain', sandbox().url, '--client-id', sandbox().clients.admin.clientId, '--client-secret-file', `${dir}-admin.secret`]);
    expect(stage.code, stage.stderr).toBe(0);
    const result = await runIdm(['logout', '--profile', 'prod'], { configDir: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('Logged out of profile "prod": removed its secret.\nKept the cached token: profiles "default" and "stage" use it too.\n');
  });
});

describe('a profile name that cannot be one', () => {
  it('is named as what it was given as: the NAME argument of use and remove, or --profile (exit 2)', async () => {
    const rule = 'is not a valid profile name: letters, digits, dot, dash and underscore, at most 64, starting with a letter or digit.';
    for (const args of [['profiles', 'use', 'a b'], ['profiles', 'remove', 'a b', '--yes']]) {
      const result = await idm(args);
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`Error: <name> "a b" ${rule}`);
      expect(result.stderr).not.toContain('--profile');
    }
    const flag = await idm(['auth', 'status', '--profile', 'a b']);
    expect(flag.code).toBe(2);
    expect(flag.stderr.split('\n')[0]).toBe(`Error: --profile "a b" ${rule}`);
  });
});

describe('idm auth status over every profile', () => {
  it('without --profile, every profile in turn, the default first, with what is stored', async () => {
    await threeProfiles();
    await idm(['logout', '--profile', 'ro']);
    const result = await idm(['auth', 'status']);
    expect(result.code).toBe(0);
    const blocks = result.stdout.trimEnd().split('\n\n');
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toMatch(/^Profile\tdefault \(the default\)\nDomain\thttp:\/\/127\.0\.0\.1:\d+\nClient ID\t\w+\nMethod\tpost\nSecret\tstored\nToken\tcached, valid until /);
    expect(blocks[1]).toMatch(/^Profile\tprod\n/);
    expect(blocks[2]).toMatch(/^Profile\tro\n(.*\n)*Secret\tnone \(logged out\)\n/);
    expect(result.stdout).not.toContain(sandbox().clients.admin.clientSecret);
  });

  it('with --profile, that one only, with the lines of the all-profiles view (the Secret line too)', async () => {
    await threeProfiles();
    const result = await idm(['auth', 'status', '--profile', 'prod']);
    expect(result.stdout).toMatch(/^Profile\tprod\nCredentials from\tprofile "prod"\n/);
    expect(result.stdout).not.toContain('\n\n');
    const fields = (text: string) => new Map(text.trimEnd().split('\n').map((line) => line.split('\t') as [string, string]));
    const one = fields(result.stdout);
    expect([...one.keys()]).toEqual(['Profile', 'Credentials from', 'Domain', 'Client ID', 'Method', 'Secret', 'Token', 'Scopes']);
    const all = fields((await idm(['auth', 'status'])).stdout.split('\n\n')[1]!);
    for (const label of ['Domain', 'Client ID', 'Method', 'Secret', 'Scopes']) expect(one.get(label), label).toBe(all.get(label));
    expect(one.get('Secret')).toBe('stored');
  });

  it('with the default logged out: every profile all the same, then exit 4 as every command would (--json: the error object)', async () => {
    await threeProfiles();
    await idm(['logout']);
    const people = await idm(['auth', 'status']);
    // The same exit as --json, as one profile alone, and as the next command: a script can check first.
    expect(people.code).toBe(4);
    // The token stays: prod (the same client, a secret stored) uses it.
    expect(people.stdout).toMatch(/^Profile\tdefault \(the default\)\n(.*\n)*Secret\tnone \(logged out\)\nToken\tcached, valid until /);
    expect(people.stdout.trimEnd().split('\n\n')).toHaveLength(3);
    expect(people.stderr).toBe('Error: Profile "default" has no stored secret (logged out?).\nRun \'idm login\' to store one.\n');
    expect((await idm(['streams', 'list'])).code).toBe(4);
    const json = await idm(['auth', 'status', '--json']);
    expect(json.code).toBe(4);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ code: 'no_credentials', message: 'Profile "default" has no stored secret (logged out?).' });
    const prod = await idm(['auth', 'status', '--json', '--profile', 'prod']);
    expect(prod.code).toBe(0);
    expect(JSON.parse(prod.stdout)).toMatchObject({ profile: 'prod', source: 'profile', authMethod: 'basic' });
  });

  it('a single profile, logged out: listed all the same (as the help says), the error on stderr, exit 4', async () => {
    const file = `${dir}-admin.secret`;
    writeFileSync(file, sandbox().clients.admin.clientSecret);
    expect((await idm(['login', '--domain', sandbox().url, '--client-id', sandbox().clients.admin.clientId, '--client-secret-file', file])).code).toBe(0);
    expect((await idm(['logout'])).code).toBe(0);
    const result = await idm(['auth', 'status']);
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(/^Profile\tdefault \(the default\)\nDomain\thttp:\/\/127\.0\.0\.1:\d+\n(.*\n)*Secret\tnone \(logged out\)\nToken\tnone cached\n/);
    expect(result.stdout).not.toContain('\n\n');
    expect(result.stderr).toBe('Error: Profile "default" has no stored secret (logged out?).\nRun \'idm login\' to store one.\n');
    const help = (await idm(['auth', 'status', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('every profile is listed on stdout all the same (a single one too), the error on stderr.');
  });

  it('credentials from the environment: the Secret line names the variable, never the value', async () => {
    const { admin } = sandbox().clients;
    const result = await idm(['auth', 'status'], { IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: admin.clientId, IDM_CLIENT_SECRET: admin.clientSecret });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('\nSecret\tfrom IDM_CLIENT_SECRET\n');
    expect(result.stdout).not.toContain(admin.clientSecret);
  });
});
