// NODE_EXTRA_CA_CERTS, which Node reads when a process starts: the built idm trusts a tenant whose
// certificate that CA signed, and refuses it without. The rest of HTTPS is in test/api/tls.test.ts.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { credentialsEnv, runIdm, startSandboxProcess, tempConfigDir } from '../helpers/cli.js';
import { makeTestCa, type TestCa } from '../helpers/tls-ca.js';
import { recordSandboxSecrets, recordSecrets } from '../helpers/sandbox.js';

let ca: TestCa;
let other: TestCa;
let tenant: Sandbox;
const config = tempConfigDir();

beforeAll(async () => {
  [ca, other] = await Promise.all([makeTestCa(), makeTestCa('another CA')]);
  recordSecrets([ca.server.key, ca.client.key, other.server.key, other.client.key]);
  tenant = await startSandbox({ tls: ca.server });
  recordSandboxSecrets(tenant);
});
afterAll(async () => {
  await tenant?.close();
  ca?.cleanup();
  other?.cleanup();
  config.cleanup();
});

describe('NODE_EXTRA_CA_CERTS', () => {
  it('makes the built idm trust the CA; without it the certificate is refused (exit 1)', async () => {
    const list = (env: Record<string, string>) => runIdm(['streams', 'list', '--take', '1'], { configDir: config.dir, env: { ...credentialsEnv(tenant), ...env } });
    const refused = await list({});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('could not be verified');
    const trusted = await list({ NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/^est_\w{22}\t/);
  });

  it('is still trusted beside a --ca-file of another authority (a corporate proxy CA and a tenant CA)', async () => {
    const result = await runIdm(['streams', 'list', '--take', '1', '--ca-file', other.caFile], { configDir: config.dir, env: { ...credentialsEnv(tenant), NODE_EXTRA_CA_CERTS: ca.caFile } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^est_\w{22}\t/);
  });
});

describe('NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment (a CI runner that sets it for everything)', () => {
  const list = (args: string[], env: Record<string, string>) =>
    runIdm(['streams', 'list', '--take', '1', ...args], { configDir: config.dir, env: { ...credentialsEnv(tenant), NODE_TLS_REJECT_UNAUTHORIZED: '0', ...env } });

  it('turns nothing off: an unknown CA is still refused, and the note says it is ignored (not that verification is off)', async () => {
    const refused = await list([], {});
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('could not be verified');
    expect(refused.stderr).toContain('Warning: NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: idm verifies every certificate.');
    expect(refused.stderr).not.toContain('(node:');
    expect(refused.stderr).not.toContain('insecure');
  });

  it('with --json, stderr stays JSON lines: the note is a {"warning"} line, the error last', async () => {
    const trusted = await list(['--json'], { IDM_CA_FILE: ca.caFile });
    expect(trusted.code).toBe(0);
    expect(JSON.parse(trusted.stdout).eventStreams).toHaveLength(1);
    const lines = trusted.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, { message: string; hint?: string }>);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.warning!.message).toBe('NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: idm verifies every certificate.');
    expect(lines[0]!.warning!.hint).toContain('--ca-file');
    const refused = await list(['--json'], {});
    expect(refused.code).toBe(1);
    const last = refused.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(last.at(-1)!)).toEqual(['error']);
    expect(last.some((line) => 'warning' in line)).toBe(true);
  });
});

describe('NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment of `idm sandbox start`', () => {
  it('its deliveries still verify the webhook certificate, as the service does: an endpoint of an unknown CA receives nothing', async () => {
    let received = 0;
    const endpoint = createServer(other.server, (request, response) => {
      received++;
      response.end('ok');
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const sandbox = await startSandboxProcess(['--delivery', 'sync'], { configDir: config.dir, json: true, env: { NODE_TLS_REJECT_UNAUTHORIZED: '0' } });
    try {
      const env = { IDM_DOMAIN: sandbox.info.url, IDM_CLIENT_ID: sandbox.info.clients.admin.clientId, IDM_CLIENT_SECRET: sandbox.info.clients.admin.clientSecret, IDM_WEBHOOK_SECRET: 'webhook-token-0123' };
      const webhook = `https://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`;
      const created = await runIdm(['streams', 'create', '--name', 'foreign-ca', '--webhook', webhook, '--auth', 'bearer', '--event-type', 'user.created', '--json'], { configDir: config.dir, env });
      expect(created.code).toBe(0);
      const tested = await runIdm(['streams', 'test', JSON.parse(created.stdout).id, '--event-type', 'user.created', '--json'], { configDir: config.dir, env });
      expect(JSON.parse(tested.stdout).status).toBe('failed');
      expect(tested.code).toBe(3);
      expect(received).toBe(0);
    } finally {
      await sandbox.stop();
      await new Promise((resolve) => endpoint.close(resolve));
    }
  });
});

// It was 'could not reach HOST: write EPROTO 80…:error:0A00042E:SSL routines:…tlsv1 alert protocol
// version…', read as a network failure and asked three times.
describe('a tenant that speaks only TLS older than 1.2', () => {
  it('exit 1 at once: the handshake failed on the TLS version, without OpenSSL\'s text; not asked again', async () => {
    const old = createServer({ cert: ca.server.cert, key: ca.server.key, minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }, (_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    try {
      const host = `127.0.0.1:${(old.address() as AddressInfo).port}`;
      const result = await runIdm(['streams', 'list', '--max-wait', '1'], { configDir: config.dir, env: { IDM_DOMAIN: `https://${host}`, IDM_ACCESS_TOKEN: 'a-token', IDM_CA_FILE: ca.caFile } });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `Error: Could not list event streams: the TLS handshake with ${host} failed: it offers no TLS version idm accepts (tlsv1 alert protocol version).\n` +
          "idm speaks TLS 1.2 and 1.3 only: check the domain and its port (the tenant's address serves them).\n",
      );
    } finally {
      old.close();
    }
  });
});

// It was 'could not reach HOST: write EPROTO 80…:SSL routines:…sslv3 alert handshake failure…', with
// 'check your network connection', asked three times: TLS 1.2 sends the alert as EPROTO.
describe('a tenant on TLS 1.2 that wants a client certificate, none given', () => {
  it('exit 1 at once: it most likely wants a client certificate, and the flags to give it; no OpenSSL text', async () => {
    const mutualTls12 = createServer({ cert: ca.server.cert, key: ca.server.key, maxVersion: 'TLSv1.2', requestCert: true, rejectUnauthorized: true, ca: ca.caPem }, (_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => mutualTls12.listen(0, '127.0.0.1', resolve));
    try {
      const host = `127.0.0.1:${(mutualTls12.address() as AddressInfo).port}`;
      const result = await runIdm(['streams', 'list', '--max-wait', '1'], { configDir: config.dir, env: { IDM_DOMAIN: `https://${host}`, IDM_ACCESS_TOKEN: 'a-token', IDM_CA_FILE: ca.caFile } });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `Error: Could not list event streams: ${host} refused the TLS connection: most likely, it wants a client certificate it trusts (mutual TLS) (sslv3 alert handshake failure).\n` +
          'Give the client certificate and its key with --client-cert PATH and --client-key PATH (IDM_CLIENT_CERT, IDM_CLIENT_KEY).\n',
      );
    } finally {
      mutualTls12.close();
    }
  });
});
