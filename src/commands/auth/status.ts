// idm auth status: which credentials idm would use and what their cached token allows, read from the
// settings and the cache only (no request); with several profiles and no --profile, every profile in
// turn (the default first), as `gh auth status` does. Never prints a secret or a token.
import { Command } from 'commander';
import { cachedTokenState, givenTokenState, inWords, type TokenState } from '../../auth/state.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { parseDomain } from '../../config/domain.js';
import { configDir } from '../../config/paths.js';
import { readProfiles, storedSecretState } from '../../config/profiles.js';
import { envValue, resolveCredentials, type Resolved } from '../../config/resolve.js';

export type AuthStatusOptions = Record<string, never>;

export function authStatusCommand(deps: Deps, run = authStatusRun): Command {
  return new Command('status')
    .description('Show every profile (or one) with its domain, method, token expiry and scopes')
    .addHelpText(
      'after',
      () =>
        '\nExit 4 when the credentials a command would use are missing (the default profile\n' +
        'logged out, say): without --profile and --json, every profile is listed on\n' +
        'stdout all the same (a single one too), the error on stderr. With --json: one\n' +
        "object, those credentials (on exit 4 the error object); 'idm profiles list\n" +
        "--json' has every profile.\n" +
        examples(['idm auth status', 'idm auth status --profile prod --json | jq .token.scopes']),
    )
    .action(() => run({}, deps));
}

/** The token line for people; `canFetch`: a secret is there for the next command to get one. */
function tokenWords(token: TokenState, given: boolean, now: number, canFetch = true): string {
  if (token.expiresAt === undefined) {
    if (given) return token.unreadable ? 'from IDM_ACCESS_TOKEN, not a JWT idm can read: its expiry and scopes are unknown' : 'from IDM_ACCESS_TOKEN, which holds no expiry (exp)';
    return canFetch ? 'none cached (the next command gets one)' : 'none cached';
  }
  const until = new Date(token.expiresAt).toISOString();
  // In its last minute (or last quarter of a short lifetime) a cached token is no longer used: said so.
  if (token.expiresAt > now) return `${given ? 'from IDM_ACCESS_TOKEN' : 'cached'}, valid until ${until} (in ${inWords(token.expiresAt - now)})${token.renewed && canFetch ? ', renewed by the next command' : ''}`;
  return `expired at ${until}${given || !canFetch ? '' : ' (the next command gets a new one)'}`;
}

/** Where the secret (a client secret, key or certificate) comes from, never what it is. */
function secretWords(resolved: Resolved): string {
  if (resolved.source === 'profile') return 'stored';
  const client = resolved.client;
  if (!client) return 'none (IDM_ACCESS_TOKEN is used)';
  if (client.authMethod === 'tls_client_auth') return 'a client certificate (--client-cert and --client-key, or IDM_CLIENT_CERT and IDM_CLIENT_KEY)';
  return client.privateKeyPem ? 'from IDM_PRIVATE_KEY' : 'from IDM_CLIENT_SECRET';
}

const scopesWords = (token: TokenState) => (token.scopes.length ? token.scopes.join(' ') : token.unreadable ? 'unknown' : token.state === 'none' ? '-' : '(none)');

export async function authStatusRun(_opts: AuthStatusOptions, deps: Deps, now = Date.now()): Promise<void> {
  const { io, output } = deps;
  const globals = deps.globals();
  const dir = configDir(io.env);
  const store = readProfiles(dir);
  const names = Object.keys(store.profiles).sort((a, b) => Number(b === store.defaultProfile) - Number(a === store.defaultProfile) || a.localeCompare(b));
  const fromEnvironment = ['IDM_DOMAIN', 'IDM_CLIENT_ID', 'IDM_CLIENT_SECRET', 'IDM_PRIVATE_KEY', 'IDM_ACCESS_TOKEN', 'IDM_PROFILE'].some((name) => envValue(io.env, name));

  // Every profile: without --profile, without credentials in the environment, for people.
  const everyProfile = !globals.json && globals.profile === undefined && !fromEnvironment && names.length > 1;

  // What a command would use, as one view shows it: missing (the default logged out, or no default)
  // is exit 4 in every view, so that a script learns from the exit whether idm can run. Read before
  // the listing: a secret file that cannot be read and is that error is said once, as the error.
  let resolved: Resolved | undefined;
  let failure: unknown;
  try {
    resolved = await resolveCredentials(io.env, globals.profile, io.signal);
  } catch (error) {
    failure = error;
  }
  const listProfiles = () =>
    names.forEach((name, index) => {
      const profile = store.profiles[name]!;
      const token = cachedTokenState(dir, parseDomain(profile.domain, `The domain of profile "${name}"`), profile.clientId, now);
      // One profile's unreadable secret file does not hide the others: said for it, and warned.
      const secret = storedSecretState(dir, name);
      const isFailure = secret.problem !== undefined && failure instanceof Error && failure.message === secret.problem.message;
      if (secret.problem && !isFailure) output.warn({ message: secret.problem.message, hint: secret.problem.hint });
      const stored = secret.state === 'stored';
      if (index > 0) io.out('\n');
      output.printFields([
        ['Profile', `${name}${name === store.defaultProfile ? ' (the default)' : ''}`],
        ['Domain', profile.domain],
        ['Client ID', profile.clientId],
        ['Method', profile.authMethod],
        ['Secret', stored ? 'stored' : secret.state === 'unreadable' ? `unreadable (see the ${isFailure ? 'error' : 'warning'})` : 'none (logged out)'],
        ['Token', tokenWords(token, false, now, stored)],
        ['Scopes', scopesWords(token)],
      ]);
    });
  // A single profile, logged out: listed all the same, as several are (the error on stderr, exit 4).
  if (everyProfile || (failure !== undefined && !globals.json && globals.profile === undefined && !fromEnvironment && names.length === 1)) listProfiles();
  if (failure !== undefined) throw failure;
  if (everyProfile || resolved === undefined) return;
  for (const warning of resolved.warnings) output.warn(warning);
  const given = resolved.accessToken !== undefined;
  const token = given ? givenTokenState(resolved.accessToken!, now) : cachedTokenState(resolved.dir, resolved.tenant, resolved.client!.clientId, now);
  const method = given ? 'access_token' : resolved.client!.authMethod;
  const source = resolved.source === 'environment' ? 'environment' : 'profile';

  if (globals.json) {
    output.printJson({
      profile: resolved.profile ?? null,
      source,
      domain: resolved.tenant.base,
      clientId: resolved.client?.clientId ?? null,
      authMethod: method,
      token: { state: token.state, expiresAt: token.expiresAt === undefined ? null : new Date(token.expiresAt).toISOString(), scopes: token.scopes },
    });
    return;
  }
  output.printFields([
    ['Profile', resolved.profile ?? '(none)'],
    ['Credentials from', source === 'environment' ? 'environment (IDM_*)' : `profile "${resolved.profile}"`],
    ['Domain', resolved.tenant.base],
    ['Client ID', resolved.client?.clientId ?? '-'],
    ['Method', method],
    ['Secret', secretWords(resolved)],
    ['Token', tokenWords(token, given, now)],
    ['Scopes', scopesWords(token)],
  ]);
}
