// Values for a TAB (idm completion --values KIND): profile names from the config file, and what the
// last listings of the tenant in effect showed from the cache (config/recent.ts): that of IDM_DOMAIN
// or of the profile IDM_PROFILE names (the scripts set it from the command line's --profile), else
// of the default profile. node:fs only (no network),
// because every TAB pays for this run; a damaged file yields nothing rather than an error in the
// user's shell (other commands report it).
import { configDir } from '../../config/paths.js';
import { readProfiles } from '../../config/profiles.js';
import { readRecent } from '../../config/recent.js';
import { envValue, selectedTenant } from '../../config/resolve.js';

/**
 * What `idm completion --values` lists; the scripts (scripts.ts) ask for these. `named-streams`: the
 * stream ids, each with its name after a tab (the zsh and fish scripts show it beside the id).
 */
export const ASK_KINDS = ['profiles', 'streams', 'connections', 'strategies', 'named-streams'] as const;
export type AskKind = (typeof ASK_KINDS)[number];

export async function completionValues(env: NodeJS.ProcessEnv, kind: AskKind): Promise<string[]> {
  if (kind !== 'profiles') {
    const tenant = selectedTenant(env, envValue(env, 'IDM_PROFILE')?.trim());
    if (!tenant) return [];
    return kind === 'named-streams' ? readRecent(env, tenant, 'streams', { described: true }) : readRecent(env, tenant, kind);
  }
  try {
    return Object.keys(readProfiles(configDir(env)).profiles).sort();
  } catch {
    return [];
  }
}

// bin/idm.js's fast path (dist/values.cjs) asks `known` first (a kind it does not know goes to the
// full CLI, which reports the usage error), then writes what `completionValues` gives.
export function known(kind: string): kind is AskKind {
  return (ASK_KINDS as readonly string[]).includes(kind);
}
