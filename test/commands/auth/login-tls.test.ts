// idm login --auth-method tls_client_auth: a profile whose token requests prove the client with a
// certificate and no secret, against the sandbox's --https --mtls (a handshake) and behind an edge
// network (a TLS proxy of this test that does the handshake and forwards the certificate in the
// headers the real service reads, to a sandbox started with mtls 'edge'). Also: a profile keeps the
// CA given at login, a wrong certificate gets the service's invalid_client with the fix, a tenant
// without mutual TLS refuses clearly, and a plain-HTTP domain or a missing certificate is refused
// before anything is sent.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCa, fingerprintOf, issueCertificate } from '../../../src/sandbox/pki.js';
import { DEFAULT_SEED, startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { loginRun } from '../../../src/commands/auth/login.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { runIdm, runInProcess, tempConfigDir } from '../../helpers/cli.js';
import { captureIO, testDeps } from '../../helpers/deps.js';
import { recordSandboxSecrets } from '../../helpers/sandbox.js';

let dir: string;
let cleanup: () => void;
/** The files file() wrote during the test: beside the config directory, so removed apart from it. */
const written: string[] = [];
beforeEach(() => {
  ({ dir, cleanup } = tempConfigDir());
  return () => {
    cleanup();
    for (const path of written.splice(0)) rmSync(path, { force: true });
  };
});

/** A PEM file beside the config directory. */
function file(name: string, text: string): string {
  const path = `${dir}-${name}`;
  writeFileSync(path, text, { mode: 0o600 });
  written.push(path);
  return path;
}

const idm = (args: string[], env: Record<string, string> = {}) => runInProcess(args, { configDir: dir, env });

/** The token requests a sandbox received since `from`, as parsed forms. */
const tokenForms = (sandbox: Sandbox, from: number) =>
  sandbox.requests
    .slice(from)
    .filter((r) => r.path === '/oauth/token')
    .map((r) => Object.fromEntries(new URLSearchParams(r.body)));

describe('tls_client_auth against the sandbox (--https --mtls)', () => {
  let sandbox: Sandbox;
  let files: { ca: string; cert: string; key: string };
  beforeAll(async () => {
    sandbox = await startSandbox({ https: true, mtls: 'handshake' });
    recordSandboxSecrets(sandbox);
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    files = { ca: file('ca.pem', sandbox.caPem!), cert: file('client.crt', sandbox.clients.mtls!.certPem), key: file('client.key', sandbox.clients.mtls!.keyPem) };
  });

  const login = (extra: string[] = []) =>
    idm(['login', '--domain', sandbox.url, '--auth-method', 'tls_client_auth', '--client-id', sandbox.clients.mtls!.clientId, '--client-cert', files.cert, '--client-key', files.key, '--ca-file', files.ca, ...extra]);

  it('logs in with the certificate and no secret, stores the paths and the CA, then every command of the profile uses them', async () => {
    const from = sandbox.requests.length;
    const result = await login();
    expect(result.stderr).toContain(`Logged in to 127.0.0.1:${new URL(sandbox.url).port} as client ${sandbox.clients.mtls!.clientId} (profile "default", the default; tls_client_auth).`);
    expect(result.code).toBe(0);
    // The token request names the client and nothing else: no secret, no assertion, no Basic.
    const [form] = tokenForms(sandbox, from);
    expect(form).toEqual({ grant_type: 'client_credentials', client_id: sandbox.clients.mtls!.clientId, audience: `${sandbox.url}/api/v2/` });
    expect(sandbox.requests.slice(from).find((r) => r.path === '/oauth/token')!.headers.authorization).toBeUndefined();

    const config = JSON.parse(readFileSync(`${dir}/config.json`, 'utf8'));
    expect(config.profiles.default).toEqual({ domain: sandbox.url, clientId: sandbox.clients.mtls!.clientId, authMethod: 'tls_client_auth', caFile: files.ca });
    expect(JSON.parse(readFileSync(`${dir}/credentials/default.json`, 'utf8'))).toEqual({ clientCert: files.cert, clientKey: files.key, clientId: sandbox.clients.mtls!.clientId });

    // No flag needed afterwards: the profile's CA and certificate are used. Without the cached token,
    // the certificate is presented again.
    rmSync(`${dir}/tokens`, { recursive: true, force: true });
    const again = sandbox.requests.length;
    const list = await idm(['streams', 'list', '--take', '2', '--json']);
    expect(tokenForms(sandbox, again)).toHaveLength(1);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).eventStreams).toHaveLength(2);
    const status = await idm(['auth', 'status']);
    expect(status.stdout).toMatch(/^Method\ttls_client_auth$/m);
  });

  it('a stored certificate or CA file that is gone is named as the profile\'s, not as a flag that was never given', async () => {
    expect((await login()).code).toBe(0);
    rmSync(files.cert);
    const list = await idm(['streams', 'list']);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/^Error: The client certificate of profile "default": cannot read/);
    expect(list.stderr).not.toContain('--client-cert');
    rmSync(files.ca);
    expect((await idm(['streams', 'list'])).stderr).toMatch(/^Error: The CA file of profile "default": cannot read/);
  });

  it('IDM_AUTH_METHOD=tls_client_auth over the tls_client_auth profile names its method: the stored certificate serves, the credentials are the profile\'s', async () => {
    expect((await login()).code).toBe(0);
    rmSync(`${dir}/tokens`, { recursive: true, force: true });
    const from = sandbox.requests.length;
    const list = await idm(['streams', 'list', '--take', '1', '--json'], { IDM_AUTH_METHOD: 'tls_client_auth' });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(tokenForms(sandbox, from)).toHaveLength(1);
    const status = await idm(['auth', 'status', '--json'], { IDM_AUTH_METHOD: 'tls_client_auth' });
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'default', source: 'profile', authMethod: 'tls_client_auth' });
  });

  it('one PEM file holding the certificate and then its key serves as --client-cert and as --client-key', async () => {
    const bundle = file('bundle.pem', `${sandbox.clients.mtls!.certPem}${sandbox.clients.mtls!.keyPem}`);
    const result = await idm(['login', '--domain', sandbox.url, '--auth-method', 'tls_client_auth', '--client-id', sandbox.clients.mtls!.clientId, '--client-cert', bundle, '--client-key', bundle, '--ca-file', files.ca]);
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    rmSync(`${dir}/tokens`, { recursive: true, force: true });
    const list = await idm(['streams', 'list', '--take', '1', '--json']);
    expect(list.code, list.stderr).toBe(0);
  });

  it('after logout, the profile has no certificate to present: exit 4 and how to log in again', async () => {
    expect((await login()).code).toBe(0);
    expect((await idm(['logout'])).code).toBe(0);
    const list = await idm(['streams', 'list']);
    expect(list.code).toBe(4);
    expect(list.stderr).toContain('Profile "default" has no stored secret (logged out?).');
  });

  it('a certificate that is not registered: the service invalid_client, exit 4, with what to check; nothing stored', async () => {
    const stranger = await issueCertificate(undefined, 'client', 'stranger');
    files.cert = file('stranger.crt', stranger.cert);
    files.key = file('stranger.key', stranger.key);
    const result = await login();
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('Error: Could not get an access token: Client authentication failed: the client certificate is not registered for this client (401 invalid_client).');
    expect(result.stderr).toContain(`Check that the tenant accepts mutual TLS for client ${sandbox.clients.mtls!.clientId}`);
    expect(() => readFileSync(`${dir}/config.json`)).toThrow();
  });

  it('tls_client_auth chosen at the prompt and refused: the command to run again chooses it too (the certificate flags alone do not)', async () => {
    const stranger = await issueCertificate(undefined, 'client', 'stranger');
    const cert = file('stranger.crt', stranger.cert);
    const key = file('stranger.key', stranger.key);
    const answers: Record<string, string> = { 'How does the client authenticate': 'tls_client_auth', 'Client certificate file': cert, 'Its private key file': key };
    const answer = (message: string) => answers[Object.keys(answers).find((start) => message.startsWith(start))!]!;
    const prompter = { input: async (message: string) => answer(message), select: async (message: string) => answer(message) } as unknown as Prompter;
    const captured = captureIO({ tty: true, env: { IDM_CONFIG_DIR: dir } });
    const deps = testDeps(captured, { caFile: files.ca }, prompter);
    let error: (Error & { hint?: string }) | undefined;
    try {
      await loginRun({ domain: sandbox.url, clientId: sandbox.clients.mtls!.clientId }, deps);
    } catch (caught) {
      error = caught as Error & { hint?: string };
    } finally {
      await deps.close();
    }
    expect(error?.message).toContain('the client certificate is not registered for this client');
    expect(error?.hint).toMatch(
      new RegExp(`then run: idm login --profile default --domain ${sandbox.url.replace(/\./g, '\\.')} --client-id ${sandbox.clients.mtls!.clientId} --auth-method tls_client_auth --client-cert \\S+ --client-key \\S+ --ca-file \\S+$`),
    );
  });

  it.each([
    ['no certificate', ['--client-cert'], 'Missing --client-cert and --client-key.'],
    ['a secret file besides', ['--client-secret-file'], '--auth-method tls_client_auth proves the client with a certificate: give --client-cert and --client-key, not --client-secret-file.'],
  ])('%s: exit 2, nothing sent', async (_name, change, message) => {
    const from = sandbox.requests.length;
    const args = ['login', '--domain', sandbox.url, '--auth-method', 'tls_client_auth', '--client-id', sandbox.clients.mtls!.clientId, '--ca-file', files.ca];
    const result = await idm(change[0] === '--client-cert' ? args : [...args, '--client-cert', files.cert, '--client-key', files.key, '--client-secret-file', files.key]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(sandbox.requests.length).toBe(from);
  });

  it('at the prompts, a file that is not a certificate, or not the key of that certificate, is refused and asked again; the key is never quoted (its path is)', async () => {
    const other = await issueCertificate(undefined, 'client', 'other');
    const text = file('hostname', 'idm-host\n');
    const otherKey = file('other.key', other.key);
    // Each prompt is answered in turn until an answer passes its validation, as a person would retype.
    const answers: Record<string, string[]> = { 'Client certificate file': [text, files.key, files.cert], 'Its private key file': [text, files.cert, otherKey, files.key] };
    const refused: string[] = [];
    const prompter = {
      input: async (message: string, options?: { validate?: (value: string) => Promise<string | true> | string | true }) => {
        for (const value of answers[Object.keys(answers).find((key) => message.startsWith(key))!]!) {
          const verdict = (await options?.validate?.(value)) ?? true;
          if (verdict === true) return value;
          refused.push(verdict);
        }
        throw new Error(`no answer passed: ${message}`);
      },
    } as unknown as Prompter;
    const captured = captureIO({ tty: true, env: { IDM_CONFIG_DIR: dir } });
    const deps = testDeps(captured, { caFile: files.ca }, prompter);
    try {
      await loginRun({ domain: sandbox.url, clientId: sandbox.clients.mtls!.clientId, authMethod: 'tls_client_auth' }, deps);
    } finally {
      await deps.close();
    }
    expect(refused).toEqual([
      `The certificate file: ${text} does not hold a PEM certificate.`,
      `The certificate file: ${files.key} does not hold a PEM certificate.`,
      `The key file: ${text} does not hold a PEM private key.`,
      `The key file: ${files.cert} does not hold a PEM private key.`,
      `The key file: that key does not belong to the certificate in ${files.cert}.`,
    ]);
    expect(captured.stderr()).toContain('(profile "default", the default; tls_client_auth).');
    expect(JSON.parse(readFileSync(`${dir}/credentials/default.json`, 'utf8'))).toEqual({ clientCert: files.cert, clientKey: files.key, clientId: sandbox.clients.mtls!.clientId });
  });

  it('logging in again with a new certificate alone (the rest from the profile) keeps tls_client_auth; with nothing, the certificate is what it names', async () => {
    expect((await login()).code).toBe(0);
    const renewed = await issueCertificate(undefined, 'client', 'renewed');
    const cert = file('renewed.crt', renewed.cert);
    const key = file('renewed.key', renewed.key);
    const from = sandbox.requests.length;
    const again = await idm(['login', '--profile', 'default', '--client-cert', cert, '--client-key', key]);
    // The sandbox knows only its own certificate: refused by the service, which means it was sent.
    expect(again.stderr).not.toContain('secret');
    expect(again.stderr).toContain('the client certificate is not registered for this client');
    expect(tokenForms(sandbox, from)).toHaveLength(1);
    const same = await idm(['login', '--profile', 'default', '--client-cert', files.cert, '--client-key', files.key]);
    expect(same.code, same.stderr).toBe(0);
    const bare = await idm(['login', '--profile', 'default']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Missing --client-cert and --client-key to log in again to profile "default" (client ');
    expect(bare.stderr).toContain('give the certificate and its key: idm login --profile default --client-cert CERT --client-key KEY, or set IDM_CLIENT_CERT and IDM_CLIENT_KEY.');
  });

  it('logging in again with a new certificate alone keeps tls_client_auth when IDM_DOMAIN names the same tenant in another spelling (a trailing slash) (built binary)', async () => {
    expect((await login()).code).toBe(0);
    const bin = (args: string[]) => runIdm(args, { configDir: dir, env: { IDM_DOMAIN: `${sandbox.url}/` } });
    const from = sandbox.requests.length;
    const again = await bin(['login', '--profile', 'default', '--client-cert', files.cert, '--client-key', files.key]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('(profile "default", the default; tls_client_auth).');
    expect(tokenForms(sandbox, from)).toHaveLength(1);
    // Nothing given: the re-login's own words, naming the profile, not a secret it does not use.
    const bare = await bin(['login', '--profile', 'default']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Missing --client-cert and --client-key to log in again to profile "default" (client ');
  });

  it('logging in again with the certificate and not its key (or the key alone) names the one missing, not both (built binary)', async () => {
    // Reviewed defect: --client-cert given, --client-key forgotten, was 'Missing --client-cert and
    // --client-key', the flag given named as missing.
    expect((await login()).code).toBe(0);
    const bin = (args: string[], env: Record<string, string> = {}) => runIdm(args, { configDir: dir, env });
    const from = sandbox.requests.length;
    const noKey = await bin(['login', '--profile', 'default', '--client-cert', files.cert]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain(`Error: Missing --client-key to log in again to profile "default" (client ${sandbox.clients.mtls!.clientId} at ${new URL(sandbox.url).host}, tls_client_auth).\n`);
    expect(noKey.stderr).toContain('or set IDM_CLIENT_KEY.\n');
    const noCert = await bin(['login', '--profile', 'default'], { IDM_CLIENT_KEY: files.key });
    expect(noCert.code).toBe(2);
    expect(noCert.stderr).toContain('Error: Missing --client-cert to log in again to profile "default" (client ');
    expect(noCert.stderr).toContain('or set IDM_CLIENT_CERT.\n');
    expect(tokenForms(sandbox, from)).toHaveLength(0);
  });

  it('the hint of a missing certificate speaks of the certificate and its key, not of a secret', async () => {
    const result = await idm(['login', '--domain', sandbox.url, '--auth-method', 'tls_client_auth', '--client-id', sandbox.clients.mtls!.clientId, '--ca-file', files.ca]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --client-cert and --client-key.\nidm login cannot ask here (stdin, stdout and stderr are not terminals): pass the flags (the certificate and its key as files), or set IDM_CLIENT_CERT and IDM_CLIENT_KEY.\n');
    expect(result.stderr).not.toContain('secret');
  });
});

describe('tls_client_auth where the tenant does not take it', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ https: true });
    recordSandboxSecrets(sandbox);
  });
  afterAll(() => sandbox.close());

  it('a tenant without mutual TLS refuses clearly: exit 4, the service words, what to check', async () => {
    const own = await issueCertificate(undefined, 'client');
    const result = await idm(['login', '--domain', sandbox.url, '--auth-method', 'tls_client_auth', '--client-id', sandbox.clients.admin.clientId, '--client-cert', file('own.crt', own.cert), '--client-key', file('own.key', own.key), '--ca-file', file('ca.pem', sandbox.caPem!)]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(
      'Client authentication failed: mutual TLS is off in this sandbox, so a client id alone (tls_client_auth) is not enough: send the client secret or a client assertion (401 invalid_client).',
    );
    expect(result.stderr).toContain('Check that the tenant accepts mutual TLS');
  });

  it('a plain-HTTP domain: exit 2 before anything is sent', async () => {
    const own = await issueCertificate(undefined, 'client');
    const result = await idm(['streams', 'list'], {
      IDM_DOMAIN: 'http://127.0.0.1:9',
      IDM_CLIENT_ID: 'abc',
      IDM_AUTH_METHOD: 'tls_client_auth',
      IDM_CLIENT_CERT: file('own.crt', own.cert),
      IDM_CLIENT_KEY: file('own.key', own.key),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: tls_client_auth needs an https:// domain: the client certificate is presented in the TLS handshake, and http://127.0.0.1:9 is plain HTTP.');
  });
});

describe('tls_client_auth behind an edge network', () => {
  let sandbox: Sandbox;
  let edge: ReturnType<typeof createHttpsServer>;
  let edgeUrl: string;
  let edgeCa: string;
  let own: { cert: string; key: string };
  beforeAll(async () => {
    // The user's own self-signed certificate, registered by its fingerprint (as the interface allows).
    own = await issueCertificate(undefined, 'client', 'own');
    // The tenant trusts the edge's headers; the edge (this test) does the handshake, as a customer's CDN does.
    sandbox = await startSandbox({ https: true, mtls: 'edge', seed: { ...DEFAULT_SEED, clients: { mtls: { certificateFingerprints: [fingerprintOf(own.cert)] } } } });
    recordSandboxSecrets(sandbox);
    const ca = await createCa('edge CA');
    const server = await issueCertificate(ca, 'server');
    edgeCa = ca.cert;
    edge = createHttpsServer({ ...server, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.getPeerCertificate(true);
      const headers: Record<string, string> = { ...(req.headers as Record<string, string>), host: new URL(sandbox.url).host, 'cname-api-key': sandbox.edgeKey! };
      if (peer?.raw) {
        headers['client-certificate'] = encodeURIComponent(`-----BEGIN CERTIFICATE-----\n${peer.raw.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`);
        headers['client-certificate-ca-verified'] = socket.authorized ? 'SUCCESS' : `FAILED:${String(socket.authorizationError)}`;
      }
      // The edge's host stands for the tenant (a custom domain): in token requests, its audience is the tenant's.
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const forwarded = body.replaceAll(encodeURIComponent(`${edgeUrl}/api/v2/`), encodeURIComponent(`${sandbox.url}/api/v2/`));
        delete headers['content-length'];
        const upstream = httpsRequest(`${sandbox.url}${req.url}`, { method: req.method, headers, ca: sandbox.caPem }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.end(forwarded);
      });
    });
    await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve));
    edgeUrl = `https://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    edge.closeAllConnections();
    await new Promise((resolve) => edge.close(resolve));
    await sandbox.close();
  });

  it('the edge verifies nothing, the self-signed certificate is registered: idm gets a token and lists through the edge', async () => {
    // The sandbox's mtls certificate is signed by its CA, which the edge does not know: FAILED, and refused.
    const mtls = sandbox.clients.mtls!;
    const common = ['--domain', edgeUrl, '--auth-method', 'tls_client_auth', '--client-id', mtls.clientId, '--ca-file', file('edge-ca.pem', edgeCa)];
    const refused = await idm(['login', ...common, '--client-cert', file('mtls.crt', mtls.certPem), '--client-key', file('mtls.key', mtls.keyPem)]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('the client certificate could not be verified (401 invalid_client)');

    // The user's own self-signed certificate needs no CA: accepted through the edge.
    const result = await idm(['login', ...common, '--client-cert', file('own.crt', own.cert), '--client-key', file('own.key', own.key)]);
    expect(result.stderr).toContain('(profile "default", the default; tls_client_auth).');
    expect(result.code).toBe(0);
    const list = await idm(['streams', 'list', '--take', '1']);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^est_\w{22}\t/);
  });
});
