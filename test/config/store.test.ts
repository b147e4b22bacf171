// The one writer of the settings (src/config/store.ts): every write happens under config.json.lock.
// When another live process holds the lock past the wait, the update fails with an error naming that
// process, its exit code and the fix, and nothing is written; a free lock is taken, the change applied
// to what the file holds then, and the lock released.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSettings, saveProfile, updateSettings } from '../../src/config/store.js';
import { IdmError } from '../../src/core/errors.js';
import { ExitCode } from '../../src/core/exit-codes.js';
import { tempConfigDir } from '../helpers/cli.js';

const PROFILE = { domain: 'https://tenant.example.com', clientId: 'client-one', authMethod: 'post' } as const;
const BEFORE = `${JSON.stringify({ defaultProfile: 'one', profiles: { one: PROFILE } }, null, '\t')}\n`;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempConfigDir());
  writeFileSync(join(dir, 'config.json'), BEFORE, { mode: 0o600 });
});
afterEach(() => cleanup());

/** Another process, alive for the whole file: the holder of the lock. */
let holder: ChildProcess;
beforeAll(() => {
  holder = spawn('sleep', ['600'], { stdio: 'ignore' });
});
afterAll(() => {
  holder.kill('SIGKILL');
});

/** config.json.lock as acquireLock writes it, naming `pid` (with its start time where /proc has it). */
function holdLock(pid: number): string {
  let start = '-';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '-';
  } catch {
    // no /proc: the lock's age decides, and it is fresh
  }
  const lock = join(dir, 'config.json.lock');
  writeFileSync(lock, `${pid} ${start} test-nonce ${Date.now()}\n`, { mode: 0o600 });
  return lock;
}

describe('the settings store', () => {
  it('a lock held by a live process: fails naming its pid, exit 1, the fix; nothing written', async () => {
    const pid = holder.pid!;
    const lock = holdLock(pid);
    let changed = false;
    const error = await updateSettings(
      dir,
      ({ store, setSecret }) => {
        changed = true;
        store.profiles.two = { ...PROFILE, clientId: 'client-two' };
        setSecret('two', { clientSecret: 'never-written' });
      },
      { waitMs: 200 },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdmError);
    const failure = error as IdmError;
    expect(failure.exitCode).toBe(ExitCode.Failure);
    expect(failure.exitCode).toBe(1);
    expect(failure.code).toBe('locked');
    expect(failure.message).toBe(`Could not save the settings: ${join(dir, 'config.json')} is locked by idm process ${pid}; nothing was written.`);
    expect(failure.hint).toBe(`Run the command again when that process has finished (or, if it hangs: kill ${pid}).`);
    expect(changed).toBe(false);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(BEFORE);
    expect(existsSync(join(dir, 'credentials', 'two.json'))).toBe(false);
    expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${pid} `)); // the holder's lock is left alone
  });

  it('saveProfile (what login calls) fails the same way, and the profile is not saved', async () => {
    holdLock(holder.pid!);
    await expect(saveProfile(dir, 'two', { ...PROFILE, clientId: 'client-two' }, { clientSecret: 'never-written' }, { waitMs: 200 })).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringContaining(`locked by idm process ${holder.pid}`),
    });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(BEFORE);
  });

  it('a free lock: the change applies to what the file holds, and the lock is released', async () => {
    const result = await saveProfile(dir, 'two', { ...PROFILE, clientId: 'client-two' }, { clientSecret: 'stored' }, { waitMs: 200 });
    expect(result).toEqual({ isDefault: false });
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config).toEqual({ defaultProfile: 'one', profiles: { one: PROFILE, two: { ...PROFILE, clientId: 'client-two' } } });
    expect(JSON.parse(readFileSync(join(dir, 'credentials', 'two.json'), 'utf8'))).toEqual({ clientSecret: 'stored', clientId: 'client-two' });
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });

  it('entries of config.json idm does not know (another version\'s settings, its own or a newer one\'s) are written back as they were, and a profile\'s too', async () => {
    const others = { updateCheck: { lastRun: '2026-11-01' }, __internal__: { migrations: { version: '0.1.0' } } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...others, defaultProfile: 'one', profiles: { one: { ...PROFILE, region: 'eu' } } }), { mode: 0o600 });
    await saveProfile(dir, 'two', { ...PROFILE, clientId: 'client-two' }, undefined, { waitMs: 200 });
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config).toEqual({ ...others, defaultProfile: 'one', profiles: { one: { ...PROFILE, region: 'eu' }, two: { ...PROFILE, clientId: 'client-two' } } });
  });

  it('a lock left by a process that has ended is broken, and the write goes through', async () => {
    const ended = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => ended.once('exit', resolve));
    holdLock(ended.pid!);
    await saveProfile(dir, 'two', { ...PROFILE, clientId: 'client-two' }, undefined, { waitMs: 200 });
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles)).toEqual(['one', 'two']);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });

  it('config.json a symlink: refused before anything is written (no credentials file), the fix quoted for the shell', async () => {
    const spaced = join(dir, 'my idm');
    mkdirSync(spaced, { mode: 0o700 });
    const victim = join(dir, 'victim.json');
    writeFileSync(victim, BEFORE, { mode: 0o644 });
    symlinkSync(victim, join(spaced, 'config.json'));
    const error = await saveProfile(spaced, 'two', { ...PROFILE, clientId: 'client-two' }, { clientSecret: 'never-written' }, { waitMs: 200 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(IdmError);
    expect((error as IdmError).exitCode).toBe(ExitCode.Usage);
    expect((error as IdmError).message).toBe(`idm will not write ${join(spaced, 'config.json')}: it is a symlink.`);
    expect(existsSync(join(spaced, 'credentials'))).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe(BEFORE);
    expect(existsSync(join(spaced, 'config.json.lock'))).toBe(false);
    expect((error as IdmError).hint).toBe(`Replace it with a regular file: mv -- '${join(spaced, 'config.json')}' '${join(spaced, 'config.json.bak')}'`);
  });

  it('a directory others can write into is refused before its lock is touched: no wait for the live lock there, exit 2', async () => {
    holdLock(holder.pid!);
    chmodSync(dir, 0o777);
    const error = await updateSettings(dir, () => undefined, { waitMs: 2_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ exitCode: ExitCode.Usage, code: 'bad_config', message: `idm will not write into ${dir}: other users can write into it (mode 777).` });
    chmodSync(dir, 0o700);
  });

  it('settings opened early (as login opens them) are checked again under the lock: a symlink planted meanwhile is refused', async () => {
    const settings = openSettings(dir);
    const victim = join(dir, '..', `victim-${process.pid}.json`);
    writeFileSync(victim, BEFORE, { mode: 0o644 });
    try {
      rmSync(join(dir, 'config.json'));
      symlinkSync(victim, join(dir, 'config.json'));
      await expect(settings.saveProfile('two', { ...PROFILE, clientId: 'client-two' }, { clientSecret: 'never-written' }, { waitMs: 200 })).rejects.toMatchObject({
        exitCode: ExitCode.Usage,
        message: `idm will not write ${join(dir, 'config.json')}: it is a symlink.`,
      });
      expect(readFileSync(victim, 'utf8')).toBe(BEFORE);
      expect(existsSync(join(dir, 'credentials'))).toBe(false);
    } finally {
      rmSync(victim, { force: true });
    }
  });
});
