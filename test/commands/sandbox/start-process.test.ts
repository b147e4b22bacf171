// idm sandbox start, the built binary as a process: what cannot start says why and exits (a bad
// --tls-key, keys and certificates of a state.json that do not parse, a seed that contradicts
// itself or the flags), which CA it names for what (the tenant's certificate, or the mtls
// client's) with --https, --tls-cert and --mtls-edge, and a --state-dir write just before SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { BIN, cliEnv, KILL_AFTER_MS, runIdm, tempConfigDir } from '../../helpers/cli.js';
import { makeTestCa, type TestCa } from '../../helpers/tls-ca.js';

/** The built sandbox (npm run build), as `idm sandbox start` loads it. */
const SANDBOX_BUNDLE = fileURLToPath(new URL('../../../dist/sandbox.cjs', import.meta.url));

let ca: TestCa;
let other: TestCa;
let files: string;
beforeAll(async () => {
  [ca, other] = await Promise.all([makeTestCa('start test CA'), makeTestCa('another CA')]);
  files = mkdtempSync(join(tmpdir(), 'idm-start-files-'));
  writeFileSync(join(files, 'server.crt'), ca.server.cert);
  writeFileSync(join(files, 'server.key'), ca.server.key, { mode: 0o600 });
  writeFileSync(join(files, 'other.key'), other.server.key, { mode: 0o600 });
  writeFileSync(join(files, 'garbage.crt'), '-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n');
});
afterAll(() => {
  ca.cleanup();
  other.cleanup();
  rmSync(files, { recursive: true, force: true });
});
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
const configDir = () => {
  const { dir, cleanup } = tempConfigDir();
  cleanups.push(cleanup);
  return dir;
};

describe('idm sandbox start: what cannot start says why and exits', () => {
  it('a --tls-key that is not the key of --tls-cert: exit 2 naming both flags', async () => {
    const result = await runIdm(['sandbox', 'start', '--tls-cert', join(files, 'server.crt'), '--tls-key', join(files, 'other.key')], { configDir: configDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`--tls-key ${join(files, 'other.key')} is not the private key of --tls-cert ${join(files, 'server.crt')}.`);
  });

  it('a --tls-cert that does not parse: exit 2 naming it', async () => {
    const result = await runIdm(['sandbox', 'start', '--tls-cert', join(files, 'garbage.crt'), '--tls-key', join(files, 'server.key')], { configDir: configDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--tls-cert: ${join(files, 'garbage.crt')} holds no certificate that can be read.`);
  });

  it.each([
    ['a signing key that is not one', (state: any) => void (state.signingKey.pem = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'), 'is damaged: signingKey.pem is not a PEM private key.'], // eslint-disable-line @typescript-eslint/no-explicit-any
    ['a server certificate that is not one', (state: any) => void (state.server.cert = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), 'is damaged: server holds no PEM certificate.'], // eslint-disable-line @typescript-eslint/no-explicit-any
    ['a client key that is not one', (state: any) => void (state.clients.reader.privateKeyPem = 'garbage'), 'is damaged: clients.reader.privateKeyPem is not a PEM private key.'], // eslint-disable-line @typescript-eslint/no-explicit-any
  ])('a state.json with %s: exit 2 naming the file and the field', async (_name, damage, message) => {
    const dir = configDir();
    const state = join(dir, 'state');
    await (await startSandbox({ stateDir: state, https: true, seed: {} })).close();
    const saved = JSON.parse(readFileSync(join(state, 'state.json'), 'utf8'));
    damage(saved);
    writeFileSync(join(state, 'state.json'), JSON.stringify(saved));
    const result = await runIdm(['sandbox', 'start', '--https', '--state-dir', state], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`The sandbox state ${join(state, 'state.json')} ${message}`);
    expect(result.stderr).toContain(`Move ${join(state, 'state.json')} away to start a fresh tenant there.`);
  });

  it.each([
    ['{}', 'is damaged: it has no version.'],
    ['null', 'is damaged: it is not a JSON object.'],
  ])('a state.json of %s: exit 2, not "version undefined"', async (text, message) => {
    const dir = configDir();
    mkdirSync(join(dir, 'state'), { mode: 0o700 });
    writeFileSync(join(dir, 'state', 'state.json'), text);
    const result = await runIdm(['sandbox', 'start', '--state-dir', join(dir, 'state')], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('undefined');
  });

  it('a seed giving two clients one id: exit 2 naming the field', async () => {
    const dir = configDir();
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ clients: { admin: { clientId: 'one-client-id' }, reader: { clientId: 'one-client-id' } } }));
    const result = await runIdm(['sandbox', 'start', '--seed', join(dir, 'seed.json')], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Invalid seed: clients.reader.clientId: is the admin client's id too: each client needs an id of its own");
  });

  it('a seed registering certificates for the mtls client without --mtls or --mtls-edge: exit 2 saying so', async () => {
    const dir = configDir();
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ clients: { mtls: { certificateFingerprints: ['AB'.repeat(32)] } } }));
    const result = await runIdm(['sandbox', 'start', '--https', '--seed', join(dir, 'seed.json')], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Invalid seed: clients.mtls needs mutual TLS: start with --https --mtls, or --mtls-edge (in ${join(dir, 'seed.json')}).`);
  });

  it.each([
    ['a key of another certificate', 'tls: { cert: process.env.CERT, key: process.env.KEY }', /key values mismatch/],
    ['a state.json whose signing key is not one', 'stateDir: process.env.STATE', /is damaged: signingKey\.pem is not a PEM private key/],
  ])('the sandbox library, given %s, rejects and leaves nothing running: its process ends by itself', async (_name, options, message) => {
    const state = join(configDir(), 'state');
    mkdirSync(state, { mode: 0o700 });
    const saved = await startSandbox({ stateDir: join(state, 'good'), seed: {} });
    await saved.close();
    const text = JSON.parse(readFileSync(join(state, 'good', 'state.json'), 'utf8'));
    text.signingKey.pem = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    writeFileSync(join(state, 'state.json'), JSON.stringify(text));
    const script = `require(${JSON.stringify(SANDBOX_BUNDLE)}).startSandbox({ ${options} }).then(() => console.log('started'), (error) => console.log('rejected:', error.message));`;
    const result = spawnSync(process.execPath, ['-e', script], {
      env: { PATH: process.env.PATH, CERT: ca.server.cert, KEY: other.server.key, STATE: state },
      encoding: 'utf8',
      timeout: KILL_AFTER_MS,
    });
    expect(result.signal, `killed after ${KILL_AFTER_MS} ms: something kept the process alive`).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^rejected: /);
    expect(result.stdout).toMatch(message);
  });
});

/** Starts the sandbox as a process, returns what it printed once running, and stops it (SIGINT, exit 0). */
async function printed(args: string[], json = false): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', ...(json ? ['--json'] : []), ...args], { env: cliEnv(configDir()), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      if (json) createInterface({ input: child.stdout }).once('line', () => resolve());
      else child.stderr.on('data', () => stderr.includes('Running until Ctrl-C.') && resolve());
      child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    return { stdout, stderr };
  } finally {
    child.kill('SIGKILL');
  }
}

describe('idm sandbox start: which CA is for what', () => {
  it('--tls-cert with --mtls: no CA to trust is claimed, the login suggested has no --ca-file; the client CA is named as such', async () => {
    const { stdout, stderr } = await printed(['--tls-cert', join(files, 'server.crt'), '--tls-key', join(files, 'server.key'), '--mtls']);
    expect(stdout).toMatch(/^Tenant {9}https:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).not.toContain('CA file');
    expect(stdout).not.toContain('signed by it');
    expect(stdout).toMatch(/^ {2}issued by {4}\S+\/ca\.pem {3}\(the sandbox's CA: what an edge verifies client certificates with\)$/m);
    expect(stderr).toMatch(/Try: idm login --domain https:\/\/127\.0\.0\.1:\d+ --client-id \w+ --client-secret-file \S+\/admin\.secret\n/);
    expect(stderr).toMatch(/ {2}or: idm login --domain \S+ --auth-method tls_client_auth --client-id \w+ --client-cert \S+ --client-key \S+\n/);
    expect(stderr).not.toContain('--ca-file');
  });

  it('--mtls-edge on plain HTTP: no trust block for the http:// tenant, the client CA in its own line', async () => {
    const { stdout, stderr } = await printed(['--mtls-edge']);
    expect(stdout).toMatch(/^Tenant {9}http:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).not.toContain('CA file');
    expect(stdout).not.toContain('NODE_EXTRA_CA_CERTS');
    expect(stdout).toMatch(/^ {2}issued by {4}\S+\/ca\.pem/m);
    expect(stderr).not.toContain('--ca-file');
  });

  it('--https: the CA file and how to trust it, and --ca-file in the login suggested', async () => {
    const { stdout, stderr } = await printed(['--https', '--mtls']);
    expect(stdout).toMatch(/^CA file {8}\S+\/ca\.pem {3}\(the tenant's certificate is signed by it; trust it:\)$/m);
    expect(stderr).toMatch(/Try: idm login .* --ca-file \S+\/ca\.pem\n/);
    expect(stderr).toMatch(/ {2}or: idm login .* --auth-method tls_client_auth .* --ca-file \S+\/ca\.pem\n/);
  });

  it('--json: caFile only when the sandbox signed the tenant certificate, clientCaFile with an mtls client', async () => {
    const line = async (args: string[]) => JSON.parse((await printed(args, true)).stdout.split('\n')[0]!);
    const own = await line(['--tls-cert', join(files, 'server.crt'), '--tls-key', join(files, 'server.key'), '--mtls']);
    expect(own).not.toHaveProperty('caFile');
    expect(own.clientCaFile).toMatch(/\/ca\.pem$/);
    const edge = await line(['--mtls-edge']);
    expect(edge).not.toHaveProperty('caFile');
    expect(edge.clientCaFile).toMatch(/\/ca\.pem$/);
    const both = await line(['--https', '--mtls']);
    expect(both.caFile).toMatch(/\/ca\.pem$/);
    expect(both.clientCaFile).toBe(both.caFile);
    const plain = await line([]);
    expect(plain).not.toHaveProperty('caFile');
    expect(plain).not.toHaveProperty('clientCaFile');
  });
});

describe('idm sandbox start --state-dir: SIGTERM right after a write', () => {
  it('the stream created just before the stop is there after a restart', async () => {
    const dir = configDir();
    const state = join(dir, 'state');
    const run = async () => {
      const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--json', '--state-dir', state], { env: cliEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', () => reject(new Error('exited before printing')));
      });
      return { child, exited, info: JSON.parse(line) };
    };
    const token = async (info: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const { clientId, clientSecret } = info.clients.admin;
      const answer = await fetch(info.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: info.audience }),
      });
      return ((await answer.json()) as { access_token: string }).access_token;
    };
    const first = await run();
    try {
      const created = await fetch(`${first.info.apiUrl}/event-streams`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token(first.info)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'just-before-sigterm', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const second = await run();
      try {
        const got = await fetch(`${second.info.apiUrl}/event-streams/${id}`, { headers: { authorization: `Bearer ${await token(second.info)}` } });
        expect(got.status).toBe(200);
        expect(((await got.json()) as { name: string }).name).toBe('just-before-sigterm');
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      } finally {
        second.child.kill('SIGKILL');
      }
    } finally {
      first.child.kill('SIGKILL');
    }
  });
});
