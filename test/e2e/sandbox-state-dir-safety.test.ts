// idm sandbox start --state-dir writes secrets and keys (admin.secret, admin.pem, state.json...):
// never through a symlink planted at one of those names, and never into a directory another user
// owns or can write into (where such a symlink could be planted), as idm's settings directory.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIdm, sandboxProcesses, startSandboxProcess } from '../helpers/cli.js';

/** A fresh config directory per call; every sandbox started is killed after its test. */
const { configDir, started } = sandboxProcesses();

describe('idm sandbox start --state-dir: where its secrets go', () => {
  it('symlinks planted at admin.secret, admin.pem and state.json are replaced, never written through', async () => {
    const dir = configDir();
    const state = join(dir, 'state');
    mkdirSync(state, { mode: 0o700 });
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'not the sandbox secret\n');
    symlinkSync(victim, join(state, 'admin.secret'));
    symlinkSync(join(dir, 'elsewhere.pem'), join(state, 'admin.pem')); // dangling: would be created
    symlinkSync(join(dir, 'elsewhere.json'), join(state, 'state.json'));
    const sandbox = await started(['--state-dir', state], { configDir: dir, json: true });
    expect((await sandbox.stop('SIGTERM')).code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('not the sandbox secret\n');
    expect(existsSync(join(dir, 'elsewhere.pem'))).toBe(false);
    expect(existsSync(join(dir, 'elsewhere.json'))).toBe(false);
    for (const name of ['admin.secret', 'admin.pem', 'state.json']) {
      const stats = lstatSync(join(state, name));
      expect(stats.isFile(), name).toBe(true);
      expect(stats.mode & 0o777, name).toBe(0o600);
    }
    expect(readFileSync(join(state, 'admin.secret'), 'utf8')).toBe(sandbox.info.clients.admin.clientSecret);
  });

  it('--state-dir=~/sb, where no shell expands the ~: the directory is in the home directory, never one named ~ in the current one', async () => {
    // It made ./~/sb wherever the sandbox was started (a checkout), with the secrets and keys in it.
    const dir = configDir();
    const home = join(dir, 'home');
    const work = join(dir, 'work');
    mkdirSync(home);
    mkdirSync(work);
    const sandbox = await startSandboxProcess(['--state-dir=~/sb'], { configDir: dir, json: true, cwd: work, env: { HOME: home } });
    try {
      expect(sandbox.info.stateDir).toBe(join(home, 'sb'));
      expect(existsSync(join(home, 'sb', 'admin.secret'))).toBe(true);
      expect(readdirSync(work)).toEqual([]);
    } finally {
      expect((await sandbox.stop('SIGTERM')).code).toBe(0);
    }
  });

  it('a --state-dir others can write into: exit 1, nothing written, the fix named', async () => {
    const dir = configDir();
    const state = join(dir, 'shared');
    mkdirSync(state);
    chmodSync(state, 0o777);
    const result = await runIdm(['sandbox', 'start', '--state-dir', state], { configDir: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Error: idm will not write the sandbox's secrets into ${state}: other users can write into it (mode 777).\nRun: chmod 700 ${state}, or use a directory of your own.\n`);
    expect(existsSync(join(state, 'admin.secret'))).toBe(false);
    expect(existsSync(join(state, 'state.json'))).toBe(false);
  });

  it('a --state-dir every user shares (mode 1777, as /tmp, which is root\'s own when idm runs as root): exit 1, and the fix is another directory, never a chmod of it', async () => {
    const dir = configDir();
    const state = join(dir, 'tmp');
    mkdirSync(state);
    chmodSync(state, 0o1777);
    const result = await runIdm(['sandbox', 'start', '--state-dir', state], { configDir: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Error: idm will not write the sandbox's secrets into ${state}: other users can write into it (mode 1777).\nUse a directory of your own (mktemp -d makes one): a directory every user shares, as /tmp, is to stay as it is.\n`);
    expect(existsSync(join(state, 'admin.secret'))).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)('a --state-dir of another user (run as root): exit 1, nothing written', async () => {
    const dir = configDir();
    const state = join(dir, 'theirs');
    mkdirSync(state, { mode: 0o700 });
    chownSync(state, 65534, 65534);
    const result = await runIdm(['sandbox', 'start', '--state-dir', state], { configDir: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Error: idm will not write the sandbox's secrets into ${state}: it belongs to another user (uid 65534).\nUse a directory of your own.\n`);
    expect(existsSync(join(state, 'admin.secret'))).toBe(false);
  });
});
