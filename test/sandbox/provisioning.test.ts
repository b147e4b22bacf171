// Directory provisioning over real HTTP: create (201, defaults), errors, read, update, delete, default mapping.
import { beforeAll, describe, expect, it } from 'vitest';
import { ProvisioningConfigSchema } from '../../src/schemas/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

// The real service's default mapping for google-apps (recorded; 51 entries), by its first and last entries.
const recordedDefault = expect.arrayContaining([
  { idp: 'id', platform: 'app_metadata.external_id' },
  { idp: 'primaryEmail', platform: 'email' },
  { idp: 'customSchemas', platform: 'customSchemas' },
]);

const sb = useSandbox({
  seed: {
    connections: [
      { id: 'con_aaaaaaaaaaaaaaaa', name: 'gw-empty', strategy: 'google-apps' },
      { id: 'con_bbbbbbbbbbbbbbbb', name: 'gw-mapped', strategy: 'google-apps' },
      { id: 'con_cccccccccccccccc', name: 'gw-taken', strategy: 'google-apps', provisioning: { synchronize_groups: 'all' } },
      { id: 'con_dddddddddddddddd', name: 'db', strategy: 'platform' },
      { id: 'con_eeeeeeeeeeeeeeee', name: 'gw-fresh', strategy: 'google-apps' },
    ],
  },
});
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const path = (id: string, rest = '') => `/api/v2/connections/${id}/directory-provisioning${rest}`;

describe('POST /connections/{id}/directory-provisioning', () => {
  it('201 with an empty body: the strategy default mapping, sync off, groups off', async () => {
    const res = await call(sb(), 'POST', path('con_aaaaaaaaaaaaaaaa'), { token });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(ProvisioningConfigSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      connection_id: 'con_aaaaaaaaaaaaaaaa',
      connection_name: 'gw-empty',
      strategy: 'google-apps',
      synchronize_automatically: false,
      synchronize_groups: 'off',
    });
    expect(res.body.mapping).toEqual(recordedDefault);
    expect(res.body.mapping).toHaveLength(51);
    expect(res.body).not.toHaveProperty('last_synchronization_at');
  });

  it('201 with the given mapping and settings', async () => {
    const body = { mapping: [{ platform: 'email', idp: 'primaryEmail' }], synchronize_automatically: true, synchronize_groups: 'selected' };
    const res = await call(sb(), 'POST', path('con_bbbbbbbbbbbbbbbb'), { token, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
  });

  it('409 when already configured', async () => {
    const res = await call(sb(), 'POST', path('con_cccccccccccccccc'), { token, body: {} });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'Directory provisioning is already enabled on the specified connection' });
  });

  it('404 inexistent_connection for an unknown connection', async () => {
    const res = await call(sb(), 'POST', path('con_xxxxxxxxxxxxxxxx'), { token, body: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'The connection does not exist', errorCode: 'inexistent_connection' });
  });

  it('400 for a strategy that does not support it', async () => {
    const res = await call(sb(), 'POST', path('con_dddddddddddddddd'), { token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'The connection strategy does not support inbound directory provisioning' });
  });

  it.each([
    ['an empty mapping', { mapping: [] }, "'needs at least one entry' on property mapping."],
    ['a mapping entry without idp', { mapping: [{ platform: 'email' }] }, "'is missing' on property mapping[0].idp."],
    ['a platform attribute mapped twice', { mapping: [{ platform: 'email', idp: 'a' }, { platform: 'email', idp: 'b' }] }, 'on property mapping[1].platform.'],
    ['a bad synchronize_groups', { synchronize_groups: 'some' }, "'must be one of: all, off, selected' on property synchronize_groups."],
    ['a string for synchronize_automatically', { synchronize_automatically: 'yes' }, "'must be a boolean' on property synchronize_automatically."],
    ['an unknown field', { mapping_mode: 'x' }, "'Additional properties not allowed: mapping_mode'."],
  ])('400 invalid_body for %s', async (_label, body, naming) => {
    const res = await call(sb(), 'POST', path('con_dddddddddddddddd'), { token, body });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('invalid_body');
    expect(res.body.message).toMatch(/^Payload validation error: /);
    expect(res.body.message).toContain(naming);
  });
});

describe('read, update, delete, default mapping', () => {
  it('GET answers the configuration, PATCH changes it, DELETE removes it (204), then 404', async () => {
    const id = 'con_cccccccccccccccc';
    const read = await call(sb(), 'GET', path(id), { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ connection_id: id, synchronize_groups: 'all', mapping: recordedDefault });

    const patched = await call(sb(), 'PATCH', path(id), { token, body: { synchronize_automatically: true, mapping: [{ platform: 'email', idp: 'primaryEmail' }] } });
    expect(patched.status).toBe(200);
    expect(ProvisioningConfigSchema.parse(patched.body)).toEqual(patched.body);
    expect(patched.body).toMatchObject({ synchronize_automatically: true, synchronize_groups: 'all', mapping: [{ platform: 'email', idp: 'primaryEmail' }] });

    const bad = await call(sb(), 'PATCH', path(id), { token, body: { mapping: [] } });
    expect(bad.status).toBe(400);

    const deleted = await call(sb(), 'DELETE', path(id), { token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = await call(sb(), 'GET', path(id), { token });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Directory provisioning configuration not found');
    expect((await call(sb(), 'DELETE', path(id), { token })).status).toBe(404);
    expect((await call(sb(), 'PATCH', path(id), { token, body: {} })).status).toBe(404);
    // Deleted, it can be created again.
    expect((await call(sb(), 'POST', path(id), { token })).status).toBe(201);
  });

  it('GET default-mapping answers {mapping}; 400 for an unsupported strategy; 404 for an unknown connection', async () => {
    const res = await call(sb(), 'GET', path('con_aaaaaaaaaaaaaaaa', '/default-mapping'), { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mapping: recordedDefault });
    expect((await call(sb(), 'GET', path('con_dddddddddddddddd', '/default-mapping'), { token })).status).toBe(400);
    expect((await call(sb(), 'GET', path('con_xxxxxxxxxxxxxxxx', '/default-mapping'), { token })).body.errorCode).toBe('inexistent_connection');
  });

  it('GET default-mapping of a connection without a configuration: 404 as read (wire-facts), 200 once created', async () => {
    const before = await call(sb(), 'GET', path('con_eeeeeeeeeeeeeeee', '/default-mapping'), { token });
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Directory provisioning configuration not found' });
    expect((await call(sb(), 'POST', path('con_eeeeeeeeeeeeeeee'), { token })).status).toBe(201);
    expect((await call(sb(), 'GET', path('con_eeeeeeeeeeeeeeee', '/default-mapping'), { token })).body).toEqual({ mapping: recordedDefault });
  });
});

describe('the demo seed', () => {
  it('has a provisioning-capable connection, one already configured, and one whose strategy does not support it', async () => {
    const { startSandbox, DEMO_IDS } = await import('../../src/sandbox/index.js');
    const demo = await startSandbox();
    try {
      const demoToken = await getToken(demo);
      expect((await call(demo, 'POST', path(DEMO_IDS.googleApps), { token: demoToken })).status).toBe(201);
      expect((await call(demo, 'POST', path(DEMO_IDS.googleAppsConfigured), { token: demoToken })).status).toBe(409);
      expect((await call(demo, 'POST', path(DEMO_IDS.database), { token: demoToken })).status).toBe(400);
    } finally {
      await demo.close();
    }
  });
});
