// idm api through the built binary (bin/idm.js, as `npm run build` leaves it) against the sandbox:
// a paginated GET piped to another program, --data @- from a real pipe, and a refused path that
// reaches nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm, tempConfigDir } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { direct } from '../helpers/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ streams: 60 });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

const idm = (args: string[], input?: string) => runIdm(args, { configDir: h.configDir, env: credentialsEnv(h.sandbox), input });

describe('idm api as a process', () => {
  it('GET --paginate: the merged pages on stdout, two GETs (default pages of 50), exit 0', async () => {
    const result = await idm(['api', 'GET', '/event-streams', '--paginate']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const streams = JSON.parse(result.stdout).eventStreams;
    expect(streams).toHaveLength(66);
    expect(h.calls().map((call) => call.path)).toEqual(['/api/v2/event-streams', '/api/v2/event-streams']);
    expect(h.calls()[1]!.url).toMatch(/^\/api\/v2\/event-streams\?from=\S+$/);
  });

  it('POST with --data @- from a pipe, then DELETE: 201 printed, 204 silent', async () => {
    const body = { name: 'api-process', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://example.com/h', webhook_authorization: { method: 'bearer', token: 'api-process-token-1' } } } };
    const created = await idm(['api', 'post', '/event-streams', '--data', '@-'], JSON.stringify(body));
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout);
    expect(h.calls('POST').map((call) => call.json)).toEqual([body]);
    const removed = await idm(['api', 'DELETE', `/api/v2/event-streams/${id}`]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe('');
    expect((await direct(h.sandbox, `/event-streams/${id}`)).status).toBe(404);
  });

  it('a refused path: exit 2, one error on stderr, and the sandbox received nothing', async () => {
    const result = await idm(['api', 'GET', '/event-streams/%2E%2E/oauth/token']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'Error: PATH has a dot segment (%2E%2E): idm does not resolve . or .. in a path.\nGive a path below /api/v2, such as /event-streams or /connections/ID/directory-provisioning.\n',
    );
    expect(h.received()).toEqual([]);
  });

  it('404 with --json: the body on stdout, the JSON error last on stderr, exit 1', async () => {
    const result = await idm(['api', 'GET', '/event-streams/est_0000000000000000000000', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ statusCode: 404, error: 'Not Found', message: 'The requested stream does not exist.' });
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ status: 404, exitCode: 1 });
  });

  it('--json, the token refused (no call made): stdout stays empty, the token endpoint\'s answer is no answer to the call', async () => {
    const { dir, cleanup } = tempConfigDir(); // no cached token: the run asks the token endpoint
    try {
      for (const [status, exitCode] of [[401, 4], [403, 4], [429, 5], [500, 1]] as const) {
        h.sandbox.addFault({ kind: 'status', status, path: '/oauth/token', count: Infinity });
        const result = await runIdm(['api', 'GET', '/event-streams', '--json', '--max-wait', '0.5'], { configDir: dir, env: credentialsEnv(h.sandbox) });
        h.sandbox.clearFaults();
        expect(result.code, String(status)).toBe(exitCode);
        expect(result.stdout, String(status)).toBe('');
        expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ status, message: expect.stringMatching(/^(Could not get an access token|Rate limited by .* while trying to get an access token)/), exitCode });
      }
      expect(h.calls()).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

describe('numbers a double cannot hold are printed as the service wrote them', () => {
  const answer = (body: string, count = 1) =>
    h.sandbox.addFault({ kind: 'status', status: 200, path: '/api/v2/event-streams', count, headers: { 'content-type': 'application/json' }, body });
  const odd = '"big":12345678901234567890,"negZero":-0,"huge":1e400,"tiny":-1e-400,"long":0.1000000000000000000001';
  const shown = ['"big": 12345678901234567890', '"negZero": -0', '"huge": 1e400', '"tiny": -1e-400', '"long": 0.1000000000000000000001'];

  it('idm api: an object, an array and a nested record keep them; ordinary numbers are written as JSON.stringify does', async () => {
    answer(`{${odd},"list":[9007199254740993,1.50,"12345678901234567890"],"nested":{"n":-0.0,"plain":1E2}}`);
    const result = await idm(['api', 'GET', '/event-streams']);
    expect(result.code).toBe(0);
    for (const text of shown) expect(result.stdout).toContain(text);
    expect(result.stdout).toContain('9007199254740993,\n    1.5,\n    "12345678901234567890"');
    expect(result.stdout).toContain('"n": -0.0,\n    "plain": 100');
  });

  it('idm api --paginate and streams list --all --json: the first page\'s fields and every page\'s items keep them', async () => {
    const first = await direct(h.sandbox, '/event-streams?take=50');
    const cursor = (first.body as { next: string }).next;
    answer(`{${odd},"eventStreams":[{"id":"x","n":98765432109876543210}],"next":"${cursor}"}`);
    const merged = await idm(['api', 'GET', '/event-streams', '--paginate']);
    expect(merged.code).toBe(0);
    for (const text of [...shown, '"n": 98765432109876543210']) expect(merged.stdout).toContain(text);
    answer(`{${odd},"eventStreams":[{"id":"x","n":98765432109876543210}],"next":"${cursor}"}`);
    const all = await idm(['streams', 'list', '--all', '--json']);
    expect(all.code).toBe(0);
    for (const text of [...shown, '"n": 98765432109876543210']) expect(all.stdout).toContain(text);
  });

  it('an error body printed by idm api --json keeps them', async () => {
    h.sandbox.addFault({ kind: 'status', status: 409, path: '/api/v2/event-streams', headers: { 'content-type': 'application/json' }, body: `{"statusCode":409,"message":"taken",${odd}}` });
    const result = await idm(['api', 'GET', '/event-streams', '--json']);
    expect(result.code).toBe(1);
    for (const text of shown) expect(result.stdout).toContain(text);
  });
});

describe('a body given with --data is sent with its numbers as written', () => {
  it('idm api PATCH --data and --data @-: 12345678901234567890, -0 and 1e400 reach the service as given, not 12345678901234567000, 0 and null', async () => {
    const text = '{"name":"x","n":12345678901234567890,"z":-0,"m":1e400,"d":[0.1000000000000000000001,1.5]}';
    for (const args of [['--data', text], ['--data', '@-']]) {
      h.mark();
      const result = await idm(['api', 'PATCH', '/event-streams/est_demoInboxBearer0000000', ...args], args[1] === '@-' ? text : undefined);
      expect(result.code).toBe(1); // the sandbox refuses the unknown fields: what matters is what it received
      expect(h.calls('PATCH').map((call) => call.body)).toEqual(['{"name":"x","n":12345678901234567890,"z":-0,"m":1e400,"d":[0.1000000000000000000001,1.5]}']);
    }
  });
});

describe('--query keys that name a property of every object', () => {
  it('constructor, __proto__ and toString are sent as parameters like any key, with --paginate too (an unexpected error before)', async () => {
    for (const extra of [[], ['--paginate']]) {
      h.mark();
      const result = await idm(['api', 'GET', '/event-streams', '--query', 'constructor=1', '--query', '__proto__=2', '--query', 'toString=3', ...extra]);
      expect(result.stderr).not.toContain('Unexpected');
      expect(result.stderr).toContain('Invalid query string paging options (400 invalid_query_string)');
      expect(result.code).toBe(1);
      expect(h.calls().map((call) => call.url)).toEqual(['/api/v2/event-streams?constructor=1&__proto__=2&toString=3']);
    }
  });
});

describe('keys made of digits keep their place', () => {
  it('idm api and streams list --all --json print an object\'s keys in the order the service wrote them', async () => {
    const first = await direct(h.sandbox, '/event-streams?take=50');
    const cursor = (first.body as { next: string }).next;
    const page = `{"eventStreams":[{"id":"x","metadata":{"zone":"eu","2":"b","1":"a"}}],"total":1,"7":"seven","next":"${cursor}"}`;
    const fault = () => h.sandbox.addFault({ kind: 'status', status: 200, path: '/api/v2/event-streams', headers: { 'content-type': 'application/json' }, body: page });
    fault();
    const raw = await idm(['api', 'GET', '/event-streams']);
    expect(raw.stdout).toContain('"metadata": {\n        "zone": "eu",\n        "2": "b",\n        "1": "a"\n      }');
    expect(raw.stdout).toMatch(/"total": 1,\n {2}"7": "seven",\n {2}"next"/);
    fault();
    const merged = await idm(['api', 'GET', '/event-streams', '--paginate']);
    expect(merged.stdout).toContain('"zone": "eu",\n        "2": "b",\n        "1": "a"');
    expect(merged.stdout).toMatch(/\],\n {2}"total": 1,\n {2}"7": "seven"\n\}\n$/);
    fault();
    const all = await idm(['streams', 'list', '--all', '--json']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('"zone": "eu",\n        "2": "b",\n        "1": "a"');
    expect(all.stdout).toMatch(/\],\n {2}"total": 1,\n {2}"7": "seven"\n\}\n$/);
  });
});

describe('keys made of digits, and pages that bring more fields', () => {
  it('idm api --paginate keeps a list only a later page has, when the first page\'s keys were kept in order (it was dropped)', async () => {
    const first = await direct(h.sandbox, '/event-streams?take=50');
    const cursor = (first.body as { next: string }).next;
    const page = (body: string) => h.sandbox.addFault({ kind: 'status', status: 200, path: '/api/v2/event-streams', headers: { 'content-type': 'application/json' }, body });
    page(`{"eventStreams":[{"id":"x"}],"7":"seven","next":"${cursor}"}`);
    page('{"eventStreams":[{"id":"y"}],"extra":["e"]}');
    const merged = await idm(['api', 'GET', '/event-streams', '--paginate']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toEqual({ eventStreams: [{ id: 'x' }, { id: 'y' }], 7: 'seven', extra: ['e'] });
    expect(merged.stdout).toMatch(/"eventStreams": \[[^]*\],\n {2}"7": "seven",\n {2}"extra": \[\n {4}"e"\n {2}\]\n\}\n$/);
  });
});
