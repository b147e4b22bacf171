// idm sandbox start as a real process (the built binary): the line it prints (JSON or for people), a
// token request answered, SIGINT ending it with exit 0 and its key files gone, and a restart from
// --state-dir over HTTPS that a stored profile still reaches; what cannot start says why and exits (a
// bad --tls-key, keys and certificates of a state.json that do not parse, a seed that contradicts
// itself or the flags); which CA it names for what (the tenant's certificate, or the mtls client's)
// with --https, --tls-cert and --mtls-edge; and a --state-dir write just before SIGTERM. Its flags
// and usage errors: test/commands/sandbox.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { KILL_AFTER_MS, runIdm, sandboxProcesses } from '../helpers/cli.js';
import { call, direct, getToken, tokenRequest } from '../helpers/sandbox.js';
import { retryWhilePortTaken } from '../helpers/ports.js';
import { makeTestCa, type TestCa } from '../helpers/tls-ca.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

/** The built sandbox (npm run build), as `idm sandbox start` loads it. */
const SANDBOX_BUNDLE = fileURLToPath(new URL('../../dist/sandbox.cjs', import.meta.url));

/** A fresh config directory per call; every sandbox started is killed after its test. */
const { configDir, started, later } = sandboxProcesses();

describe('idm sandbox start as a process', () => {
  it('prints one JSON line, answers a token request, and exits 0 on SIGINT', async () => {
    const sandbox = await started(['--port', '0'], { configDir: configDir(), json: true });
    const { info } = sandbox;
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.inboxUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/inbox$/);
    expect(info.clients.reader.scopes).toEqual(['read:event_streams']);
    // The wizard asks for a connection id: the line names them, and where each stands.
    expect(info.connections).toEqual([
      { id: 'con_googleAppsDemo01', name: 'google-workspace', strategy: 'google-apps', provisioning: 'not configured' },
      { id: 'con_googleAppsTaken1', name: 'google-workspace-configured', strategy: 'google-apps', provisioning: 'configured' },
      { id: 'con_googleAppsFails1', name: 'google-workspace-broken', strategy: 'google-apps', provisioning: 'configured' },
      { id: 'con_usernamePasswd01', name: 'Username-Password-Authentication', strategy: 'platform', provisioning: 'unsupported' },
      { id: 'con_samlEnterprise01', name: 'enterprise-saml', strategy: 'samlp', provisioning: 'unsupported' },
    ]);
    for (const name of ['admin', 'reader']) {
      const client = info.clients[name];
      expect(statSync(client.privateKeyFile).mode & 0o777).toBe(0o600);
      expect(statSync(client.clientSecretFile).mode & 0o777).toBe(0o600);
    }

    const { clientId, clientSecret } = info.clients.admin;
    const token = await tokenRequest(info, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: info.audience });
    expect(token.status).toBe(200);
    expect(token.body.token_type).toBe('Bearer');
    const stats = await (await fetch(`${info.controlUrl}/stats`)).json();
    expect(stats).toMatchObject({ tokensIssued: 1, streams: 6, connections: 5 });

    expect((await sandbox.stop()).code).toBe(0);
    expect(existsSync(info.stateDir)).toBe(false); // the key files go with the sandbox
  });
});

describe('idm sandbox start for people', () => {
  it('prints the seeded stream ids and the connections (id, strategy, provisioning), then runs until SIGINT', async () => {
    const sandbox = await started(['--streams', '5'], { configDir: configDir() });
    const stdout = sandbox.stdout();
    expect(stdout).toContain('Streams        11 (the 6 below and 5 more: idm streams list)\n  est_demoInboxBearer0000000  demo-inbox-bearer\n');
    expect(stdout).toContain('  est_demoClosedPort00000000  demo-closed-port\n');
    expect(stdout).toContain(
      [
        'Connections    5',
        '  con_googleAppsDemo01  google-apps  provisioning not configured',
        '  con_googleAppsTaken1  google-apps  provisioning configured',
        '  con_googleAppsFails1  google-apps  provisioning configured',
        '  con_usernamePasswd01  platform     provisioning unsupported',
        '  con_samlEnterprise01  samlp        provisioning unsupported',
      ].join('\n'),
    );
    expect(stdout).not.toContain('generated-001');
    // A login command to paste: on stderr, on a line of its own, shell-quoted.
    expect(sandbox.stderr()).toMatch(/\nTry: idm login --domain http:\/\/127\.0\.0\.1:\d+ --client-id \w+ --client-secret-file \S+\/admin\.secret\n\nRunning until Ctrl-C\.\n/);
    expect((await sandbox.stop()).code).toBe(0);
  });
});

describe.skipIf(!hasTmux && !process.env.CI)('idm sandbox start in an 80-column terminal', () => {
  it("a client's scopes are broken between scopes, under the first, and Ctrl-C ends it, saying so on a line of its own", async () => {
    const t = Terminal.start(['sandbox', 'start'], { configDir: configDir(), env: {}, columns: 80 });
    later(() => t.close());
    await t.waitFor('Running until Ctrl-C.');
    const rows = t.rows();
    const first = rows.findIndex((row) => row.startsWith('  scopes       read:event_streams create:'));
    expect(first, rows.join('\n')).toBeGreaterThan(0);
    const scopes = [rows[first]!.slice(15)];
    for (let i = first + 1; rows[i]!.startsWith(' '.repeat(15)); i++) scopes.push(rows[i]!.slice(15));
    expect(scopes.length).toBeGreaterThan(1);
    for (const line of scopes) expect(line, scopes.join('\n')).toMatch(/^[a-z_:]+( [a-z_:]+)*$/);
    for (const line of scopes) expect(15 + line.length).toBeLessThanOrEqual(80);
    expect(scopes.join(' ').split(' ')).toContain('delete:directory_provisionings');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(0);
    // The ^C the terminal echoed is not left in front of it.
    expect(t.rows().slice(-2)).toEqual(['Running until Ctrl-C.', 'Sandbox stopped.']);
  });
});

describe('idm sandbox start --https --state-dir as a process', () => {
  // The restart binds the saved port again: run again from the start if another process took it meanwhile.
  it('a profile logged in with the printed CA file still works after a restart (same port, clients, CA)', () => retryWhilePortTaken(async () => {
    const dir = configDir();
    const state = `${dir}-state`;
    later(() => rmSync(state, { recursive: true, force: true }));
    let sandbox = await started(['--https', '--state-dir', state], { configDir: dir, json: true });
    const first = sandbox.info;
    expect(first.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(first.caFile).toBe(`${state}/ca.pem`);
    expect(first.stateDir).toBe(state);
    const { clientId, clientSecretFile } = first.clients.admin;
    const login = await runIdm(['login', '--domain', first.url, '--client-id', clientId, '--client-secret-file', clientSecretFile, '--ca-file', first.caFile], { configDir: dir });
    expect(login.code, login.stderr).toBe(0);
    expect((await sandbox.stop()).code).toBe(0);
    expect(existsSync(`${state}/state.json`)).toBe(true);

    sandbox = await started(['--https', '--state-dir', state], { configDir: dir, json: true });
    expect(sandbox.info.url).toBe(first.url);
    expect(sandbox.info.clients.admin.clientId).toBe(clientId);
    // A cold token cache: the stored secret is asked for a new token, and the profile's CA trusted.
    rmSync(`${dir}/tokens`, { recursive: true, force: true });
    const list = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^est_demoInboxBearer0000000\t/);
    expect((await sandbox.stop()).code).toBe(0);
  }));

  it('with --mtls prints the mtls client (certificate, key, fingerprint) and the CA; a login by certificate works', async () => {
    const dir = configDir();
    const sandbox = await started(['--https', '--mtls'], { configDir: dir, json: true });
    const { info } = sandbox;
    const mtls = info.clients.mtls;
    expect(mtls.certificateFingerprints[0]).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(statSync(mtls.keyFile).mode & 0o777).toBe(0o600);
    const login = await runIdm(
      ['login', '--domain', info.url, '--auth-method', 'tls_client_auth', '--client-id', mtls.clientId, '--client-cert', mtls.certFile, '--client-key', mtls.keyFile, '--ca-file', info.caFile],
      { configDir: dir },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('tls_client_auth).');
    expect((await sandbox.stop()).code).toBe(0);
    expect(existsSync(info.stateDir)).toBe(false);
  });
});

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
  ca?.cleanup();
  other?.cleanup();
  if (files) rmSync(files, { recursive: true, force: true });
});

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

  it('a --state-dir that is a file (or under one): exit 1 naming the path and the cause, not an unexpected error', async () => {
    const dir = configDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    for (const stateDir of [file, join(file, 'below')]) {
      const result = await runIdm(['sandbox', 'start', '--state-dir', stateDir], { configDir: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^Error: Cannot use ${stateDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as the state directory: a file is in the way of a directory \\((EEXIST|ENOTDIR)\\)\\.\nCheck the space and permissions of --state-dir\\.\n$`));
    }
  });

  it.skipIf(!existsSync('/proc/self'))('a --state-dir under /proc (no directory can be made there): exit 1 at once naming the path, not a start that never returns', async () => {
    // Node 20's recursive mkdir loops forever on it; the process is killed after 20 s if it does.
    const result = await runIdm(['sandbox', 'start', '--state-dir', '/proc/idm-state'], { configDir: configDir(), timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Error: Cannot use /proc/idm-state as the state directory: it cannot be made there (ENOENT).\nCheck the space and permissions of --state-dir.\n');
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
    // Node itself, not idm: the library as a program embedding it would load it.
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

/** What the sandbox printed once running, and after SIGINT (exit 0). */
async function printed(args: string[], json = false): Promise<{ stdout: string; stderr: string }> {
  const sandbox = await started(args, { configDir: configDir(), json });
  const ended = await sandbox.stop();
  expect(ended.code).toBe(0);
  return ended;
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

  it('--https in a --state-dir with a space: the Node line, pasted into a shell, hands node the CA file', async () => {
    const state = join(configDir(), 'my sandbox');
    const { stdout } = await printed(['--https', '--state-dir', state]);
    const line = /^ {2}Node {9}(.*) node app\.js$/m.exec(stdout)?.[1];
    expect(line).toBe(`NODE_EXTRA_CA_CERTS='${state}/ca.pem'`);
    const pasted = spawnSync('sh', ['-c', `${line} node -e 'console.log(process.env.NODE_EXTRA_CA_CERTS)'`], { encoding: 'utf8', timeout: KILL_AFTER_MS });
    expect(pasted.stderr).toBe('');
    expect(pasted.stdout).toBe(`${join(state, 'ca.pem')}\n`);
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
  // The restart binds the saved port again: run again from the start if another process took it meanwhile.
  it('the stream created just before the stop is there after a restart', () => retryWhilePortTaken(async () => {
    const dir = configDir();
    const state = join(dir, 'state');
    const first = await started(['--state-dir', state], { configDir: dir, json: true });
    const created = await call(first.info, 'POST', '/api/v2/event-streams', {
      token: await getToken(first.info),
      body: { name: 'just-before-sigterm', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } },
    });
    expect(created.status).toBe(201);
    expect((await first.stop('SIGTERM')).code).toBe(0);

    const second = await started(['--state-dir', state], { configDir: dir, json: true });
    const got = await direct(second.info, `/event-streams/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.name).toBe('just-before-sigterm');
    expect((await second.stop('SIGTERM')).code).toBe(0);
  }));
});

describe('idm sandbox start --max-streams: the plan\'s limit, through the built idm', () => {
  it('a create beyond it: exit 1, the service\'s message, a hint that names both causes (not the name alone)', async () => {
    const dir = configDir();
    // The demo seed has 6 streams: one more fits.
    const sandbox = await started(['--max-streams', '7'], { configDir: dir, json: true });
    const { clientId, clientSecret } = sandbox.info.clients.admin;
    const env = { IDM_DOMAIN: sandbox.info.url, IDM_CLIENT_ID: clientId, IDM_CLIENT_SECRET: clientSecret };
    const create = (name: string) => runIdm(['streams', 'create', '--name', name, '--event-type', 'user.created', '--action', 'a-1'], { configDir: dir, env });
    expect((await create('the-seventh')).code).toBe(0);
    const over = await create('the-eighth');
    expect(over.code).toBe(1);
    expect(over.stdout).toBe('');
    expect(over.stderr).toBe(
      'Error: Could not create an event stream: You have reached the maximum number of event streams for your account OR Event stream name already in use (409 conflict).\n' +
        'The name is taken, or the tenant has as many streams as its plan allows: choose another --name, or delete a stream you no longer need.\n',
    );
    expect((await sandbox.stop()).code).toBe(0);
  });
});
