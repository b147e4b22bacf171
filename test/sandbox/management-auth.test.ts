// Bearer-token checks of the management interface: 401 variants and the per-operation 403.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt } from '../../src/sandbox/jwt.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

// The tenant signs with a key the test knows, so that it can mint expired and foreign tokens.
const tenantKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const sb = useSandbox({ signingKeyPem: tenantKey.export({ type: 'pkcs8', format: 'pem' }).toString() });

function mint(claims: Record<string, unknown> = {}, key = tenantKey): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    { iss: `${sb().url}/`, sub: 'x@clients', aud: `${sb().url}/api/v2/`, iat: now, exp: now + 600, scope: 'read:event_streams', jti: randomUUID(), ...claims },
    key,
  );
}

async function expect401(headers: Record<string, string>, message: string) {
  const res = await call(sb(), 'GET', '/api/v2/event-streams', { headers });
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.body).toEqual({ statusCode: 401, error: 'Unauthorized', message });
}

describe('management interface: 401', () => {
  it('accepts a token it signed (the minted control case)', async () => {
    const res = await call(sb(), 'GET', '/api/v2/event-streams', { token: mint() });
    expect(res.status).toBe(200);
  });

  it('without a token, or with another scheme', async () => {
    await expect401({}, 'Missing authentication');
    await expect401({ Authorization: 'Basic abc' }, 'Bad HTTP authentication header format');
  });

  it('for something that is not a JWT', async () => {
    await expect401({ Authorization: 'Bearer not.a.jwt' }, 'Invalid token.');
  });

  it('for a bad signature: another key, or a tampered payload', async () => {
    await expect401({ Authorization: `Bearer ${mint({}, otherKey)}` }, 'Invalid signature received for JSON Web Token validation.');
    const [header, , signature] = mint().split('.');
    const payload = Buffer.from(JSON.stringify({ scope: 'delete:event_streams', aud: `${sb().url}/api/v2/` })).toString('base64url');
    await expect401({ Authorization: `Bearer ${header}.${payload}.${signature}` }, 'Invalid signature received for JSON Web Token validation.');
  });

  it('for an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect401({ Authorization: `Bearer ${mint({ iat: now - 7200, exp: now - 3600 })}` }, 'Expired token received for JSON Web Token validation.');
  });

  it('for a wrong audience or issuer', async () => {
    await expect401({ Authorization: `Bearer ${mint({ aud: 'https://elsewhere.example/api/v2/' })}` }, 'Bad audience: https://elsewhere.example/api/v2/');
    await expect401({ Authorization: `Bearer ${mint({ iss: 'https://elsewhere.example/' })}` }, 'Invalid token.');
  });
});

describe('management interface: 403 per operation', () => {
  const reader = () => getToken(sb(), 'reader');
  const cases: Array<[string, string, string, unknown?]> = [
    ['POST', '/api/v2/event-streams', 'create:event_streams', {}],
    ['PATCH', '/api/v2/event-streams/est_demoInboxBearer0000000', 'update:event_streams', {}],
    ['DELETE', '/api/v2/event-streams/est_demoInboxBearer0000000', 'delete:event_streams'],
    ['POST', '/api/v2/event-streams/est_demoInboxBearer0000000/test', 'update:event_streams', { event_type: 'user.created' }],
    ['POST', '/api/v2/connections/con_googleAppsDemo01/directory-provisioning', 'create:directory_provisionings', {}],
    ['GET', '/api/v2/connections/con_googleAppsDemo01/directory-provisioning', 'read:directory_provisionings'],
    ['GET', '/api/v2/connections/con_googleAppsDemo01/directory-provisioning/default-mapping', 'read:directory_provisionings'],
  ];
  it.each(cases)('%s %s needs %s', async (method, path, scope, body) => {
    const res = await call(sb(), method, path, { token: await reader(), body });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, error: 'Forbidden', message: `Insufficient scope; expected any of: ${scope}.`, errorCode: 'insufficient_scope' });
  });

  it('the reader can list and read', async () => {
    const token = await reader();
    expect((await call(sb(), 'GET', '/api/v2/event-streams', { token })).status).toBe(200);
    expect((await call(sb(), 'GET', '/api/v2/event-streams/est_demoInboxBearer0000000', { token })).status).toBe(200);
  });

  it('a token without the scope gets 403 for listing', async () => {
    const res = await call(sb(), 'GET', '/api/v2/event-streams', { token: mint({ scope: 'read:clients' }) });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Insufficient scope; expected any of: read:event_streams.');
  });

  it('unknown routes answer 404 and wrong methods 405 before any token check', async () => {
    const missing = await call(sb(), 'GET', '/api/v2/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
    const wrong = await call(sb(), 'PUT', '/api/v2/event-streams');
    expect(wrong.status).toBe(405);
    // HEAD is served wherever GET is, so Allow lists it (RFC 9110); a HEAD there is answered, not refused.
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await call(sb(), 'PUT', '/api/v2/event-streams/est_0000000000000000000000')).headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
    expect((await call(sb(), 'HEAD', '/api/v2/event-streams')).status).not.toBe(405);
  });
});
