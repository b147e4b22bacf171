// HTTPS tenants, idm run in process: the sandbox served with a certificate from a throwaway CA.
// Verification is always on: without the CA idm refuses (exit 1, the certificate named); --ca-file and
// IDM_CA_FILE make it trust the CA (NODE_EXTRA_CA_CERTS, which Node reads when a process starts, is in
// test/e2e/tls.test.ts). A sandbox that requires client certificates (mutual TLS) lets idm in only
// with --client-cert and --client-key.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { credentialsEnv, runInProcess, tempConfigDir } from '../helpers/cli.js';
import { makeTestCa, type TestCa } from '../helpers/tls-ca.js';
import { recordSecrets } from '../helpers/sandbox.js';

let ca: TestCa;
let other: TestCa;
let elsewhere: TestCa;
let expired: TestCa;
let tenant: Sandbox;
let mutual: Sandbox;
let plain: Sandbox;
let misnamed: Sandbox;
let outdated: Sandbox;
const config = tempConfigDir();

beforeAll(async () => {
  [ca, other, elsewhere, expired] = await Promise.all([
    makeTestCa(),
    makeTestCa('another CA'),
    makeTestCa('a CA of another host', { dnsName: 'tenant.example.com' }),
    makeTestCa('a CA of an expired certificate', { notBeforeDate: new Date('2020-01-01T00:00:00Z'), notAfterDate: new Date('2020-02-01T00:00:00Z') }),
  ]);
  recordSecrets([ca, other, elsewhere, expired].flatMap((each) => [each.server.key, each.client.key]));
  [tenant, mutual, plain, misnamed, outdated] = await Promise.all([
    startSandbox({ tls: ca.server }),
    startSandbox({ tls: { ...ca.server, ca: ca.caPem, requestCert: true } }),
    startSandbox(),
    startSandbox({ tls: elsewhere.server }),
    startSandbox({ tls: expired.server }),
  ]);
  recordSecrets([tenant, mutual].flatMap((sb) => [sb.clients.admin.clientSecret, sb.clients.admin.privateKeyPem]));
});
afterAll(async () => {
  await Promise.all([tenant?.close(), mutual?.close(), plain?.close(), misnamed?.close(), outdated?.close()]);
  for (const each of [ca, other, elsewhere, expired]) each?.cleanup();
  config.cleanup();
});

function idm(sb: Sandbox, args: string[], env: Record<string, string> = {}) {
  return runInProcess([...args, 'streams', 'list', '--take', '1'], { configDir: config.dir, env: { ...credentialsEnv(sb), ...env } });
}

describe('a tenant with a certificate from a private CA', () => {
  it('without the CA: exit 1, the certificate named as the cause and --ca-file as the fix; nothing reached the API', async () => {
    const result = await idm(tenant, []);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const host = new URL(tenant.url).host;
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the TLS certificate of ${host} could not be verified (UNABLE_TO_VERIFY_LEAF_SIGNATURE).\n` +
        'If the tenant uses a private certificate authority, give its certificate with --ca-file PATH (IDM_CA_FILE, or NODE_EXTRA_CA_CERTS); verification is never turned off.\n',
    );
    expect(tenant.requests).toEqual([]);
  });

  it('a CA that did not sign it does not help, and the hint says the CA given is not the one', async () => {
    const result = await idm(tenant, ['--ca-file', other.caFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('could not be verified');
    expect(result.stderr).toContain("The certificate authority idm was given (--ca-file, IDM_CA_FILE or the profile's CA file) did not sign it");
  });

  it('a certificate for another name: the names it holds, and the domain as the fix, not --ca-file (exit 1, one attempt)', async () => {
    const result = await idm(misnamed, ['--ca-file', elsewhere.caFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the TLS certificate of ${new URL(misnamed.url).host} is not for that name (it is for tenant.example.com) (ERR_TLS_CERT_ALTNAME_INVALID).\n` +
        'Check the domain: give the tenant by a name its certificate holds; --ca-file does not change this, and verification is never turned off.\n',
    );
    expect(misnamed.requests).toEqual([]);
  });

  it('an expired certificate: said so, with renewal and the clock as the fix, not --ca-file (exit 1, one attempt)', async () => {
    const result = await idm(outdated, ['--ca-file', expired.caFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: Could not get an access token: the TLS certificate of ${new URL(outdated.url).host} has expired (CERT_HAS_EXPIRED).\n` +
        "Whoever runs the tenant must renew it; if it should be valid, check this machine's clock (date). --ca-file does not change this, and verification is never turned off.\n",
    );
    expect(outdated.requests).toEqual([]);
  });

  it('works with --ca-file or IDM_CA_FILE', async () => {
    for (const [args, env] of [
      [['--ca-file', ca.caFile], {}],
      [[], { IDM_CA_FILE: ca.caFile }],
    ] as const) {
      const result = await idm(tenant, [...args], { ...env });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^est_\w{22}\t/);
    }
  });

  it('login over HTTPS with --ca-file stores the profile; later runs need the CA again (IDM_CA_FILE)', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const secret = join(dir, 'secret.txt');
      writeFileSync(secret, tenant.clients.reader.clientSecret, { mode: 0o600 });
      const login = await runInProcess(['login', '--ca-file', ca.caFile, '--domain', tenant.url, '--client-id', tenant.clients.reader.clientId, '--client-secret-file', secret], { configDir: dir });
      expect(login.code).toBe(0);
      const list = await runInProcess(['streams', 'list', '--take', '1', '--json'], { configDir: dir, env: { IDM_CA_FILE: ca.caFile } });
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout).eventStreams).toHaveLength(1);
    } finally {
      cleanup();
    }
  });

  it('a --ca-file that is missing or not a certificate is a usage error naming the flag (exit 2), nothing sent', async () => {
    const before = tenant.requests.length;
    const missing = await idm(tenant, ['--ca-file', join(ca.dir, 'nope.pem')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Error: --ca-file \(IDM_CA_FILE\): cannot read .*nope\.pem: no such file\./);
    const notPem = await idm(tenant, ['--ca-file', ca.client.keyFile]);
    expect(notPem.code).toBe(2);
    expect(notPem.stderr).toContain('does not hold a PEM certificate');
    expect(notPem.stderr).not.toContain('PRIVATE KEY');
    expect(tenant.requests.length).toBe(before);
  });
});

describe('a tenant on plain HTTP given as https:// (or without a scheme, which means https)', () => {
  it('is named as such with http:// as the fix, after one attempt (exit 1); nothing reached the API', async () => {
    const host = new URL(plain.url).host;
    for (const domain of [`https://${host}`, host]) {
      const result = await runInProcess(['streams', 'list', '--take', '1'], { configDir: config.dir, env: { ...credentialsEnv(plain), IDM_DOMAIN: domain } });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `Error: Could not get an access token: ${host} does not speak HTTPS on that port (the TLS handshake was answered in plain text).\n` +
          `If it serves plain HTTP (idm sandbox start without --https), give the domain as http://${host} (http:// is accepted for loopback hosts only).\n`,
      );
    }
    expect(plain.requests).toEqual([]);
  });
});

describe('mutual TLS', () => {
  it('without a client certificate the handshake is refused: exit 1, and the fix is named', async () => {
    const result = await idm(mutual, ['--ca-file', ca.caFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused the TLS connection: it wants a client certificate it trusts \(mutual TLS\)/);
    expect(result.stderr).toContain('--client-cert PATH and --client-key PATH');
    expect(mutual.requests).toEqual([]);
  });

  it('with --client-cert and --client-key (or IDM_CLIENT_CERT and IDM_CLIENT_KEY) it works', async () => {
    const flags = await idm(mutual, ['--ca-file', ca.caFile, '--client-cert', ca.client.certFile, '--client-key', ca.client.keyFile]);
    expect(flags.stderr).toBe('');
    expect(flags.code).toBe(0);
    const env = await idm(mutual, [], { IDM_CA_FILE: ca.caFile, IDM_CLIENT_CERT: ca.client.certFile, IDM_CLIENT_KEY: ca.client.keyFile });
    expect(env.code).toBe(0);
    expect(env.stdout).toMatch(/^est_/);
  });

  it('a certificate from another CA is refused', async () => {
    const result = await idm(mutual, ['--ca-file', ca.caFile, '--client-cert', other.client.certFile, '--client-key', other.client.keyFile]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // TLS 1.3 checks the client's certificate after the client considers the handshake done: idm sees
    // either the server's alert or the connection reset that follows it.
    expect(result.stderr).toMatch(/refused the TLS connection|the connection was reset/);
  });

  it('one of --client-cert / --client-key without the other is a usage error (exit 2)', async () => {
    const result = await idm(mutual, ['--ca-file', ca.caFile, '--client-cert', ca.client.certFile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: --client-cert needs --client-key too.');
    const key = await idm(mutual, ['--client-key', ca.client.keyFile]);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('Error: --client-key needs --client-cert too.');
  });
});
