// idm profiles remove NAME: the profile's settings, its stored secret and its cached token, gone
// (asks first at a terminal; --yes in scripts). The settings change under the settings lock, the
// token under the token lock, as logout does.
import { Argument, Command } from 'commander';
import { profilesSharingToken, removeCachedToken } from '../../auth/tokens.js';
import { sharingWords } from '../auth/logout.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { profileNameParser } from '../../cli/parse.js';
import { parseDomain } from '../../config/domain.js';
import { configDir, credentialsFile } from '../../config/paths.js';
import { missingProfileName, readProfiles, unknownProfile } from '../../config/profiles.js';
import { updateSettings } from '../../config/store.js';
import { CancelledError, UsageError } from '../../core/errors.js';
import { shellCommand } from '../../core/text.js';
import { existsSync } from 'node:fs';

export interface ProfilesRemoveOptions {
  name: string;
  yes: boolean;
}

export function profilesRemoveCommand(deps: Deps, run = profilesRemoveRun): Command {
  return new Command('remove')
    .description('Remove a stored profile: its settings, secret and cached token (asks first at a terminal; --yes in scripts)')
    // Optional for commander, so that a missing name is told with the known profiles (run below).
    .addArgument(new Argument('[name]', 'the profile (see idm profiles list)').argParser(profileNameParser('<name>')))
    .usage('[options] <name>')
    .option('-y, --yes', 'remove without asking')
    .addHelpText('after', () => examples(['idm profiles remove staging', 'idm profiles remove staging --yes']))
    .action((name: string | undefined, flags: { yes?: boolean }) => {
      if (name === undefined) throw missingProfileName(readProfiles(configDir(deps.io.env)), 'idm profiles remove');
      return run({ name, yes: Boolean(flags.yes) }, deps);
    });
}

export async function profilesRemoveRun(options: ProfilesRemoveOptions, deps: Deps): Promise<void> {
  const { io, output } = deps;
  const { name } = options;
  const dir = configDir(io.env);
  const store = readProfiles(dir);
  const profile = store.profiles[name];
  if (!profile) throw unknownProfile(store, name, { removing: true });
  if (!options.yes) {
    if (!io.canPrompt) {
      throw new UsageError(`Removing profile "${name}" needs --yes when idm cannot ask (${io.cannotAsk}).`, `Run '${shellCommand(['idm', 'profiles', 'remove', name, '--yes'])}'.`);
    }
    const prompter = await deps.prompter();
    const what = `client ${profile.clientId} at ${parseDomain(profile.domain, 'The profile domain').host}`;
    if (!(await prompter.confirm(`Remove profile "${name}" (${what}), its secret and its cached token?`, { default: false }))) {
      throw new CancelledError(`Cancelled: profile "${name}" was left as it is.`);
    }
  }
  // The default goes with it: a profile named `default` takes its place (as commands already fall
  // back to it), else there is none until `idm profiles use`.
  const { wasDefault, newDefault, left, removedSecret } = await updateSettings(
    dir,
    ({ store, removeSecret }) => {
      const wasDefault = store.defaultProfile === name;
      const removedSecret = existsSync(credentialsFile(dir, name)); // as logout reports it
      delete store.profiles[name]; // already gone if another run removed it meanwhile
      removeSecret(name);
      if (wasDefault) {
        if (store.profiles.default) store.defaultProfile = 'default';
        else delete store.defaultProfile;
      }
      return { wasDefault, newDefault: wasDefault ? store.defaultProfile : undefined, left: Object.keys(store.profiles).sort(), removedSecret };
    },
    { signal: io.signal, note: output.note },
  );
  // Shared by the profiles of the same client at the same tenant: kept while one of those that are
  // left can use it (a secret stored), as logout does.
  const sharedBy = profilesSharingToken(dir, readProfiles(dir).profiles, name, profile, (other) => existsSync(credentialsFile(dir, other)));
  // When the lock cannot be had, the profile is gone already: running the command again would find
  // no profile, so the error says how to remove the token file itself.
  const before = (file: string) => ({
    done: `profile "${name}" was removed, its token stays cached`,
    hint: `When that process has finished, remove the token: ${shellCommand(['rm', '-f', '--', file])}`,
  });
  const removedToken = sharedBy.length === 0 ? await removeCachedToken(dir, parseDomain(profile.domain, 'The profile domain'), profile.clientId, io.signal, undefined, before, output.note) : false;
  if (output.json) return output.printJson({ profile: name, removedSecret, removedToken, default: wasDefault ? (newDefault ?? null) : (readProfiles(dir).defaultProfile ?? null) });
  output.say(`Removed profile "${name}".`);
  if (sharedBy.length > 0) output.note(`Kept its cached token: ${sharingWords(sharedBy)} it too.`);
  if (newDefault) output.note(`Profile "${newDefault}" is the default now.`);
  else if (wasDefault && left.length > 0) output.note(`There is no default profile now: ${shellCommand(['idm', 'profiles', 'use', left[0]!])} makes one.`);
}
