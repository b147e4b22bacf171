// The directory-provisioning lifecycle in the sandbox (wire-facts.md): connections (both pagination
// shapes), the list of configurations, synchronizations (the 30-minute rule on the sandbox's clock,
// 409 while one runs, failures) and synchronized groups. Waits are on sandbox.idle(), never on time.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/sandbox/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

let clock = Date.parse('2026-11-24T09:00:00.000Z');
const sb = useSandbox({ syncDurationMs: 0, now: () => clock });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const api = (method: string, path: string, body?: unknown) => call(sb(), method, `/api/v2${path}`, { token, body });
const provisioning = (id: string) => `/connections/${id}/directory-provisioning`;

describe('GET /connections', () => {
  it('a bare list without from/take, the {connections, next} wrapper with them; strategy filters', async () => {
    const bare = await api('GET', '/connections');
    expect(Array.isArray(bare.body)).toBe(true);
    expect(bare.body.map((c: { id: string }) => c.id)).toContain(DEMO_IDS.saml);
    expect(bare.body[0]).toMatchObject({ id: expect.stringMatching(/^con_[A-Za-z0-9]{16}$/), name: expect.any(String), strategy: expect.any(String) });
    const google = await api('GET', '/connections?strategy=google-apps&take=2');
    expect(google.body.connections).toHaveLength(2);
    expect(google.body.connections.every((c: { strategy: string }) => c.strategy === 'google-apps')).toBe(true);
    const rest = await api('GET', `/connections?strategy=google-apps&take=2&from=${google.body.next}`);
    expect(rest.body.connections.map((c: { id: string }) => c.id)).toEqual([DEMO_IDS.googleAppsFailing]);
    expect(rest.body).not.toHaveProperty('next');
    const two = await api('GET', '/connections?strategy=samlp&strategy=platform');
    expect(two.body.map((c: { strategy: string }) => c.strategy).sort()).toEqual(['platform', 'samlp']);
  });

  it('needs read:connections', async () => {
    const res = await call(sb(), 'GET', '/api/v2/connections', { token: await getToken(sb(), 'reader') });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Insufficient scope; expected any of: read:connections.');
  });
});

describe('GET /connections-directory-provisionings', () => {
  it('every configuration in {directory_provisionings, next?}', async () => {
    const res = await api('GET', '/connections-directory-provisionings?take=1');
    expect(res.body.directory_provisionings).toHaveLength(1);
    expect(res.body.directory_provisionings[0]).toMatchObject({ connection_id: DEMO_IDS.googleAppsConfigured, strategy: 'google-apps' });
    const next = await api('GET', `/connections-directory-provisionings?from=${res.body.next}`);
    expect(next.body.directory_provisionings.map((p: { connection_id: string }) => p.connection_id)).toEqual([DEMO_IDS.googleAppsFailing]);
  });

  // The cursor was an offset into the list, which a delete shortens: a script that pages through the
  // configurations and deletes each page's got the page after the next one, and missed one page in two.
  it('a configuration deleted while a client pages does not make the next page skip one', async () => {
    expect((await api('POST', provisioning(DEMO_IDS.googleApps), {})).status).toBe(201);
    const first = await api('GET', '/connections-directory-provisionings?take=1');
    expect(first.body.directory_provisionings.map((p: { connection_id: string }) => p.connection_id)).toEqual([DEMO_IDS.googleApps]);
    expect((await api('DELETE', provisioning(DEMO_IDS.googleApps))).status).toBe(204);
    const second = await api('GET', `/connections-directory-provisionings?take=1&from=${first.body.next}`);
    expect(second.body.directory_provisionings.map((p: { connection_id: string }) => p.connection_id)).toEqual([DEMO_IDS.googleAppsConfigured]);
    const third = await api('GET', `/connections-directory-provisionings?take=1&from=${second.body.next}`);
    expect(third.body.directory_provisionings.map((p: { connection_id: string }) => p.connection_id)).toEqual([DEMO_IDS.googleAppsFailing]);
    expect(third.body).not.toHaveProperty('next');
  });
});

describe('synchronizations', () => {
  it('201 with an id, then the last synchronization is recorded; 400 within 30 minutes; allowed again after', async () => {
    const path = `${provisioning(DEMO_IDS.googleAppsConfigured)}/synchronizations`;
    const res = await api('POST', path);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ connection_id: DEMO_IDS.googleAppsConfigured, synchronization_id: expect.stringMatching(/^dsync_/), status: 'pending' });
    await sb().idle();
    const config = await api('GET', provisioning(DEMO_IDS.googleAppsConfigured));
    expect(config.body).toMatchObject({ last_synchronization_at: '2026-11-24T09:00:00.000Z', last_synchronization_status: 'completed' });
    expect(config.body).not.toHaveProperty('last_synchronization_error');
    clock += 29 * 60_000;
    const early = await api('POST', path);
    expect(early.status).toBe(400);
    // wire-facts.md gives this 400 its message only (no errorCode).
    expect(early.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Connection has been synchronized in the last 30 minutes. Please wait before synchronizing it again.' });
    clock += 2 * 60_000;
    expect((await api('POST', path)).status).toBe(201);
    await sb().idle();
  });

  it('a failing one records its error', async () => {
    expect((await api('POST', `${provisioning(DEMO_IDS.googleAppsFailing)}/synchronizations`)).status).toBe(201);
    await sb().idle();
    const config = await api('GET', provisioning(DEMO_IDS.googleAppsFailing));
    expect(config.body).toMatchObject({ last_synchronization_status: 'failed', last_synchronization_error: 'The directory refused the credentials: invalid_grant.' });
  });

  it('404 for a connection without provisioning', async () => {
    const res = await api('POST', `${provisioning(DEMO_IDS.googleApps)}/synchronizations`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Directory provisioning configuration not found');
  });
});

describe('synchronized groups', () => {
  const path = `${provisioning(DEMO_IDS.googleAppsConfigured)}/synchronized-groups`;
  it('GET lists the entries as sent; PUT replaces, POST adds, DELETE removes (204)', async () => {
    expect((await api('GET', `${path}?take=50`)).body).toEqual({ groups: [expect.objectContaining({ id: '03ep43zb1xk6ay0' })] });
    expect((await api('PUT', path, { groups: [{ id: 'group1abc' }, { id: 'group2def' }] })).status).toBe(204);
    expect((await api('POST', path, { groups: [{ id: 'group3ghi' }] })).status).toBe(204);
    expect((await api('DELETE', path, { groups: [{ id: 'group1abc' }] })).status).toBe(204);
    expect((await api('GET', path)).body).toEqual({ groups: [{ id: 'group2def' }, { id: 'group3ghi' }] });
  });

  // The cursor was an offset into the list, which a DELETE shortens while a client pages through it:
  // removing each page's groups made the next page skip as many.
  it('groups removed while a client pages do not make the next page skip one; one added after its place shows', async () => {
    const ids = (res: Awaited<ReturnType<typeof api>>) => res.body.groups.map((g: { id: string }) => g.id);
    expect((await api('PUT', path, { groups: [{ id: 'g1' }, { id: 'g2' }, { id: 'g3' }, { id: 'g4' }] })).status).toBe(204);
    const first = await api('GET', `${path}?take=2`);
    expect(ids(first)).toEqual(['g1', 'g2']);
    expect((await api('DELETE', path, { groups: [{ id: 'g1' }, { id: 'g2' }] })).status).toBe(204);
    // A group sent again (POST with new fields) is listed where its id puts it, as a new one is.
    expect((await api('POST', path, { groups: [{ id: 'g3', name: 'Three' }, { id: 'g5' }] })).status).toBe(204);
    const second = await api('GET', `${path}?take=2&from=${first.body.next}`);
    expect(second.body.groups).toEqual([{ id: 'g3', name: 'Three' }, { id: 'g4' }]);
    const third = await api('GET', `${path}?take=2&from=${second.body.next}`);
    expect(third.body).toEqual({ groups: [{ id: 'g5' }] });
  });

  // As recorded: PUT [group2def, group3ghi, group1abc] is listed [group1abc, group2def, group3ghi], and
  // group1abc added to [group2def] comes first: the service lists them in id order, not as sent.
  it('lists the groups in id order, whatever order they were sent or added in', async () => {
    const ids = (res: Awaited<ReturnType<typeof api>>) => res.body.groups.map((g: { id: string }) => g.id);
    expect((await api('PUT', path, { groups: [{ id: 'group2def' }, { id: 'group3ghi' }, { id: 'group1abc' }] })).status).toBe(204);
    expect(ids(await api('GET', `${path}?take=50`))).toEqual(['group1abc', 'group2def', 'group3ghi']);
    expect((await api('PUT', path, { groups: [{ id: 'group2def' }] })).status).toBe(204);
    expect((await api('POST', path, { groups: [{ id: 'group1abc' }] })).status).toBe(204);
    expect(ids(await api('GET', `${path}?take=50`))).toEqual(['group1abc', 'group2def']);
    // Paged, in the same order.
    const first = await api('GET', `${path}?take=1`);
    expect(ids(first)).toEqual(['group1abc']);
    expect((await api('GET', `${path}?take=1&from=${first.body.next}`)).body).toEqual({ groups: [{ id: 'group2def' }] });
  });

  it('searches names by prefix (q=name:<prefix>*)', async () => {
    await api('PUT', path, { groups: [{ id: '03ep43zb1xk6ay0' }, { id: '03ep43zb2fw2ma9', name: 'Sales' }] });
    const res = await api('GET', `${path}?q=${encodeURIComponent('name:eng*')}`);
    expect(res.body.groups).toEqual([{ id: '03ep43zb1xk6ay0' }]);
    expect((await api('GET', `${path}?q=${encodeURIComponent('name:zzzznomatch*')}`)).body).toEqual({ groups: [] });
  });

  it('400 invalid_body for a bad entry (as recorded: an empty email)', async () => {
    const res = await api('POST', path, { groups: [{ id: 'group1abc', name: '', email: '', direct_members_count: 0 }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'invalid_body', message: expect.stringContaining("validation for format email: ' on property groups[0].email") });
    expect((await api('PUT', path, { groups: [{ name: 'no id' }] })).status).toBe(400);
  });

  it.each([
    ['a name that is not a string', { groups: [{ id: 'g1', name: 5 }] }, 'on property groups[0].name.'],
    ['an id that is not a string', { groups: [{ id: 7 }] }, 'on property groups[0].id.'],
    ['a member count that is not a whole number', { groups: [{ id: 'g1', direct_members_count: 1.5 }] }, 'on property groups[0].direct_members_count.'],
    ['an unknown field beside groups', { groups: [], color: 'red' }, "'Additional properties not allowed: color'."],
    ['groups that is not a list', { groups: { id: 'g1' } }, 'on property groups.'],
  ])('400 invalid_body for %s (the shared schema), and nothing changes', async (_label, body, naming) => {
    const before = (await api('GET', path)).body;
    const res = await api('PUT', path, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'invalid_body', message: expect.stringMatching(/^Payload validation error: /) });
    expect(res.body.message).toContain(naming);
    expect((await api('GET', path)).body).toEqual(before);
  });
});

describe('a synchronization that runs', () => {
  // A run that lasts longer than any test: the second request meets it.
  const slow = useSandbox({ syncDurationMs: 3_600_000 });
  it('409 while one is in progress', async () => {
    const admin = await getToken(slow());
    const path = `/api/v2${provisioning(DEMO_IDS.googleAppsConfigured)}/synchronizations`;
    expect((await call(slow(), 'POST', path, { token: admin })).status).toBe(201);
    const again = await call(slow(), 'POST', path, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A synchronization has already been requested or is in progress for the connection');
  });
});
