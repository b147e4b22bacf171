// The sandbox on HTTPS (a CA of its own, a certificate for 127.0.0.1 and localhost) and mutual-TLS
// client authentication both ways the real service knows: a handshake, and the headers of an edge
// network that did the handshake (client-certificate, client-certificate-ca-verified, cname-api-key).
// Real TLS on loopback, each client trusting only the sandbox's CA.
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, fingerprintOf } from '../../src/sandbox/pki.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { recordSandboxSecrets } from '../helpers/sandbox.js';
import { makeTestCa, type TestCa } from '../helpers/tls-ca.js';

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTPS request trusting only `ca`, optionally presenting a client certificate. */
function httpsCall(url: string, options: { ca: string; cert?: string; key?: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', ca: options.ca, cert: options.cert, key: options.key, headers: options.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? '' : JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function tokenCall(sandbox: Sandbox, form: Record<string, string>, tls: { cert?: string; key?: string } = {}, headers: Record<string, string> = {}): Promise<Answer> {
  return httpsCall(sandbox.tokenUrl, {
    ca: sandbox.caPem!,
    ...tls,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ grant_type: 'client_credentials', audience: `${sandbox.apiUrl}/`, ...form }).toString(),
  });
}

const INVALID_CLIENT = (detail: string) => ({ status: 401, body: { error: 'invalid_client', error_description: `Client authentication failed: ${detail}` } });

describe('sandbox https', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ https: true });
    recordSandboxSecrets(sandbox);
  });
  afterAll(() => sandbox.close());

  it('serves the tenant on https:// with a certificate for 127.0.0.1 and localhost signed by its own CA', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.caPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const ca = new X509Certificate(sandbox.caPem!);
    expect(ca.ca).toBe(true);
    const { clientId, clientSecret } = sandbox.clients.admin;
    const token = await tokenCall(sandbox, { client_id: clientId, client_secret: clientSecret });
    expect(token.status).toBe(200);
    // The audience follows the scheme: the token is for https://127.0.0.1:PORT/api/v2/.
    const claims = JSON.parse(Buffer.from(token.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims.aud).toBe(`${sandbox.url}/api/v2/`);
    expect(claims.iss).toBe(`${sandbox.url}/`);
    const list = await httpsCall(`${sandbox.apiUrl}/event-streams?take=1`, { ca: sandbox.caPem!, headers: { authorization: `Bearer ${token.body.access_token}` } });
    expect(list.status).toBe(200);
    expect(list.body.eventStreams).toHaveLength(1);
    // The same certificate answers for localhost.
    const local = await httpsCall(`${sandbox.url.replace('127.0.0.1', 'localhost')}/`, { ca: sandbox.caPem! });
    expect(local.status).toBe(200);
  });

  it('is refused by a client that does not trust the CA', async () => {
    await expect(httpsCall(`${sandbox.url}/`, { ca: (await issueCertificate(undefined, 'server')).cert })).rejects.toThrow(/self.signed|unable to verify|certificate/i);
  });

  // `curl http://…` to the HTTPS tenant got its connection closed ('Empty reply from server'), and
  // fetch 'other side closed': nothing said that the port speaks HTTPS.
  it('answers a plain HTTP request 400 naming the https:// URL to use, and goes on serving HTTPS', async () => {
    const plain = sandbox.url.replace(/^https:/, 'http:');
    const res = await fetch(`${plain}/api/v2/event-streams`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: `This port serves HTTPS, and a plain HTTP request was sent to it: send it to ${sandbox.url}.`,
    });
    expect((await fetch(`${plain}/oauth/token`, { method: 'POST', body: 'grant_type=client_credentials' })).status).toBe(400);
    // PATCH and DELETE are no request OpenSSL knows, but no TLS record either: the same answer.
    for (const method of ['PATCH', 'DELETE']) expect((await fetch(`${plain}/api/v2/event-streams/x`, { method })).status).toBe(400);
    expect((await httpsCall(`${sandbox.url}/`, { ca: sandbox.caPem! })).status).toBe(200);
  });

  it('has no mtls client and no edge key unless asked', () => {
    expect(sandbox.clients.mtls).toBeUndefined();
    expect(sandbox.edgeKey).toBeUndefined();
  });

  it('asked for a token with only a client id (tls_client_auth), says that mutual TLS is off', async () => {
    expect(await tokenCall(sandbox, { client_id: sandbox.clients.admin.clientId })).toEqual(
      INVALID_CLIENT('mutual TLS is off in this sandbox, so a client id alone (tls_client_auth) is not enough: send the client secret or a client assertion'),
    );
  });

  it('is the tenant as https://localhost:PORT too, as its certificate says: a token for that audience works at either host', async () => {
    const local = sandbox.url.replace('127.0.0.1', 'localhost');
    const { clientId, clientSecret } = sandbox.clients.admin;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: `${local}/api/v2/` }).toString();
    const token = await httpsCall(`${local}/oauth/token`, { ca: sandbox.caPem!, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(token.status).toBe(200);
    const claims = JSON.parse(Buffer.from(token.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ iss: `${local}/`, aud: `${local}/api/v2/` });
    for (const base of [local, sandbox.url]) {
      const list = await httpsCall(`${base}/api/v2/event-streams?take=1`, { ca: sandbox.caPem!, headers: { authorization: `Bearer ${token.body.access_token}` } });
      expect(list.status, base).toBe(200);
    }
    // Another host is still another service.
    const other = await tokenCall(sandbox, { client_id: clientId, client_secret: clientSecret, audience: `https://localhost.example:${new URL(sandbox.url).port}/api/v2/` });
    expect(other.status).toBe(403);
  });
});

describe('sandbox mtls: handshake', () => {
  let sandbox: Sandbox;
  let ownCert: { cert: string; key: string };
  beforeAll(async () => {
    // A self-signed certificate of the user's own, registered by its fingerprint in the seed.
    ownCert = await issueCertificate(undefined, 'client', 'my own client');
    sandbox = await startSandbox({ https: true, mtls: 'handshake', seed: { clients: { mtls: { certificateFingerprints: [fingerprintOf(ownCert.cert).replace(/:/g, '').toLowerCase()] } } } });
    recordSandboxSecrets(sandbox);
  });
  afterAll(() => sandbox.close());

  it('registers an mtls client with a certificate signed by the sandbox CA, and no secret', () => {
    const mtls = sandbox.clients.mtls!;
    expect(mtls.clientId).toMatch(/^\w{32}$/);
    expect('clientSecret' in mtls).toBe(false);
    expect(new X509Certificate(mtls.certPem).checkIssued(new X509Certificate(sandbox.caPem!))).toBe(true);
    expect(mtls.certificateFingerprints).toEqual([fingerprintOf(mtls.certPem), fingerprintOf(ownCert.cert)]);
  });

  it('issues a token to the client id presenting its certificate, with every scope', async () => {
    const mtls = sandbox.clients.mtls!;
    const answer = await tokenCall(sandbox, { client_id: mtls.clientId }, { cert: mtls.certPem, key: mtls.keyPem });
    expect(answer.status).toBe(200);
    expect(answer.body.scope.split(' ')).toContain('read:event_streams');
    expect(answer.body.scope.split(' ')).toContain('create:directory_provisionings');
  });

  it('accepts a self-signed certificate registered in the seed', async () => {
    const answer = await tokenCall(sandbox, { client_id: sandbox.clients.mtls!.clientId }, ownCert);
    expect(answer.status).toBe(200);
  });

  it('refuses, with the service invalid_client shape: no certificate, another certificate, another client, or a secret', async () => {
    const mtls = sandbox.clients.mtls!;
    const stranger = await issueCertificate(undefined, 'client', 'stranger');
    expect(await tokenCall(sandbox, { client_id: mtls.clientId })).toEqual(INVALID_CLIENT('no client certificate was presented'));
    expect(await tokenCall(sandbox, { client_id: mtls.clientId }, stranger)).toEqual(INVALID_CLIENT('the client certificate is not registered for this client'));
    // The admin client is not registered with a certificate: presenting the mtls one does not make it so.
    expect(await tokenCall(sandbox, { client_id: sandbox.clients.admin.clientId }, { cert: mtls.certPem, key: mtls.keyPem })).toEqual(
      INVALID_CLIENT('the client certificate is not registered for this client'),
    );
    expect(await tokenCall(sandbox, { client_id: mtls.clientId, client_secret: 'a-secret-of-sixteen' })).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } });
  });

  it('still serves clients without a certificate (the API with a token, the secret clients)', async () => {
    const { clientId, clientSecret } = sandbox.clients.admin;
    expect((await tokenCall(sandbox, { client_id: clientId, client_secret: clientSecret })).status).toBe(200);
  });
});

describe('sandbox mtls: behind an edge', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ https: true, mtls: 'edge' });
    recordSandboxSecrets(sandbox);
  });
  afterAll(() => sandbox.close());

  const edgeHeaders = (cert: string, verified = 'SUCCESS', apiKey = sandbox.edgeKey!) => ({
    'cname-api-key': apiKey,
    'client-certificate': encodeURIComponent(cert),
    'client-certificate-ca-verified': verified,
  });

  it('issues a token when the edge forwards the registered certificate, its verification and the api key', async () => {
    const mtls = sandbox.clients.mtls!;
    expect(sandbox.edgeKey).toMatch(/^\w{40}$/);
    const answer = await tokenCall(sandbox, { client_id: mtls.clientId }, {}, edgeHeaders(mtls.certPem));
    expect(answer.status).toBe(200);
  });

  it('refuses a wrong or missing cname-api-key, a missing verification, and a CA-signed certificate the edge could not verify', async () => {
    const mtls = sandbox.clients.mtls!;
    expect(await tokenCall(sandbox, { client_id: mtls.clientId }, {}, edgeHeaders(mtls.certPem, 'SUCCESS', 'x'.repeat(40)))).toEqual(
      INVALID_CLIENT('the edge did not send the cname-api-key of this tenant'),
    );
    const { 'client-certificate-ca-verified': _, ...unverified } = edgeHeaders(mtls.certPem);
    expect(await tokenCall(sandbox, { client_id: mtls.clientId }, {}, unverified)).toEqual(INVALID_CLIENT('the edge did not send client-certificate-ca-verified'));
    expect(await tokenCall(sandbox, { client_id: mtls.clientId }, {}, edgeHeaders(mtls.certPem, 'FAILED:unable to get local issuer certificate'))).toEqual(
      INVALID_CLIENT('the client certificate could not be verified'),
    );
    expect(await tokenCall(sandbox, { client_id: mtls.clientId }, {}, { ...edgeHeaders(mtls.certPem), 'client-certificate': 'not a certificate' })).toEqual(
      INVALID_CLIENT('the client-certificate header holds no URL-encoded PEM certificate'),
    );
  });

  it('does not look at the handshake: a certificate presented in TLS without the headers is not enough', async () => {
    const mtls = sandbox.clients.mtls!;
    const answer = await tokenCall(sandbox, { client_id: mtls.clientId }, { cert: mtls.certPem, key: mtls.keyPem }, { 'cname-api-key': sandbox.edgeKey! });
    expect(answer).toEqual(INVALID_CLIENT('no client certificate was presented'));
  });
});

describe('sandbox mtls with a server certificate of the user’s own (tls)', () => {
  let sandbox: Sandbox;
  let own: TestCa;
  beforeAll(async () => {
    own = await makeTestCa('the user’s own CA');
    sandbox = await startSandbox({ tls: own.server, mtls: 'handshake' });
    recordSandboxSecrets(sandbox);
  });
  afterAll(async () => {
    await sandbox.close();
    own.cleanup();
  });

  it('does not offer its CA as the one to trust for the tenant (it did not sign its certificate); the client CA is its own field', async () => {
    expect(sandbox.caPem).toBeUndefined();
    const clientCa = new X509Certificate(sandbox.clientCaPem!);
    expect(new X509Certificate(sandbox.clients.mtls!.certPem).checkIssued(clientCa)).toBe(true);
    // The tenant is trusted through the user's CA, and its CA is no help for that.
    await expect(httpsCall(`${sandbox.url}/`, { ca: sandbox.clientCaPem! })).rejects.toThrow(/self.signed|unable to verify|certificate/i);
    const mtls = sandbox.clients.mtls!;
    const answer = await httpsCall(sandbox.tokenUrl, {
      ca: own.caPem,
      cert: mtls.certPem,
      key: mtls.keyPem,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: mtls.clientId, audience: `${sandbox.apiUrl}/` }).toString(),
    });
    expect(answer.status).toBe(200);
  });
});

describe('sandbox mtls-edge on plain HTTP', () => {
  it('has no CA to trust for the tenant (it is not on HTTPS), only the CA of the client certificate', async () => {
    const sandbox = await startSandbox({ mtls: 'edge' });
    recordSandboxSecrets(sandbox);
    try {
      expect(sandbox.url).toMatch(/^http:\/\//);
      expect(sandbox.caPem).toBeUndefined();
      expect(new X509Certificate(sandbox.clients.mtls!.certPem).checkIssued(new X509Certificate(sandbox.clientCaPem!))).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
