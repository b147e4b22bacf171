// Profiles: a domain, a client id and how the client authenticates, by name, one of them the
// default. Read here with node:fs on every command (no library: each would cost start-up time, and reading
// needs none of it); written only by ./store.ts, under its lock. Secrets live apart, one 0600 file
// per profile under credentials/.
import { ConfigError, IdmError, UsageError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';
import { shellCommand } from '../core/text.js';
import { checkDomain } from './domain.js';
import { directoryInTheWayHint, fileInTheWay, readTextIfExists, TOO_LARGE, tooLargeWhy } from './files.js';
import { AUTH_METHODS, SIGNING_ALGS, type AuthMethod, type SigningAlg } from './methods.js';
import { configFile, credentialsFile, PROFILE_NAME } from './paths.js';

export { AUTH_METHODS, SIGNING_ALGS, type AuthMethod, type SigningAlg } from './methods.js';

export interface Profile {
  /** Base URL: `https://tenant.example.com` or `http://127.0.0.1:4010`. */
  domain: string;
  clientId: string;
  authMethod: AuthMethod;
  signingAlg?: SigningAlg;
  /** A private CA to trust for this tenant (a path; `--ca-file` at login). */
  caFile?: string;
}

export interface ProfileStore {
  defaultProfile?: string;
  /** Without a prototype: a profile named `constructor` is just a name. */
  profiles: Record<string, Profile>;
  /** The file's other top-level entries (another idm version's settings), written back as they were. */
  others?: Record<string, unknown>;
}

/**
 * What a profile's credentials file holds: a client secret, a private key, or (tls_client_auth) the
 * paths of the client certificate and its key, so that logout forgets them as it forgets a secret.
 */
export interface StoredSecret {
  clientSecret?: string;
  privateKeyPem?: string;
  clientCert?: string;
  clientKey?: string;
  /**
   * The client it was stored for (written with it since the profile and its secret are two files):
   * a run that read config.json just before a login gave the profile another client, and its
   * secret just after, has the old profile and the new secret, which must never be sent together.
   */
  clientId?: string;
}

/** Whether `secret` may be sent for `profile`: stored for its client (or stored before secrets named their client). */
export function secretFits(secret: StoredSecret, profile: Profile): boolean {
  return secret.clientId === undefined || secret.clientId === profile.clientId;
}

export function emptyProfiles(): Record<string, Profile> {
  return Object.create(null) as Record<string, Profile>;
}

function corrupt(file: string, problem: string): ConfigError {
  return new ConfigError(`The settings file ${file} ${problem}.`, `Fix it, or move it away and log in again to recreate it: ${moveAwayAndLogIn(file)}`);
}

/** The command that moves a settings file idm cannot use out of the way and logs in again (`profile`: its secret's profile). */
function moveAwayAndLogIn(file: string, profile?: string): string {
  return `${shellCommand(['mv', '--', file, `${file}.bak`])} && ${shellCommand(profile === undefined ? ['idm', 'login'] : ['idm', 'login', '--profile', profile])}`;
}

/**
 * A settings file idm cannot read (permissions, a directory in its place, far too large): the file and
 * the fix. `profile`: the file is that profile's secret, which its own login writes anew.
 */
export function unreadable(file: string, error: unknown, exitCode: typeof ExitCode.Usage | typeof ExitCode.Auth = ExitCode.Usage, profile?: string): ConfigError {
  const code = (error as NodeJS.ErrnoException).code;
  const blocker = code === 'ENOTDIR' ? fileInTheWay(file) : undefined;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'EISDIR'
        ? 'it is a directory'
        : blocker !== undefined
          ? `${blocker} is a file, not a directory`
          : code === TOO_LARGE
            ? tooLargeWhy
            : (code ?? 'it cannot be read');
  const hint =
    code === 'EISDIR'
      ? directoryInTheWayHint(file)
      : blocker !== undefined
        ? `Set IDM_CONFIG_DIR to a directory (mktemp -d makes one), or move the file away: ${shellCommand(['mv', '--', blocker, `${blocker}.bak`])}`
        : code === TOO_LARGE
          ? `idm never writes one that large: move it away and log in again to recreate it: ${moveAwayAndLogIn(file, profile)}`
          : 'Check its owner and permissions (idm makes it 0600, owned by you).';
  return new ConfigError(`Cannot read ${file}: ${why}.`, hint, {
    exitCode,
    code: exitCode === ExitCode.Auth ? 'bad_credentials' : 'bad_config',
    cause: error,
  });
}

/** Reads config.json; a missing file is an empty store. A damaged one is an error naming the file. */
export function readProfiles(dir: string): ProfileStore {
  const file = configFile(dir);
  let text: string | undefined;
  try {
    text = readTextIfExists(file);
  } catch (error) {
    throw unreadable(file, error);
  }
  const profiles = emptyProfiles();
  if (text === undefined || text.trim() === '') return { profiles };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw corrupt(file, 'is not valid JSON');
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw corrupt(file, 'does not hold a JSON object');
  const { defaultProfile, profiles: stored = {}, ...others } = data as Record<string, unknown>;
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) throw corrupt(file, 'has a "profiles" entry that is not an object');
  for (const [name, profile] of Object.entries(stored as Record<string, unknown>)) {
    // Names become file names (credentials/<name>.json): one planted as `../../x` must never be used.
    if (!PROFILE_NAME.test(name)) throw corrupt(file, `has a profile whose name is not valid (${JSON.stringify(name.slice(0, 80))})`);
    const p = profile as Partial<Profile> | null;
    if (!p || typeof p !== 'object') throw corrupt(file, `has a profile "${name}" that is not an object`);
    if (typeof p.domain !== 'string' || typeof checkDomain(p.domain) === 'string') throw corrupt(file, `has no valid domain in profile "${name}"`);
    if (typeof p.clientId !== 'string' || p.clientId === '') throw corrupt(file, `has no client id in profile "${name}"`);
    if (!AUTH_METHODS.includes(p.authMethod as AuthMethod)) throw corrupt(file, `has an unknown authentication method in profile "${name}"`);
    // Sent in the assertion's header as it is: a typo (rs256) was refused as a wrong key (401, exit 4).
    if (p.signingAlg !== undefined && !SIGNING_ALGS.includes(p.signingAlg)) throw corrupt(file, `has an unknown signing algorithm in profile "${name}" (one of ${SIGNING_ALGS.join(', ')}, or none)`);
    if (p.caFile !== undefined && (typeof p.caFile !== 'string' || p.caFile === '')) throw corrupt(file, `has a caFile that is not a path in profile "${name}"`);
    profiles[name] = p as Profile;
  }
  return { defaultProfile: typeof defaultProfile === 'string' && PROFILE_NAME.test(defaultProfile) ? defaultProfile : undefined, profiles, others };
}

/**
 * The profile a command works on: the one named with --profile (or IDM_PROFILE), else the default
 * profile while it exists, else `default`. Every command, login included, decides it here.
 */
export function selectedProfileName(store: ProfileStore, flag: string | undefined): string {
  if (flag !== undefined) return flag;
  return store.defaultProfile && store.profiles[store.defaultProfile] ? store.defaultProfile : 'default';
}

/**
 * A profile picked with --profile (or IDM_PROFILE) that does not exist: the same error, exit 4, for
 * every command. `removing`: the command would remove it (logout, profiles remove), where creating
 * it first is no advice: the hint names the known profiles only.
 */
export function unknownProfile(store: ProfileStore, name: string, { removing = false } = {}): IdmError {
  const known = Object.keys(store.profiles).sort();
  // `Prod` for `prod`: one a login would not make (caseTwin), so never advised to be created.
  const twin = caseTwin(store, name);
  const create =
    twin !== undefined ? `Did you mean "${twin}"?` : removing ? (known.length ? '' : 'There are no profiles yet.') : `Create it with '${shellCommand(['idm', 'login', '--profile', name])}'.`;
  return new IdmError(`There is no profile named "${name}".`, {
    exitCode: ExitCode.Auth,
    code: 'no_credentials',
    hint: known.length ? `Known profiles: ${known.join(', ')}.${create ? ` ${create}` : ''}` : create,
  });
}

/**
 * `idm profiles use` or `remove` without a name: a usage error (exit 2) naming the known profiles,
 * as an unknown name does, so that the next try can be the right one.
 */
export function missingProfileName(store: ProfileStore, command: string): UsageError {
  const known = Object.keys(store.profiles).sort();
  const which = known.length ? `Known profiles: ${known.join(', ')}.` : 'There are no profiles yet.';
  return new UsageError('Missing <name>: the profile.', `${which} Run '${command} --help' for usage.`);
}

/**
 * Another profile whose name differs from `name` only in case, when `name` is not one already: on a
 * case-insensitive file system (macOS, Windows) the two would share credentials/<name>.json, and
 * one's secret would be sent as the other's, to its domain. Login refuses to make such a twin.
 */
export function caseTwin(store: ProfileStore, name: string): string | undefined {
  if (store.profiles[name]) return undefined;
  const folded = name.toLowerCase();
  return Object.keys(store.profiles).find((other) => other.toLowerCase() === folded);
}

/**
 * Whether a profile has a stored secret, for the listings (profiles list, auth status): a file that
 * cannot be read is `unreadable`, with the error a command of that profile meets, so that one broken
 * profile does not stop the listing of the others.
 */
export function storedSecretState(dir: string, profile: string): { state: 'stored' | 'none' | 'unreadable'; problem?: ConfigError } {
  try {
    return { state: readSecret(dir, profile) === undefined ? 'none' : 'stored' };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { state: 'unreadable', problem: error };
  }
}

/** A profile's stored secret; a damaged file is as good as none (login writes a new one). */
export function readSecret(dir: string, profile: string): StoredSecret | undefined {
  const file = credentialsFile(dir, profile);
  let text: string | undefined;
  try {
    text = readTextIfExists(file);
  } catch (error) {
    throw unreadable(file, error, ExitCode.Auth, profile);
  }
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as StoredSecret;
    if (typeof data?.clientSecret === 'string' || typeof data?.privateKeyPem === 'string') return data;
    if (typeof data?.clientCert === 'string' && typeof data.clientKey === 'string') return data;
  } catch {
    // fall through
  }
  return undefined;
}
