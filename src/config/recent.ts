// What the last listings showed, for shell completion: stream and connection ids and strategies,
// each kind of each tenant in one file of idm's cache directory (IDM_CONFIG_DIR/cache), so that a
// TAB can offer them without a request, and only those of the tenant the command line works on. Each file is replaced whole (a temporary file renamed over it: a reader
// sees the old list or the new one), under its lock: a listing that merges its ids into the file
// reads and writes it while no other listing does. A listing that cannot have the lock at once
// leaves the file to the one writing it. Only values of the
// documented shapes are kept, so that nothing a server sent can reach a shell unchecked. A failure
// to write is ignored: completion is a convenience, never a reason for a listing to fail.
import { join } from 'node:path';
import { fnv1a64 } from '../core/hash.js';
import { clip, hasUnsafeCharacters } from '../core/text.js';
import { safeText } from '../io/safe.js';
import { ID_SHAPES } from '../schemas/ids.js';
import type { Tenant } from './domain.js';
import { acquireLock, checkWritableDir, isLock, readTextIfExists, writeFileAtomic } from './files.js';
import { configDir } from './paths.js';

export const RECENT_KINDS = ['streams', 'connections', 'strategies'] as const;
export type RecentKind = (typeof RECENT_KINDS)[number];

/** At most this many values per kind: a TAB shows a short list. */
const KEEP = 1_000;

const SHAPES: Record<RecentKind, RegExp> = {
  streams: ID_SHAPES.stream.pattern,
  connections: ID_SHAPES.connection.pattern,
  strategies: /^[a-z0-9][a-z0-9-]{0,39}$/,
};

/**
 * What zsh and fish show beside a value (a stream's name): a server's text, so made inert (every
 * control or invisible character as its escape: one line, no tab) and cut to a short line.
 */
const DESCRIPTION_MAX = 60;

function description(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = clip(safeText(text.trim()), DESCRIPTION_MAX);
  return line === '' ? undefined : line;
}

/** A line of a file: `value` or `value<TAB>description`; a description a file holds unsafe, or too long, is left out. */
function parseLine(line: string): [string, string | undefined] {
  const tab = line.indexOf('\t');
  if (tab === -1) return [line, undefined];
  const text = line.slice(tab + 1);
  return [line.slice(0, tab), text === '' || hasUnsafeCharacters(text) || text.length > DESCRIPTION_MAX + 40 ? undefined : text];
}

/** `cache/recent-streams-<fingerprint of https://tenant.example.com>.txt` */
function recentFile(env: NodeJS.ProcessEnv, tenant: Tenant, kind: RecentKind): string {
  return join(configDir(env), 'cache', `recent-${kind}-${fnv1a64(tenant.base)}.txt`);
}

/**
 * Keeps the values a listing showed (those of the kind's shape, first KEEP, no repeats), each with
 * its description (`descriptions[i]` for `values[i]`: a stream's name), which zsh and fish show. `merge`
 * keeps the values remembered before after the new ones: a listing that shows only some of a kind
 * (the configured connections of `provisioning list`) must not take the others from a TAB.
 */
export async function rememberRecent(
  env: NodeJS.ProcessEnv,
  tenant: Tenant,
  kind: RecentKind,
  values: Iterable<unknown>,
  options: { merge?: boolean; descriptions?: readonly unknown[] } = {},
): Promise<void> {
  const file = recentFile(env, tenant, kind);
  const fresh: Array<[unknown, string | undefined]> = [...values].map((value, index) => [value, description(options.descriptions?.[index])]);
  const textFor = (old: string | undefined): string => {
    const kept = new Map<string, string | undefined>();
    const before = options.merge ? (old ?? '').split('\n').map(parseLine) : [];
    for (const [value, text] of [...fresh, ...before]) {
      if (typeof value === 'string' && SHAPES[kind].test(value) && !kept.has(value)) kept.set(value, text);
      if (kept.size >= KEEP) break;
    }
    // A listing that showed none (the last stream deleted) leaves none: '' (no file is the same).
    return kept.size === 0 ? '' : [...kept].map(([value, text]) => (text === undefined ? value : `${value}\t${text}`)).join('\n') + '\n';
  };
  const read = () => {
    try {
      return readTextIfExists(file);
    } catch {
      return undefined; // unreadable: written anew
    }
  };
  // The same listing again (the usual case) writes nothing and takes no lock: a read costs less.
  const first = read();
  if (textFor(first) === (first ?? '')) return;
  try {
    checkWritableDir(configDir(env));
    const lock = await acquireLock(`${file}.lock`, { waitMs: 0, staleMs: 10_000 });
    if (!isLock(lock)) return;
    try {
      writeFileAtomic(file, textFor(read()));
    } finally {
      lock.release();
    }
  } catch {
    // completion only
  }
}

/**
 * The values the last listing of `kind` at `tenant` showed; none when there was none (or the file is
 * unreadable). `described`: each as `value<TAB>description` when it has one (zsh and fish show it).
 */
export function readRecent(env: NodeJS.ProcessEnv, tenant: Tenant, kind: RecentKind, options: { described?: boolean } = {}): string[] {
  try {
    return (readTextIfExists(recentFile(env, tenant, kind)) ?? '')
      .split('\n')
      .map(parseLine)
      .filter(([value]) => SHAPES[kind].test(value))
      .map(([value, text]) => (options.described && text !== undefined ? `${value}\t${text}` : value));
  } catch {
    return [];
  }
}
