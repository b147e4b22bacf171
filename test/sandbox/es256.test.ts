// ES256 client assertions (wire-facts.md: "RS256, RS384, PS256 or ES256"): a seed registers an EC
// P-256 public key for a client, the token endpoint verifies assertions signed with it, and idm (which
// signs with ES256 for an EC key by default) logs in with --private-key-file and lists the streams.
import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { signJwt } from '../../src/sandbox/jwt.js';
import { ASSERTION_TYPE } from '../../src/sandbox/tokens.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runInProcess, tempConfigDir } from '../helpers/cli.js';
import { recordSandboxSecrets, tokenRequest } from '../helpers/sandbox.js';

const ec = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = (key: ReturnType<typeof ec>['publicKey'] | ReturnType<typeof ec>['privateKey']) =>
  key.export({ type: key.type === 'public' ? 'spki' : 'pkcs8', format: 'pem' }).toString();

const registered = ec();
const STREAM = 'est_es256Stream00000000000';
const seed = {
  clients: { admin: { publicKeys: [pem(registered.publicKey)] } },
  streams: [
    {
      id: STREAM,
      name: 'es256-stream',
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: '{inbox}/es256', webhook_authorization: { method: 'bearer', token: 'es256-test-token' } } },
    },
  ],
};

let sandbox: Sandbox;
let config: ReturnType<typeof tempConfigDir>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed });
  recordSandboxSecrets(sandbox, seed);
  config = tempConfigDir();
});
afterAll(async () => {
  await sandbox.close();
  config.cleanup();
});

function assertion(privateKeyPem: string, alg: string): string {
  const { clientId } = sandbox.clients.admin;
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ iss: clientId, sub: clientId, aud: `${sandbox.url}/`, iat: now, exp: now + 60, jti: randomUUID() }, createPrivateKey(privateKeyPem), { alg });
}

const withAssertion = (value: string) => ({ grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: value, audience: `${sandbox.url}/api/v2/` });

describe('token endpoint: ES256 assertions', () => {
  it('accepts one signed with an EC P-256 key the seed registered for the client', async () => {
    const res = await tokenRequest(sandbox, withAssertion(assertion(pem(registered.privateKey), 'ES256')));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
  });

  it('refuses one signed with an EC key that is not registered, and the client RSA key still works', async () => {
    const res = await tokenRequest(sandbox, withAssertion(assertion(pem(ec().privateKey), 'ES256')));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed: invalid assertion signature' });
    expect((await tokenRequest(sandbox, withAssertion(assertion(sandbox.clients.admin.privateKeyPem, 'RS256')))).status).toBe(200);
  });

  it('a seed key must be a public key, RSA or EC P-256; the error never quotes it', async () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    for (const bad of [pem(registered.privateKey), pem(p384.publicKey), 'not a key']) {
      const started = startSandbox({ port: 0, seed: { clients: { admin: { publicKeys: [bad] } } } });
      await expect(started).rejects.toThrow(/clients\.admin\.publicKeys\.0.*must be a PEM public key/);
      await started.catch((error: Error) => expect(error.message).not.toContain(bad.split('\n')[1] ?? bad));
    }
  });
});

describe('--state-dir keeps the registered keys', () => {
  it('after a restart on the same directory, the ES256 assertion of the same client is accepted', async () => {
    const state = tempConfigDir();
    try {
      const first = await startSandbox({ port: 0, seed, stateDir: state.dir });
      const clientId = first.clients.admin.clientId;
      await first.close();
      const again = await startSandbox({ port: 0, stateDir: state.dir });
      try {
        expect(again.restored).toBe(true);
        const now = Math.floor(Date.now() / 1000);
        const signed = signJwt({ iss: clientId, sub: clientId, aud: `${again.url}/`, iat: now, exp: now + 60, jti: randomUUID() }, registered.privateKey, { alg: 'ES256' });
        const res = await tokenRequest(again, { grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: signed, audience: `${again.url}/api/v2/` });
        expect(res.status).toBe(200);
      } finally {
        await again.close();
      }
    } finally {
      state.cleanup();
    }
  });
});

describe('idm login --private-key-file with an EC key (ES256 by default)', () => {
  it('logs in against the sandbox and lists the streams', async () => {
    const keyFile = join(config.dir, 'ec.pem');
    writeFileSync(keyFile, pem(registered.privateKey), { mode: 0o600 });
    const from = sandbox.requests.length;
    const login = await runInProcess(['login', '--domain', sandbox.url, '--client-id', sandbox.clients.admin.clientId, '--private-key-file', keyFile], { configDir: config.dir });
    expect(login.stderr).not.toMatch(/Error/);
    expect(login.code).toBe(0);

    // What reached the token endpoint: an assertion whose header says ES256.
    const tokenCalls = sandbox.requests.slice(from).filter((request) => request.path === '/oauth/token');
    expect(tokenCalls).toHaveLength(1);
    const sent = new URLSearchParams(tokenCalls[0]!.body);
    expect(sent.get('client_assertion_type')).toBe(ASSERTION_TYPE);
    expect(JSON.parse(Buffer.from(sent.get('client_assertion')!.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'ES256' });

    const list = await runInProcess(['streams', 'list'], { configDir: config.dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${STREAM}\\tes256-stream\\t`, 'm'));
    expect(sandbox.requests.slice(from).filter((request) => request.path.startsWith('/api/v2/event-streams'))).toHaveLength(1);
  });
});
