// File primitives for idm's settings directory: private directories, atomic writes that never
// follow a symlink, tolerant reads, the ownership check of a directory before idm writes into it,
// and exclusive lock files. Only node:fs (this module is on every command's start-up path).
import { accessSync, closeSync, existsSync, linkSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { foreignDirProblem, makeDirectories, uniqueName, writeFileReplacing } from '../core/dirs.js';
import { ConfigError, fsProblem, IdmError, type Warning } from '../core/errors.js';
import { processAlive, processStartTime as startTime } from '../core/process.js';
import { ExitCode } from '../core/exit-codes.js';
import { KB, MB, readFileCappedSync, readLockText, sizeText } from '../core/read.js';
import { plural, shellCommand, shellQuote } from '../core/text.js';
import { sleep } from '../core/time.js';

/**
 * Creates `dir` (and parents) readable by the user only; an existing one is left as it is. Returns
 * the directories it made (for removeMade, when what they were made for failed).
 */
export function ensurePrivateDir(dir: string): string[] {
  // One level at a time: Node 20's recursive mkdirSync never returns under /proc (see core/dirs.ts).
  return makeDirectories(dir, 0o700);
}

const uid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** The fix for a settings directory every user shares (the sticky bit, as /tmp): never a chmod or chown of it. */
const SHARED_DIR_HINT = 'Set IDM_CONFIG_DIR to a directory of your own (mktemp -d makes one): a directory every user shares, as /tmp, is to stay as it is.';

/**
 * idm writes secrets and settings only into a directory that is the user's own and that no one else
 * can write into: in a directory another user controls, a planted symlink or a swapped file would
 * take idm's writes elsewhere. Refused with the fix (exit 2).
 */
export function checkWritableDir(dir: string): void {
  const refuse = (problem: string, fix: string) => new ConfigError(`idm will not write into ${dir}: ${problem}.`, `Run: ${fix}`);
  let stats;
  try {
    stats = lstatSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    const blocker = (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? fileInTheWay(dir) : undefined;
    if (blocker === undefined) throw error;
    throw refuse(`${blocker} is a file, not a directory`, `${shellCommand(['mv', '--', blocker, `${blocker}.bak`])}, or set IDM_CONFIG_DIR to a directory (mktemp -d makes one)`);
  }
  if (!stats) return; // idm creates it, 0700
  if (stats.isSymbolicLink()) stats = statSync(dir, { throwIfNoEntry: false }) ?? stats;
  if (!stats.isDirectory()) throw refuse('it is not a directory', shellCommand(['mv', '--', dir, `${dir}.bak`]));
  // The rule the sandbox's --state-dir is held to too (core/dirs.ts); the fix names the settings' way out.
  const foreign = foreignDirProblem(dir);
  if (foreign?.shared) throw new ConfigError(`idm will not write into ${dir}: ${foreign.problem}.`, SHARED_DIR_HINT);
  if (foreign?.owner !== undefined) {
    throw refuse(foreign.problem, `sudo chown ${uid()} ${shellQuote(dir)} && chmod 700 ${shellQuote(dir)}, or use a directory of your own (IDM_CONFIG_DIR)`);
  }
  if (foreign) throw refuse(foreign.problem, `chmod 700 ${shellQuote(dir)}`);
}

/**
 * That idm can create files in `dir`, or create `dir` under its nearest existing parent: a read-only
 * directory or file system is found before anything is asked or sent (login would otherwise spend a
 * token, and a person's typing, on settings it cannot save), as the error the write would give.
 */
export function checkCanWrite(dir: string): void {
  let missing: string | undefined; // the first directory idm would create
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) {
    missing = at;
    at = dirname(at);
  }
  try {
    accessSync(at, constants.W_OK | constants.X_OK);
  } catch (error) {
    const failure = writeFailure(missing ?? join(dir, 'config.json'), error);
    const code = (error as NodeJS.ErrnoException).code;
    // Not a directory of idm's (a read-only home): idm keeps no mode there.
    if (missing !== undefined && failure instanceof ConfigError && (code === 'EACCES' || code === 'EPERM')) {
      failure.hint = `Make ${at} writable by you, or set IDM_CONFIG_DIR to a directory of your own.`;
    }
    throw failure;
  }
}

/** The fix for a directory where idm keeps a settings file (EISDIR), read or written: the command that moves it away. */
export function directoryInTheWayHint(path: string): string {
  return `Move it away (idm keeps a file there): ${shellCommand(['mv', '--', path, `${path}.bak`])}`;
}

/** A settings write (or `remove`: the removal of a secret) that the file system refused, as a clear error naming the file (exit 2). */
export function writeFailure(path: string, error: unknown, what: 'write' | 'remove' = 'write'): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  // ENOENT from a write: a directory on the way cannot be made there (IDM_CONFIG_DIR=/proc/idm).
  const problem = code === 'ENOENT' ? 'a directory on the way cannot be made there (ENOENT)' : fsProblem(error);
  if (!problem) return error;
  const hint =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'Free some disk space and run the command again.'
      : code === 'EFBIG'
        ? 'A limit on file size (ulimit -f) stopped it: raise it, or set IDM_CONFIG_DIR to a directory elsewhere.'
        : code === 'EIO'
          ? 'The device failed to write: check the disk, or set IDM_CONFIG_DIR to a directory elsewhere.'
          : code === 'EISDIR'
            ? directoryInTheWayHint(path)
            : `Make ${dirname(path)} writable by you (idm keeps it 0700), or set IDM_CONFIG_DIR to a directory of your own.`;
  return new ConfigError(`Could not ${what} ${path}: ${problem}; nothing was changed.`, hint, { cause: error });
}

/**
 * Writes `data` to `path` so that a reader sees either the old or the new file, never half of one,
 * and never through a symlink (core/dirs.ts writeFileReplacing), in its private directory.
 */
export function writeFileAtomic(path: string, data: string, mode = 0o600, durable = false): void {
  ensurePrivateDir(dirname(path));
  writeFileReplacing(path, data, mode, durable);
}

/**
 * The most idm reads of one of its settings files (config.json, a credentials file, a cached token,
 * a recent listing, a lock), far above any it writes (a profile takes a few hundred bytes, a private
 * key at most 64 KB): a larger one is not idm's, and is never read (a planted /dev/zero included).
 */
export const SETTINGS_LIMIT = 4 * MB;

/** The `code` of the error when a settings file holds more than SETTINGS_LIMIT (see tooLargeWhy). */
export const TOO_LARGE = 'EFBIG';

/** What is wrong with a settings file over the limit, as messages say it. */
export const tooLargeWhy = `it holds more than ${sizeText(SETTINGS_LIMIT)}, the most idm reads of a settings file`;

/**
 * The file's text, or undefined when it does not exist. Over SETTINGS_LIMIT is an error with the code
 * TOO_LARGE; other errors (permissions) propagate.
 */
export function readTextIfExists(path: string): string | undefined {
  let bytes: Buffer | undefined;
  try {
    bytes = readFileCappedSync(path, SETTINGS_LIMIT);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (bytes === undefined) throw Object.assign(new Error(`${path}: ${tooLargeWhy}.`), { code: TOO_LARGE });
  return bytes.toString('utf8');
}

export function removeIfExists(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * What is in the way when a path inside the settings directory cannot be opened with ENOTDIR: the
 * nearest ancestor that exists and is not a directory (`IDM_CONFIG_DIR=$(mktemp)`, a file), if any.
 */
export function fileInTheWay(path: string): string | undefined {
  for (let at = dirname(path); at !== dirname(at); at = dirname(at)) {
    let stats;
    try {
      stats = statSync(at, { throwIfNoEntry: false });
    } catch {
      continue; // ENOTDIR: what is in the way is further up
    }
    if (stats && !stats.isDirectory()) return at;
  }
  return undefined;
}

/** Whether `path` is a symlink (a settings file never is: idm writes regular files only). */
export function isSymlink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}

/**
 * The one check (and wording) of a settings directory or secret file that other users can read
 * or enter, or that belongs to someone else: a warning with the fix, or undefined.
 */
export function openToOthers(path: string): Warning | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return undefined;
  const me = uid();
  if (me !== undefined && stats.uid !== me) return { message: `${path} belongs to another user (uid ${stats.uid}).`, hint: 'idm reads it but will not write into it; use a directory of your own (IDM_CONFIG_DIR).' };
  const mode = stats.mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  // A directory every user shares (the sticky bit, as /tmp) is not to be chmod-ed: another one is the fix.
  if (stats.isDirectory() && (stats.mode & 0o1000) !== 0) return { message: `${path} is open to other users (mode ${(stats.mode & 0o7777).toString(8)}).`, hint: SHARED_DIR_HINT };
  return stats.isDirectory()
    ? { message: `${path} is open to other users (mode ${mode.toString(8)}).`, hint: `Run: chmod 700 ${shellQuote(path)}` }
    : { message: `${path} is readable by other users (mode ${mode.toString(8)}).`, hint: `Run: chmod 600 ${shellQuote(path)}` };
}

// ---------------------------------------------------------------------------------------------
// Lock files: `<path>` created exclusively, holding `pid start nonce time host`. On this host, the
// holder's start time (from /proc) tells a live holder from a dead one whose pid was reused; where
// /proc is missing, a lock older than `staleMs` is broken whatever its pid says. A lock made on
// another host (a shared home directory) cannot be checked from here: it is live until it is older
// than `staleMs` (the longest its holder may keep it). A stale lock is broken under a guard, so
// that a live lock is never removed (breakStaleLock).

export interface LockOptions {
  /** Give up after this long: the caller decides (fail, or go on without the lock). */
  waitMs: number;
  /** Without /proc, or made on another host: a lock older than this is stale even if its holder may live. */
  staleMs: number;
  /** Checked between polls; when it returns true, stop waiting (another process did the work). */
  until?: () => boolean;
  /** A stop (Ctrl-C) ends the wait. */
  signal?: AbortSignal;
  pollMs?: number;
  /** Tests: called between the steps of breaking a stale lock, to interleave other processes there. */
  step?: (step: BreakStep) => void;
  /** Called once when the lock is still held by another after `noticeMs` (default WAIT_NOTICE_MS): who holds it. */
  onWait?: (holder: LockHolder) => void;
  noticeMs?: number;
}

/** Who holds a lock, as its file says: `host` only when it was made on another host than this one. */
export interface LockHolder {
  pid?: number;
  host?: string;
}

/** A lock is held for milliseconds: one still held after this long is said to be waited for. */
export const WAIT_NOTICE_MS = 1_000;

/** Judged stale; guard taken and the lock still the stale one; moved aside, not yet checked. */
export type BreakStep = 'stale' | 'guarded' | 'moved';

export interface Lock {
  release(): void;
}

/** The lock could not be had in time: who holds it. */
export interface LockHeld {
  held: true;
  holderPid?: number;
}

let ownStart: string | undefined | null = null;
let ownHost: string | undefined;
/** This machine's name as a lock records it (one word). */
const hostName = () => (ownHost ??= process.getBuiltinModule('node:os').hostname().replace(/\s/g, '_') || '-');

interface Holder {
  pid: number;
  start: string;
  time: number;
  /** Undefined in a lock written before locks named their host: this host. */
  host?: string;
}

/** The holder a lock names; undefined when the text is not a lock idm writes (torn, or garbage). */
function parseHolder(content: string): Holder | undefined {
  const [pid, start, , time, host] = content.trim().split(' ');
  // Fields that are not numbers would make every age NaN, and the lock live for ever.
  if (pid === undefined || start === undefined || time === undefined || !/^\d{1,10}$/.test(pid) || !/^\d{1,16}$/.test(time)) return undefined;
  return { pid: Number(pid), start, time: Number(time), host };
}

/** An empty or torn lock (a holder between create and write, or garbage) is stale after this long. */
const TORN_LOCK_MS = 2_000;

function isStale(holder: Holder | undefined, ageMs: number, staleMs: number): boolean {
  if (!holder) return ageMs > TORN_LOCK_MS;
  // Another host's pid means nothing here: old by both its clock and the file's, or live.
  if (holder.host !== undefined && holder.host !== hostName()) return Math.min(Date.now() - holder.time, ageMs) > staleMs;
  if (!processAlive(holder.pid)) return true;
  const start = startTime(holder.pid);
  if (start !== undefined && holder.start !== '-') return start !== holder.start; // a reused pid
  return Date.now() - holder.time > staleMs;
}

/** Creates the lock file with our content; false when it exists. A failed write leaves no file. */
function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
    closeSync(fd);
  } catch (error) {
    // A full disk: an empty lock would block everyone after us.
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    removeIfExists(path);
    throw error;
  }
  return true;
}

/** A lock file as read: its text, and which file it is (a new file at the same path differs in inode or time). */
interface LockFile {
  text: string;
  id: string;
  ageMs: number;
}

/** A lock holds one line of about 80 bytes: a longer file is read no further, as a torn lock (text ''). */
const LOCK_LIMIT = 4 * KB;

/** The lock file at `path` (core/read.ts readLockText: never through a symlink, torn past LOCK_LIMIT). */
function readLockFile(path: string): LockFile | undefined {
  const lock = readLockText(path, LOCK_LIMIT);
  return lock && { text: lock.text, id: `${lock.ino}:${lock.mtimeMs}`, ageMs: Date.now() - lock.mtimeMs };
}

/** Whether the lock (or guard) at `path` is still the one written with `content`. */
const stillOurs = (path: string, content: string) => readLockFile(path)?.text === content;

const sameLock = (a: LockFile | undefined, b: LockFile) => a !== undefined && a.id === b.id && a.text === b.text;

/** Whether the lock file read is stale (`staleMs` as in LockOptions). */
const staleFile = (file: LockFile, staleMs: number) => isStale(file.text === '' ? undefined : parseHolder(file.text), file.ageMs, staleMs);

/** A breaker holds the guard for a few file operations; one that died there left it (its pid tells). */
const GUARD_STALE_MS = 10_000;

/**
 * Removes the lock at `path` if it is still the stale one read (`seen`); never a live one. One
 * breaker at a time, under the guard `<path>.break` (`content` is ours): under it, the lock is read
 * again (another breaker may have removed the stale one and a live process taken the lock since),
 * then moved aside, which is atomic, and checked. Only the stale lock is deleted; anything else moved
 * is put back and, if a lock was taken meanwhile, left aside rather than deleted. Returns false when
 * another breaker holds the guard: try again after a poll.
 */
function breakStaleLock(path: string, seen: LockFile, content: string, step?: (step: BreakStep) => void): boolean {
  const guard = `${path}.break`;
  if (!tryCreate(guard, content)) {
    // Another breaker is at work (wait a poll); or one died there, and its guard is stale in turn.
    const other = readLockFile(guard);
    if (other === undefined) return true;
    if (!staleFile(other, GUARD_STALE_MS)) return false;
    removeIfStill(guard, other);
    return true;
  }
  try {
    if (!sameLock(readLockFile(path), seen)) return true; // broken by another, maybe taken again: not ours to touch
    step?.('guarded');
    removeIfStill(path, seen, step);
    return true;
  } finally {
    if (stillOurs(guard, content)) removeIfExists(guard);
  }
}

/** Deletes the file at `path` if it is `seen`: moved aside first (atomic), checked, else put back. */
function removeIfStill(path: string, seen: LockFile, step?: (step: BreakStep) => void): void {
  const aside = `${path}.stale-${uniqueName()}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // gone already
    throw error; // a directory that cannot be changed: the caller's error, not a loop
  }
  step?.('moved');
  if (sameLock(readLockFile(aside), seen)) {
    removeIfExists(aside);
    return;
  }
  try {
    linkSync(aside, path);
    removeIfExists(aside);
  } catch {
    // Yet another lock is at `path` now: the one moved stays aside, never deleted (its holder still
    // owns it, and will not remove the other one: a release removes only its own content).
  }
}

/** Takes the lock, or says who holds it after `waitMs` (or when `until` says the wait is over). */
export async function acquireLock(path: string, options: LockOptions): Promise<Lock | LockHeld> {
  if (ownStart === null) ownStart = startTime('self');
  ensurePrivateDir(dirname(path));
  const content = `${process.pid} ${ownStart ?? '-'} ${uniqueName()} ${Date.now()} ${hostName()}\n`;
  const deadline = Date.now() + options.waitMs;
  let noticeAt: number | undefined = Date.now() + (options.noticeMs ?? WAIT_NOTICE_MS);
  const poll = options.pollMs ?? 20;
  for (let tries = 0; ; tries++) {
    if (tryCreate(path, content)) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (stillOurs(path, content)) removeIfExists(path);
        } catch {
          // the directory went away or became unreadable: nothing of ours is left to remove
        }
      };
      // However the process ends (an uncaught error, a second Ctrl-C), the lock goes with it.
      process.on('exit', release);
      return { release };
    }
    const seen = readLockFile(path);
    if (seen !== undefined && staleFile(seen, options.staleMs)) {
      options.step?.('stale');
      if (breakStaleLock(path, seen, content, options.step)) continue;
    }
    if (options.until?.() || Date.now() >= deadline) return { held: true, holderPid: seen ? parseHolder(seen.text)?.pid : undefined };
    if (options.onWait && noticeAt !== undefined && Date.now() >= noticeAt) {
      noticeAt = undefined;
      const holder = seen ? parseHolder(seen.text) : undefined;
      options.onWait({ pid: holder?.pid, ...(holder?.host !== undefined && holder.host !== hostName() ? { host: holder.host } : {}) });
    }
    // Polls spread out as the wait grows, so that a hundred waiters do not spin on one file.
    await sleep(Math.min(200, poll * (1 + tries / 10)) * (0.5 + Math.random()), options.signal);
  }
}

/**
 * What a run waiting for a lock says once the wait lasts (LockOptions.onWait): whose lock, and what to
 * do if it never ends. `staleMs`: the lock's (LockOptions.staleMs).
 */
export function waitingFor(lock: string, holder: LockHolder, staleMs: number): string {
  if (holder.pid === undefined) return `Waiting for another idm, which holds ${lock}…`;
  // Another host's process cannot be seen from here, nor killed: a lock left there is stale once that old.
  const old = staleMs === 60_000 ? 'a minute' : staleMs % 60_000 === 0 ? plural(staleMs / 60_000, 'minute') : plural(Math.ceil(staleMs / 1000), 'second');
  if (holder.host !== undefined) return `Waiting for idm process ${holder.pid} on ${holder.host}, which holds ${lock}… (if no idm runs there, it is broken once ${old} old, or now: ${shellCommand(['rm', '--', lock])})`;
  return `Waiting for idm process ${holder.pid}, which holds ${lock}… (if it hangs: kill ${holder.pid})`;
}

export function isLock(lock: Lock | LockHeld): lock is Lock {
  return !('held' in lock);
}

/** What a command had done before it needed a lock it could not have, and what is left to do then. */
export interface DoneBeforeLock {
  /** `the secret was removed, ...` */
  done: string;
  /** Instead of running the command again (which would not do the rest: the profile is gone). */
  hint?: string;
}

/**
 * The error when a lock could not be had in time: nothing was written, or `before` says what the
 * command had already done before it needed the lock.
 */
export function lockTimeout(what: string, path: string, holder: LockHeld, before?: DoneBeforeLock): IdmError {
  const by = holder.holderPid === undefined ? 'another idm process' : `idm process ${holder.holderPid}`;
  return new IdmError(`Could not ${what}: ${path} is locked by ${by}; ${before?.done ?? 'nothing was written'}.`, {
    exitCode: ExitCode.Failure,
    code: 'locked',
    hint: before?.hint ?? `Run the command again when that process has finished${holder.holderPid === undefined ? '' : ` (or, if it hangs: kill ${holder.holderPid})`}.`,
  });
}
