// Processes of this machine as a lock judges its holder: whether a pid runs, and when it started,
// so that a pid reused by another process is told from the one that wrote the lock. Only node:fs.
import { readFileSync } from 'node:fs';

/** When `pid` started, in clock ticks since boot (Linux), or undefined where that cannot be read. */
export function processStartTime(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs (signal 0 only asks; EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
