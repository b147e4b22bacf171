// The sandbox's event-stream answers against the real service's (/work/shared/reference/
// recorded-lifecycle.json): every recorded create and change is replayed, and the answer must be the
// recorded body byte for byte once the values the service makes up are taken from the recording (id,
// times, the event bus's partner source, and the status of early recordings made without one): the
// same keys in the same order (id, status, name, subscriptions, created_at, updated_at, destination;
// cloud_region before cloud_account_id), the same values.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

interface Pair {
  ref: string;
  request: { method: string; path: string; body: Record<string, unknown> | null };
  response: { status: number; content_type: string; body: Record<string, any> | null }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
const RECORDING = JSON.parse(readFileSync('/work/shared/reference/recorded-lifecycle.json', 'utf8')) as {
  endpoints: Record<string, Pair[]>;
  scenarios: { sequence: string[] }[];
};
const pairs = (key: string) => RECORDING.endpoints[key]!;
const byRef = new Map(Object.values(RECORDING.endpoints).flat().map((pair) => [pair.ref, pair]));

const sb = useSandbox({ seed: { streams: [] } });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const api = (method: string, path: string, body?: unknown) => call(sb(), method, `/api/v2${path}`, { token, body });

/** The sandbox's stream with what the service made up (ids, times, partner source) taken from `recorded`; keys stay in the sandbox's order. */
function asRecorded(stream: Record<string, any>, recorded: Record<string, any>, sent: Record<string, unknown>): string { // eslint-disable-line @typescript-eslint/no-explicit-any
  const made: Record<string, any> = { ...stream, id: recorded.id, created_at: recorded.created_at, updated_at: recorded.updated_at };
  if (!('status' in sent)) made.status = recorded.status; // recordings before the default became `enabled`
  const source = recorded.destination?.configuration?.cloud_partner_event_source;
  if (source !== undefined) made.destination = { ...stream.destination, configuration: { ...stream.destination.configuration, cloud_partner_event_source: source } };
  return JSON.stringify(made);
}

async function create(body: Record<string, unknown>): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await api('POST', '/event-streams', body);
  expect(res.status).toBe(201);
  return res.body;
}

describe('the sandbox answers stream operations as the real service did', () => {
  it.each(pairs('POST /event-streams').map((pair) => [pair.ref, pair] as const))('POST %s: 201 and the recorded body', async (_ref, pair) => {
    const created = await create(pair.request.body!);
    expect(asRecorded(created, pair.response.body!, pair.request.body!)).toBe(JSON.stringify(pair.response.body));
    const read = await api('GET', `/event-streams/${created.id}`);
    expect(JSON.stringify(read.body)).toBe(JSON.stringify(created));
    const listed = await api('GET', '/event-streams');
    expect(JSON.stringify(listed.body.eventStreams.find((one: { id: string }) => one.id === created.id))).toBe(JSON.stringify(created));
    expect((await api('DELETE', `/event-streams/${created.id}`)).status).toBe(204);
  });

  // Each recorded change, on the stream its recording created (the scenario's latest create before it).
  const changes = pairs('PATCH /event-streams/{id}').map((pair) => {
    const scenario = RECORDING.scenarios.find(({ sequence }) => sequence.includes(pair.ref))!.sequence;
    const before = scenario.slice(0, scenario.indexOf(pair.ref)).map((ref) => byRef.get(ref)!);
    const made = before.filter((one) => one.request.method === 'POST' && one.request.path === '/event-streams' && one.response.body?.id === pair.request.path.split('/')[2]);
    const changed = before.filter((one) => one.request.method === 'PATCH' && one.request.path === pair.request.path);
    return [pair.ref, { pair, create: made.at(-1)!, earlier: changed }] as const;
  });
  it.each(changes)('PATCH %s: 200 and the recorded body', async (_ref, { pair, create: made, earlier }) => {
    const created = await create(made.request.body!);
    for (const one of earlier) expect((await api('PATCH', `/event-streams/${created.id}`, one.request.body)).status).toBe(200);
    const res = await api('PATCH', `/event-streams/${created.id}`, pair.request.body);
    expect(res.status).toBe(200);
    expect(asRecorded(res.body, pair.response.body!, made.request.body!)).toBe(JSON.stringify(pair.response.body));
    expect((await api('DELETE', `/event-streams/${created.id}`)).status).toBe(204);
  });

  it('DELETE: 204, no body, and the Content-Type the service sends on every answer (recorded on each 204)', async () => {
    const recorded = [...pairs('DELETE /event-streams/{id}'), ...pairs('DELETE /connections/{id}/directory-provisioning')].map((pair) => pair.response);
    expect(new Set(recorded.map((one) => `${one.status} ${one.content_type}`))).toEqual(new Set(['204 application/json; charset=utf-8']));
    const created = await create(pairs('POST /event-streams')[0]!.request.body!);
    for (const attempt of [1, 2]) {
      const res = await api('DELETE', `/event-streams/${created.id}`);
      expect([attempt, res.status, res.headers.get('content-type'), res.text]).toEqual([attempt, 204, 'application/json; charset=utf-8', '']);
    }
  });
});
