// Small file primitives for the config directory: private directories, atomic writes, tolerant
// reads, and an exclusive lock file. Only node:fs (not even node:crypto: unique names need no
// strong randomness, and this module is on every command's start-up path).
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Warning } from '../api/notices.js';

/** A name part no other process or call uses at the same time (the pid makes it unique across processes). */
function unique(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** Creates `dir` (and parents) readable by the user only; an existing one is left as it is (see openToOthers). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Writes `data` to `path` so that a reader sees either the old or the new file, never half of one:
 * a temporary file beside it (mode 0600), then rename. Concurrent writers each rename a whole file.
 */
export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  ensurePrivateDir(dirname(path));
  const temp = `${path}.tmp-${process.pid}-${unique()}`;
  try {
    writeFileSync(temp, data, { mode });
    chmodSync(temp, mode); // the umask may have taken bits away; never more than asked
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // nothing to clean
    }
    throw error;
  }
}

/** The file's text, or undefined when it does not exist. Other errors (permissions) propagate. */
export function readTextIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
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
 * The one check (and wording) of a settings directory or secret file that other users can read
 * or enter: a warning with the chmod that fixes it, or undefined (also when it does not exist).
 */
export function openToOthers(path: string): Warning | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  const mode = stats.mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return stats.isDirectory()
    ? { message: `${path} is open to other users (mode ${mode.toString(8)}).`, hint: `Run: chmod 700 ${path}` }
    : { message: `${path} is readable by other users (mode ${mode.toString(8)}).`, hint: `Run: chmod 600 ${path}` };
}

// ---------------------------------------------------------------------------------------------
// Lock files: `<path>` created with O_EXCL holding `pid time nonce`. A holder that died (SIGKILL)
// is detected by its pid; a lock older than `staleMs` is broken whatever its pid says (pid reuse).

export interface LockOptions {
  /** Give up waiting after this long and return undefined (the caller proceeds without the lock). */
  waitMs: number;
  /** A lock older than this is stale even if its pid is alive. */
  staleMs: number;
  /** Checked between polls; when it returns true, stop waiting (e.g. another process did the work). */
  until?: () => boolean;
  pollMs?: number;
}

export interface Lock {
  release(): void;
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string, content: string): boolean {
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeFileSync(fd, content);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Removes the lock at `path` if it is still the stale one we read (`seen`); never a fresh one. */
function breakStaleLock(path: string, seen: string): void {
  const aside = `${path}.stale-${process.pid}-${unique()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke or released it
  }
  if (readTextIfExists(aside) !== seen) {
    // We moved a lock taken after our check: put it back unless yet another one exists.
    try {
      linkSync(aside, path);
    } catch {
      // a newer lock is there; fine
    }
  }
  removeIfExists(aside);
}

function isStale(content: string | undefined, staleMs: number): boolean {
  if (content === undefined) return false;
  const [pidText, timeText] = content.split(' ');
  const pid = Number(pidText);
  const time = Number(timeText);
  if (!Number.isFinite(time) || !processAlive(pid)) return true;
  return Date.now() - time > staleMs;
}

export async function acquireLock(path: string, options: LockOptions): Promise<Lock | undefined> {
  ensurePrivateDir(dirname(path));
  const content = `${process.pid} ${Date.now()} ${unique()}`;
  const deadline = Date.now() + options.waitMs;
  const poll = options.pollMs ?? 25;
  for (;;) {
    if (tryCreate(path, content)) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readTextIfExists(path) === content) removeIfExists(path);
      };
      // Ctrl-C ends the process from its SIGINT handler: the lock goes with it, not 30 s later.
      process.on('exit', release);
      return { release };
    }
    const holder = readTextIfExists(path);
    // An empty file is a holder between open and write; only its age can make it stale.
    if (holder !== undefined && holder !== '' && isStale(holder, options.staleMs)) {
      breakStaleLock(path, holder);
      continue;
    }
    if (holder === '' && Date.now() - mtimeMs(path) > options.staleMs) {
      breakStaleLock(path, '');
      continue;
    }
    if (options.until?.()) return undefined;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, poll + Math.floor(Math.random() * poll)));
  }
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}
