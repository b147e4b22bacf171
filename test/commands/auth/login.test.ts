// login / logout / auth status run functions against the sandbox: every client authentication
// method by flags, secrets from a file and from stdin, prompts (with a scripted Prompter) for what
// flags leave out, what is stored where and with which modes, and what status shows.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, isLock, type Lock } from '../../../src/config/files.js';
import { loginRun, type LoginOptions } from '../../../src/commands/auth/login.js';
import { logoutRun } from '../../../src/commands/auth/logout.js';
import { authStatusRun } from '../../../src/commands/auth/status.js';
import { listRun } from '../../../src/commands/streams/list.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { credentialsEnv, runBash, runIdm, runInProcess, spawnIdm, stderrUntil, tempConfigDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/sandbox.js';
import { createCa } from '../../../src/sandbox/pki.js';
import { runCommand, type RunSetup } from '../../helpers/deps.js';

const sandbox = useSandbox();
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempConfigDir()));
afterEach(() => {
  cleanup();
  rmSync(secretPath(), { force: true }); // secretFile() writes beside the config directory
});

const run = (fn: Parameters<typeof runCommand>[0], setup: RunSetup = {}) => runCommand(fn, { ...setup, env: { IDM_CONFIG_DIR: dir, ...setup.env } });

const login = (opts: LoginOptions, setup: RunSetup = {}) => run((deps) => loginRun(opts, deps), setup);
const status = (setup: RunSetup = {}) => run((deps) => authStatusRun({}, deps), setup);

const secretPath = () => join(dir, '..', `${dir.split('/').pop()}-secret.txt`);

function secretFile(content: string): string {
  const file = secretPath();
  writeFileSync(file, content);
  return file;
}

const tokenBodies = (since: number) => sandbox().requests.slice(since).filter((r) => r.path === '/oauth/token');

describe('idm login by flags', () => {
  it('post: reads the secret from a file, proves it with a token request, stores profile and secret apart (0600, dir 0700)', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const before = sandbox().requests.length;
    const { stderr, stdout, error } = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(`${clientSecret}\n`) });
    expect(error).toBeUndefined();
    expect(stdout).toBe('');
    expect(stderr).toContain(`Logged in to ${new URL(sandbox().url).host} as client ${clientId} (profile "default", the default; post)`);
    expect(stderr).toMatch(/Token scopes: read:event_streams .*create:directory_provisionings/);
    const [token] = tokenBodies(before);
    expect(new URLSearchParams(token!.body).get('client_secret')).toBe(clientSecret);

    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config).toEqual({ profiles: { default: { domain: sandbox().url, clientId, authMethod: 'post' } }, defaultProfile: 'default' });
    expect(JSON.stringify(config)).not.toContain(clientSecret);
    const credentials = join(dir, 'credentials', 'default.json');
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toEqual({ clientSecret, clientId });
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(join(dir, 'tokens'))) expect(statSync(join(dir, 'tokens', file)).mode & 0o777).toBe(0o600);

    // The next command uses the token login cached: no token request.
    const issued = sandbox().tokensIssued();
    const list = await run((deps) => listRun({ all: false, take: 1 }, deps));
    expect(list.error).toBeUndefined();
    expect(sandbox().tokensIssued()).toBe(issued);
  });

  it('basic: the secret from stdin (-) goes in an HTTP Basic header, not the body', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    const before = sandbox().requests.length;
    const { error, stderr } = await login({ domain: sandbox().url, clientId, clientSecretFile: '-', authMethod: 'basic' }, { stdin: `${clientSecret}\n`, profile: 'ci' });
    expect(error).toBeUndefined();
    expect(stderr).toContain('profile "ci", the default; basic');
    expect(stderr).toContain('Token scopes: read:event_streams\n');
    const [token] = tokenBodies(before);
    expect(token!.headers.authorization).toBe(`Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`);
    expect(token!.body).not.toContain(clientSecret);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.ci.authMethod).toBe('basic');
  });

  it('basic, then a new secret without --auth-method: the profile stays basic, as --help says', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    expect((await login({ domain: sandbox().url, clientId, clientSecretFile: '-', authMethod: 'basic' }, { stdin: `${clientSecret}\n`, profile: 'kept' })).error).toBeUndefined();
    const before = sandbox().requests.length;
    const { error, stderr } = await login({ domain: sandbox().url, clientId, clientSecretFile: '-' }, { stdin: `${clientSecret}\n`, profile: 'kept' });
    expect(error).toBeUndefined();
    expect(stderr).toContain(`(profile "kept", the default; basic)`);
    expect(tokenBodies(before)[0]!.headers.authorization).toMatch(/^Basic /);
    const help = (await runInProcess(['login', '--help'], { configDir: dir })).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('(default: private_key_jwt with a key; with a secret, post, or basic when the profile has it already)');
  });

  it('private_key_jwt: signs a fresh assertion per token request and stores the key, not a secret', async () => {
    const { clientId, privateKeyPem } = sandbox().clients.admin;
    const keyFile = secretFile(privateKeyPem);
    const before = sandbox().requests.length;
    const { error, stderr } = await login({ domain: sandbox().url, clientId, privateKeyFile: keyFile }, { profile: 'jwt' });
    expect(error).toBeUndefined();
    expect(stderr).toContain('private_key_jwt');
    const form = new URLSearchParams(tokenBodies(before)[0]!.body);
    expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const [header, payload] = form.get('client_assertion')!.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(payload).toMatchObject({ iss: clientId, sub: clientId, aud: `${sandbox().url}/` });
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(300);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.jwt).toEqual({ domain: sandbox().url, clientId, authMethod: 'private_key_jwt', signingAlg: 'RS256' });
    expect(JSON.parse(readFileSync(join(dir, 'credentials', 'jwt.json'), 'utf8'))).toEqual({ privateKeyPem, clientId });

    // Cold cache (logout), two runs of the command: a new assertion each time a token is needed.
    await run((deps) => logoutRun({}, deps), { profile: 'jwt' });
    const mark = sandbox().requests.length;
    for (const signingAlg of ['PS256', 'RS384'] as const) {
      const again = await login({ domain: sandbox().url, clientId, privateKeyFile: keyFile, signingAlg }, { profile: 'jwt' });
      expect(again.error).toBeUndefined();
    }
    const assertions = tokenBodies(mark).map((r) => new URLSearchParams(r.body).get('client_assertion'));
    expect(assertions).toHaveLength(2);
    expect(assertions[0]).not.toBe(assertions[1]);
    expect(JSON.parse(Buffer.from(assertions[0]!.split('.')[0]!, 'base64url').toString()).alg).toBe('PS256');
  });

  it('a new key for a profile that signs with PS256 or RS384 keeps its algorithm (the key can make it); a key of another type takes its own default', async () => {
    const { clientId, privateKeyPem } = sandbox().clients.admin;
    const keyFile = secretFile(privateKeyPem);
    const stored = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.jwt.signingAlg;
    expect((await login({ domain: sandbox().url, clientId, privateKeyFile: keyFile, signingAlg: 'PS256' }, { profile: 'jwt' })).error).toBeUndefined();
    // The rotated key given alone (the rest from the profile), as README's re-login has it.
    const mark = sandbox().requests.length;
    expect((await login({ privateKeyFile: keyFile }, { profile: 'jwt' })).error).toBeUndefined();
    const assertion = new URLSearchParams(tokenBodies(mark)[0]!.body).get('client_assertion')!;
    expect(JSON.parse(Buffer.from(assertion.split('.')[0]!, 'base64url').toString()).alg).toBe('PS256');
    expect(stored()).toBe('PS256');
    // An EC key cannot make PS256: its own default, ES256 (refused here, as the sandbox's client has an RSA key).
    const ecKey = secretFile(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const before = sandbox().requests.length;
    await login({ privateKeyFile: ecKey }, { profile: 'jwt' });
    const ec = new URLSearchParams(tokenBodies(before)[0]!.body).get('client_assertion')!;
    expect(JSON.parse(Buffer.from(ec.split('.')[0]!, 'base64url').toString()).alg).toBe('ES256');
  });

  it('wrong credentials: exit 4 with the token endpoint words, and nothing is saved', async () => {
    const { error } = await login({ domain: sandbox().url, clientId: sandbox().clients.admin.clientId, clientSecretFile: secretFile('wrong-secret') });
    expect(error?.exitCode).toBe(4);
    expect(error?.message).toBe('Could not get an access token: Client authentication failed (401 invalid_client).');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expect(existsSync(join(dir, 'credentials', 'default.json'))).toBe(false);
  });

  it('without a terminal, names every missing flag (exit 2) and sends nothing', async () => {
    const before = sandbox().requests.length;
    const { error } = await login({});
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe('Missing --domain, --client-id, --client-secret-file (or --private-key-file).');
    // CI sets variables: each missing flag's variable is named too.
    expect(error?.hint).toBe(
      'idm login cannot ask here (stdin, stdout and stderr are not terminals): pass the flags (a secret from a file, or from stdin with --client-secret-file -), or set IDM_DOMAIN, IDM_CLIENT_ID, IDM_CLIENT_SECRET (or IDM_PRIVATE_KEY).',
    );
    expect(sandbox().requests.length).toBe(before);
  });

  it('a known profile needs only the new secret (rotation); the old cached token is replaced', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'rot' });
    const issued = sandbox().tokensIssued();
    const { error } = await login({ clientSecretFile: secretFile(clientSecret) }, { profile: 'rot' });
    expect(error).toBeUndefined();
    expect(sandbox().tokensIssued()).toBe(issued + 1); // login always proves the secret, cache or not
  });

  it('a known profile logged in again without its proof, no terminal: the error names the profile and the command that gives it (built binary; pasted, it logs in)', async () => {
    const { clientId, clientSecret, privateKeyPem } = sandbox().clients.reader;
    const host = new URL(sandbox().url).host;
    const secret = secretFile(clientSecret);
    const idm = (args: string[]) => runIdm(args, { configDir: dir });
    expect((await idm(['login', '--profile', 'prod', '--domain', sandbox().url, '--client-id', clientId, '--client-secret-file', secret])).code).toBe(0);
    writeFileSync(join(dir, 'key.pem'), privateKeyPem);
    expect((await idm(['login', '--profile', 'jwt', '--domain', sandbox().url, '--client-id', clientId, '--private-key-file', join(dir, 'key.pem')])).code).toBe(0);
    const before = sandbox().requests.length;

    const again = await idm(['login', '--profile', 'prod']);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `Error: Missing --client-secret-file to log in again to profile "prod" (client ${clientId} at ${host}, post).\n` +
        'idm login cannot ask here (stdin, stdout and stderr are not terminals): give the secret: idm login --profile prod --client-secret-file FILE (or - for stdin), or set IDM_CLIENT_SECRET.\n',
    );
    const key = await idm(['login', '--profile', 'jwt']);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain(`Error: Missing --private-key-file to log in again to profile "jwt" (client ${clientId} at ${host}, private_key_jwt).\n`);
    expect(key.stderr).toContain('give the key: idm login --profile jwt --private-key-file KEY (or - for stdin), or set IDM_PRIVATE_KEY.');
    expect(sandbox().requests.length).toBe(before);

    const command = /give the secret: (idm login [^(]*)FILE/.exec(again.stderr)![1]!;
    const pasted = await runBash(`${command}${secret}`, { cwd: dir, configDir: dir });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stderr).toContain('(profile "prod", the default; post)');
  });

  it('a run that read config.json before a login gave the profile another client, and its secret after, never sends that secret for the old client (built binary)', async () => {
    const { admin, reader } = sandbox().clients;
    const idm = (args: string[]) => runIdm(args, { configDir: dir });
    expect((await idm(['login', '--profile', 'prod', '--domain', sandbox().url, '--client-id', reader.clientId, '--client-secret-file', secretFile(reader.clientSecret)])).code).toBe(0);
    const credentials = join(dir, 'credentials', 'prod.json');
    // The secret is stored with the client it is for.
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toEqual({ clientSecret: reader.clientSecret, clientId: reader.clientId });
    expect((await idm(['logout', '--profile', 'prod'])).code).toBe(0); // no cached token: the next run needs the secret
    // What such a run reads: the profile as it was (client reader), the secret a login for client admin wrote first.
    writeFileSync(credentials, `${JSON.stringify({ clientSecret: admin.clientSecret, clientId: admin.clientId })}\n`, { mode: 0o600 });
    const before = sandbox().requests.length;
    const result = await idm(['streams', 'list', '--profile', 'prod']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `Error: Profile "prod" is for client ${reader.clientId}, but its stored secret is for client ${admin.clientId} (another idm changing the profile at this moment?); nothing was sent.\n` +
        "Run the command again; if this stays, log in again: idm login --profile prod\n",
    );
    expect(sandbox().requests.length).toBe(before);
    // Once config.json names the client the secret is for, as the login's next write makes it, the secret is used.
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    config.profiles.prod.clientId = admin.clientId;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    const after = await idm(['streams', 'list', '--profile', 'prod', '--take', '1']);
    expect(after.code, after.stderr).toBe(0);
  });

  it('takes IDM_DOMAIN, IDM_CLIENT_ID and IDM_CLIENT_SECRET when flags are absent', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const { error } = await login({}, { env: credentialsEnv(sandbox()) });
    expect(error).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, 'credentials', 'default.json'), 'utf8'))).toEqual({ clientSecret, clientId });
  });

  it('--json prints the result as one object on stdout', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    const { stdout, stderr } = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { json: true });
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toMatchObject({ profile: 'default', default: true, domain: sandbox().url, clientId, authMethod: 'post', scopes: ['read:event_streams'] });
    expect(stdout).not.toContain(clientSecret);
  });
});

describe('idm login without --profile: the default profile is replaced only on purpose', () => {
  const config = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

  it('same domain and client: a new secret for the default profile, whatever its name', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    expect((await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'prod' })).error).toBeUndefined();
    const { error, stderr } = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    expect(error).toBeUndefined();
    expect(stderr).toContain('(profile "prod", the default; post)');
    expect(Object.keys(config().profiles)).toEqual(['prod']);
  });

  it('another client, no terminal: a usage error naming both ways out; nothing sent, nothing changed', async () => {
    const { reader, admin } = sandbox().clients;
    await login({ domain: sandbox().url, clientId: reader.clientId, clientSecretFile: secretFile(reader.clientSecret) });
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const sent = sandbox().requests.length;
    const { error } = await login({ domain: sandbox().url, clientId: admin.clientId, clientSecretFile: secretFile(admin.clientSecret) });
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe(`The default profile "default" is client ${reader.clientId} at ${new URL(sandbox().url).host}; this login is for client ${admin.clientId} at ${new URL(sandbox().url).host}.`);
    expect(error?.hint).toBe('Pass --profile NAME to add a profile for it, or --profile default to replace "default".');
    expect(sandbox().requests.length).toBe(sent);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(JSON.parse(readFileSync(join(dir, 'credentials', 'default.json'), 'utf8'))).toEqual({ clientSecret: reader.clientSecret, clientId: reader.clientId });
  });

  it('another client at a terminal: asks (default no); no keeps the profile, yes replaces it', async () => {
    const { reader, admin } = sandbox().clients;
    await login({ domain: sandbox().url, clientId: reader.clientId, clientSecretFile: secretFile(reader.clientSecret) });
    const flags = { domain: sandbox().url, clientId: admin.clientId, clientSecretFile: secretFile(admin.clientSecret) };
    const no = scripted({ 'Replace the default profile': 'no' });
    const declined = await login(flags, { tty: true, prompter: no });
    expect(no.asked).toEqual([`Replace the default profile "default" (client ${reader.clientId} at ${new URL(sandbox().url).host}) with client ${admin.clientId} at ${new URL(sandbox().url).host}?`]);
    expect(declined.error?.exitCode).toBe(130); // cancelled at a confirmation, as in the provisioning wizard
    expect(declined.error?.hint).toBe(`To add a profile instead: idm login --profile NAME --domain ${sandbox().url} --client-id ${admin.clientId}`);
    expect(config().profiles.default.clientId).toBe(reader.clientId);

    const replaced = await login(flags, { tty: true, prompter: scripted({ 'Replace the default profile': 'yes' }) });
    expect(replaced.error).toBeUndefined();
    expect(config().profiles.default.clientId).toBe(admin.clientId);
  });
});

describe('idm login: secrets from stdin, and what a failure says', () => {
  it('--private-key-file - is refused when stdin is a terminal, like --client-secret-file -', async () => {
    const sent = sandbox().requests.length;
    for (const flags of [{ privateKeyFile: '-' }, { clientSecretFile: '-' }]) {
      const { error } = await login({ domain: sandbox().url, clientId: sandbox().clients.admin.clientId, ...flags }, { tty: true, prompter: scripted({}) });
      expect(error?.exitCode).toBe(2);
      expect(error?.message).toBe(`${Object.keys(flags)[0] === 'privateKeyFile' ? '--private-key-file' : '--client-secret-file'} - reads stdin, which is a terminal here.`);
    }
    expect(sandbox().requests.length).toBe(sent);
  });

  it('refused credentials: the hint names the exact command to run again, with the profile and without the secret', async () => {
    const file = secretFile('wrong-secret');
    const { clientId } = sandbox().clients.admin;
    const { error } = await login({ domain: sandbox().url, clientId, clientSecretFile: file, authMethod: 'basic' }, { profile: 'sb2' });
    expect(error?.exitCode).toBe(4);
    expect(error?.hint).toBe(`Check the client id and its secret or private key, then run: idm login --profile sb2 --domain ${sandbox().url} --client-id ${clientId} --auth-method basic --client-secret-file ${file}`);
  });

  it('refused credentials taken from IDM_CLIENT_SECRET or IDM_PRIVATE_KEY: the hint says to correct that variable, since the command alone would take it again', async () => {
    const { clientId } = sandbox().clients.admin;
    const secret = await login({ domain: sandbox().url, clientId }, { profile: 'sb3', env: { IDM_CLIENT_SECRET: 'wrong-secret-from-env' } });
    expect(secret.error?.exitCode).toBe(4);
    expect(secret.error?.hint).toBe(`Check the client id and its secret or private key, then correct IDM_CLIENT_SECRET (the secret this login took) and run: idm login --profile sb3 --domain ${sandbox().url} --client-id ${clientId}`);
    const otherKey = secretFile(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const key = await login({ domain: sandbox().url, clientId }, { profile: 'sb3', env: { IDM_PRIVATE_KEY: otherKey } });
    expect(key.error?.exitCode).toBe(4);
    expect(key.error?.hint).toBe(`Check the client id and its secret or private key, then correct IDM_PRIVATE_KEY (the key this login took) and run: idm login --profile sb3 --domain ${sandbox().url} --client-id ${clientId}`);
    for (const text of [secret.stdout, secret.stderr]) expect(text).not.toContain('wrong-secret-from-env');
  });

  it('a domain from IDM_DOMAIN that cannot be used is named as IDM_DOMAIN\'s, not as a --domain never given', async () => {
    const sent = sandbox().requests.length;
    const { clientId, clientSecret } = sandbox().clients.admin;
    const { error } = await login({ clientId, clientSecretFile: secretFile(clientSecret) }, { env: { IDM_DOMAIN: 'http://tenant.example.com' } });
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toMatch(/^IDM_DOMAIN http:\/\/ is allowed only for loopback hosts/);
    expect(sandbox().requests.length).toBe(sent);
  });

  it('IDM_ACCESS_TOKEN set at login, which every command would send instead of the new profile: a warning says so', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const env = { IDM_ACCESS_TOKEN: 'left-over-access-token' };
    const result = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toContain('Warning: IDM_ACCESS_TOKEN is set: commands send that token, not the one of profile "default", while it is.\nUnset it (unset IDM_ACCESS_TOKEN) to use the profile.\n');
    expect(result.stderr).not.toContain('left-over-access-token');
    const without = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    expect(without.stderr).not.toContain('IDM_ACCESS_TOKEN');
  });

  it('IDM_DOMAIN or IDM_CLIENT_ID set to another tenant or client than --domain / --client-id stored: a warning says the next commands use them', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const other = sandbox().clients.reader.clientId;
    const env = { IDM_DOMAIN: 'https://other.example.com', IDM_CLIENT_ID: other };
    const result = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toContain(
      `Warning: IDM_DOMAIN is set (https://other.example.com) and IDM_CLIENT_ID is set (${other}): commands use them, not profile "default"'s domain (${sandbox().url}) and client (${clientId}), while they are.\nUnset them (unset IDM_DOMAIN IDM_CLIENT_ID) to use the profile.\n`,
    );
    // Without the warning, the next command failed on it.
    const next = await run((deps) => listRun({ all: false, take: 1 }, deps), { env: { IDM_CLIENT_ID: other } });
    expect(next.error?.message).toMatch(/^Not logged in as client /);
    const one = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env: { IDM_CLIENT_ID: other } });
    expect(one.stderr).toContain(`Warning: IDM_CLIENT_ID is set (${other}): commands use it, not profile "default"'s client (${clientId}), while it is.\nUnset it (unset IDM_CLIENT_ID) to use the profile.\n`);
    // Set to what login stored: nothing to say; the secret is never shown.
    const same = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env: { IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: clientId } });
    expect(same.error).toBeUndefined();
    expect(same.stderr).not.toContain('Warning');
    for (const text of [result.stderr, one.stderr]) expect(text).not.toContain(clientSecret);
  });

  it('IDM_DOMAIN or IDM_CLIENT_ID set to a value commands refuse (--domain / --client-id gave the login\'s): the warning says the next commands stop with that error', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const env = { IDM_DOMAIN: 'not a domain', IDM_CLIENT_ID: 'a b' };
    const result = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env });
    expect(result.error).toBeUndefined();
    expect(result.stderr.match(/Warning: /g)).toHaveLength(1);
    expect(result.stderr).toContain(
      'Warning: Commands stop with an error, not use profile "default", while IDM_DOMAIN and IDM_CLIENT_ID are set so: IDM_DOMAIN "not a domain" is not a host name or URL; IDM_CLIENT_ID must be printable ASCII without spaces: character 2 is a space.\nCorrect them, or unset them (unset IDM_DOMAIN IDM_CLIENT_ID), to use the profile.\n',
    );
    const next = await run((deps) => listRun({ all: false, take: 1 }, deps), { env: { IDM_CLIENT_ID: 'a b' } });
    expect(next.error?.message).toBe('IDM_CLIENT_ID must be printable ASCII without spaces: character 2 is a space.');
    // IDM_CLIENT_SECRET too short to be one, while login took the secret from a file: not 'commands send that secret'.
    const short = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env: { IDM_CLIENT_SECRET: 'ab' } });
    expect(short.error).toBeUndefined();
    expect(short.stderr).toContain(
      'Warning: Commands stop with an error, not use profile "default", while IDM_CLIENT_SECRET is set so: IDM_CLIENT_SECRET: the client secret is too short (2 characters).\nCorrect it, or unset it (unset IDM_CLIENT_SECRET), to use the profile.\n',
    );
  });

  it('--client-id and IDM_CLIENT_ID refused by the prompt\'s rule, naming the character and its place (an invisible one by its code point only)', async () => {
    const sent = sandbox().requests.length;
    const cases: Array<[string[], NodeJS.ProcessEnv, string]> = [
      [['login', '--domain', sandbox().url, '--client-id', 'ab\u200bcd'], {}, '--client-id must be printable ASCII without spaces: character 3 is U+200B.'],
      [['login', '--domain', sandbox().url, '--client-id', 'x'.repeat(300)], {}, '--client-id must have at most 256 characters (this one has 300).'],
      [['login', '--domain', sandbox().url, '--client-id', ''], {}, '--client-id is empty.'],
      [['streams', 'list'], { IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: 'abcdü', IDM_CLIENT_SECRET: 'some-secret' }, 'IDM_CLIENT_ID must be printable ASCII without spaces: character 5 is "ü" (U+00FC).'],
      [['streams', 'list'], { IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: 'ab\u001b[31mcd', IDM_CLIENT_SECRET: 'some-secret' }, 'IDM_CLIENT_ID must be printable ASCII without spaces: character 3 is U+001B.'],
    ];
    for (const [args, env, message] of cases) {
      const result = await runInProcess(args, { configDir: dir, env });
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`Error: ${message}`);
    }
    expect(sandbox().requests.length).toBe(sent);
  });

  it('several variables that commands put before the profile: one warning naming each (values but no secret), one unset command', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const other = sandbox().clients.reader.clientId;
    const stale = 'stale-secret-left-in-the-shell';
    const token = 'eyJhbGciOiJub25lIn0.e30.token-from-elsewhere';
    expect((await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'dev' })).error).toBeUndefined();
    const env = { IDM_ACCESS_TOKEN: token, IDM_CLIENT_SECRET: stale, IDM_PROFILE: 'dev', IDM_DOMAIN: 'https://other.example.com', IDM_CLIENT_ID: other };
    const result = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'prod', env });
    expect(result.error).toBeUndefined();
    expect(result.stderr.match(/Warning: /g)).toHaveLength(1);
    expect(result.stderr).toContain(
      `Warning: IDM_ACCESS_TOKEN, IDM_CLIENT_SECRET, IDM_PROFILE (dev), IDM_DOMAIN (https://other.example.com) and IDM_CLIENT_ID (${other}) are set: commands use them, not what profile "prod" stores, while they are.\n` +
        'Unset them (unset IDM_ACCESS_TOKEN IDM_CLIENT_SECRET IDM_PROFILE IDM_DOMAIN IDM_CLIENT_ID) to use the profile.\n',
    );
    for (const secret of [clientSecret, stale, token]) expect(result.stderr).not.toContain(secret);
  });

  it('IDM_AUTH_METHOD or IDM_SIGNING_ALG set to another method or algorithm than --auth-method / --signing-alg stored: the warning names them too', async () => {
    const { clientId, clientSecret, privateKeyPem } = sandbox().clients.admin;
    const basic = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret), authMethod: 'post' }, { env: { IDM_AUTH_METHOD: 'basic' } });
    expect(basic.error).toBeUndefined();
    expect(basic.stderr).toContain('Warning: IDM_AUTH_METHOD is set (basic): commands use it, not profile "default"\'s method (post), while it is.\nUnset it (unset IDM_AUTH_METHOD) to use the profile.\n');
    // Without the warning, the next command sent the stored secret as basic, silently.
    rmSync(join(dir, 'tokens'), { recursive: true, force: true });
    const before = sandbox().requests.length;
    expect((await run((deps) => listRun({ all: false, take: 1 }, deps), { env: { IDM_AUTH_METHOD: 'basic' } })).error).toBeUndefined();
    expect(tokenBodies(before)[0]!.headers.authorization).toMatch(/^Basic /);

    const alg = await login({ domain: sandbox().url, clientId, privateKeyFile: secretFile(privateKeyPem), signingAlg: 'PS256' }, { profile: 'jwt', env: { IDM_SIGNING_ALG: 'RS256' } });
    expect(alg.error).toBeUndefined();
    expect(alg.stderr).toContain('Warning: IDM_SIGNING_ALG is set (RS256): commands use it, not profile "jwt"\'s signing algorithm (PS256), while it is.\nUnset it (unset IDM_SIGNING_ALG) to use the profile.\n');

    // A value no command takes (never shown): commands stop with its error, whatever else is set, and only that is said.
    const both = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret), authMethod: 'post' }, { env: { IDM_AUTH_METHOD: 'bearer\u001b[31m', IDM_PROFILE: 'dev' } });
    expect(both.error).toBeUndefined();
    expect(both.stderr.match(/Warning: /g)).toHaveLength(1);
    expect(both.stderr).toContain(
      'Warning: Commands stop with an error, not use profile "default", while IDM_PROFILE and IDM_AUTH_METHOD are set so: There is no profile named "dev"; IDM_AUTH_METHOD must be one of: post, basic, private_key_jwt, tls_client_auth.\nCorrect them, or unset them (unset IDM_PROFILE IDM_AUTH_METHOD), to use the profile.\n',
    );
    for (const result of [basic, alg, both]) expect(result.stderr).not.toContain(clientSecret);

    // Set to what login stored, or an algorithm over a secret (nothing signs): nothing to say.
    const same = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret), authMethod: 'basic' }, { env: { IDM_AUTH_METHOD: 'basic', IDM_SIGNING_ALG: 'PS256' } });
    expect(same.error).toBeUndefined();
    expect(same.stderr).not.toContain('Warning');
  });

  it('IDM_PROFILE naming another profile than the one --profile stored: a warning says the next commands use that one', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const reader = sandbox().clients.reader;
    expect((await login({ domain: sandbox().url, clientId: reader.clientId, clientSecretFile: secretFile(reader.clientSecret) }, { profile: 'dev' })).error).toBeUndefined();
    const result = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'prod', env: { IDM_PROFILE: 'dev' } });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toContain('Warning: IDM_PROFILE is set (dev): commands use profile "dev", not profile "prod", while it is.\nUnset it (unset IDM_PROFILE), or pass --profile prod to each command.\n');
    // Naming no profile at all: commands stop with that error, which is what is said.
    const none = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'prod', env: { IDM_PROFILE: 'nope' } });
    expect(none.error).toBeUndefined();
    expect(none.stderr).toContain(
      'Warning: Commands stop with an error, not use profile "prod", while IDM_PROFILE is set so: There is no profile named "nope".\nCorrect it, or unset it (unset IDM_PROFILE), to use the profile.\n',
    );
    const next = await runInProcess(['streams', 'list'], { configDir: dir, env: { IDM_PROFILE: 'nope' } });
    expect(next.stderr.split('\n')[0]).toBe('Error: There is no profile named "nope".');
    const same = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'prod', env: { IDM_PROFILE: 'prod' } });
    expect(same.stderr).not.toContain('Warning');
  });

  it('IDM_CLIENT_SECRET or IDM_PRIVATE_KEY set while login took the secret from a file: a warning says commands send the variable\'s, never showing it', async () => {
    const { clientId, clientSecret, privateKeyPem } = sandbox().clients.admin;
    const stale = 'stale-secret-left-in-the-shell';
    const result = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env: { IDM_CLIENT_SECRET: stale } });
    expect(result.error).toBeUndefined();
    expect(result.stderr).toContain('Warning: IDM_CLIENT_SECRET is set: commands send that secret, not the credentials of profile "default", while it is.\nUnset it (unset IDM_CLIENT_SECRET) to use the profile.\n');
    // Without the warning, the next command that needs a token failed on it.
    rmSync(join(dir, 'tokens'), { recursive: true, force: true });
    const next = await run((deps) => listRun({ all: false, take: 1 }, deps), { env: { IDM_CLIENT_SECRET: stale } });
    expect(next.error?.exitCode).toBe(4);
    const key = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env: { IDM_PRIVATE_KEY: privateKeyPem } });
    expect(key.stderr).toContain('Warning: IDM_PRIVATE_KEY is set: commands sign with that key, not the credentials of profile "default", while it is.\nUnset it (unset IDM_PRIVATE_KEY) to use the profile.\n');
    // The same secret in the variable, or the secret login took from it: nothing to say.
    const same = await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { env: { IDM_CLIENT_SECRET: clientSecret } });
    const taken = await login({ domain: sandbox().url, clientId }, { env: { IDM_CLIENT_SECRET: clientSecret } });
    for (const quiet of [same, taken]) {
      expect(quiet.error).toBeUndefined();
      expect(quiet.stderr).not.toContain('Warning');
    }
    for (const text of [result.stderr, key.stderr]) {
      expect(text).not.toContain(stale);
      expect(text).not.toContain('PRIVATE KEY');
    }
  });

  it('a client secret shorter than 4 characters is refused before anything is sent', async () => {
    const sent = sandbox().requests.length;
    const { error } = await login({ domain: sandbox().url, clientId: sandbox().clients.admin.clientId, clientSecretFile: secretFile('abc') });
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe('--client-secret-file: the client secret is too short (3 characters).');
    const one = await login({ domain: sandbox().url, clientId: sandbox().clients.admin.clientId, clientSecretFile: secretFile('a') });
    expect(one.error?.message).toBe('--client-secret-file: the client secret is too short (1 character).');
    expect(sandbox().requests.length).toBe(sent);
  });
});

/** A Prompter that answers from a script and records what it was asked. */
/** `afterValidate`: run once an input's answer has passed its validate (what a person does before Enter lands). */
function scripted(answers: Record<string, string>, afterValidate?: (message: string) => void): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const answer = (message: string) => {
    asked.push(message);
    const key = Object.keys(answers).find((k) => message.startsWith(k));
    if (key === undefined) throw new Error(`unexpected prompt: ${message}`);
    return answers[key]!;
  };
  return {
    asked,
    input: async (message, options) => {
      const value = answer(message);
      const verdict = await options?.validate?.(value);
      if (verdict !== undefined && verdict !== true) throw new Error(`validation failed: ${verdict}`);
      afterValidate?.(message);
      return value;
    },
    password: async (message) => answer(message),
    select: async <T,>(message: string) => answer(message) as T,
    checkbox: async <T,>(message: string) => answer(message).split(',') as T[],
    confirm: async (message) => answer(message) === 'yes',
  };
}

describe('idm login at a terminal', () => {
  it('refused after the method and key file were chosen at the prompt: the command to run again carries them (the path shell-quoted), never the key or secret', async () => {
    const { clientId } = sandbox().clients.admin;
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const keyFile = join(dir, 'my key.pem');
    writeFileSync(keyFile, pem, { mode: 0o600 });
    const byKey = await login({}, { tty: true, prompter: scripted({ 'Tenant domain': sandbox().url, 'Client ID': clientId, 'How does the client authenticate': 'private_key_jwt', 'Private key file': keyFile }) });
    expect(byKey.error?.exitCode).toBe(4);
    expect(byKey.error?.hint).toBe(`Check the client id and its secret or private key, then run: idm login --profile default --domain ${sandbox().url} --client-id ${clientId} --private-key-file '${keyFile}'`);
    // A secret method chosen there: the method goes with the command (the secret is asked again).
    const bySecret = await login({}, { tty: true, prompter: scripted({ 'Tenant domain': sandbox().url, 'Client ID': clientId, 'How does the client authenticate': 'basic', 'Client secret': 'wrong-typed-secret' }) });
    expect(bySecret.error?.exitCode).toBe(4);
    expect(bySecret.error?.hint).toBe(`Check the client id and its secret or private key, then run: idm login --profile default --domain ${sandbox().url} --client-id ${clientId} --auth-method basic`);
    for (const text of [byKey.error!.hint!, byKey.stderr, bySecret.error!.hint!, bySecret.stderr]) {
      expect(text).not.toContain('wrong-typed-secret');
      expect(text).not.toContain('PRIVATE KEY');
    }
  });

  it('a secret or key taken from IDM_CLIENT_SECRET or IDM_PRIVATE_KEY where it would be asked is said to be the variable\'s (never shown); not in scripts', async () => {
    const { clientId, clientSecret, privateKeyPem } = sandbox().clients.admin;
    const asked = scripted({ 'Tenant domain': sandbox().url, 'Client ID': clientId });
    const bySecret = await login({}, { tty: true, prompter: asked, env: { IDM_CLIENT_SECRET: clientSecret } });
    expect(bySecret.error).toBeUndefined();
    expect(bySecret.stderr).toContain("The client secret is IDM_CLIENT_SECRET's (not asked); unset it to type one.\n");
    expect(bySecret.stderr).not.toContain(clientSecret);
    const byKey = await login({}, { tty: true, profile: 'jwt', prompter: scripted({ 'Tenant domain': sandbox().url, 'Client ID': clientId }), env: { IDM_PRIVATE_KEY: privateKeyPem } });
    expect(byKey.error).toBeUndefined();
    expect(byKey.stderr).toContain("The private key is IDM_PRIVATE_KEY's (not asked); unset it to give another.\n");
    const script = await login({ domain: sandbox().url, clientId }, { env: { IDM_CLIENT_SECRET: clientSecret } });
    expect(script.error).toBeUndefined();
    expect(script.stderr).not.toContain('not asked');
  });

  it('asks for domain, client id, method and the secret (masked), then logs in', async () => {
    const { clientId, clientSecret } = sandbox().clients.admin;
    const prompter = scripted({ 'Tenant domain': sandbox().url, 'Client ID': clientId, 'How does the client': 'basic', 'Client secret': clientSecret });
    const { error, stderr } = await login({}, { tty: true, prompter });
    expect(error).toBeUndefined();
    expect(prompter.asked).toEqual(['Tenant domain (host or https:// URL)', 'Client ID', 'How does the client authenticate?', 'Client secret']);
    expect(stderr).toContain(`Checking the credentials with ${new URL(sandbox().url).host}…`);
    expect(stderr).toContain('(profile "default", the default; basic)');
  });

  it('asks only for what flags did not give; a key path for private_key_jwt', async () => {
    const { clientId, privateKeyPem } = sandbox().clients.admin;
    const prompter = scripted({ 'Private key file': secretFile(privateKeyPem) });
    const { error } = await login({ domain: sandbox().url, clientId, authMethod: 'private_key_jwt' }, { tty: true, prompter });
    expect(error).toBeUndefined();
    expect(prompter.asked).toEqual(['Private key file (PEM)']);
  });

  it('reads the key file once, in the prompt\'s check: the key checked is the key used and stored', async () => {
    const { clientId, privateKeyPem } = sandbox().clients.admin;
    const path = secretFile(privateKeyPem);
    // Changed once the prompt's check has passed: a second read would find no key (or another one).
    const prompter = scripted({ 'Private key file': path }, () => writeFileSync(path, 'no key any more\n'));
    const { error } = await login({ domain: sandbox().url, clientId, authMethod: 'private_key_jwt' }, { tty: true, prompter });
    expect(error).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, 'credentials', 'default.json'), 'utf8'))).toEqual({ privateKeyPem, clientId });
  });
});

describe('idm login: the private key file prompt and flag', () => {
  /** Each answer in turn until one passes the prompt's check, as a person would retype: the refusals. */
  function retyping(answers: string[]): Prompter & { refused: string[] } {
    const refused: string[] = [];
    const prompter = scripted({});
    prompter.input = async (message, options) => {
      if (!message.startsWith('Private key file')) throw new Error(`unexpected prompt: ${message}`);
      for (const value of answers) {
        const verdict = (await options?.validate?.(value)) ?? true;
        if (verdict === true) return value;
        refused.push(verdict);
      }
      throw new Error('no answer passed');
    };
    return Object.assign(prompter, { refused });
  }

  it('a path that cannot be read is named in the message (it was typed there); a key typed in its place never is', async () => {
    const { clientId, privateKeyPem } = sandbox().clients.admin;
    const missing = join(dir, 'no-such-key.pem');
    const notKey = join(dir, 'not-a-key.pem');
    writeFileSync(notKey, 'just some text\n');
    const body = privateKeyPem.split('\n').filter((line) => line && !line.startsWith('-----')).join('');
    const prompter = retyping([missing, notKey, body, secretFile(privateKeyPem)]);
    const { error } = await login({ domain: sandbox().url, clientId, authMethod: 'private_key_jwt' }, { tty: true, prompter });
    expect(error).toBeUndefined();
    expect(prompter.refused.slice(0, 2)).toEqual([
      `The private key file: cannot read ${missing}: no such file.`,
      `The private key file: ${notKey} does not hold a PEM private key.`,
    ]);
    // Why the key, read as a path, cannot be opened depends on where its random base64 has slashes:
    // a part over 255 characters is a name too long, else no such file.
    expect(prompter.refused[2]).toMatch(
      new RegExp(`^The private key file: cannot read the file \\((no such file|the name is too long for a file name)\\)\\. The path is not shown in case it is a secret: the value has ${body.length} characters and looks like a key or certificate itself, not a path\\.$`),
    );
    expect(prompter.refused).toHaveLength(3);
    for (const message of prompter.refused) expect(message).not.toContain(body.slice(0, 40));
    expect(prompter.refused.join('\n')).not.toMatch(/not shown.*\n.*not shown/);
  });

  it('an encrypted private key is said to be encrypted, at login and from IDM_PRIVATE_KEY; nothing is sent', async () => {
    const { clientId } = sandbox().clients.admin;
    const encrypted = (format: 'pkcs8' | 'pkcs1') =>
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: format, format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass-phrase' }).toString();
    const before = sandbox().requests.length;
    for (const pem of [encrypted('pkcs8'), encrypted('pkcs1')]) {
      const { error } = await login({ domain: sandbox().url, clientId, privateKeyFile: secretFile(pem) });
      expect(error?.exitCode).toBe(2);
      expect(error?.message).toBe('The private key is encrypted: idm cannot use a key that needs a passphrase.');
      expect(error?.hint).toContain('openssl pkey -in KEY -out PLAIN');
      const listed = await run((deps) => listRun({ all: false, take: 1 }, deps), { env: { IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: clientId, IDM_PRIVATE_KEY: secretFile(pem) } });
      expect(listed.error?.exitCode).toBe(2);
      expect(listed.error?.message).toBe('The private key is encrypted: idm cannot use a key that needs a passphrase.');
    }
    expect(sandbox().requests.length).toBe(before);
  });

  it('a new profile whose name differs from another only in case is refused before anything is sent (one credentials file on macOS and Windows)', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    expect((await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'Prod' })).error).toBeUndefined();
    const config = readFileSync(join(dir, 'config.json'), 'utf8');
    const before = sandbox().requests.length;
    const admin = sandbox().clients.admin;
    const { error } = await login({ domain: sandbox().url, clientId: admin.clientId, clientSecretFile: secretFile(admin.clientSecret) }, { profile: 'prod' });
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe('Profile "Prod" exists, and "prod" differs from it only in case: on macOS and Windows the two would share one credentials file.');
    expect(error?.hint).toBe('Pass --profile Prod to replace "Prod", or choose a name of its own.');
    expect(sandbox().requests.length).toBe(before);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(config);
    expect(readdirSync(join(dir, 'credentials'))).toEqual(['Prod.json']);
    // The profile itself, in its own case, logs in again as before.
    expect((await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) }, { profile: 'Prod' })).error).toBeUndefined();
  });

  it('a signing algorithm the key cannot make, at run time: the hint says where it was chosen (IDM_SIGNING_ALG, or the profile), never a flag the command lacks', async () => {
    const { clientId } = sandbox().clients.admin;
    const ecKey = secretFile(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const before = sandbox().requests.length;
    const fromEnv = await run((deps) => listRun({ all: false, take: 1 }, deps), { env: { IDM_DOMAIN: sandbox().url, IDM_CLIENT_ID: clientId, IDM_PRIVATE_KEY: ecKey, IDM_SIGNING_ALG: 'RS256' } });
    expect(fromEnv.error?.exitCode).toBe(2);
    expect(fromEnv.error?.message).toBe('Cannot sign the client assertion: RS256 needs an RSA key, not ec.');
    expect(fromEnv.error?.hint).toBe('Unset IDM_SIGNING_ALG to sign with the default of the key (ES256 for EC keys, else RS256), or set it to one the key can make.');
    // A profile whose stored algorithm does not fit its key (config.json edited by hand).
    const { privateKeyPem } = sandbox().clients.admin;
    expect((await login({ domain: sandbox().url, clientId, privateKeyFile: secretFile(privateKeyPem) }, { profile: 'jwt' })).error).toBeUndefined();
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    config.profiles.jwt.signingAlg = 'ES256';
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    rmSync(join(dir, 'tokens'), { recursive: true, force: true });
    const stored = await run((deps) => listRun({ all: false, take: 1 }, deps), { profile: 'jwt' });
    expect(stored.error?.message).toBe('Cannot sign the client assertion: ES256 needs an EC (P-256) key, not rsa.');
    expect(stored.error?.hint).toBe('Log in again choosing one the key can make: idm login --profile jwt --private-key-file KEY --signing-alg ALG');
    expect(sandbox().requests.slice(before).filter((r) => r.path === '/oauth/token')).toHaveLength(1); // the login's only
  });

  it('a key file that holds a certificate before the key (one PEM bundle) signs with the key, at login and for the next commands', async () => {
    const { clientId, privateKeyPem } = sandbox().clients.admin;
    // Any certificate goes first (as `cat client.crt client.key > bundle.pem` makes it).
    const bundle = secretFile(`${(await createCa('bundle test')).cert}${privateKeyPem}`);
    const before = sandbox().requests.length;
    const { error } = await login({ domain: sandbox().url, clientId, privateKeyFile: bundle }, { profile: 'bundle' });
    expect(error).toBeUndefined();
    rmSync(join(dir, 'tokens'), { recursive: true, force: true });
    const listed = await run((deps) => listRun({ all: false, take: 1 }, deps), { profile: 'bundle' });
    expect(listed.error).toBeUndefined();
    expect(tokenBodies(before)).toHaveLength(2);
  });

  it('--private-key-file says the same of its path', async () => {
    const missing = join(dir, 'no-such-key.pem');
    const { error } = await login({ domain: sandbox().url, clientId: sandbox().clients.admin.clientId, privateKeyFile: missing });
    expect(error?.message).toBe(`--private-key-file: cannot read ${missing}: no such file.`);
  });
});

describe('idm logout and idm auth status', () => {
  it('status shows profile, domain, method, expiry and scopes but never a secret or token; logout removes both', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    const tokenFile = join(dir, 'tokens', readdirSync(join(dir, 'tokens'))[0]!);
    const token = JSON.parse(readFileSync(tokenFile, 'utf8')).accessToken as string;

    const shown = await status();
    expect(shown.stdout).toContain(`Domain\t${sandbox().url}\n`);
    expect(shown.stdout).toContain(`Client ID\t${clientId}\n`);
    expect(shown.stdout).toContain('Method\tpost\n');
    expect(shown.stdout).toMatch(/Token\tcached, valid until \d{4}-.*\(in 2[34] h \d+ min\)\n/);
    expect(shown.stdout).toContain('Scopes\tread:event_streams\n');
    const json = await status({ json: true });
    expect(JSON.parse(json.stdout)).toMatchObject({ profile: 'default', source: 'profile', authMethod: 'post', token: { state: 'valid', scopes: ['read:event_streams'] } });
    for (const text of [shown.stdout, shown.stderr, json.stdout]) {
      expect(text).not.toContain(clientSecret);
      expect(text).not.toContain(token);
    }

    const out = await run((deps) => logoutRun({}, deps));
    expect(out.stderr).toBe('Logged out of profile "default": removed its secret and cached token.\n');
    expect(existsSync(tokenFile)).toBe(false);
    expect(existsSync(join(dir, 'credentials', 'default.json'))).toBe(false);
    const after = await status();
    expect(after.error?.exitCode).toBe(4);
    expect(after.error?.message).toBe('Profile "default" has no stored secret (logged out?).');
  });

  it('the token lock held by a run fetching a token: once logout\'s wait lasts, a note names that process; released, the token is removed (built binary)', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    const tokenFile = join(dir, 'tokens', readdirSync(join(dir, 'tokens'))[0]!);
    const lockFile = tokenFile.replace(/\.json$/, '.lock');
    // Held by a live process (this one) until the running logout has said that it waits.
    const held = await acquireLock(lockFile, { waitMs: 0, staleMs: 3_600_000 });
    expect(isLock(held)).toBe(true);
    const { child, done } = spawnIdm(['logout'], { configDir: dir });
    const notice = `Waiting for idm process ${process.pid}, which holds ${lockFile}… (if it hangs: kill ${process.pid})\n`;
    try {
      await stderrUntil(child, notice);
      expect(existsSync(tokenFile)).toBe(true);
    } finally {
      (held as Lock).release();
    }
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.startsWith(notice)).toBe(true);
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('the token lock held past the wait: the error says the secret was removed (it was), not that nothing was written; a second logout removes the token', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    const tokenFile = join(dir, 'tokens', readdirSync(join(dir, 'tokens'))[0]!);
    const lockFile = tokenFile.replace(/\.json$/, '.lock');
    // Held by a live process (this one) for the whole wait; the wait's two minutes pass on a fake clock.
    const held = await acquireLock(lockFile, { waitMs: 0, staleMs: 3_600_000 });
    expect(isLock(held)).toBe(true);
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    let out;
    try {
      const pending = run((deps) => logoutRun({}, deps));
      await vi.advanceTimersByTimeAsync(130_000);
      out = await pending;
    } finally {
      vi.useRealTimers();
      (held as Lock).release();
    }
    expect(out.error?.message).toBe(`Could not remove the cached token: ${lockFile} is locked by idm process ${process.pid}; the secret was removed, the token stays cached.`);
    expect(out.error?.exitCode).toBe(1);
    expect(existsSync(join(dir, 'credentials', 'default.json'))).toBe(false);
    expect(existsSync(tokenFile)).toBe(true);
    const again = await run((deps) => logoutRun({}, deps));
    expect(again.stderr).toBe('Logged out of profile "default": removed its cached token.\n');
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('a directory in place of the credentials file: logout says to move it away, not to make the directory writable; pasted, the next logout works (built binary)', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    const file = join(dir, 'credentials', 'default.json');
    rmSync(file);
    mkdirSync(file);
    const result = await runIdm(['logout'], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`Error: Could not remove ${file}: a directory is in the way; nothing was changed.\nMove it away (idm keeps a file there): mv -- ${file} ${file}.bak\n`);
    const pasted = await runBash(result.stderr.split('\n')[1]!.replace(/^.*: (mv .*)$/, '$1'), { cwd: dir, configDir: dir });
    expect(pasted.code, pasted.stderr).toBe(0);
    const again = await runIdm(['logout'], { configDir: dir });
    expect(again.code, again.stderr).toBe(0);
  });

  it('a directory in place of the credentials file: login refuses before it sends the secret, with the same fix (built binary)', async () => {
    // Reviewed defect: login sent the secret, had a token, and only then failed to save it ('a
    // directory is in the way; nothing was changed'): at a terminal, after the secret was typed.
    const { clientId, clientSecret } = sandbox().clients.reader;
    const file = join(dir, 'credentials', 'default.json');
    mkdirSync(join(file, 'restored'), { recursive: true });
    const before = sandbox().requests.length;
    const result = await runIdm(['login', '--domain', sandbox().url, '--client-id', clientId, '--client-secret-file', secretFile(clientSecret)], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`Error: Could not write ${file}: a directory is in the way; nothing was changed.\nMove it away (idm keeps a file there): mv -- ${file} ${file}.bak\n`);
    expect(sandbox().requests.length).toBe(before);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('warns when the secret file or the directory is open to other users', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    chmodSync(join(dir, 'credentials', 'default.json'), 0o644);
    chmodSync(dir, 0o755);
    const { stderr, error } = await run((deps) => listRun({ all: false, take: 1 }, deps));
    expect(error).toBeUndefined();
    expect(stderr).toBe(
      `Warning: ${dir} is open to other users (mode 755).\nRun: chmod 700 ${dir}\n` +
        `Warning: ${join(dir, 'credentials', 'default.json')} is readable by other users (mode 644).\nRun: chmod 600 ${join(dir, 'credentials', 'default.json')}\n`,
    );
    // auth status says the same (it reads the same files).
    expect((await status()).stderr).toBe(stderr);
  });

  it('a directory every user shares (mode 1777, as /tmp): the warning gives another directory as the fix, never a chmod of it', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    chmodSync(dir, 0o1777);
    const { stderr, error } = await run((deps) => listRun({ all: false, take: 1 }, deps));
    expect(error).toBeUndefined();
    // Every warning of the run (the directory's, the token cache's) says the same way out.
    expect(stderr).toContain(`Warning: ${dir} is open to other users (mode 1777).\nSet IDM_CONFIG_DIR to a directory of your own (mktemp -d makes one): a directory every user shares, as /tmp, is to stay as it is.\n`);
    expect(stderr).not.toMatch(/chmod|chown/);
  });

  it('status with nothing configured: exit 4 and how to log in', async () => {
    const { error } = await status();
    expect(error?.exitCode).toBe(4);
    expect(error?.hint).toContain("Run 'idm login'");
  });

  it('status with IDM_ACCESS_TOKEN that is not a JWT: the token is there (state unknown, not none), its expiry and scopes cannot be read', async () => {
    const env = { IDM_DOMAIN: sandbox().url, IDM_ACCESS_TOKEN: 'opaque-access-token-0123456789' };
    const shown = await status({ env });
    expect(shown.error).toBeUndefined();
    expect(shown.stdout).toContain('Credentials from\tenvironment (IDM_*)\n');
    expect(shown.stdout).toContain('Token\tfrom IDM_ACCESS_TOKEN, not a JWT idm can read: its expiry and scopes are unknown\n');
    expect(shown.stdout).toContain('Scopes\tunknown\n');
    const json = await status({ json: true, env });
    expect(JSON.parse(json.stdout)).toMatchObject({ source: 'environment', authMethod: 'access_token', token: { state: 'unknown', expiresAt: null, scopes: [] } });
    // A JWT without exp: its scopes are read, its expiry is not there to read.
    const noExp = `eyJhbGciOiJub25lIn0.${Buffer.from('{"scope":"read:event_streams"}').toString('base64url')}.sig`;
    const jwt = await status({ env: { ...env, IDM_ACCESS_TOKEN: noExp } });
    expect(jwt.stdout).toContain('Token\tfrom IDM_ACCESS_TOKEN, which holds no expiry (exp)\n');
    expect(jwt.stdout).toContain('Scopes\tread:event_streams\n');
    for (const text of [shown.stdout, json.stdout, jwt.stdout]) expect(text).not.toContain('opaque-access-token');
  });

  it('environment variables override the profile field by field (flags > environment > profile)', async () => {
    const { clientId, clientSecret } = sandbox().clients.reader;
    await login({ domain: sandbox().url, clientId, clientSecretFile: secretFile(clientSecret) });
    const admin = sandbox().clients.admin;
    const json = await status({ json: true, env: { IDM_CLIENT_ID: admin.clientId, IDM_CLIENT_SECRET: admin.clientSecret } });
    expect(JSON.parse(json.stdout)).toMatchObject({ source: 'environment', clientId: admin.clientId, domain: sandbox().url });
    const missing = await status({ profile: 'nope' });
    expect(missing.error?.message).toBe('There is no profile named "nope".');
  });
});

describe('idm login basic: a secret that form-encoding would change', () => {
  // interface.md and wire-facts.md: `Authorization: Basic` + the Base64 of `<client_id>:<client_secret>`
  // as they are (what curl -u sends). Form-encoded first (RFC 6749 2.3.1), `+`, `%41`, `/` and `=`
  // would reach the service as another secret. (The sandbox takes both readings; what was sent is checked.)
  const secret = 'sEcr3t+with%41/and=0123456789';
  const seeded = useSandbox({ seed: { clients: { reader: { clientId: 'basic-plus-reader', clientSecret: secret } } } });

  it('sends the Base64 of id:secret as they are, and is logged in', async () => {
    const before = seeded().requests.length;
    const { error, stderr } = await login({ domain: seeded().url, clientId: 'basic-plus-reader', clientSecretFile: '-', authMethod: 'basic' }, { stdin: `${secret}\n` });
    expect(error).toBeUndefined();
    expect(stderr).toContain('basic)');
    const [token] = seeded().requests.slice(before).filter((r) => r.path === '/oauth/token');
    expect(token!.headers.authorization).toBe(`Basic ${Buffer.from(`basic-plus-reader:${secret}`).toString('base64')}`);
  });

  it('a client id holding a colon, which Basic cannot carry: a usage error naming post, nothing sent', async () => {
    const before = seeded().requests.length;
    const { error } = await login({ domain: seeded().url, clientId: 'basic:reader', clientSecretFile: '-', authMethod: 'basic' }, { stdin: `${secret}\n` });
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe('The client id "basic:reader" holds a colon, which HTTP Basic cannot carry (it separates the id from the secret).');
    expect(error?.hint).toContain('--auth-method post');
    expect(seeded().requests.slice(before)).toEqual([]);
  });
});
