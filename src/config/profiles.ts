// Profiles: a domain, a client id and how the client authenticates, by name, one of them the default.
// conf owns config.json and writes it (atomically); the read path (every command) parses the same
// file with node:fs, because loading conf costs ~28 ms per start and reading needs none of it.
// Secrets live apart, one 0600 file per profile under credentials/.
import { IdmError } from '../cli/errors.js';
import { ExitCode } from '../cli/exit-codes.js';
import { checkDomain } from './domain.js';
import { acquireLock, ensurePrivateDir, readTextIfExists, removeIfExists, writeFileAtomic } from './files.js';
import { configFile, credentialsFile } from './paths.js';

import { AUTH_METHODS, type AuthMethod, type SigningAlg } from './methods.js';

export { AUTH_METHODS, SIGNING_ALGS, type AuthMethod, type SigningAlg } from './methods.js';

export interface Profile {
  /** Base URL: `https://tenant.example.com` or `http://127.0.0.1:4010`. */
  domain: string;
  clientId: string;
  authMethod: AuthMethod;
  signingAlg?: SigningAlg;
}

export interface ProfileStore {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

/** What a profile's credentials file holds: exactly one of the two. */
export interface StoredSecret {
  clientSecret?: string;
  privateKeyPem?: string;
}

function corrupt(file: string, problem: string): IdmError {
  return new IdmError(`The settings file ${file} ${problem}.`, {
    exitCode: ExitCode.Usage,
    code: 'bad_config',
    hint: `Fix it, or move it away and run 'idm login' again to recreate it.`,
  });
}

/** Reads config.json; a missing file is an empty store. A damaged one is an error naming the file. */
export function readProfiles(dir: string): ProfileStore {
  const file = configFile(dir);
  const text = readTextIfExists(file);
  if (text === undefined || text.trim() === '') return { profiles: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw corrupt(file, 'is not valid JSON');
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw corrupt(file, 'does not hold a JSON object');
  const { defaultProfile, profiles = {} } = data as Record<string, unknown>;
  if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) throw corrupt(file, 'has a "profiles" entry that is not an object');
  for (const [name, profile] of Object.entries(profiles as Record<string, unknown>)) {
    const p = profile as Partial<Profile> | null;
    if (!p || typeof p !== 'object') throw corrupt(file, `has a profile "${name}" that is not an object`);
    if (typeof p.domain !== 'string' || typeof checkDomain(p.domain) === 'string') throw corrupt(file, `has no valid domain in profile "${name}"`);
    if (typeof p.clientId !== 'string' || p.clientId === '') throw corrupt(file, `has no client id in profile "${name}"`);
    if (!AUTH_METHODS.includes(p.authMethod as AuthMethod)) throw corrupt(file, `has an unknown authentication method in profile "${name}"`);
  }
  return {
    defaultProfile: typeof defaultProfile === 'string' ? defaultProfile : undefined,
    profiles: profiles as Record<string, Profile>,
  };
}

/**
 * The profile a command works on: the one named with --profile (or IDM_PROFILE), else the default
 * profile while it exists, else `default`. Every command, login included, decides it here.
 */
export function selectedProfileName(store: ProfileStore, flag: string | undefined): string {
  if (flag !== undefined) return flag;
  return store.defaultProfile && store.profiles[store.defaultProfile] ? store.defaultProfile : 'default';
}

/** A profile picked with --profile (or IDM_PROFILE) that does not exist: the same error, exit 4, for every command. */
export function unknownProfile(store: ProfileStore, name: string): IdmError {
  const known = Object.keys(store.profiles).sort();
  const create = `Create it with 'idm login --profile ${name}'.`;
  return new IdmError(`There is no profile named "${name}".`, {
    exitCode: ExitCode.Auth,
    code: 'no_credentials',
    hint: known.length ? `Known profiles: ${known.join(', ')}. ${create}` : create,
  });
}

export function readSecret(dir: string, profile: string): StoredSecret | undefined {
  const text = readTextIfExists(credentialsFile(dir, profile));
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as StoredSecret;
    if (typeof data.clientSecret === 'string' || typeof data.privateKeyPem === 'string') return data;
  } catch {
    // fall through: a damaged credentials file is as good as none (login writes a new one)
  }
  return undefined;
}

/**
 * Changes the store with conf, under a lock so that parallel logins lose no profile: each one
 * re-reads the file inside the lock, changes its own entry and writes the whole file atomically.
 */
async function updateStore(dir: string, change: (store: ProfileStore) => void): Promise<void> {
  ensurePrivateDir(dir);
  readProfiles(dir); // a damaged file: the clear error, not conf's
  const lock = await acquireLock(`${configFile(dir)}.lock`, { waitMs: 10_000, staleMs: 10_000 });
  try {
    const { default: Conf } = await import('conf');
    const conf = new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: 'config',
      projectName: 'idm',
      projectSuffix: '',
      configFileMode: 0o600,
    });
    const store: ProfileStore = {
      defaultProfile: conf.get('defaultProfile') as string | undefined,
      profiles: { ...((conf.get('profiles') as Record<string, Profile> | undefined) ?? {}) },
    };
    change(store);
    conf.set('profiles', store.profiles);
    if (store.defaultProfile === undefined) conf.delete('defaultProfile');
    else conf.set('defaultProfile', store.defaultProfile);
  } finally {
    lock?.release();
  }
}

/** Saves a profile and its secret; the first profile saved becomes the default. */
export async function saveProfile(dir: string, name: string, profile: Profile, secret: StoredSecret): Promise<{ isDefault: boolean }> {
  writeFileAtomic(credentialsFile(dir, name), `${JSON.stringify(secret)}\n`);
  let isDefault = false;
  await updateStore(dir, (store) => {
    store.profiles[name] = profile;
    if (!store.defaultProfile || !store.profiles[store.defaultProfile]) store.defaultProfile = name;
    isDefault = store.defaultProfile === name;
  });
  return { isDefault };
}

/** Removes a profile's secret file. Returns whether there was one. */
export function removeSecret(dir: string, profile: string): boolean {
  return removeIfExists(credentialsFile(dir, profile));
}
