// Issue 11, item 15: TLS material is read and checked before the first request (exit 2 naming the
// file), and a server that refuses idm's client certificate is said to, once, not retried as a
// "connection reset".
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { credentialsEnv } from '../helpers/cli.js';
import { recordSandboxSecrets } from '../helpers/sandbox.js';
import { recordSecrets } from '../helpers/sweep.js';
import { makeTestCa, type TestCa } from '../helpers/tls-ca.js';
import { idm, tempDir } from '../helpers/hostile-server.js';

let ca: TestCa;
let other: TestCa;
let sandbox: Sandbox;
const config = tempDir();
beforeAll(async () => {
  [ca, other] = await Promise.all([makeTestCa('idm test CA'), makeTestCa('another CA')]);
  recordSecrets([ca.client.key, other.client.key]);
  sandbox = await startSandbox({ tls: { cert: ca.server.cert, key: ca.server.key, ca: ca.caPem, requestCert: true } });
  recordSandboxSecrets(sandbox);
});
afterAll(async () => {
  await sandbox.close();
  ca.cleanup();
  other.cleanup();
  config.cleanup();
});

const env = (extra: Record<string, string>) => ({
  IDM_CONFIG_DIR: config.dir,
  ...credentialsEnv(sandbox),
  IDM_CA_FILE: ca.caFile,
  ...extra,
});
const file = (name: string, text: string) => {
  const path = join(config.dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};

describe('TLS material is checked before the first request', () => {
  it('works with the right certificate and key (the control case)', async () => {
    const result = await idm(['streams', 'list', '--json'], { env: env({ IDM_CLIENT_CERT: ca.client.certFile, IDM_CLIENT_KEY: ca.client.keyFile }) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it.each([
    ['a key that is not the certificate’s (an EC key of another certificate)', () => ({ IDM_CLIENT_CERT: ca.client.certFile, IDM_CLIENT_KEY: other.client.keyFile }), /does not belong to the certificate in /],
    [
      'an RSA key with an EC certificate',
      () => ({ IDM_CLIENT_CERT: ca.client.certFile, IDM_CLIENT_KEY: file('rsa.key', generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()) }),
      /does not belong to the certificate in /,
    ],
    [
      'an encrypted key',
      () => ({
        IDM_CLIENT_CERT: ca.client.certFile,
        IDM_CLIENT_KEY: file('encrypted.key', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString()),
      }),
      /the key cannot be read: it is encrypted/,
    ],
    ['a garbage certificate block in --ca-file', () => ({ IDM_CA_FILE: file('garbage-ca.pem', `${ca.caPem}-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n`) }), /--ca-file \(IDM_CA_FILE\): certificate 2 in .* is not a valid certificate/],
  ])('%s: exit 2 naming the file, nothing sent', async (_name, extra, message) => {
    const before = sandbox.requests.length;
    const result = await idm(['streams', 'list'], { env: env(extra()) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(sandbox.requests.length).toBe(before);
  });
});

describe('a client certificate the server does not trust', () => {
  it('is reported as such, after one attempt', async () => {
    const result = await idm(['streams', 'list'], { env: env({ IDM_CLIENT_CERT: other.client.certFile, IDM_CLIENT_KEY: other.client.keyFile }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused the TLS connection: it wants a client certificate it trusts/);
    expect(result.stderr).not.toMatch(/trying again|Tried \d times|connection was reset/);
  });
});
