// The sandbox's provisioning answers against the real service's (/work/shared/reference/
// recorded-lifecycle.json): every recorded create, change, read and default mapping is replayed on a
// sandbox seeded with the recorded connections, its clock set to the recorded times, and the answer
// must be the recorded body byte for byte: the same keys in the same order (synchronize_groups after
// updated_at), mapping rows written {idp, platform}, the same values. Recordings made before the
// service added synchronize_groups are compared without it.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

interface Pair {
  ref: string;
  request: { method: string; path: string; body: unknown };
  response: { status: number; body: Record<string, unknown> };
}
const RECORDING = '/work/shared/reference/recorded-lifecycle.json';
const endpoints = (JSON.parse(readFileSync(RECORDING, 'utf8')) as { endpoints: Record<string, Pair[]> }).endpoints;
const P = '/connections/{id}/directory-provisioning';
const ok = (key: string) => endpoints[key]!.filter((pair) => pair.response.status < 300);
const configurations = [...ok(`POST ${P}`), ...ok(`PATCH ${P}`), ...ok(`GET ${P}`)];

// Every recorded connection, by its recorded id and name (those only asked for their default mapping: google-apps).
const connections = new Map(configurations.map(({ response: { body } }) => [body.connection_id as string, { id: body.connection_id as string, name: body.connection_name as string, strategy: body.strategy as string }]));
for (const { request } of ok(`GET ${P}/default-mapping`)) {
  const id = request.path.split('/')[2]!;
  if (!connections.has(id)) connections.set(id, { id, name: `recorded-${id}`, strategy: 'google-apps' });
}
let clock = 0;
const sb = useSandbox({ seed: { connections: [...connections.values()] }, now: () => clock });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const api = (method: string, path: string, body?: unknown) => call(sb(), method, `/api/v2${path}`, { token, body });
const at = (time: unknown) => (clock = Date.parse(String(time)));

/** The sandbox's answer as the recording would have it: without synchronize_groups when the recording predates it. */
function asRecorded(sandbox: Record<string, unknown>, recorded: Record<string, unknown>): string {
  if ('synchronize_groups' in recorded) return JSON.stringify(sandbox);
  const { synchronize_groups: _added, ...older } = sandbox;
  return JSON.stringify(older);
}

/** Puts the recorded configuration's prior state in place: created at its created_at, with `settings`. */
async function prepare(recorded: Record<string, unknown>, settings: Record<string, unknown>): Promise<string> {
  const path = `/connections/${recorded.connection_id as string}/directory-provisioning`;
  await api('DELETE', path); // 404 when there is none yet
  at(recorded.created_at);
  const created = await api('POST', path, settings);
  expect(created.status).toBe(201);
  return path;
}

describe('the sandbox answers as the real service did', () => {
  it.each(ok(`POST ${P}`).map((pair) => [pair.ref, pair] as const))('POST %s: 201 and the recorded body', async (_ref, pair) => {
    const recorded = pair.response.body;
    const path = `/connections/${recorded.connection_id as string}/directory-provisioning`;
    await api('DELETE', path); // 404 when there is none yet
    at(recorded.created_at);
    const res = await api('POST', path, pair.request.body ?? undefined);
    expect(res.status).toBe(201);
    expect(asRecorded(res.body, recorded)).toBe(JSON.stringify(recorded));
  });

  it.each(ok(`PATCH ${P}`).map((pair) => [pair.ref, pair] as const))('PATCH %s: 200 and the recorded body', async (_ref, pair) => {
    const recorded = pair.response.body;
    const sent = pair.request.body as Record<string, unknown>;
    // Before the change: what the answer shows, except the fields the change sent (the service's defaults for those).
    const before = Object.fromEntries(Object.entries({ mapping: recorded.mapping, synchronize_automatically: recorded.synchronize_automatically, synchronize_groups: recorded.synchronize_groups }).filter(([key, value]) => value !== undefined && !(key in sent)));
    const path = await prepare(recorded, before);
    at(recorded.updated_at);
    const res = await api('PATCH', path, sent);
    expect(res.status).toBe(200);
    expect(asRecorded(res.body, recorded)).toBe(JSON.stringify(recorded));
  });

  it.each(ok(`GET ${P}`).map((pair) => [pair.ref, pair] as const))('GET %s: the recorded body', async (_ref, pair) => {
    const recorded = pair.response.body;
    const path = await prepare(recorded, { mapping: recorded.mapping, synchronize_automatically: recorded.synchronize_automatically, ...(recorded.synchronize_groups === undefined ? {} : { synchronize_groups: recorded.synchronize_groups }) });
    at(recorded.updated_at);
    if (recorded.updated_at !== recorded.created_at) expect((await api('PATCH', path, {})).status).toBe(200);
    const res = await api('GET', path);
    expect(res.status).toBe(200);
    expect(asRecorded(res.body, recorded)).toBe(JSON.stringify(recorded));
    // The list holds the same record.
    const list = await api('GET', '/connections-directory-provisionings?take=100');
    const listed = list.body.directory_provisionings.find((item: { connection_id: string }) => item.connection_id === recorded.connection_id);
    expect(asRecorded(listed, recorded)).toBe(JSON.stringify(recorded));
  });

  it.each(ok(`GET ${P}/default-mapping`).map((pair) => [pair.ref, pair] as const))('GET %s (default mapping): the recorded body', async (_ref, pair) => {
    const res = await api('GET', pair.request.path);
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(pair.response.body));
  });
});
