// idm auth status: which credentials idm would use and what its cached token allows, read from the
// settings and the cache only (no request). Never prints a secret or a token.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { peekClaims } from '../../auth/jwt.js';
import { readCachedToken, tokenCacheFile } from '../../auth/tokens.js';
import { resolveCredentials } from '../../config/resolve.js';

export type AuthStatusOptions = Record<string, never>;

export function authStatusCommand(deps: Deps, run = authStatusRun): Command {
  return new Command('status')
    .description('Show the profile, domain, method, token expiry and scopes')
    .addHelpText('after', examples(['idm auth status', 'idm auth status --profile prod --json | jq .token.scopes']))
    .action(() => run({}, deps));
}

function inWords(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} days`;
}

export async function authStatusRun(_opts: AuthStatusOptions, deps: Deps): Promise<void> {
  const globals = deps.globals();
  const resolved = resolveCredentials(deps.io.env, globals.profile);
  for (const warning of resolved.warnings) deps.output.warn(warning);
  const now = Date.now();

  let expiresAt: number | undefined;
  let scopes: string[] = [];
  if (resolved.accessToken !== undefined) {
    const claims = peekClaims(resolved.accessToken);
    if (typeof claims?.exp === 'number') expiresAt = claims.exp * 1000;
    if (typeof claims?.scope === 'string') scopes = claims.scope.split(' ').filter(Boolean);
  } else if (resolved.client) {
    const cached = readCachedToken(tokenCacheFile(resolved.dir, resolved.tenant, resolved.client.clientId), resolved.tenant, resolved.client.clientId);
    if (cached) {
      expiresAt = cached.expiresAt;
      scopes = (cached.scope ?? String(peekClaims(cached.accessToken)?.scope ?? '')).split(' ').filter(Boolean);
    }
  }
  const state = expiresAt === undefined ? 'none' : expiresAt > now ? 'valid' : 'expired';
  const method = resolved.accessToken !== undefined ? 'access_token' : resolved.client!.authMethod;
  const source = resolved.source === 'environment' ? 'environment' : 'profile';

  if (globals.json) {
    deps.output.printJson({
      profile: resolved.profile ?? null,
      source,
      domain: resolved.tenant.base,
      clientId: resolved.client?.clientId ?? null,
      authMethod: method,
      token: { state, expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(), scopes },
    });
    return;
  }
  let token: string;
  if (expiresAt === undefined) {
    token = resolved.accessToken !== undefined ? 'from IDM_ACCESS_TOKEN (expiry unknown)' : 'none cached (the next command gets one)';
  } else if (expiresAt > now) {
    token = `${resolved.accessToken !== undefined ? 'from IDM_ACCESS_TOKEN' : 'cached'}, valid until ${new Date(expiresAt).toISOString()} (in ${inWords(expiresAt - now)})`;
  } else {
    token = `expired at ${new Date(expiresAt).toISOString()}${resolved.client ? ' (the next command gets a new one)' : ''}`;
  }
  deps.output.printFields([
    ['Profile', resolved.profile ?? '(none)'],
    ['Credentials from', source === 'environment' ? 'environment (IDM_*)' : `profile "${resolved.profile}"`],
    ['Domain', resolved.tenant.base],
    ['Client ID', resolved.client?.clientId ?? '-'],
    ['Method', method],
    ['Token', token],
    ['Scopes', scopes.length ? scopes.join(' ') : state === 'none' ? '-' : '(none)'],
  ]);
}
