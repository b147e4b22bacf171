// makeDirectories while another process makes the same directories (parallel first runs of idm on
// a fresh settings directory): a level that appears between its two tries is a directory there
// already, as `mkdir -p` (and Node's recursive mkdirSync) take it, not an EEXIST failure.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { makeDirectories } from '../../src/core/dirs.js';

const race = vi.hoisted(() => ({ path: undefined as string | undefined, calls: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const mkdirSync = ((path: string, options: { mode?: number }) => {
    // The second try of the raced level: another process makes it just before.
    if (path === race.path && ++race.calls === 2) fs.mkdirSync(path, options);
    return fs.mkdirSync(path, options);
  }) as typeof fs.mkdirSync;
  return { ...fs, default: { ...fs, mkdirSync }, mkdirSync };
});

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

it('a level another process makes between its two tries is taken as there already, and not counted as made', () => {
  const base = mkdtempSync(join(tmpdir(), 'idm-dirs-race-'));
  roots.push(base);
  const target = join(base, 'idm', 'tokens');
  race.path = target;
  race.calls = 0;
  expect(makeDirectories(target, 0o700)).toEqual([join(base, 'idm')]);
  expect(race.calls).toBe(2);
  expect(existsSync(target)).toBe(true);
});
