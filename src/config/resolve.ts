// Which tenant and credentials a command uses. Precedence: flags > environment > profile, field by
// field: `--profile`/IDM_PROFILE pick the profile, IDM_DOMAIN / IDM_CLIENT_ID / IDM_CLIENT_SECRET /
// IDM_PRIVATE_KEY / IDM_ACCESS_TOKEN override its fields, and with them no profile is needed at all.
import { readFileSync } from 'node:fs';
import { IdmError, UsageError } from '../cli/errors.js';
import { ExitCode } from '../cli/exit-codes.js';
import { parseDomain, type Tenant } from './domain.js';
import { groupOrOtherReadable } from './files.js';
import { configDir, credentialsFile } from './paths.js';
import { AUTH_METHODS, type AuthMethod, readProfiles, readSecret, SIGNING_ALGS, type SigningAlg, unknownProfile } from './profiles.js';

export interface ClientCredentials {
  clientId: string;
  authMethod: AuthMethod;
  clientSecret?: string;
  privateKeyPem?: string;
  signingAlg?: SigningAlg;
}

export interface Resolved {
  tenant: Tenant;
  /** The profile in use, when one was (also when the environment overrides some of its fields). */
  profile?: string;
  /** Where the credentials came from. */
  source: 'profile' | 'environment';
  /** Client credentials, unless a ready access token is used. */
  client?: ClientCredentials;
  /** IDM_ACCESS_TOKEN: used as is, never cached or refreshed. */
  accessToken?: string;
  /** The settings directory (token cache, credentials). */
  dir: string;
  /** Problems worth a warning (a secret file readable by others). */
  warnings: string[];
}

const NO_CREDENTIALS_HINT =
  "Run 'idm login', or set IDM_DOMAIN with IDM_CLIENT_ID and IDM_CLIENT_SECRET (or IDM_PRIVATE_KEY), or IDM_ACCESS_TOKEN.";

function notLoggedIn(message: string, hint = NO_CREDENTIALS_HINT): IdmError {
  return new IdmError(message, { exitCode: ExitCode.Auth, code: 'no_credentials', hint });
}

/** A PEM given inline or as a path (IDM_PRIVATE_KEY, --private-key-file). */
export function readPrivateKey(value: string, what: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  try {
    const pem = readFileSync(value, 'utf8');
    if (!pem.includes('-----BEGIN')) throw new UsageError(`${what}: ${value} does not hold a PEM private key.`);
    return pem;
  } catch (error) {
    if (error instanceof IdmError) throw error;
    throw new UsageError(`${what}: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, 'Give the path of a PEM private key file, or the PEM itself.');
  }
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function resolveCredentials(env: NodeJS.ProcessEnv, profileFlag: string | undefined): Resolved {
  const dir = configDir(env);
  const store = readProfiles(dir);
  const warnings: string[] = [];
  const name = profileFlag ?? store.defaultProfile ?? 'default';
  const profile = store.profiles[name];

  const envDomain = envValue(env, 'IDM_DOMAIN');
  const envClient = envValue(env, 'IDM_CLIENT_ID');
  const envSecret = envValue(env, 'IDM_CLIENT_SECRET');
  const envKey = envValue(env, 'IDM_PRIVATE_KEY');
  const envToken = envValue(env, 'IDM_ACCESS_TOKEN');
  const fromEnv = Boolean(envDomain || envClient || envSecret || envKey || envToken);

  if (!profile && profileFlag !== undefined && !fromEnv) throw unknownProfile(store, profileFlag);
  const domainText = envDomain ?? profile?.domain;
  if (!domainText) {
    throw notLoggedIn(fromEnv ? 'IDM_DOMAIN is not set.' : 'Not logged in: no profile and no credentials in the environment.');
  }
  const tenant = parseDomain(domainText, envDomain ? 'IDM_DOMAIN' : `The domain of profile "${name}"`);
  const base = { tenant, profile: profile ? name : undefined, dir, warnings };

  if (envToken) return { ...base, source: 'environment', accessToken: envToken };

  const clientId = envClient ?? profile?.clientId;
  if (!clientId) throw notLoggedIn('IDM_CLIENT_ID is not set.');

  if (envSecret || envKey) {
    if (envSecret && envKey) throw new UsageError('Both IDM_CLIENT_SECRET and IDM_PRIVATE_KEY are set.', 'Set only one of them.');
    return { ...base, source: 'environment', client: fromEnvironment(env, clientId, envSecret, envKey, profile?.authMethod) };
  }

  // A stored secret belongs to the profile's own client at the profile's own domain: it is never
  // sent for another client (IDM_CLIENT_ID) nor to another domain (IDM_DOMAIN).
  if (!profile || profile.clientId !== clientId || parseDomain(profile.domain, `The domain of profile "${name}"`).base !== tenant.base) {
    const store = `idm login --profile NAME --domain ${tenant.base} --client-id ${clientId}`;
    throw notLoggedIn(
      profile
        ? `Not logged in as client ${clientId} at ${tenant.host}: profile "${name}" holds the secret of client ${profile.clientId} at ${parseDomain(profile.domain, 'The profile domain').host} only.`
        : `No client secret or private key for client ${clientId} at ${tenant.host}.`,
      `Set IDM_CLIENT_SECRET or IDM_PRIVATE_KEY, or store them as a profile: ${store}.`,
    );
  }
  const secret = readSecret(dir, name);
  if (!secret) {
    throw notLoggedIn(`Profile "${name}" has no stored secret (logged out?).`, `Run 'idm login${name === 'default' ? '' : ` --profile ${name}`}' to store one.`);
  }
  const file = credentialsFile(dir, name);
  if (groupOrOtherReadable(dir)) warnings.push(`${dir} is open to other users; run: chmod 700 ${dir}`);
  if (groupOrOtherReadable(file)) warnings.push(`${file} is readable by other users; run: chmod 600 ${file}`);
  const client: ClientCredentials =
    profile.authMethod === 'private_key_jwt'
      ? { clientId, authMethod: 'private_key_jwt', privateKeyPem: secret.privateKeyPem, signingAlg: profile.signingAlg }
      : { clientId, authMethod: profile.authMethod, clientSecret: secret.clientSecret };
  if (!client.clientSecret && !client.privateKeyPem) {
    throw notLoggedIn(`Profile "${name}" stores no ${profile.authMethod === 'private_key_jwt' ? 'private key' : 'client secret'}.`, `Run 'idm login' again.`);
  }
  return { ...base, source: 'profile', client };
}

function fromEnvironment(
  env: NodeJS.ProcessEnv,
  clientId: string,
  secret: string | undefined,
  key: string | undefined,
  profileMethod: AuthMethod | undefined,
): ClientCredentials {
  const method = envValue(env, 'IDM_AUTH_METHOD');
  if (method !== undefined && !(AUTH_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`IDM_AUTH_METHOD must be one of: ${AUTH_METHODS.join(', ')}.`);
  }
  if (key) {
    const alg = envValue(env, 'IDM_SIGNING_ALG');
    if (alg !== undefined && !(SIGNING_ALGS as readonly string[]).includes(alg)) {
      throw new UsageError(`IDM_SIGNING_ALG must be one of: ${SIGNING_ALGS.join(', ')}.`);
    }
    return { clientId, authMethod: 'private_key_jwt', privateKeyPem: readPrivateKey(key, 'IDM_PRIVATE_KEY'), signingAlg: alg as SigningAlg | undefined };
  }
  const chosen = (method as AuthMethod | undefined) ?? (profileMethod === 'basic' ? 'basic' : 'post');
  if (chosen === 'private_key_jwt') throw new UsageError('IDM_AUTH_METHOD is private_key_jwt but IDM_PRIVATE_KEY is not set.');
  return { clientId, authMethod: chosen, clientSecret: secret };
}
