// makeDirectories: `mkdir -p` one level at a time, returning what it made (for a failed start to
// remove again), and throwing where Node 20's recursive mkdirSync never returns (/proc).
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDirectories, removeMade } from '../../src/core/dirs.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));
const root = () => {
  const dir = mkdtempSync(join(tmpdir(), 'idm-dirs-'));
  roots.push(dir);
  return dir;
};

describe('makeDirectories', () => {
  it('makes the missing levels with the mode and returns them, the outermost first; an existing directory is left as it is', () => {
    const base = root();
    const made = makeDirectories(join(base, 'a', 'b', 'c'), 0o700);
    expect(made).toEqual([join(base, 'a'), join(base, 'a', 'b'), join(base, 'a', 'b', 'c')]);
    expect(statSync(join(base, 'a', 'b', 'c')).mode & 0o777).toBe(0o700);
    expect(makeDirectories(join(base, 'a', 'b', 'c'), 0o700)).toEqual([]);
    expect(makeDirectories(base, 0o700)).toEqual([]);
  });

  it('a file in the way: EEXIST at it, ENOTDIR below it', () => {
    const base = root();
    writeFileSync(join(base, 'file'), 'x');
    expect(() => makeDirectories(join(base, 'file'), 0o700)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => makeDirectories(join(base, 'file', 'below'), 0o700)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it('a level that cannot be made below one it made: that one is removed again before the error', () => {
    const base = root();
    // `new` is made, then a name longer than any file system takes is not.
    expect(() => makeDirectories(join(base, 'new', 'n'.repeat(300), 'x'), 0o700)).toThrow(expect.objectContaining({ code: 'ENAMETOOLONG' }));
    expect(existsSync(join(base, 'new'))).toBe(false);
  });

  it.skipIf(!existsSync('/proc/self'))('a directory that cannot be made under /proc: ENOENT at once (Node 20\'s recursive mkdir never returns)', () => {
    expect(() => makeDirectories('/proc/idm-no-such-directory', 0o700)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => makeDirectories('/proc/idm-no-such-directory/below', 0o700)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('removeMade removes the levels made while they are empty, innermost first, and stops at one that holds something', () => {
    const base = root();
    const made = makeDirectories(join(base, 'kept', 'inner'), 0o700);
    writeFileSync(join(base, 'kept', 'content'), 'x');
    removeMade(made);
    expect([existsSync(join(base, 'kept', 'inner')), existsSync(join(base, 'kept', 'content'))]).toEqual([false, true]);
    removeMade(makeDirectories(join(base, 'gone', 'inner'), 0o700));
    expect(existsSync(join(base, 'gone'))).toBe(false);
  });
});
