// idm profiles use NAME: make a stored profile the default (what every command uses without --profile).
import { Argument, Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { profileNameParser } from '../../cli/parse.js';
import { configDir } from '../../config/paths.js';
import { checkDomain } from '../../config/domain.js';
import { missingProfileName, readProfiles, unknownProfile, type Profile } from '../../config/profiles.js';
import { envValue, otherEnvProfile, otherEnvTenantOrClient, unusableEnv, unusableWarning } from '../../config/resolve.js';
import { updateSettings } from '../../config/store.js';
import { andList } from '../../core/text.js';

export function profilesUseCommand(deps: Deps, run = profilesUseRun): Command {
  return new Command('use')
    .description('Make a stored profile the default')
    // Optional for commander, so that a missing name is told with the known profiles (run below).
    .addArgument(new Argument('[name]', 'the profile (see idm profiles list)').argParser(profileNameParser('<name>')))
    .usage('[options] <name>')
    .addHelpText('after', () => examples(['idm profiles use prod']))
    .action((name: string | undefined) => {
      if (name === undefined) throw missingProfileName(readProfiles(configDir(deps.io.env)), 'idm profiles use');
      return run({ name }, deps);
    });
}

export async function profilesUseRun(options: { name: string }, deps: Deps): Promise<void> {
  const { io, output } = deps;
  const { name } = options;
  const { previous, profile: chosen } = await updateSettings(
    configDir(io.env),
    ({ store }): { previous: string | undefined; profile: Profile } => {
      const profile = store.profiles[name];
      if (!profile) throw unknownProfile(store, name);
      const was = store.defaultProfile;
      store.defaultProfile = name;
      return { previous: was, profile };
    },
    { signal: io.signal, note: output.note },
  );
  if (output.json) output.printJson({ default: name, previous: previous ?? null });
  else output.say(previous === name ? `Profile "${name}" was already the default.` : `Profile "${name}" is now the default${previous ? ` (was "${previous}")` : ''}.`);
  // A variable every command reads before the profile, set to a value it refuses: commands stop with
  // that error, whichever profile they would use.
  const unusable = unusableEnv(io.env, readProfiles(configDir(io.env)));
  if (unusable.length > 0) {
    output.warn(unusableWarning(unusable, `the default "${name}"`, 'the default'));
    return;
  }
  // IDM_PROFILE naming another profile picks it for every command without --profile: the new default
  // is not used while it is set (as login warns for the profile it stores).
  const envProfile = otherEnvProfile(io.env, name);
  if (envProfile) {
    const { profile, shown } = envProfile;
    output.warn({
      message: `IDM_PROFILE is set${shown}: commands use ${shown ? `profile "${profile}"` : 'it'}, not the default "${name}", while it is.`,
      hint: 'Unset it (unset IDM_PROFILE) to use the default.',
    });
    return;
  }
  // IDM_DOMAIN and IDM_CLIENT_ID naming another tenant or client take the place of the default's
  // field by field (as login warns for the profile it stores): commands would not reach its tenant.
  // IDM_CLIENT_SECRET, IDM_PRIVATE_KEY and IDM_ACCESS_TOKEN are sent in place of the default's stored
  // credentials (README: environment > profile; never shown).
  const tenant = checkDomain(chosen.domain);
  if (typeof tenant === 'string') return; // a damaged profile: commands say so when they use it
  const overriding: Array<[variable: string, value: string | undefined, what: string]> = [
    ...otherEnvTenantOrClient(io.env, tenant.base, chosen.clientId).map(([variable, value]): [string, string | undefined, string] => [variable, value, variable === 'IDM_DOMAIN' ? `domain (${tenant.base})` : `client (${chosen.clientId})`]),
    ...['IDM_CLIENT_SECRET', 'IDM_PRIVATE_KEY', 'IDM_ACCESS_TOKEN'].filter((variable) => envValue(io.env, variable)).map((variable): [string, undefined, string] => [variable, undefined, 'credentials']),
  ];
  if (overriding.length > 0) {
    const [one, them] = overriding.length === 1 ? ['it', 'it is'] : ['them', 'they are'];
    output.warn({
      message: `${andList(overriding.map(([variable, value]) => `${variable} is set${value === undefined ? '' : ` (${value})`}`))}: commands use ${one}, not the ${andList([...new Set(overriding.map(([, , what]) => what))])} of the default "${name}", while ${them}.`,
      hint: `Unset ${one} (unset ${overriding.map(([variable]) => variable).join(' ')}) to use the default.`,
    });
  }
}
