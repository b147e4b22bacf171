// The one writer of idm's settings: config.json (as conf wrote it: tab-indented JSON) and the
// profiles' credentials files. Not with conf: its writer (atomically) makes one write() and renames
// what it wrote, so a disk that filled up or ulimit -f cut config.json short, every profile lost.
// Every write happens while holding config.json.lock, after re-reading the file inside the lock,
// so that parallel logins lose no profile. When the lock cannot be had in time the command fails
// naming the holder, and nothing is written: never a write without the lock.
import { existsSync, lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { removeMade, temporaryFileTarget } from '../core/dirs.js';
import { ConfigError } from '../core/errors.js';
import { shellCommand } from '../core/text.js';
import { acquireLock, type LockHolder, checkCanWrite, checkWritableDir, ensurePrivateDir, isLock, isSymlink, lockTimeout, readTextIfExists, removeIfExists, waitingFor, writeFailure, writeFileAtomic } from './files.js';
import { configFile, credentialsDir, credentialsFile } from './paths.js';
import { readProfiles, type Profile, type ProfileStore, type StoredSecret } from './profiles.js';

/** Long enough for a hundred parallel logins on a busy machine; each holds the lock for milliseconds. */
const LOCK_WAIT_MS = 120_000;
/** A lock made on another host (a shared home directory), or where /proc is missing, is stale after this long. */
const LOCK_STALE_MS = 60_000;

export interface SettingsChange {
  /** The profiles as they are now (re-read inside the lock): change them in place. */
  store: ProfileStore;
  setSecret(profile: string, secret: StoredSecret): void;
  removeSecret(profile: string): void;
}

export interface UpdateOptions {
  signal?: AbortSignal;
  /** Tests shorten the wait. */
  waitMs?: number;
  /** Where to say, once a wait for another idm's lock has lasted a moment, whose it is (stderr: output.note). */
  note?: (text: string) => void;
}

/**
 * Refuses settings that idm must not write (exit 2, with the fix): a directory, or its credentials/
 * directory, that is not the user's own or that others can write into (./files.ts checkWritableDir),
 * and a config.json that is a symlink (not a file of idm's).
 */
export function checkSettingsWritable(dir: string): void {
  checkWritableDir(dir);
  checkWritableDir(credentialsDir(dir)); // the secrets go there: the same rules, through a symlink too
  checkCanWrite(dir);
  if (existsSync(credentialsDir(dir))) checkCanWrite(credentialsDir(dir));
  const file = configFile(dir);
  if (isSymlink(file)) throw new ConfigError(`idm will not write ${file}: it is a symlink.`, `Replace it with a regular file: ${shellCommand(['mv', '--', file, `${file}.bak`])}`);
}

/**
 * Refuses (exit 2, with the fix) to save profile `name` when a directory is in the place of its
 * credentials file (a careless mkdir -p, a restore): the secret could not replace it. Login checks it
 * before anything is asked or sent, as the save would fail after the token was had.
 */
export function checkProfileWritable(dir: string, name: string): void {
  const file = credentialsFile(dir, name);
  try {
    if (!lstatSync(file).isDirectory()) return;
  } catch {
    return; // none yet (or not to be seen from here: the save says why)
  }
  throw writeFailure(file, Object.assign(new Error(`EISDIR: illegal operation on a directory, ${file}`), { code: 'EISDIR' }));
}

export interface Settings {
  /** Applies `change` to the settings under the lock; returns what `change` returned. */
  update<T>(change: (settings: SettingsChange) => T, options?: UpdateOptions): Promise<T>;
  /** Saves a profile and its secret; the first profile saved becomes the default. */
  saveProfile(name: string, profile: Profile, secret: StoredSecret | undefined, options?: UpdateOptions): Promise<{ isDefault: boolean }>;
}

/**
 * The settings of `dir`, opened for a change: checked (checkSettingsWritable) now, before anything
 * is written there (the lock file is the first write), and again under the lock, just before the
 * change is made. Login opens them before it asks for anything or sends the secret.
 */
export function openSettings(dir: string): Settings {
  checkSettingsWritable(dir);
  const update = <T>(change: (settings: SettingsChange) => T, options: UpdateOptions = {}) => underLock(dir, change, options);
  return {
    update,
    saveProfile: (name, profile, secret, options) =>
      update(({ store, setSecret, removeSecret }) => {
        store.profiles[name] = profile;
        if (secret) setSecret(name, secret);
        else removeSecret(name);
        if (!store.defaultProfile || !store.profiles[store.defaultProfile]) store.defaultProfile = name;
        return { isDefault: store.defaultProfile === name };
      }, options),
  };
}

/** openSettings(dir).update: one change. */
export async function updateSettings<T>(dir: string, change: (settings: SettingsChange) => T, options: UpdateOptions = {}): Promise<T> {
  return openSettings(dir).update(change, options);
}

/** openSettings(dir).saveProfile: one profile saved. */
export async function saveProfile(dir: string, name: string, profile: Profile, secret: StoredSecret | undefined, options?: UpdateOptions): Promise<{ isDefault: boolean }> {
  return openSettings(dir).saveProfile(name, profile, secret, options);
}

/**
 * The temporary files of settings writes that an idm killed during them left (kill -9, a crash): a
 * copy of a secret among them, which logout would never remove. Under the lock no other run writes
 * there, so each one is a leftover: writeFileReplacing's `<file>.tmp-<pid>-<unique>`, and those of
 * conf, which wrote config.json before (`config.json.tmp-<10 digits><6 hex>`).
 */
function removeLeftovers(dir: string): void {
  for (const at of [dir, credentialsDir(dir)]) {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      continue; // not made yet
    }
    for (const name of names) {
      if (!(temporaryFileTarget(name)?.endsWith('.json') || CONF_LEFTOVER.test(name))) continue;
      try {
        unlinkSync(join(at, name));
      } catch {
        // gone meanwhile, or not a file: left
      }
    }
  }
}

/** A temporary file of conf's, which wrote config.json before. */
const CONF_LEFTOVER = /\.json\.tmp-\d{10}[0-9a-f]{6}$/;

/** A credentials file's text before a change; null when it cannot be read (over the limit, a directory): the change replaces it all the same. */
function textBefore(path: string): string | undefined | null {
  try {
    return readTextIfExists(path);
  } catch {
    return null;
  }
}

/**
 * After a failed change: each credentials file it wrote or removed, as it was before; one that cannot
 * be written back (the disk is full) is removed. Returns those removed.
 */
function putBack(before: ReadonlyMap<string, string | undefined | null>): string[] {
  const removed: string[] = [];
  for (const [path, text] of before) {
    try {
      if (typeof text !== 'string') removeIfExists(path); // none before, or none that could be read
      else writeFileAtomic(path, text);
    } catch {
      try {
        removeIfExists(path);
      } catch {
        // a directory that cannot be changed: the write failed before it changed anything there
      }
      if (typeof text === 'string') removed.push(path);
    }
  }
  return removed;
}

/** The change, made holding the lock, on the settings as they are then (checked once more). */
async function underLock<T>(dir: string, change: (settings: SettingsChange) => T, options: UpdateOptions): Promise<T> {
  const file = configFile(dir);
  let lock;
  // The directories made for the lock: a change that fails (`profiles use nope` with no settings)
  // leaves none behind, as it found none. A command that fails, or only reads, creates no settings.
  let made: string[] = [];
  let changed = false;
  try {
    made = ensurePrivateDir(dir);
    const note = options.note;
    lock = await acquireLock(`${file}.lock`, { waitMs: options.waitMs ?? LOCK_WAIT_MS, staleMs: LOCK_STALE_MS, signal: options.signal, ...(note ? { onWait: (holder: LockHolder) => note(waitingFor(`${file}.lock`, holder, LOCK_STALE_MS)) } : {}) });
  } catch (error) {
    throw writeFailure(`${file}.lock`, error);
  }
  if (!isLock(lock)) throw lockTimeout('save the settings', file, lock);
  let writing = file;
  /** `writing` is being removed (a logout, a profile removed), not written. */
  let removing = false;
  /** The credentials files this change wrote or removed, with their text before (undefined: none; null: not readable). */
  const before = new Map<string, string | undefined | null>();
  try {
    checkSettingsWritable(dir); // again inside the lock: everything is checked before anything is written
    removeLeftovers(dir);
    const store = readProfiles(dir);
    const secrets = new Map<string, StoredSecret | undefined>();
    const result = change({ store, setSecret: (name, secret) => secrets.set(name, secret), removeSecret: (name) => secrets.set(name, undefined) });
    for (const [name, secret] of secrets) {
      writing = credentialsFile(dir, name);
      removing = secret === undefined;
      before.set(writing, textBefore(writing));
      if (secret === undefined) removeIfExists(writing);
      // On the disk before config.json names its profile, with the client it is for (StoredSecret.clientId).
      else writeFileAtomic(writing, `${JSON.stringify({ ...secret, ...(store.profiles[name] ? { clientId: store.profiles[name].clientId } : {}) })}\n`, 0o600, true);
    }
    writing = file;
    removing = false;
    changed = true;
    const settings = { ...store.others, ...(store.defaultProfile === undefined ? {} : { defaultProfile: store.defaultProfile }), profiles: { ...store.profiles } };
    writeFileAtomic(file, JSON.stringify(settings, undefined, '\t'), 0o600, true);
    return result;
  } catch (error) {
    const failure = writeFailure(writing, error, removing ? 'remove' : 'write');
    // A secret must not stay beside a profile it does not belong to (a new client's secret with the
    // old client id and domain, sent there): the credentials go back as they were, else away.
    const removed = putBack(before);
    if (removed.length > 0 && failure instanceof ConfigError) {
      failure.message = failure.message.replace(/nothing was changed\.$/, `${removed.map((path) => basename(path)).join(', ')} could not be put back as ${removed.length === 1 ? 'it was and was' : 'they were and were'} removed.`);
    }
    throw failure;
  } finally {
    lock.release();
    if (!changed) removeMade(made); // each only while empty: what another run wrote there stays
  }
}

