// Breaking a stale lock (src/config/files.ts): a live lock is never removed, whatever another process
// does between the steps of the break. The other processes are simulated at each step (the `step`
// seam of acquireLock), so every interleaving is tested as it is, not left to timing. A lock made on
// another host is live until it is older than staleMs.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, isLock, type BreakStep, type Lock, type LockHeld } from '../../src/config/files.js';
import { tempConfigDir } from '../helpers/cli.js';

const HOUR = 3_600_000;

/** A process's start time as a lock records it (or `-` without /proc). */
function startOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '-';
  } catch {
    return '-';
  }
}

/** A lock of a live holder on this host (this test process) with its own nonce. */
const live = (nonce: string) => `${process.pid} ${startOf(process.pid)} ${nonce} ${Date.now()} ${hostname().replace(/\s/g, '_')}\n`;

let deadPid: number;
beforeAll(async () => {
  const ended = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => ended.once('exit', resolve));
  deadPid = ended.pid!;
});
/** A lock whose holder has ended (on this host). */
const dead = () => `${deadPid} 1 dead-nonce ${Date.now()} ${hostname().replace(/\s/g, '_')}\n`;

let dir: string;
let cleanup: () => void;
let path: string;
beforeEach(() => {
  ({ dir, cleanup } = tempConfigDir());
  path = join(dir, 'x.lock');
});
afterEach(() => cleanup());

/** acquireLock with `at` run (once) when the break reaches that step. */
async function acquireWith(at: Partial<Record<BreakStep, () => void>>, waitMs = 300): Promise<Lock | LockHeld> {
  const done = new Set<BreakStep>();
  return acquireLock(path, {
    waitMs,
    staleMs: HOUR,
    pollMs: 10,
    step: (step) => {
      if (done.has(step)) return;
      done.add(step);
      at[step]?.();
    },
  });
}

/** What the directory holds: each file's content by name (a guard or an aside copy shows up here). */
const files = () => Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));

describe('breaking a stale lock never removes a live one', () => {
  it('another process breaks the stale lock and takes the lock after this one judged it stale: its lock stays', async () => {
    writeFileSync(path, dead());
    const taken = live('taken-meanwhile');
    const result = await acquireWith({
      stale: () => {
        unlinkSync(path);
        writeFileSync(path, taken, { flag: 'wx' });
      },
    });
    expect(isLock(result)).toBe(false);
    expect(result).toEqual({ held: true, holderPid: process.pid });
    expect(files()).toEqual({ 'x.lock': taken });
  });

  it('the lock changes hands under the guard, and a third process takes it while the moved one is aside: both live locks survive', async () => {
    writeFileSync(path, dead());
    const second = live('second');
    const third = live('third');
    const result = await acquireWith({
      // The stale holder was not dead after all (no /proc: judged by age) and released; another took it.
      guarded: () => {
        unlinkSync(path);
        writeFileSync(path, second, { flag: 'wx' });
      },
      // While the lock moved aside is being checked, a third process finds the path free.
      moved: () => writeFileSync(path, third, { flag: 'wx' }),
    });
    expect(isLock(result)).toBe(false);
    const left = files();
    expect(left['x.lock']).toBe(third);
    // The second holder's lock was moved, could not be put back, and was kept (never deleted).
    expect(Object.values(left).filter((text) => text === second)).toHaveLength(1);
    expect(Object.keys(left).some((name) => name.endsWith('.break'))).toBe(false);
  });

  it('a third process takes the lock while the stale one is aside: the stale one goes, the new one stays', async () => {
    writeFileSync(path, dead());
    const third = live('third');
    const result = await acquireWith({ moved: () => writeFileSync(path, third, { flag: 'wx' }) });
    expect(isLock(result)).toBe(false);
    expect(files()).toEqual({ 'x.lock': third });
  });

  it('two breakers at once: the second finds the guard taken and does not break; exactly one holds the lock', async () => {
    writeFileSync(path, dead());
    let second: Promise<Lock | LockHeld> | undefined;
    const first = await acquireWith({
      guarded: () => {
        second = acquireLock(path, { waitMs: 0, staleMs: HOUR });
      },
    });
    expect(isLock(first)).toBe(true);
    expect(isLock(await second!)).toBe(false);
    (first as Lock).release();
    expect(files()).toEqual({});
  });

  it('a guard left by a breaker that died: broken in turn, then the stale lock, and the lock is had', async () => {
    writeFileSync(path, dead());
    writeFileSync(`${path}.break`, dead());
    const lock = await acquireLock(path, { waitMs: 0, staleMs: HOUR });
    expect(isLock(lock)).toBe(true);
    (lock as Lock).release();
    expect(files()).toEqual({});
  });

  it('a guard held by a live breaker: no break meanwhile, the wait ends as held, nothing removed', async () => {
    const stale = dead();
    writeFileSync(path, stale);
    const guard = live('breaking');
    writeFileSync(`${path}.break`, guard);
    const result = await acquireLock(path, { waitMs: 100, staleMs: HOUR, pollMs: 10 });
    expect(isLock(result)).toBe(false);
    expect(files()).toEqual({ 'x.lock': stale, 'x.lock.break': guard });
  });
});

describe('a lock made on another host', () => {
  const other = (time: number) => `${deadPid} 1 remote-nonce ${time} build-host-7.example\n`;

  it('is live although its pid is not running here', async () => {
    const remote = other(Date.now());
    writeFileSync(path, remote);
    const result = await acquireLock(path, { waitMs: 100, staleMs: HOUR, pollMs: 10 });
    expect(result).toEqual({ held: true, holderPid: deadPid });
    expect(files()).toEqual({ 'x.lock': remote });
  });

  it('is stale once older than staleMs (by its own time and the file’s)', async () => {
    const then = Date.now() - 2 * HOUR;
    writeFileSync(path, other(then));
    utimesSync(path, new Date(then), new Date(then));
    const lock = await acquireLock(path, { waitMs: 0, staleMs: HOUR });
    expect(isLock(lock)).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain(` ${hostname().replace(/\s/g, '_')}\n`);
    (lock as Lock).release();
  });

  it('is live while the file is recent, whatever time it records (a clock behind)', async () => {
    writeFileSync(path, other(Date.now() - 2 * HOUR));
    const result = await acquireLock(path, { waitMs: 50, staleMs: HOUR, pollMs: 10 });
    expect(isLock(result)).toBe(false);
  });
});

describe('a lock file far longer than a lock (a line of about 80 bytes)', () => {
  it('is read no further than 4 KB, as a torn lock: stale once 2 s old, broken, and the lock is had', async () => {
    writeFileSync(path, '');
    truncateSync(path, 1024 ** 3); // sparse: 1 GB that reading whole would take time and memory for
    const then = new Date(Date.now() - 60_000);
    utimesSync(path, then, then);
    const lock = await acquireLock(path, { waitMs: 0, staleMs: HOUR });
    expect(isLock(lock)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(readFileSync(path, 'utf8').split('\n')[0] + '\n'); // ours, one line
    (lock as Lock).release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a recent one is a live (torn) lock: the wait ends as held, nothing removed', async () => {
    writeFileSync(path, '');
    truncateSync(path, 1024 ** 3);
    // Recent however long this takes: a torn lock is stale 2 s after its time, here a minute ahead.
    const soon = new Date(Date.now() + 60_000);
    utimesSync(path, soon, soon);
    const result = await acquireLock(path, { waitMs: 50, staleMs: HOUR, pollMs: 10 });
    expect(result).toEqual({ held: true, holderPid: undefined });
    expect(readdirSync(dir)).toEqual(['x.lock']);
  });
});
