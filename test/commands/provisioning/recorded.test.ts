// idm's provisioning commands against answers the real service gave (recorded traffic,
// /work/shared/reference/recorded-lifecycle.json): a local server answers each request with a
// recorded response. --json prints exactly the recorded body (same keys, same order); where idm can
// be made to send the recorded request (create with mapping flags, update, groups set / add / remove,
// groups list with --take / --search), what it sends is that request (method, path, query, JSON body);
// recorded error bodies (404 inexistent_connection, 400 invalid_body) give exit 1 and their message.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runInProcess, tempConfigDir, type RunResult } from '../../helpers/cli.js';
import { fakeServer, json, tokenAnswer, type Seen } from '../../helpers/fake-server.js';

interface Recorded {
  ref: string;
  request: { method: string; path: string; query: Record<string, string>; body: unknown };
  response: { status: number; body: unknown; body_is_empty: boolean };
}
const RECORDING = '/work/shared/reference/recorded-lifecycle.json';
const endpoints = (JSON.parse(readFileSync(RECORDING, 'utf8')) as { endpoints: Record<string, Recorded[]> }).endpoints;
const recorded = (key: string): Recorded[] => {
  const list = endpoints[key];
  if (!list || list.length === 0) throw new Error(`no recording for ${key}`);
  return list;
};
const ok = (key: string) => recorded(key).filter((pair) => pair.response.status < 300);

const P = 'METHOD /connections/{id}/directory-provisioning';
const GET = P.replace('METHOD', 'GET');
const POST = P.replace('METHOD', 'POST');
const PATCH = P.replace('METHOD', 'PATCH');
const DELETE = P.replace('METHOD', 'DELETE');
const DEFAULT_MAPPING = `${GET}/default-mapping`;
const GROUPS = (method: string) => `${method} /connections/{id}/directory-provisioning/synchronized-groups`;

let server: Awaited<ReturnType<typeof fakeServer>>;
/** What the server answers to the next management request. */
let answer: Recorded['response'] | undefined;
const config = tempConfigDir();

function reply(res: ServerResponse, response: Recorded['response']): void {
  if (response.body_is_empty || response.body === null) {
    res.writeHead(response.status);
    res.end();
    return;
  }
  json(res, response.status, response.body);
}

beforeAll(async () => {
  server = await fakeServer((request, res) => {
    if (request.url.startsWith('/oauth/token')) return json(res, 200, tokenAnswer(1, { scope: 'read:directory_provisionings create:directory_provisionings update:directory_provisionings delete:directory_provisionings' }));
    // groups add, remove and set with ids read the list first (add sends only groups it does not hold:
    // an empty one; remove only groups it holds: those given; set each group's stored entry).
    if (listGroupsFirst && request.method === 'GET' && request.url.includes('/synchronized-groups')) return json(res, 200, { groups: listedGroups });
    // and, after add or set, the configuration (whether group synchronization is "selected"): a recorded one.
    if (listGroupsFirst && request.method === 'GET' && /\/directory-provisioning$/.test(new URL(request.url, 'http://x').pathname)) return json(res, 200, ok(GET)[0]!.response.body);
    if (!answer) return json(res, 500, { statusCode: 500, error: 'Internal Server Error', message: 'no recorded answer set up' });
    reply(res, answer);
  });
});
afterAll(async () => {
  await server.close();
  config.cleanup();
});
let from = 0;
/** GET .../synchronized-groups is answered with listedGroups, and is not one of the requests sent(). */
let listGroupsFirst = false;
/** What the list read first holds. */
let listedGroups: Array<{ id: string }> = [];
beforeEach(() => {
  from = server.seen.length;
  answer = undefined;
  listGroupsFirst = false;
  listedGroups = [];
});

function idm(args: string[], response: Recorded['response']): Promise<RunResult> {
  answer = response;
  return runInProcess(args, { configDir: config.dir, env: credentialsEnv(server.url, { clientId: 'recorded-client', clientSecret: 'recorded-client-secret' }) });
}
/** The management requests idm sent since the test began. */
const sent = (): Seen[] =>
  server.seen.slice(from).filter((request) => request.url.startsWith('/api/v2/') && !(listGroupsFirst && request.method === 'GET' && /\/directory-provisioning(\/synchronized-groups)?$/.test(new URL(request.url, 'http://x').pathname)));
const pathOf = (request: Seen) => new URL(request.url, 'http://x').pathname;
const queryOf = (request: Seen) => Object.fromEntries(new URL(request.url, 'http://x').searchParams);
/** The request idm sent, as the recording writes one. */
function expectSent(pair: Recorded): void {
  expect(sent()).toHaveLength(1);
  const [request] = sent() as [Seen];
  expect(request.method).toBe(pair.request.method);
  expect(pathOf(request)).toBe(`/api/v2${pair.request.path}`);
  expect(queryOf(request)).toEqual(pair.request.query ?? {});
  if (pair.request.body === null || pair.request.body === undefined) expect(request.body).toBe('');
  else expect(JSON.parse(request.body)).toEqual(pair.request.body);
}
/** stdout is the recorded body, key for key and in the same order. */
function expectPrinted(result: RunResult, pair: Recorded): void {
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual(pair.response.body);
  expect(JSON.stringify(JSON.parse(result.stdout))).toBe(JSON.stringify(pair.response.body));
}
const id = (pair: Recorded) => pair.request.path.split('/')[2]!;
const label = (pair: Recorded) => `${pair.ref} ${id(pair)} ${JSON.stringify(pair.request.body ?? '').slice(0, 60)}`;

/** The flags that make create / update send `body`, or undefined when no flags can. */
function flagsFor(body: Record<string, unknown>, verb: 'create' | 'update'): string[] | undefined {
  const flags: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'mapping') for (const row of value as Array<{ platform: string; idp: string }>) flags.push('--mapping', `${row.platform}=${row.idp}`);
    else if (key === 'synchronize_automatically') flags.push(value ? '--sync-automatically' : '--no-sync-automatically');
    else if (key === 'synchronize_groups') flags.push('--sync-groups', String(value));
    else return undefined;
  }
  return verb === 'update' && flags.length === 0 ? undefined : flags;
}

const NOT_FOUND = recorded(POST).find((pair) => pair.response.status === 404)!;

describe('recorded: provisioning show', () => {
  it.each(ok(GET).map((pair) => [label(pair), pair] as const))('%s: GET as recorded, --json prints the recorded body', async (_, pair) => {
    const result = await idm(['provisioning', 'show', id(pair), '--json'], pair.response);
    expectPrinted(result, pair);
    expectSent(pair);
  });

  it('piped: the settings and every mapping row of a recorded configuration', async () => {
    const pair = ok(GET)[0]!;
    const body = pair.response.body as { connection_id: string; connection_name: string; mapping: Array<{ platform: string; idp: string }> };
    const result = await idm(['provisioning', 'show', id(pair)], pair.response);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual(expect.arrayContaining([`Connection\t${body.connection_id}`, `Name\t${body.connection_name}`, 'Synchronize automatically\tno']));
    expect(lines.filter((line) => line.startsWith('mapping\t'))).toEqual(body.mapping.map((row) => `mapping\t${row.platform}\t${row.idp}`));
    // an older recording has no synchronize_groups: no line for it rather than an empty one
    expect(lines.some((line) => line.startsWith('Synchronize groups'))).toBe(false);
  });

  it('the recorded 404 body: exit 1 and the service message', async () => {
    const result = await idm(['provisioning', 'show', id(NOT_FOUND)], NOT_FOUND.response);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/The connection does not exist.*404/);
  });
});

describe('recorded: provisioning create', () => {
  const creatable = ok(POST).filter((pair) => flagsFor(pair.request.body as Record<string, unknown>, 'create'));
  it('every recorded create body can be given with flags', () => {
    expect(creatable).toHaveLength(ok(POST).length);
  });

  it.each(creatable.map((pair) => [label(pair), pair] as const))('%s: sends the recorded request, --json prints the recorded body', async (_, pair) => {
    const flags = flagsFor(pair.request.body as Record<string, unknown>, 'create')!;
    const result = await idm(['provisioning', 'create', id(pair), ...flags, '--json'], pair.response);
    expectPrinted(result, pair);
    expectSent(pair);
  });

  it('piped: the note counts the mapped attributes of the recorded answer', async () => {
    const pair = creatable.find((p) => JSON.stringify(p.request.body) === '{}')!;
    const result = await idm(['provisioning', 'create', id(pair)], pair.response);
    expect(result.code).toBe(0);
    const count = (pair.response.body as { mapping: unknown[] }).mapping.length;
    expect(result.stderr).toContain(`Created directory provisioning for ${id(pair)} with ${count} mapped attributes.`);
  });

  it('the recorded 404 (inexistent_connection): exit 1, the service message, the id named', async () => {
    const result = await idm(['provisioning', 'create', id(NOT_FOUND)], NOT_FOUND.response);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(id(NOT_FOUND));
    expect(result.stderr).toMatch(/The connection does not exist.*404/);
    expectSent(NOT_FOUND);
  });

  it('the recorded 404 with --json: status, errorCode and exit code in one JSON object', async () => {
    const result = await idm(['--json', 'provisioning', 'create', id(NOT_FOUND)], NOT_FOUND.response);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 404, code: 'inexistent_connection', exitCode: 1 } });
  });
});

describe('recorded: provisioning update', () => {
  const updatable = ok(PATCH).filter((pair) => flagsFor(pair.request.body as Record<string, unknown>, 'update'));
  it('every recorded change can be given with flags', () => {
    expect(updatable).toHaveLength(ok(PATCH).length);
  });

  it.each(updatable.map((pair) => [label(pair), pair] as const))('%s: sends the recorded PATCH, --json prints the recorded body', async (_, pair) => {
    const flags = flagsFor(pair.request.body as Record<string, unknown>, 'update')!;
    const result = await idm(['provisioning', 'update', id(pair), ...flags, '--json'], pair.response);
    expectPrinted(result, pair);
    expectSent(pair);
  });

  it('the recorded 404 body: exit 1 and the service message', async () => {
    const result = await idm(['provisioning', 'update', id(NOT_FOUND), '--sync-groups', 'off'], NOT_FOUND.response);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The connection does not exist.*404/);
  });
});

describe('recorded: provisioning delete', () => {
  it.each(ok(DELETE).slice(0, 5).map((pair) => [label(pair), pair] as const))('%s: --yes sends the recorded DELETE; the 204 is a success', async (_, pair) => {
    const result = await idm(['provisioning', 'delete', id(pair), '--yes'], pair.response);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Deleted the directory provisioning of ${id(pair)}.\n`);
    expectSent(pair);
  });

  it('the recorded 404 body: exit 1, no success note', async () => {
    const result = await idm(['provisioning', 'delete', id(NOT_FOUND), '--yes'], NOT_FOUND.response);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The connection does not exist.*404/);
    expect(result.stderr).not.toContain('Deleted');
  });
});

describe('recorded: provisioning default-mapping', () => {
  it.each(ok(DEFAULT_MAPPING).map((pair) => [label(pair), pair] as const))('%s: GET as recorded, --json prints the recorded body', async (_, pair) => {
    const result = await idm(['provisioning', 'default-mapping', id(pair), '--json'], pair.response);
    expectPrinted(result, pair);
    expectSent(pair);
  });

  it('piped: one platform<TAB>idp line per recorded row', async () => {
    const pair = ok(DEFAULT_MAPPING)[0]!;
    const result = await idm(['provisioning', 'default-mapping', id(pair)], pair.response);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe((pair.response.body as { mapping: Array<{ platform: string; idp: string }> }).mapping.map((row) => `${row.platform}\t${row.idp}\n`).join(''));
  });
});

describe('recorded: provisioning groups list', () => {
  /** The flags that make idm send the recorded query. */
  const flags = (query: Record<string, string>) => [
    ...(query.q ? ['--search', /^name:(.*)\*$/.exec(query.q)![1]!] : []),
    ...(query.take ? ['--take', query.take] : []),
  ];
  it.each(ok(GROUPS('GET')).map((pair) => [`${label(pair)} ${JSON.stringify(pair.request.query)}`, pair] as const))(
    '%s: the recorded query, --json prints the recorded body',
    async (_, pair) => {
      const result = await idm(['provisioning', 'groups', 'list', id(pair), ...flags(pair.request.query), '--json'], pair.response);
      expectPrinted(result, pair);
      expectSent(pair);
    },
  );

  it('piped: entries with only an id print empty name, email and members', async () => {
    const pair = ok(GROUPS('GET')).find((p) => JSON.stringify(p.response.body).includes('"direct_members_count":7'))!;
    const result = await idm(['provisioning', 'groups', 'list', id(pair), '--take', '50'], pair.response);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('group1abc\tEngineering\tengineering@example.com\t7\ngroup2def\t\t\t\n');
  });
});

describe('recorded: provisioning groups set / add / remove', () => {
  const idsOnly = (pair: Recorded) => (pair.request.body as { groups: Array<Record<string, unknown>> }).groups.every((group) => Object.keys(group).join() === 'id');
  const ids = (pair: Recorded) => (pair.request.body as { groups: Array<{ id: string }> }).groups.map((group) => group.id);
  const cases = (['PUT', 'POST', 'DELETE'] as const).flatMap((method) =>
    ok(GROUPS(method))
      .filter(idsOnly)
      .map((pair) => {
        const verb = method === 'PUT' ? 'set' : method === 'POST' ? 'add' : 'remove';
        const args = ids(pair).length === 0 ? ['--none'] : ids(pair);
        return [`${verb} ${label(pair)}`, verb, args, pair] as const;
      }),
  );

  it('covers the three verbs', () => {
    expect(new Set(cases.map(([, verb]) => verb))).toEqual(new Set(['set', 'add', 'remove']));
  });

  it.each(cases)('%s: sends the recorded request; the 204 is a success', async (_, verb, args, pair) => {
    // set with ids reads the list too (a group it holds is sent with its stored entry: here a bare id).
    listGroupsFirst = args[0] !== '--none';
    if (verb !== 'add') listedGroups = args.map((group) => ({ id: group }));
    const result = await idm(['provisioning', 'groups', verb, id(pair), ...args], pair.response);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(args[0] === '--none' ? `${id(pair)} synchronizes no group now.` : `the synchronized groups of ${id(pair)}.`);
    expectSent(pair);
  });

  it('the recorded 400 invalid_body (a bad group email): exit 1, the service message and a hint', async () => {
    const pair = recorded(GROUPS('POST')).find((p) => p.response.status === 400)!;
    listGroupsFirst = true;
    const result = await idm(['provisioning', 'groups', 'add', id(pair), 'group1abc'], pair.response);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("Payload validation error: 'Object didn't pass validation for format email: ' on property groups[0].email");
    expect(result.stderr).toMatch(/400/);
    expect(result.stderr).toContain('Check the groups sent (their ids, and the fields of --groups-file entries), as the message says');
    expect(result.stderr).not.toContain('Added');
  });

  it('the recorded 404 body on set: exit 1 and the service message', async () => {
    const result = await idm(['provisioning', 'groups', 'set', id(NOT_FOUND), '--none'], NOT_FOUND.response);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The connection does not exist.*404/);
  });
});
