// idm profiles list: every stored profile, its tenant, client and method, which one is the default,
// and whether a secret and a token are stored (the settings and the cache only; no request).
import { Command } from 'commander';
import { cachedTokenState, type TokenState } from '../../auth/state.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { parseDomain } from '../../config/domain.js';
import { configDir } from '../../config/paths.js';
import { readProfiles, storedSecretState } from '../../config/profiles.js';
import type { Warning } from '../../core/errors.js';
import type { Column } from '../../output/index.js';

export interface ProfileSummary {
  name: string;
  default: boolean;
  domain: string;
  clientId: string;
  authMethod: string;
  secret: boolean;
  token: { state: TokenState['state']; expiresAt: string | null };
}

export function profilesListCommand(deps: Deps, run = profilesListRun): Command {
  return new Command('list')
    .description('List the stored profiles: domain, client, method, the default, and what is stored')
    .addHelpText('after', () => examples(['idm profiles list', "idm profiles list --json | jq -r '.[] | select(.default) | .name'"]))
    .action(() => run({}, deps));
}

/**
 * The stored profiles, the default first, then by name. A profile whose secret file cannot be read
 * is listed with `secret: false`, named in `unreadable`, its error passed to `onProblem` (a warning).
 */
export function profileSummaries(env: NodeJS.ProcessEnv, now = Date.now(), onProblem?: (warning: Warning) => void, unreadable?: Set<string>): ProfileSummary[] {
  const dir = configDir(env);
  const store = readProfiles(dir);
  return Object.entries(store.profiles)
    .map(([name, profile]): ProfileSummary => {
      const token = cachedTokenState(dir, parseDomain(profile.domain, `The domain of profile "${name}"`), profile.clientId, now);
      const secret = storedSecretState(dir, name);
      if (secret.problem) {
        unreadable?.add(name);
        onProblem?.({ message: secret.problem.message, hint: secret.problem.hint });
      }
      return {
        name,
        default: name === store.defaultProfile,
        domain: profile.domain,
        clientId: profile.clientId,
        authMethod: profile.authMethod,
        secret: secret.state === 'stored',
        token: { state: token.state, expiresAt: token.expiresAt === undefined ? null : new Date(token.expiresAt).toISOString() },
      };
    })
    .sort((a, b) => Number(b.default) - Number(a.default) || a.name.localeCompare(b.name));
}

const columns = (unreadable: ReadonlySet<string>): ReadonlyArray<Column<ProfileSummary>> => [
  { header: 'NAME', value: (p) => p.name, shrink: 'never' },
  { header: 'DEFAULT', value: (p) => (p.default ? 'default' : ''), display: (p) => (p.default ? '*' : ''), width: 7 },
  { header: 'DOMAIN', value: (p) => p.domain, shrink: 'first', cut: 'host' },
  { header: 'CLIENT', value: (p) => p.clientId, shrink: 'never' },
  { header: 'METHOD', value: (p) => p.authMethod },
  { header: 'SECRET', value: (p) => (p.secret ? 'stored' : unreadable.has(p.name) ? 'unreadable' : 'none') },
  { header: 'TOKEN', value: (p) => (p.token.state === 'none' ? 'none' : `${p.token.state} ${p.token.expiresAt}`), display: (p) => p.token.state, narrow: { drop: 1 } },
];

export async function profilesListRun(_options: Record<string, never>, deps: Deps): Promise<void> {
  const { output } = deps;
  const unreadable = new Set<string>();
  const profiles = profileSummaries(deps.io.env, Date.now(), (warning) => output.warn(warning), unreadable);
  if (output.json) return output.printJson(profiles);
  if (profiles.length === 0) {
    output.note("No profiles yet: run 'idm login' to store one.");
    return;
  }
  await output.printRows(columns(unreadable), profiles);
}
