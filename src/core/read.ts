// Reads that stop at a limit, for every part of idm: its inputs (../io/input.ts), its settings files
// (../config/files.ts) and the sandbox's state. A regular file over the limit is refused before it is
// read; anything else (/dev/zero, a device, a FIFO) is read no further than the limit. Only node:fs,
// which every command has loaded already.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';

export const KB = 1024;
export const MB = 1024 * KB;

/** 1 MB, 64 KB (powers of 1024, as the README's "8 MB" answers). */
export function sizeText(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${Math.ceil(bytes / KB)} KB`;
}

/**
 * Opens `path` to be read without ever waiting: not for a FIFO's writer, not for a terminal's
 * carrier, and never becoming the process's controlling terminal. `noFollow`: a symlink at `path`
 * is an ELOOP error rather than followed.
 */
export function openToRead(path: string, options: { noFollow?: boolean } = {}): number {
  return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (options.noFollow ? constants.O_NOFOLLOW : 0));
}

/**
 * The bytes of `fd` (opened by openToRead), or undefined when it holds more than `limit`: a regular
 * file is measured first, anything else read no further than the limit. Synchronous: a FIFO or a
 * terminal with nothing to send yet is an EAGAIN error, never a wait (../io/input.ts waits for them
 * on the event loop instead).
 */
export function readCappedSync(fd: number, limit: number): Buffer | undefined {
  const stats = fstatSync(fd);
  if (stats.isFile() && stats.size > limit) return undefined;
  const chunks: Buffer[] = [];
  let length = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(limit + 1 - length, 64 * KB));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) return Buffer.concat(chunks, length);
    chunks.push(chunk.subarray(0, read));
    length += read;
    if (length > limit) return undefined;
  }
}

/** The bytes of the file at `path` (readCappedSync), undefined when over `limit`; an error to open or read it is thrown. */
export function readFileCappedSync(path: string, limit: number): Buffer | undefined {
  const fd = openToRead(path);
  try {
    return readCappedSync(fd, limit);
  } finally {
    closeSync(fd);
  }
}

/** A lock file as read by readLockText: its text ('' when torn, over the limit, or a symlink) and its identity. */
export interface LockText {
  text: string;
  size: number;
  ino: number;
  mtimeMs: number;
}

/**
 * The lock file at `path`, or undefined when there is none, never read through a symlink: idm
 * writes none, so one there (dangling, or to any file) is a torn lock (text ''), judged by its own
 * time; followed, a dangling one could never be taken over. Over `limit` bytes: torn too.
 */
export function readLockText(path: string, limit: number): LockText | undefined {
  let fd: number;
  try {
    fd = openToRead(path, { noFollow: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    const link = code === 'ELOOP' ? lstatSync(path, { throwIfNoEntry: false }) : undefined;
    if (link?.isSymbolicLink()) return { text: '', size: link.size, ino: link.ino, mtimeMs: link.mtimeMs };
    if (code === 'ELOOP' && !link) return undefined; // removed meanwhile
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    return { text: readCappedSync(fd, limit)?.toString('utf8') ?? '', size: stats.size, ino: stats.ino, mtimeMs: stats.mtimeMs };
  } finally {
    closeSync(fd);
  }
}
