// Making a directory and its missing parents, one level at a time. Node 20's
// mkdirSync(path, { recursive: true }) never returns for a path that cannot be made although its
// parent exists (/proc/x: ENOENT, the parent is there, so it tries again, forever); here that ENOENT
// is thrown. Also: whether a directory is one only its user can write into, and a write that never
// follows a symlink. Only node:fs, node:path and ./text.js (the fixes quote a path for the shell).
import { chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { shellQuote } from './text.js';

/**
 * `mkdir -p` with `mode` for each directory made, whatever the umask: an existing directory is left as it is, a file in
 * the way is its EEXIST (or ENOTDIR below it), and a level that cannot be made throws its error.
 * Returns the directories it made, the outermost first, so that a caller that fails after can remove
 * them again (removeMade); when it fails itself, it removes those it made before throwing.
 */
export function makeDirectories(dir: string, mode: number): string[] {
  const made: string[] = [];
  // One level: made (and counted), or a directory there already (another idm run may have made it
  // a moment ago, also between the two tries below), or its error.
  const makeOne = (path: string): void => {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(path, { throwIfNoEntry: false })?.isDirectory()) return;
      throw error;
    }
    made.push(path);
    // mkdir takes the umask off the mode: under `umask 177` (files 0600, as scripts set it before they
    // write secrets) a directory made 0700 was 0600, which its own user cannot enter.
    try {
      chmodSync(path, mode);
    } catch {
      // a file system without modes (vfat refuses a chmod): the directory is as it keeps them
    }
  };
  const make = (path: string): void => {
    try {
      makeOne(path);
    } catch (error) {
      const parent = dirname(path);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === path) throw error;
      make(parent);
      // The parent is there now: a second ENOENT is thrown, not tried again.
      makeOne(path);
    }
  };
  try {
    make(resolve(dir));
  } catch (error) {
    removeMade(made);
    throw error;
  }
  return made;
}

/** Removes the directories makeDirectories made, the innermost first, each only while it is empty. */
export function removeMade(made: readonly string[]): void {
  for (const path of [...made].reverse()) {
    try {
      rmdirSync(path);
    } catch {
      return; // something was put in it: it stays, and so do its parents
    }
  }
}

/**
 * What makes `dir` unsafe to write secrets into, in words with the fix (a hint), or undefined: it belongs to
 * another user, or others can write into it (a planted symlink or swapped file would take the
 * writes elsewhere). Where there are no user ids (Windows), only the mode is checked. `owner`: set
 * when the directory is another user's. `shared`: a directory every user is meant to write into (the
 * sticky bit, as /tmp): its fix is another directory, never a chmod or chown of it, which would
 * break every other user of the machine.
 */
export function foreignDirProblem(dir: string): { problem: string; fix: string; owner?: number; shared?: true } | undefined {
  const stats = statSync(dir, { throwIfNoEntry: false });
  if (!stats?.isDirectory()) return undefined; // the caller's own check says what is in the way
  const me = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const shared = (stats.mode & 0o1000) !== 0 ? ({ shared: true, fix: SHARED_DIR_FIX } as const) : undefined;
  if (me !== undefined && stats.uid !== me) return { problem: `it belongs to another user (uid ${stats.uid})`, fix: 'Use a directory of your own.', owner: stats.uid, ...shared };
  if ((stats.mode & 0o022) !== 0) return { problem: `other users can write into it (mode ${(stats.mode & 0o7777).toString(8)})`, fix: `Run: chmod 700 ${shellQuote(dir)}, or use a directory of your own.`, ...shared };
  return undefined;
}

const SHARED_DIR_FIX = 'Use a directory of your own (mktemp -d makes one): a directory every user shares, as /tmp, is to stay as it is.';

/** A name part no other process or call uses at the same time: `<pid>-<time><random>`. */
export function uniqueName(): string {
  return `${process.pid}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** Between a file's name and uniqueName() in the name of the temporary file writeFileReplacing writes it through. */
const TEMPORARY = '.tmp-';
const TEMPORARY_NAME = /^(.*)\.tmp-\d+-[0-9a-z]+$/;

/**
 * The name of the file that `name` (a name in a directory) was to replace, when `name` is one of
 * writeFileReplacing's temporary files (`<file>.tmp-<pid>-<unique>`), else undefined. A write killed
 * between its write and its rename (kill -9, a crash) leaves one, which no one else removes.
 */
export function temporaryFileTarget(name: string): string | undefined {
  return TEMPORARY_NAME.exec(name)?.[1];
}

/**
 * Writes `data` to `path` without ever writing through a symlink: a new file beside it, created
 * exclusively (O_EXCL, O_NOFOLLOW) with `mode`, then renamed over `path` (a rename replaces a symlink
 * there rather than writing where it points). A reader sees the old file or the new one, whole: a
 * write the file system cuts short (a disk that fills up, ulimit -f) is written on until it fails
 * with its error (ENOSPC, EFBIG), and the file is never renamed into place half written. `durable`:
 * on the disk (fsync) before the rename, so that a crash of the machine cannot leave an empty file.
 */
export function writeFileReplacing(path: string, data: string, mode = 0o600, durable = false): void {
  const temp = `${path}${TEMPORARY}${uniqueName()}`;
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
    const bytes = Buffer.from(data, 'utf8');
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // nothing to clean
    }
    throw error;
  }
}
