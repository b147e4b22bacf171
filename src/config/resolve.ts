// Which tenant and credentials a command uses. Precedence: flags > environment > profile, field by
// field: `--profile`/IDM_PROFILE pick the profile, IDM_DOMAIN / IDM_CLIENT_ID / IDM_CLIENT_SECRET /
// IDM_PRIVATE_KEY / IDM_ACCESS_TOKEN override its fields, and with them no profile is needed at all.
import { IdmError, UsageError, type Warning } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import { accessTokenProblem, looksLikePem, MIN_SECRET_LENGTH } from '../core/secrets.js';
import { andList, hasUnsafeCharacters, plural, shellCommand } from '../core/text.js';
import { checkPem, keyFileName, readTextFile } from '../io/input.js';
import { checkDomain, parseDomain, type Tenant } from './domain.js';
import { openToOthers } from './files.js';
import { CLIENT_ID } from './methods.js';
import { configDir, credentialsFile, PROFILE_NAME } from './paths.js';
import { AUTH_METHODS, type AuthMethod, type Profile, type ProfileStore, readProfiles, readSecret, secretFits, SIGNING_ALGS, type SigningAlg, selectedProfileName, type StoredSecret, unknownProfile } from './profiles.js';

export interface ClientCredentials {
  clientId: string;
  authMethod: AuthMethod;
  clientSecret?: string;
  privateKeyPem?: string;
  signingAlg?: SigningAlg;
  /** What to do when the key cannot make `signingAlg`: where the algorithm was chosen (IDM_SIGNING_ALG, or the profile). */
  fixSigningAlg?: string;
  /** tls_client_auth: the paths of the client certificate and its key (--client-cert and --client-key win). */
  clientCert?: string;
  clientKey?: string;
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
  /** The profile's private CA (a path; --ca-file wins). */
  caFile?: string;
  /** Problems worth a warning (a secret file readable by others), for notices.warn. */
  warnings: Warning[];
  /** What to do when the token endpoint refuses these credentials (named in the error's hint). */
  fixCredentials?: string;
  /** The credentials file the client's secret was read from (the profile's, logout removes it first). */
  secretFile?: string;
}

const NO_CREDENTIALS_HINT =
  "Run 'idm login', or set IDM_DOMAIN with IDM_CLIENT_ID and IDM_CLIENT_SECRET (or IDM_PRIVATE_KEY), or IDM_ACCESS_TOKEN.";

/** `IDM_DOMAIN is not set.`, or, for `IDM_DOMAIN="$DOMAIN"` with nothing in $DOMAIN, that it is empty (it counts as unset). */
function missingVariable(env: NodeJS.ProcessEnv, variable: string): string {
  return env[variable] === undefined ? `${variable} is not set.` : `${variable} is set, but empty.`;
}

function notLoggedIn(message: string, hint = NO_CREDENTIALS_HINT): IdmError {
  return new IdmError(message, { exitCode: ExitCode.Auth, code: 'no_credentials', hint });
}

/** The PEM private key in the file at `path` (--private-key-file, the login prompt, IDM_PRIVATE_KEY). */
export async function readPrivateKeyFile(path: string, what: string, signal?: AbortSignal, options: { quotePath?: boolean } = {}): Promise<string> {
  // The value may be a key pasted in place of its path: readTextFile refuses it, never quoting it.
  // A path is not the key: messages name it (what was typed at the prompt is on screen anyway),
  // except IDM_PRIVATE_KEY's, a variable that holds the key itself as often as its path.
  const keyFile = options.quotePath ?? true;
  const hint = 'Give the path of a PEM private key file.';
  return checkPem(what, keyFile ? keyFileName(path) : 'the file', await readTextFile(what, path, 'secret', { hint, signal, keyFile }), 'private key', hint);
}

/**
 * IDM_PRIVATE_KEY: the PEM itself, its line breaks possibly written as \n (a variable, unlike a
 * flag's value, is in no shell history or process list), or the path of a PEM file.
 */
export async function privateKeyFromEnvironment(value: string, signal?: AbortSignal): Promise<string> {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  checkEnvPrivateKey(value);
  return readPrivateKeyFile(value, 'IDM_PRIVATE_KEY', signal, { quotePath: false });
}

/**
 * IDM_PRIVATE_KEY's value refused before any file is read: a PEM stored base64-encoded (as CI secret
 * stores often keep keys) is neither the PEM nor a path: said as such, not as a path that cannot be
 * read, and never quoted. Also for unusableEnv, which reads no file.
 */
function checkEnvPrivateKey(value: string): void {
  if (value.includes('-----BEGIN') || !isBase64Pem(value)) return;
  throw new UsageError(
    'IDM_PRIVATE_KEY holds a base64-encoded PEM: it must hold the PEM itself or the path of a PEM file.',
    'Decode it where it is set: export IDM_PRIVATE_KEY="$(printf %s "$IDM_PRIVATE_KEY" | base64 -d)"',
  );
}

/** Whether `value` is base64 (line breaks allowed) of a text that holds a PEM header. */
function isBase64Pem(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(compact) && Buffer.from(compact, 'base64').toString('latin1').includes('-----BEGIN');
}

/**
 * Why `secret` cannot be a client secret, or undefined. Secrets are masked by value in every output
 * (src/api/redact.ts), which needs a few characters: a shorter one would mask half of every line.
 */
export function secretProblem(secret: string): string | undefined {
  if (secret === '') return 'Enter the client secret.';
  if (secret.length < MIN_SECRET_LENGTH) return `A client secret has at least ${MIN_SECRET_LENGTH} characters.`;
  return undefined;
}

/**
 * A PEM key or certificate given as the client secret (meant for a client that signs with a key, or
 * proves itself with a certificate): its first line, or the whole block with its line breaks written
 * as \n, would go to the token endpoint as the secret. Refused before anything is sent, never quoted,
 * with the words the login prompt uses; `instead` says where a key or certificate goes.
 */
export function pemAsSecret(what: string, instead: string): UsageError {
  return new UsageError(`${what} holds a PEM key or certificate, not a client secret.`, instead);
}

/** `secret` as given, or a usage error naming where it came from (`what`). */
export function checkClientSecret(secret: string, what: string): string {
  const problem = secretProblem(secret);
  if (problem) throw new UsageError(`${what}: the client secret is too short (${plural(secret.length, 'character')}).`, `${problem} Check that it is the whole secret.`);
  return secret;
}

/** An IDM_* variable; set but blank counts as unset. */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * IDM_PROFILE when it names another profile than `name`: every command without --profile uses that
 * one, not `name`. `shown` is ` (NAME)` for messages when NAME is a valid profile name, else '' (the
 * variable may hold anything).
 */
export function otherEnvProfile(env: NodeJS.ProcessEnv, name: string): { profile: string; shown: string } | undefined {
  const profile = envValue(env, 'IDM_PROFILE')?.trim();
  if (profile === undefined || profile === name) return undefined;
  return { profile, shown: PROFILE_NAME.test(profile) ? ` (${profile})` : '' };
}

/**
 * IDM_DOMAIN and IDM_CLIENT_ID when set to another tenant or client than `base` and `clientId` (a
 * profile's): every command takes the variable first. With the base URL or client id they name. One
 * that cannot be read is not here: commands stop with its error instead (unusableEnv).
 */
export function otherEnvTenantOrClient(env: NodeJS.ProcessEnv, base: string, clientId: string): Array<[variable: 'IDM_DOMAIN' | 'IDM_CLIENT_ID', value: string]> {
  const found: Array<['IDM_DOMAIN' | 'IDM_CLIENT_ID', string]> = [];
  const domain = envValue(env, 'IDM_DOMAIN');
  const checked = domain === undefined ? undefined : checkDomain(domain);
  if (typeof checked === 'object' && checked.base !== base) found.push(['IDM_DOMAIN', checked.base]);
  let envClient: string | undefined;
  try {
    envClient = envClientId(env);
  } catch {
    // unusableEnv
  }
  if (envClient !== undefined && envClient !== clientId) found.push(['IDM_CLIENT_ID', envClient]);
  return found;
}

/**
 * The variables set to a value that every command using a profile refuses (resolveCredentials reads
 * them before the profile's fields; IDM_PROFILE naming none of `store`'s): with the error each gives, without its final period. A warning
 * after `profiles use` or `login` says that commands stop there, not that they use the variable.
 */
export function unusableEnv(env: NodeJS.ProcessEnv, store: ProfileStore): Array<{ variable: string; problem: string }> {
  const found: Array<{ variable: string; problem: string }> = [];
  // IDM_PROFILE naming no profile (a valid name: another is refused before any command runs).
  const profile = envValue(env, 'IDM_PROFILE')?.trim();
  if (profile !== undefined && PROFILE_NAME.test(profile) && !store.profiles[profile]) found.push({ variable: 'IDM_PROFILE', problem: unknownProfile(store, profile).message.replace(/\.$/, '') });
  const domain = envValue(env, 'IDM_DOMAIN');
  const checked = domain === undefined ? undefined : checkDomain(domain);
  if (typeof checked === 'string') found.push({ variable: 'IDM_DOMAIN', problem: `IDM_DOMAIN ${checked}` });
  // Their errors never quote a secret or token.
  const reads: Array<[string, (env: NodeJS.ProcessEnv) => unknown]> = [
    ['IDM_CLIENT_ID', envClientId],
    ['IDM_CLIENT_SECRET', envClientSecret],
    ['IDM_PRIVATE_KEY', (env) => {
      const key = envValue(env, 'IDM_PRIVATE_KEY');
      if (key !== undefined) checkEnvPrivateKey(key);
    }],
    ['IDM_ACCESS_TOKEN', envAccessToken],
    ['IDM_AUTH_METHOD', envAuthMethod],
    ['IDM_SIGNING_ALG', envSigningAlg],
  ];
  for (const [variable, read] of reads) {
    try {
      read(env);
    } catch (error) {
      found.push({ variable, problem: (error as Error).message.replace(/\.$/, '') });
    }
  }
  return found;
}

/**
 * The warning for `unusable` (unusableEnv), after a command that made `profile` (`the default "x"`,
 * `profile "x"`) the one to use: commands stop with the errors said, not use it. `use`: the fix's goal.
 */
export function unusableWarning(unusable: ReadonlyArray<{ variable: string; problem: string }>, profile: string, use: string): Warning {
  const variables = unusable.map(({ variable }) => variable);
  const [one, is] = variables.length === 1 ? ['it', 'is'] : ['them', 'are'];
  return {
    message: `Commands stop with an error, not use ${profile}, while ${andList(variables)} ${is} set so: ${unusable.map(({ problem }) => problem).join('; ')}.`,
    hint: `Correct ${one}, or unset ${one} (unset ${variables.join(' ')}), to use ${use}.`,
  };
}

/**
 * IDM_CLIENT_ID as a client id: without the spaces and line break around it (a CI variable filled
 * from a file keeps its newline), printable characters only. Undefined when unset.
 */
export function envClientId(env: NodeJS.ProcessEnv): string | undefined {
  const clientId = envValue(env, 'IDM_CLIENT_ID')?.trim();
  const problem = clientId === undefined ? undefined : clientIdProblem(clientId);
  if (problem !== undefined) throw new UsageError(`IDM_CLIENT_ID ${problem}.`);
  return clientId;
}

/**
 * What is wrong with a client id (--client-id, IDM_CLIENT_ID, the login prompt), said after its
 * name ("--client-id must ..."), or undefined; not empty. The character is named: one copied from a web
 * page may hold an invisible one (a zero-width or no-break space), which "no spaces" did not explain.
 */
export function clientIdProblem(value: string): string | undefined {
  if (CLIENT_ID.test(value)) return undefined;
  const chars = [...value];
  const at = chars.findIndex((char) => !/^[\x21-\x7e]$/.test(char));
  if (at === -1) return `must have at most 256 characters (this one has ${chars.length})`;
  const char = chars[at]!;
  // Named by its code point; quoted as well when it can be seen (ü), never when it acts or hides (U+200B).
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = char === ' ' ? 'a space' : hasUnsafeCharacters(char) || /\s/u.test(char) ? code : `"${char}" (${code})`;
  return `must be printable ASCII without spaces: character ${at + 1} is ${shown}`;
}

/**
 * IDM_CLIENT_SECRET, read as a secret file is: one line, without the spaces and line break around
 * it (sent with its newline, it was refused as a wrong secret), and long enough to be masked.
 */
export function envClientSecret(env: NodeJS.ProcessEnv): string | undefined {
  const secret = envValue(env, 'IDM_CLIENT_SECRET')?.trim();
  if (secret === undefined) return undefined;
  if (looksLikePem(secret)) throw pemAsSecret('IDM_CLIENT_SECRET', 'A private key goes in IDM_PRIVATE_KEY (private_key_jwt); a certificate and its key are given as files, with IDM_CLIENT_CERT and IDM_CLIENT_KEY (tls_client_auth).');
  if (/[\r\n]/.test(secret)) throw new UsageError('IDM_CLIENT_SECRET holds more than one line.', 'Put only the secret in it.');
  return checkClientSecret(secret, 'IDM_CLIENT_SECRET');
}

/** IDM_ACCESS_TOKEN as it can be sent (`Authorization: Bearer <token>`), trimmed; a usage error, never quoting it, otherwise. */
function envAccessToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = envValue(env, 'IDM_ACCESS_TOKEN')?.trim();
  if (token === undefined) return undefined;
  const problem = accessTokenProblem(token);
  if (problem) {
    const bearer = /^bearer\s/i.test(token);
    throw new UsageError(
      `IDM_ACCESS_TOKEN cannot be sent as a bearer token: it is ${bearer ? 'the token with "Bearer " before it' : problem}.`,
      'Set it to the access token alone (no "Bearer ", no quotes, one line).',
    );
  }
  return token;
}

/** IDM_AUTH_METHOD, checked wherever it is set (a typo is an error, never ignored); undefined when unset. */
export function envAuthMethod(env: NodeJS.ProcessEnv): AuthMethod | undefined {
  const method = envValue(env, 'IDM_AUTH_METHOD');
  if (method !== undefined && !(AUTH_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`IDM_AUTH_METHOD must be one of: ${AUTH_METHODS.join(', ')}.`, 'Correct it, or unset it to use the method of the profile (or post).');
  }
  return method as AuthMethod | undefined;
}

/** IDM_SIGNING_ALG, checked wherever it is set; undefined when unset. */
export function envSigningAlg(env: NodeJS.ProcessEnv): SigningAlg | undefined {
  const alg = envValue(env, 'IDM_SIGNING_ALG');
  if (alg !== undefined && !(SIGNING_ALGS as readonly string[]).includes(alg)) {
    throw new UsageError(`IDM_SIGNING_ALG must be one of: ${SIGNING_ALGS.join(', ')}.`, 'Correct it, or unset it to sign with the default of the key (ES256 for EC keys, else RS256).');
  }
  return alg as SigningAlg | undefined;
}

/** The fix when the key cannot make the algorithm IDM_SIGNING_ALG names. */
const ENV_ALG_FIX = 'Unset IDM_SIGNING_ALG to sign with the default of the key (ES256 for EC keys, else RS256), or set it to one the key can make.';

/**
 * The client of a profile, with the fields IDM_AUTH_METHOD and IDM_SIGNING_ALG replace (README:
 * flags > environment > profile, field by field): a stored secret goes as post or basic as the
 * variable says, a stored key signs with the variable's algorithm. A method the stored credentials
 * cannot serve is a usage error naming the variable, never silently ignored.
 */
function profileClient(name: string, profile: Profile, secret: StoredSecret, envMethod: AuthMethod | undefined, envAlg: SigningAlg | undefined): ClientCredentials {
  const { clientId } = profile;
  const stored = profile.authMethod === 'private_key_jwt' ? 'a private key' : profile.authMethod === 'tls_client_auth' ? 'a client certificate' : 'a client secret';
  const bySecret = (method: AuthMethod | undefined) => method === 'post' || method === 'basic';
  if (envMethod !== undefined && envMethod !== profile.authMethod && !(bySecret(envMethod) && bySecret(profile.authMethod))) {
    const needs = envMethod === 'private_key_jwt' ? 'IDM_PRIVATE_KEY' : 'IDM_CLIENT_SECRET';
    throw new UsageError(
      `IDM_AUTH_METHOD is ${envMethod}, but profile "${name}" stores ${stored} (${profile.authMethod}).`,
      `Unset IDM_AUTH_METHOD to use the profile as it is, or set ${needs} too.`,
    );
  }
  if (profile.authMethod === 'private_key_jwt') {
    const fixSigningAlg =
      envAlg !== undefined
        ? ENV_ALG_FIX
        : `Log in again choosing one the key can make: ${shellCommand(['idm', 'login', '--profile', name, '--private-key-file'])} KEY --signing-alg ALG`;
    return { clientId, authMethod: 'private_key_jwt', privateKeyPem: secret.privateKeyPem, signingAlg: envAlg ?? profile.signingAlg, fixSigningAlg };
  }
  if (profile.authMethod === 'tls_client_auth') return { clientId, authMethod: 'tls_client_auth', clientCert: secret.clientCert, clientKey: secret.clientKey };
  return { clientId, authMethod: envMethod ?? profile.authMethod, clientSecret: secret.clientSecret };
}

/**
 * The tenant a run with these settings works on, as resolveCredentials decides it (IDM_DOMAIN, else
 * the domain of the profile selected), with no credentials read and no error: undefined when there
 * is none (no profile, a profile named that does not exist, a damaged config file). Completion asks.
 */
export function selectedTenant(env: NodeJS.ProcessEnv, profileFlag: string | undefined): Tenant | undefined {
  try {
    const store = readProfiles(configDir(env));
    const profile = store.profiles[selectedProfileName(store, profileFlag)];
    if (!profile && profileFlag !== undefined) return undefined;
    const domain = envValue(env, 'IDM_DOMAIN') ?? profile?.domain;
    const tenant = domain === undefined ? undefined : checkDomain(domain);
    return typeof tenant === 'object' ? tenant : undefined;
  } catch {
    return undefined;
  }
}

/** `signal` stops the read of a key file (IDM_PRIVATE_KEY naming a FIFO that no one writes). */
export async function resolveCredentials(env: NodeJS.ProcessEnv, profileFlag: string | undefined, signal?: AbortSignal): Promise<Resolved> {
  const dir = configDir(env);
  const store = readProfiles(dir);
  const warnings: Warning[] = [];
  const name = selectedProfileName(store, profileFlag);
  const profile = store.profiles[name];

  const envDomain = envValue(env, 'IDM_DOMAIN');
  const envClient = envClientId(env);
  const envSecret = envClientSecret(env);
  const envKey = envValue(env, 'IDM_PRIVATE_KEY');
  const envToken = envAccessToken(env);
  const envMethod = envAuthMethod(env);
  const envAlg = envSigningAlg(env);
  const envCertificate = envMethod === 'tls_client_auth';
  const fromEnv = Boolean(envDomain || envClient || envSecret || envKey || envToken || envCertificate);

  // A profile named on purpose must exist, whatever the environment sets: a mistyped name would
  // otherwise pass unnoticed while the IDM_* credentials are used.
  if (!profile && profileFlag !== undefined) throw unknownProfile(store, profileFlag);
  const domainText = envDomain ?? profile?.domain;
  if (!domainText) {
    const stored = Object.keys(store.profiles).sort();
    if (!fromEnv && stored.length > 0) {
      // Profiles exist, but none is the default (it was removed): say which to choose, not "no profile".
      const use = shellCommand(['idm', 'profiles', 'use', stored[0]!]);
      throw notLoggedIn(
        `No default profile: the stored ${stored.length === 1 ? 'profile is' : 'profiles are'} ${stored.join(', ')}.`,
        `Make one the default ('${use}'), or pass --profile NAME (IDM_PROFILE) to a command; 'idm login' stores a new one.`,
      );
    }
    throw notLoggedIn(fromEnv ? missingVariable(env, 'IDM_DOMAIN') : 'Not logged in: no profile and no credentials in the environment.');
  }
  const tenant = parseDomain(domainText, envDomain ? 'IDM_DOMAIN' : `The domain of profile "${name}"`);
  const base = { tenant, profile: profile ? name : undefined, dir, warnings, ...(profile?.caFile ? { caFile: profile.caFile } : {}) };

  if (envToken) return { ...base, source: 'environment', accessToken: envToken };

  const clientId = envClient ?? profile?.clientId;
  if (!clientId) throw notLoggedIn(missingVariable(env, 'IDM_CLIENT_ID'));

  // IDM_AUTH_METHOD=tls_client_auth over a tls_client_auth profile of this client and domain names
  // the method the profile has: its stored certificate and key serve (the flags still win, in
  // cli/factory.ts tlsFiles), field by field, as a stored secret does under IDM_AUTH_METHOD=basic.
  const storedCertificate = () => {
    if (profile?.authMethod !== 'tls_client_auth' || profile.clientId !== clientId || parseDomain(profile.domain, `The domain of profile "${name}"`).base !== tenant.base) return false;
    try {
      const stored = readSecret(dir, name);
      return stored?.clientCert !== undefined && secretFits(stored, profile);
    } catch {
      return false; // unreadable: the certificate must come from the flags
    }
  };
  if (envCertificate && !envSecret && !envKey && !storedCertificate()) {
    // The certificate and key come from --client-cert/--client-key (IDM_CLIENT_CERT, IDM_CLIENT_KEY).
    return { ...base, source: 'environment', client: { clientId, authMethod: 'tls_client_auth' }, fixCredentials: `correct ${envClient ? 'IDM_CLIENT_ID, ' : ''}IDM_CLIENT_CERT and IDM_CLIENT_KEY.` };
  }
  if (envSecret || envKey) {
    if (envSecret && envKey) throw new UsageError('Both IDM_CLIENT_SECRET and IDM_PRIVATE_KEY are set.', 'Set only one of them.');
    const fixCredentials = `correct ${envClient ? 'IDM_CLIENT_ID and ' : ''}${envSecret ? 'IDM_CLIENT_SECRET' : 'IDM_PRIVATE_KEY'}.`;
    return { ...base, source: 'environment', client: await fromEnvironment(clientId, envSecret, envKey, envMethod, envAlg, profile?.authMethod, signal), fixCredentials };
  }

  // A stored secret belongs to the profile's own client at the profile's own domain: it is never
  // sent for another client (IDM_CLIENT_ID) nor to another domain (IDM_DOMAIN).
  if (!profile || profile.clientId !== clientId || parseDomain(profile.domain, `The domain of profile "${name}"`).base !== tenant.base) {
    const store = `${shellCommand(['idm', 'login', '--profile'])} NAME ${shellCommand(['--domain', tenant.base, '--client-id', clientId])}`;
    // `IDM_CLIENT_SECRET="$SECRET"` with a CI secret this job cannot see: set, but to nothing.
    const empty = ['IDM_CLIENT_SECRET', 'IDM_PRIVATE_KEY'].find((variable) => env[variable] !== undefined && env[variable]!.trim() === '');
    throw notLoggedIn(
      (profile
        ? `Not logged in as client ${clientId} at ${tenant.host}: profile "${name}" holds the secret of client ${profile.clientId} at ${parseDomain(profile.domain, 'The profile domain').host} only.`
        : `No client secret or private key for client ${clientId} at ${tenant.host}.`) + (empty ? ` ${empty} is set, but empty.` : ''),
      empty
        ? `Give ${empty} its value (in CI, a secret the job cannot read is empty), or store the credentials as a profile: ${store}`
        : `Set IDM_CLIENT_SECRET or IDM_PRIVATE_KEY, or store them as a profile: ${store}`,
    );
  }
  const secret = readSecret(dir, name);
  if (!secret) {
    throw notLoggedIn(`Profile "${name}" has no stored secret (logged out?).`, `Run '${shellCommand(['idm', 'login', ...(name === 'default' ? [] : ['--profile', name])])}' to store one.`);
  }
  // config.json read before a login gave the profile another client, its secret after: never sent
  // for the old client (nor to its domain). Nothing is sent; read again, the two agree.
  if (!secretFits(secret, profile)) {
    throw notLoggedIn(
      `Profile "${name}" is for client ${profile.clientId}, but its stored secret is for client ${secret.clientId} (another idm changing the profile at this moment?); nothing was sent.`,
      `Run the command again; if this stays, log in again: ${shellCommand(['idm', 'login', '--profile', name])}`,
    );
  }
  const file = credentialsFile(dir, name);
  for (const path of [dir, file]) {
    const warning = openToOthers(path);
    if (warning) warnings.push(warning);
  }
  const client = profileClient(name, profile, secret, envMethod, envAlg);
  if (!client.clientSecret && !client.privateKeyPem && !(client.clientCert && client.clientKey)) {
    const what = profile.authMethod === 'private_key_jwt' ? 'private key' : profile.authMethod === 'tls_client_auth' ? 'client certificate' : 'client secret';
    throw notLoggedIn(`Profile "${name}" stores no ${what}.`, `Run '${shellCommand(['idm', 'login', '--profile', name])}' to store one.`);
  }
  return { ...base, source: 'profile', client, fixCredentials: `run: ${shellCommand(['idm', 'login', '--profile', name])}`, secretFile: file };
}

async function fromEnvironment(
  clientId: string,
  secret: string | undefined,
  key: string | undefined,
  method: AuthMethod | undefined,
  alg: SigningAlg | undefined,
  profileMethod: AuthMethod | undefined,
  signal: AbortSignal | undefined,
): Promise<ClientCredentials> {
  if (method === 'tls_client_auth') {
    throw new UsageError(`IDM_AUTH_METHOD is tls_client_auth, which proves the client with a certificate, but ${secret ? 'IDM_CLIENT_SECRET' : 'IDM_PRIVATE_KEY'} is set too.`, 'Unset one of them.');
  }
  if (key) {
    if (method === 'post' || method === 'basic') {
      throw new UsageError(`IDM_AUTH_METHOD is ${method}, which sends a client secret, but IDM_PRIVATE_KEY is set.`, 'Set IDM_CLIENT_SECRET instead of IDM_PRIVATE_KEY, or unset IDM_AUTH_METHOD (or set it to private_key_jwt).');
    }
    return { clientId, authMethod: 'private_key_jwt', privateKeyPem: await privateKeyFromEnvironment(key, signal), signingAlg: alg, ...(alg === undefined ? {} : { fixSigningAlg: ENV_ALG_FIX }) };
  }
  const chosen = method ?? (profileMethod === 'basic' ? 'basic' : 'post');
  if (chosen === 'private_key_jwt') throw new UsageError('IDM_AUTH_METHOD is private_key_jwt but IDM_PRIVATE_KEY is not set.');
  return { clientId, authMethod: chosen, clientSecret: checkClientSecret(secret ?? '', 'IDM_CLIENT_SECRET') };
}
