// Values for a TAB (idm completion --values KIND): profile names from the config file, and what the
// last listings showed from the cache (config/recent.ts). node:fs only (no conf, no network),
// because every TAB pays for this run; a damaged file yields nothing rather than an error in the
// user's shell (other commands report it).
import { configDir } from '../../config/paths.js';
import { readProfiles } from '../../config/profiles.js';
import { readRecent } from '../../config/recent.js';
import type { AskKind } from './index.js';

export async function completionValues(env: NodeJS.ProcessEnv, kind: AskKind): Promise<string[]> {
  if (kind !== 'profiles') return readRecent(env, kind);
  try {
    return Object.keys(readProfiles(configDir(env)).profiles).sort();
  } catch {
    return [];
  }
}
