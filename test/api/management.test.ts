// The typed client's readings of statuses (src/api/management/): what commands get instead of an
// HTTP status. Against a scripted server on loopback that answers, per request, what a table says.
import { afterEach, describe, expect, it } from 'vitest';
import { isSyncTooSoon } from '../../src/api/errors.js';
import type { Management } from '../../src/api/management/index.js';
import { createDeps } from '../../src/cli/factory.js';
import { ApiError } from '../../src/core/errors.js';
import { credentialsEnv, tempConfigDir } from '../helpers/cli.js';
import { captureIO } from '../helpers/deps.js';
import { fakeServer, json, tokenAnswer } from '../helpers/fake-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CON = 'con_abcdefghijklmnop';
const STREAM = 'est_abcdefghijklmnopqrstuv';
const EVENT = 'evt_abcdefghijklmnopqrstuv';
const P = `/api/v2/connections/${CON}/directory-provisioning`;

type Answer = [status: number, body?: unknown];

/** The typed client of a run against a server answering `answers[METHOD path?query]`, else `answers[METHOD path]` (404 otherwise). */
async function managementFor(answers: Record<string, Answer>): Promise<{ api: Management; seen: () => string[] }> {
  const server = await fakeServer((req, res) => {
    if (req.url === '/oauth/token') return json(res, 200, tokenAnswer(1));
    const [status, body] = answers[`${req.method} ${req.url}`] ?? answers[`${req.method} ${req.url.split('?')[0]}`] ?? [404, { statusCode: 404, error: 'Not Found', message: 'Not found' }];
    if (body === undefined) {
      res.writeHead(status);
      res.end();
    } else json(res, status, body);
  });
  cleanups.push(() => server.close());
  const { dir, cleanup } = tempConfigDir();
  cleanups.push(cleanup);
  const { io } = captureIO({ env: { IDM_CONFIG_DIR: dir, ...credentialsEnv(server.url, { clientId: 'cid', clientSecret: 'sekrit-value' }) } });
  await io.configure({ json: false });
  const deps = createDeps(io, () => ({ json: false, color: false, input: false, debug: false }));
  cleanups.push(() => deps.close());
  return { api: await deps.api(), seen: () => server.seen.filter((r) => r.url !== '/oauth/token').map((r) => `${r.method} ${r.url.split('?')[0]}`) };
}

const error = (status: number, message: string, errorCode?: string): Answer => [status, { statusCode: status, error: 'x', message, ...(errorCode ? { errorCode } : {}) }];

describe('provisioning.checkConnection', () => {
  it.each<[string, Record<string, Answer>, unknown]>([
    ['configured (200)', { [`GET ${P}`]: [200, { connection_id: CON, connection_name: 'g' }] }, { kind: 'configured', existing: { connection_id: CON, connection_name: 'g' } }],
    ['unknown (404 inexistent_connection)', { [`GET ${P}`]: error(404, 'The connection does not exist', 'inexistent_connection') }, { kind: 'unknown' }],
    [
      'unknown at the default mapping',
      { [`GET ${P}`]: error(404, 'Directory provisioning configuration not found'), [`GET ${P}/default-mapping`]: error(404, 'The connection does not exist', 'inexistent_connection') },
      { kind: 'unknown' },
    ],
    [
      'unsupported (400), in the service words',
      { [`GET ${P}`]: error(404, 'not found'), [`GET ${P}/default-mapping`]: error(400, 'Strategy samlp does not support it') },
      { kind: 'unsupported', said: 'Strategy samlp does not support it' },
    ],
    [
      'unsupported (400) without words of the service: none made up',
      { [`GET ${P}`]: error(404, 'not found'), [`GET ${P}/default-mapping`]: [400, 'a JSON string, no message'] },
      { kind: 'unsupported', said: undefined },
    ],
    [
      'unconfigured, with its default mapping',
      { [`GET ${P}`]: error(404, 'not found'), [`GET ${P}/default-mapping`]: [200, { mapping: [{ platform: 'a', idp: 'b' }, { bad: 1 }] }] },
      { kind: 'unconfigured', defaultMapping: [{ platform: 'a', idp: 'b' }] },
    ],
    ['unconfigured, the default not readable (403)', { [`GET ${P}`]: error(403, 'no'), [`GET ${P}/default-mapping`]: error(403, 'no') }, { kind: 'unconfigured', defaultMapping: undefined, because: 'forbidden' }],
    ['unconfigured, no default shown (404)', { [`GET ${P}`]: error(404, 'not found'), [`GET ${P}/default-mapping`]: error(404, 'not found') }, { kind: 'unconfigured', defaultMapping: undefined, because: 'not-shown' }],
  ])('%s', async (_, answers, expected) => {
    const { api } = await managementFor(answers);
    expect(await api.provisioning.checkConnection(CON)).toEqual(expected);
  });

  it('any other failure is thrown', async () => {
    const { api } = await managementFor({ [`GET ${P}`]: error(400, 'bad') });
    await expect(api.provisioning.checkConnection(CON)).rejects.toMatchObject({ status: 400 });
  });
});

describe('what commands ask instead of a status', () => {
  it('provisioning.synchronize: the 30-minute refusal is recognised by isSyncTooSoon, with its words, code and exit code; other 400s are not', async () => {
    const said = 'Connection has been synchronized in the last 30 minutes. Please wait before synchronizing it again.';
    const { api } = await managementFor({ [`POST ${P}/synchronizations`]: error(400, said, 'too_many_requests') });
    const refused = await api.provisioning.synchronize(CON).catch((e: unknown) => e);
    expect(isSyncTooSoon(refused)).toBe(true);
    expect(refused).toMatchObject({ status: 400, code: 'too_many_requests', exitCode: 1, message: `Could not synchronize connection ${CON}: ${said.replace(/\.$/, '')} (400 too_many_requests).` });
    const other = await (await managementFor({ [`POST ${P}/synchronizations`]: error(400, 'Something else') })).api.provisioning.synchronize(CON).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ApiError);
    expect(isSyncTooSoon(other)).toBe(false);
    // idm's own words are not the server's: an action that says "last 30 minutes" is no refusal.
    expect(isSyncTooSoon(new ApiError('Could not do it in the last 30 minutes: Bad (400 bad_request).', { status: 400, serverMessage: 'Bad' }))).toBe(false);
  });

  it('provisioning.configuredConnections: the ids, or undefined without the scope to read them', async () => {
    const list = '/api/v2/connections-directory-provisionings';
    expect(await (await managementFor({ [`GET ${list}`]: [200, { directory_provisionings: [{ connection_id: CON }] }] })).api.provisioning.configuredConnections()).toEqual(new Set([CON]));
    expect(await (await managementFor({ [`GET ${list}`]: error(403, 'no', 'insufficient_scope') })).api.provisioning.configuredConnections()).toBeUndefined();
    await expect((await managementFor({ [`GET ${list}`]: error(400, 'bad') })).api.provisioning.configuredConnections()).rejects.toMatchObject({ status: 400 });
  });

  it('streams.find and findDelivery: undefined for a 404, any other failure thrown', async () => {
    const { api } = await managementFor({ [`GET /api/v2/event-streams/${STREAM}`]: error(403, 'no') });
    expect(await api.streams.find('est_zzzzzzzzzzzzzzzzzzzzzz')).toBeUndefined();
    expect(await api.streams.findDelivery(STREAM, EVENT)).toBeUndefined();
    await expect(api.streams.find(STREAM)).rejects.toMatchObject({ status: 403 });
  });

  it('streams.statsIfReadable: a 400, 403 or 404 is the reason it cannot be read; a 500 is thrown', async () => {
    const path = `GET /api/v2/event-streams/${STREAM}/stats`;
    for (const status of [400, 403, 404]) {
      const read = await (await managementFor({ [path]: error(status, 'no') })).api.streams.statsIfReadable(STREAM, {});
      expect(read).toMatchObject({ unreadable: { status } });
    }
    expect(await (await managementFor({ [path]: [200, { metrics: [] }] })).api.streams.statsIfReadable(STREAM, {})).toEqual({ stats: { metrics: [] } });
    await expect((await managementFor({ [path]: error(501, 'no') })).api.streams.statsIfReadable(STREAM, {})).rejects.toMatchObject({ status: 501 });
  });

  it('streams.testToFollow: the event id, or why the answer cannot be followed (with the record it gave)', async () => {
    const path = `POST /api/v2/event-streams/${STREAM}/test`;
    const body = { event_type: 'user.created' };
    expect(await (await managementFor({ [path]: [202, { id: EVENT, status: 'pending' }] })).api.streams.testToFollow(STREAM, body)).toEqual({ record: { id: EVENT, status: 'pending' }, eventId: EVENT });
    expect(await (await managementFor({ [path]: [202, { event: { id: EVENT } }] })).api.streams.testToFollow(STREAM, body)).toMatchObject({ eventId: EVENT });
    const { api, seen } = await managementFor({ [path]: [202, { id: 'evt_short' }] });
    const sent = await api.streams.testToFollow(STREAM, body);
    expect(sent).toMatchObject({ record: { id: 'evt_short' } });
    expect('unfollowable' in sent && sent.unfollowable.message).toMatch(/answered 202 with a delivery record without an event id to follow\.$/);
    expect(seen()).toEqual([path]); // sent once
  });

  it('each resource names the scope of its operations', async () => {
    const { api } = await managementFor({});
    expect(api.streams.scopes.list).toBe('read:event_streams');
    expect(api.provisioning.scopes.read).toBe('read:directory_provisionings');
    expect(api.connections.scopes.list).toBe('read:connections');
  });
});

describe('raw.all (idm api --all)', () => {
  const get = { method: 'GET' as const, path: '/things', query: [] };

  it('the pages merged, list by list; a page that cannot be merged is named with its own status', async () => {
    const { api } = await managementFor({
      'GET /api/v2/things': [200, { things: [1], other: ['a'], total: 3, next: 'b' }],
      'GET /api/v2/things?from=b': [200, { things: [2], next: 'c' }],
      'GET /api/v2/things?from=c': [203, { things: [3] }],
    });
    expect(await api.raw.all(get)).toEqual({ things: [1, 2, 3], other: ['a'], total: 3 });
    const { api: broken } = await managementFor({
      'GET /api/v2/things': [200, { things: [1], next: 'b' }],
      'GET /api/v2/things?from=b': [203, 'a JSON string'],
    });
    await expect(broken.raw.all(get)).rejects.toThrow('answered 203 with a following page that is a string where the first was an object');
  });

  it('a page whose lists are all empty and that points on is stopped; one list with an item is enough to go on', async () => {
    const { api } = await managementFor({ 'GET /api/v2/things': [200, { things: [], other: [], count: 0, next: 'b' }] });
    await expect(api.raw.all(get)).rejects.toThrow('the server returned an empty page that points to yet another page');
    const { api: going } = await managementFor({
      'GET /api/v2/things': [200, { things: [], other: [1], next: 'b' }],
      'GET /api/v2/things?from=b': [200, { things: [2] }],
    });
    expect(await going.raw.all(get)).toEqual({ things: [2], other: [1] });
  });
});
