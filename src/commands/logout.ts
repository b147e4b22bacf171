// idm logout: remove a profile's stored secret and its cached tokens. The profile's settings
// (domain, client id, method) stay, so `idm login` can store a new secret for it.
import { Command } from 'commander';
import type { Deps } from '../cli/deps.js';
import { examples } from '../cli/help.js';
import { tokenCacheFile } from '../auth/tokens.js';
import { parseDomain } from '../config/domain.js';
import { removeIfExists } from '../config/files.js';
import { configDir } from '../config/paths.js';
import { readProfiles, removeSecret, selectedProfileName, unknownProfile } from '../config/profiles.js';

export type LogoutOptions = Record<string, never>;

export function logoutCommand(deps: Deps, run = logoutRun): Command {
  return new Command('logout')
    .description("Remove a profile's secrets and cached tokens")
    .addHelpText('after', examples(['idm logout', 'idm logout --profile prod']))
    .action(() => run({}, deps));
}

export async function logoutRun(_opts: LogoutOptions, deps: Deps): Promise<void> {
  const globals = deps.globals();
  const dir = configDir(deps.io.env);
  const store = readProfiles(dir);
  const name = selectedProfileName(store, globals.profile);
  const profile = store.profiles[name];
  if (!profile && globals.profile !== undefined) throw unknownProfile(store, name);
  const removedSecret = removeSecret(dir, name);
  const removedToken = profile ? removeIfExists(tokenCacheFile(dir, parseDomain(profile.domain, 'The profile domain'), profile.clientId)) : false;

  if (globals.json) {
    deps.output().printJson({ profile: name, removedSecret, removedToken });
    return;
  }
  deps.io.err(
    removedSecret || removedToken
      ? `Logged out of profile "${name}": removed its ${[removedSecret && 'secret', removedToken && 'cached token'].filter(Boolean).join(' and ')}.\n`
      : `Profile "${name}" had no stored secret or cached token.\n`,
  );
}
