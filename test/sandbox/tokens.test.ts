// The token endpoint over real HTTP: the three client-authentication methods and every error.
import { describe, expect, it } from 'vitest';
import { ASSERTION_TYPE } from '../../src/sandbox/tokens.js';
import { decodeJwt } from '../../src/sandbox/jwt.js';
import { call, signAssertion, tokenRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ tokenLifetime: 7200 });
const audience = () => `${sb().url}/api/v2/`;
const admin = () => sb().clients.admin;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function withSecret(extra: Record<string, string> = {}) {
  return { grant_type: 'client_credentials', client_id: admin().clientId, client_secret: admin().clientSecret, audience: audience(), ...extra };
}

function withAssertion(assertion: string, extra: Record<string, string> = {}) {
  return { grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: assertion, audience: audience(), ...extra };
}

async function expectTokenError(params: Record<string, string>, status: number, error: string, headers: Record<string, string> = {}) {
  const res = await tokenRequest(sb(), params, headers);
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.body).toEqual({ error, error_description: expect.any(String) });
  return res.body.error_description as string;
}

describe('token endpoint: success', () => {
  it('issues an RS256 access token for a client secret in the body, with the configured lifetime', async () => {
    const before = sb().tokensIssued();
    const res = await tokenRequest(sb(), withSecret());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 7200, scope: admin().scopes.join(' ') });
    const jwt = decodeJwt(res.body.access_token)!;
    expect(jwt.header).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(jwt.payload).toMatchObject({
      iss: `${sb().url}/`,
      sub: `${admin().clientId}@clients`,
      aud: audience(),
      scope: admin().scopes.join(' '),
      jti: expect.any(String),
    });
    expect((jwt.payload.exp as number) - (jwt.payload.iat as number)).toBe(7200);
    expect(sb().tokensIssued()).toBe(before + 1);
  });

  it('accepts HTTP Basic client authentication, on /oauth/token/ too', async () => {
    const res = await call(sb(), 'POST', '/oauth/token/', {
      body: new URLSearchParams({ grant_type: 'client_credentials', audience: audience() }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(admin().clientId, admin().clientSecret) },
    });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  it('accepts a private-key JWT assertion, with aud the tenant base or the token URL', async () => {
    for (const aud of [`${sb().url}/`, `${sb().url}/oauth/token`]) {
      const res = await tokenRequest(sb(), withAssertion(signAssertion(sb(), 'reader', { aud })));
      expect(res.status).toBe(200);
      expect(decodeJwt(res.body.access_token)!.payload.sub).toBe(`${sb().clients.reader.clientId}@clients`);
      expect(res.body.scope).toBe('read:event_streams');
    }
  });

  it('accepts a JSON body as the real service does', async () => {
    const res = await call(sb(), 'POST', '/oauth/token', { body: withSecret() });
    expect(res.status).toBe(200);
  });

  it('narrows the token to a requested scope', async () => {
    const res = await tokenRequest(sb(), withSecret({ scope: 'read:event_streams delete:everything' }));
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('read:event_streams');
  });
});

describe('token endpoint: client assertion errors', () => {
  it('refuses a reused jti', async () => {
    const assertion = signAssertion(sb(), 'admin', { jti: 'once-only' });
    expect((await tokenRequest(sb(), withAssertion(assertion))).status).toBe(200);
    const description = await expectTokenError(withAssertion(assertion), 401, 'invalid_client');
    expect(description).toContain('jti');
  });

  it('refuses an expired assertion and one that lives longer than 5 minutes', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await expectTokenError(withAssertion(signAssertion(sb(), 'admin', { iat: now - 120, exp: now - 60 })), 401, 'invalid_client')).toContain(
      'expired',
    );
    expect(await expectTokenError(withAssertion(signAssertion(sb(), 'admin', { iat: now, exp: now + 301 })), 401, 'invalid_client')).toContain('5 minutes');
    expect(await expectTokenError(withAssertion(signAssertion(sb(), 'admin', { exp: undefined })), 401, 'invalid_client')).toContain('exp');
  });

  it('refuses a wrong audience, a missing jti, and iss different from sub', async () => {
    expect(await expectTokenError(withAssertion(signAssertion(sb(), 'admin', { aud: `${sb().url}/api/v2/` })), 401, 'invalid_client')).toContain('audience');
    expect(await expectTokenError(withAssertion(signAssertion(sb(), 'admin', { jti: undefined })), 401, 'invalid_client')).toContain('jti');
    await expectTokenError(withAssertion(signAssertion(sb(), 'admin', { sub: 'someone-else' })), 401, 'invalid_client');
  });

  it('refuses an assertion signed with another client key', async () => {
    // The reader's key, claiming to be the admin.
    const forged = signAssertion(sb(), 'reader', { iss: admin().clientId, sub: admin().clientId });
    expect(await expectTokenError(withAssertion(forged), 401, 'invalid_client')).toContain('signature');
  });

  it('refuses a wrong assertion type and a malformed assertion', async () => {
    await expectTokenError(withAssertion(signAssertion(sb()), { client_assertion_type: 'urn:other' }), 400, 'invalid_request');
    await expectTokenError(withAssertion('not-a-jwt'), 401, 'invalid_client');
  });
});

describe('token endpoint: other errors', () => {
  it('401 invalid_client for a wrong secret, an unknown client, or a wrong Basic secret', async () => {
    expect(await expectTokenError(withSecret({ client_secret: 'wrong' }), 401, 'invalid_client')).toBe('Client authentication failed');
    await expectTokenError(withSecret({ client_id: 'unknown' }), 401, 'invalid_client');
    await expectTokenError({ grant_type: 'client_credentials', audience: audience() }, 401, 'invalid_client', {
      Authorization: basic(admin().clientId, 'wrong'),
    });
    await expectTokenError({ grant_type: 'client_credentials', client_id: admin().clientId, audience: audience() }, 401, 'invalid_client');
  });

  it('403 access_denied for a wrong or missing audience', async () => {
    expect(await expectTokenError(withSecret({ audience: `${sb().url}/api/v2` }), 403, 'access_denied')).toContain('/api/v2');
    const { audience: _omitted, ...noAudience } = withSecret();
    await expectTokenError(noAudience, 403, 'access_denied');
  });

  it('400 for a missing or unsupported grant type, two authentication methods, or a bad content type', async () => {
    const { grant_type: _omitted, ...noGrant } = withSecret();
    await expectTokenError(noGrant, 400, 'invalid_request');
    await expectTokenError(withSecret({ grant_type: 'password' }), 400, 'unsupported_grant_type');
    await expectTokenError(withSecret(), 400, 'invalid_request', { Authorization: basic(admin().clientId, admin().clientSecret) });
    const res = await call(sb(), 'POST', '/oauth/token', { body: 'grant_type=client_credentials', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('answers 405 to GET', async () => {
    const res = await call(sb(), 'GET', '/oauth/token');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('counts only the tokens it issued', async () => {
    const before = sb().tokensIssued();
    await tokenRequest(sb(), withSecret({ client_secret: 'wrong' }));
    expect(sb().tokensIssued()).toBe(before);
  });
});

describe('token endpoint: HTTP Basic with a secret that form-encoding changes', () => {
  // interface.md and wire-facts.md: the Base64 of `<client_id>:<client_secret>` as they are (curl -u,
  // the SDKs, idm). RFC 6749 2.3.1 form-encodes both parts first (some OAuth libraries): the service
  // reads that as another secret, so the sandbox refuses it too, and says why. A secret with `+`, `%`,
  // `/` and `=` reads differently in the two.
  const secret = 'sEcr3t+with%41/and=0123456789';
  const seeded = useSandbox({ seed: { clients: { admin: { clientId: 'basic-seeded-admin', clientSecret: secret } } } });
  const form = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);
  const ask = (authorization: string, extra: Record<string, string> = {}) =>
    call(seeded(), 'POST', '/oauth/token', {
      body: new URLSearchParams({ grant_type: 'client_credentials', audience: `${seeded().url}/api/v2/`, ...extra }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: authorization },
    });

  it('accepts the secret as it is (the interface), and refuses a wrong one', async () => {
    expect((await ask(basic('basic-seeded-admin', secret))).status).toBe(200);
    const wrong = await ask(basic('basic-seeded-admin', secret.replace('%41', 'A')));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });
  });

  it('refuses the secret form-encoded first (RFC 6749), as the service does, naming the encoding; no token is issued', async () => {
    const before = seeded().tokensIssued();
    for (const extra of [{}, { client_id: 'basic-seeded-admin' }] as Array<Record<string, string>>) {
      const encoded = await ask(basic('basic-seeded-admin', form(secret)), extra);
      expect(encoded.status).toBe(401);
      expect(encoded.body).toEqual({
        error: 'invalid_client',
        error_description: 'Client authentication failed: the Authorization header holds the client id and secret form-encoded (RFC 6749 2.3.1); send the Base64 of <client_id>:<client_secret> as they are',
      });
    }
    expect(seeded().tokensIssued()).toBe(before);
  });
});
