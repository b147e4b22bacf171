// idm logout: remove a profile's stored secret and its cached tokens. The profile's settings
// (domain, client id, method) stay, so `idm login` can store a new secret for it.
import { Command } from 'commander';
import { profilesSharingToken, removeCachedToken } from '../../auth/tokens.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { parseDomain } from '../../config/domain.js';
import { configDir, credentialsFile } from '../../config/paths.js';
import { readProfiles, selectedProfileName, unknownProfile } from '../../config/profiles.js';
import { updateSettings } from '../../config/store.js';
import { andList } from '../../core/text.js';
import { existsSync } from 'node:fs';

export type LogoutOptions = Record<string, never>;

export function logoutCommand(deps: Deps, run = logoutRun): Command {
  return new Command('logout')
    .description("Remove a profile's secrets and cached tokens")
    .addHelpText('after', () => examples(['idm logout', 'idm logout --profile prod']))
    .action(() => run({}, deps));
}

export async function logoutRun(_opts: LogoutOptions, deps: Deps): Promise<void> {
  const globals = deps.globals();
  const { io, output } = deps;
  const dir = configDir(io.env);
  const store = readProfiles(dir);
  const name = selectedProfileName(store, globals.profile);
  const profile = store.profiles[name];
  if (!profile && globals.profile !== undefined) throw unknownProfile(store, name, { removing: true });
  const removedSecret = existsSync(credentialsFile(dir, name));
  if (removedSecret) await updateSettings(dir, ({ removeSecret }) => removeSecret(name), { signal: io.signal, note: output.note });
  // Under the token lock: a run fetching a token right now cannot write it back after us.
  // Kept while another profile with a secret uses it (the same domain and client): its next command
  // would otherwise need a new, metered token.
  const sharedBy = profile ? profilesSharingToken(dir, readProfiles(dir).profiles, name, profile, (other) => existsSync(credentialsFile(dir, other))) : [];
  // When the lock cannot be had, the secret is gone already: the error says so (a second logout removes the token).
  const before = removedSecret ? () => ({ done: 'the secret was removed, the token stays cached' }) : undefined;
  const removedToken = profile && sharedBy.length === 0 ? await removeCachedToken(dir, parseDomain(profile.domain, 'The profile domain'), profile.clientId, io.signal, undefined, before, output.note) : false;

  if (output.json) return output.printJson({ profile: name, removedSecret, removedToken });
  // Without --profile and without a default, the name is `default`, which may be no profile at all.
  const known = Object.keys(store.profiles).sort();
  output.say(
    removedSecret || removedToken
      ? `Logged out of profile "${name}": removed its ${[removedSecret && 'secret', removedToken && 'cached token'].filter(Boolean).join(' and ')}.`
      : profile
        ? `Profile "${name}" had no stored secret or cached token.`
        : known.length === 0
          ? 'No profiles yet: nothing to log out of.'
          : `No default profile: nothing to log out of. Name one with --profile (${known.join(', ')}).`,
  );
  if (sharedBy.length > 0) output.note(`Kept the cached token: ${sharingWords(sharedBy)} it too.`);
}

/** `profile "a" uses` / `profiles "a", "b" and "c" use`: who shares a cached token. */
export function sharingWords(names: readonly string[]): string {
  return `${names.length === 1 ? 'profile' : 'profiles'} ${andList(names.map((n) => `"${n}"`))} ${names.length === 1 ? 'uses' : 'use'}`;
}
