// Making a directory and its missing parents, one level at a time. Node 20's
// mkdirSync(path, { recursive: true }) never returns for a path that cannot be made although its
// parent exists (/proc/x: ENOENT, the parent is there, so it tries again, forever); here that ENOENT
// is thrown. Only node:fs and node:path.
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` with `mode` for each directory made: an existing directory is left as it is, a file in
 * the way is its EEXIST (or ENOTDIR below it), and a level that cannot be made throws its error.
 * Returns the directories it made, the outermost first, so that a caller that fails after can remove
 * them again (removeMade); when it fails itself, it removes those it made before throwing.
 */
export function makeDirectories(dir: string, mode: number): string[] {
  const made: string[] = [];
  const make = (path: string): void => {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return;
        throw error;
      }
      const parent = dirname(path);
      if (code !== 'ENOENT' || parent === path) throw error;
      make(parent);
      // The parent is there now: a second ENOENT is thrown, not tried again.
      mkdirSync(path, { mode });
    }
    made.push(path);
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
