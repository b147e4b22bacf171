// idm api against the sandbox over real HTTP, in process: each method (GET, POST, PATCH, PUT,
// DELETE), --paginate merging the pages (and the requests that took), --data inline, @FILE and @-,
// query encoding, error statuses with their exit codes (the body on stdout with --json), paths and
// flags refused before anything is sent, a POST never sent twice after a 503, and --debug redaction.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness.js';
import { direct, recordSecrets } from '../../helpers/sandbox.js';

const BEARER = 'est_demoInboxBearer0000000';
const UNKNOWN = 'est_0000000000000000000000';
const CONFIGURED = 'con_googleAppsTaken1';
const EXTRA_STREAMS = 120;

let h: Harness;
let files: string;
beforeAll(async () => {
  h = await startHarness({ streams: EXTRA_STREAMS });
  files = mkdtempSync(join(tmpdir(), 'idm-api-test-'));
});
afterAll(async () => {
  await h.close();
  rmSync(files, { recursive: true, force: true });
});
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

/** What the management API received, as `METHOD url` lines. */
const seen = () => h.calls().map((call) => `${call.method} ${call.url}`);

const newStream = (name: string) => ({
  name,
  subscriptions: [{ event_type: 'user.created' }],
  destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://example.com/hook', webhook_authorization: { method: 'bearer', token: 'api-test-bearer-token-1' } } },
});
recordSecrets(['api-test-bearer-token-1']);

describe('idm api: each method', () => {
  it('GET a stream: the answer as received, indented, on stdout; one GET of that path', async () => {
    const result = await h.idm(['api', 'GET', `/event-streams/${BEARER}`]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(seen()).toEqual([`GET /api/v2/event-streams/${BEARER}`]);
    const service = await direct(h.sandbox, `/event-streams/${BEARER}`);
    expect(JSON.parse(result.stdout)).toEqual(service.body);
    expect(result.stdout).toBe(`${JSON.stringify(service.body, null, 2)}\n`);
  });

  it('the same with --json, a lower-case method, a leading /api/v2 or no leading slash', async () => {
    const plain = await h.idm(['api', 'GET', `/event-streams/${BEARER}`]);
    for (const args of [
      ['api', 'GET', `/event-streams/${BEARER}`, '--json'],
      ['api', 'get', `/api/v2/event-streams/${BEARER}`],
      ['api', 'Get', `event-streams/${BEARER}`],
    ]) {
      const result = await h.idm(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toBe(plain.stdout);
    }
    expect(new Set(seen())).toEqual(new Set([`GET /api/v2/event-streams/${BEARER}`]));
  });

  it('POST creates a stream from --data: the body sent is the JSON given, the 201 answer printed', async () => {
    const body = newStream('api-post');
    const result = await h.idm(['api', 'POST', '/event-streams', '--data', JSON.stringify(body)]);
    expect(result.code).toBe(0);
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.path).toBe('/api/v2/event-streams');
    expect(posts[0]!.headers['content-type']).toBe('application/json');
    expect(posts[0]!.json).toEqual(body);
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ name: 'api-post', status: 'enabled' });
    expect(created.id).toMatch(/^est_\w{22}$/);
    expect((await direct(h.sandbox, `/event-streams/${created.id}`)).status).toBe(200);
  });

  it('PATCH changes a stream', async () => {
    const created = JSON.parse((await h.idm(['api', 'POST', '/event-streams', '--data', JSON.stringify(newStream('api-patch'))])).stdout);
    h.mark();
    const result = await h.idm(['api', 'PATCH', `/event-streams/${created.id}`, '--data', '{"name":"api-patched","status":"disabled"}']);
    expect(result.code).toBe(0);
    expect(h.calls().map((call) => [call.method, call.path, call.json])).toEqual([['PATCH', `/api/v2/event-streams/${created.id}`, { name: 'api-patched', status: 'disabled' }]]);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: created.id, name: 'api-patched', status: 'disabled' });
    expect((await direct(h.sandbox, `/event-streams/${created.id}`)).body).toMatchObject({ name: 'api-patched', status: 'disabled' });
  });

  it('PUT replaces the synchronized groups from --data @FILE: 204 prints nothing; DELETE with a body removes one', async () => {
    const file = join(files, 'groups.json');
    writeFileSync(file, JSON.stringify({ groups: [{ id: 'grp-api-1' }, { id: 'grp-api-2', name: 'Two' }] }));
    const path = `/connections/${CONFIGURED}/directory-provisioning/synchronized-groups`;
    const put = await h.idm(['api', 'PUT', path, '--data', `@${file}`]);
    expect(put.code).toBe(0);
    expect(put.stdout).toBe('');
    expect(put.stderr).toBe('');
    expect(h.calls().map((call) => [call.method, call.path, call.status, call.json])).toEqual([['PUT', `/api/v2${path}`, 204, { groups: [{ id: 'grp-api-1' }, { id: 'grp-api-2', name: 'Two' }] }]]);
    expect((await direct(h.sandbox, path)).body.groups.map((group: { id: string }) => group.id)).toEqual(['grp-api-1', 'grp-api-2']);

    h.mark();
    const removed = await h.idm(['api', 'DELETE', path, '--data', '{"groups":[{"id":"grp-api-1"}]}']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe('');
    expect(h.calls().map((call) => [call.method, call.status, call.json])).toEqual([['DELETE', 204, { groups: [{ id: 'grp-api-1' }] }]]);
    expect((await direct(h.sandbox, path)).body.groups.map((group: { id: string }) => group.id)).toEqual(['grp-api-2']);
  });

  it('DELETE a stream: 204, nothing on stdout, and the stream is gone', async () => {
    const created = JSON.parse((await h.idm(['api', 'POST', '/event-streams', '--data', JSON.stringify(newStream('api-delete'))])).stdout);
    h.mark();
    const result = await h.idm(['api', 'delete', `/event-streams/${created.id}`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(h.calls().map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual([`DELETE /api/v2/event-streams/${created.id} 204`]);
    expect((await direct(h.sandbox, `/event-streams/${created.id}`)).status).toBe(404);
  });
});

describe('idm api: --data from stdin and files', () => {
  it('--data @- reads the body from stdin', async () => {
    const body = newStream('api-stdin');
    const result = await h.idm(['api', 'POST', '/event-streams', '--data', '@-'], { input: JSON.stringify(body) });
    expect(result.code).toBe(0);
    expect(h.calls('POST').map((call) => call.json)).toEqual([body]);
    expect(JSON.parse(result.stdout).name).toBe('api-stdin');
  });

  it('refuses before sending: JSON that does not parse (never echoed), an empty body, a missing file, stdin at a terminal', async () => {
    const broken = '{"token": hunter2-secret-value}';
    const cases: Array<[string[], RegExp, { input?: string; tty?: boolean; env?: Record<string, string> }?]> = [
      [['--data', broken], /^Error: --data is not valid JSON: at line 1, column 11, a value is expected /],
      [['--data', '@-'], /^Error: --data @- \(stdin\) is not valid JSON/, { input: broken }],
      [['--data', '@-'], /^Error: --data @- \(stdin\) is empty: the body must be JSON\.\n/, { input: '  \n' }],
      [['--data', `@${join(files, 'missing.json')}`], /^Error: --data: cannot read .*missing\.json: no such file\.\n/],
      [['--data', '@-'], /^Error: --data @- reads stdin, which is a terminal here\.\n/, { tty: true, env: { NO_COLOR: '1' } }],
    ];
    for (const [flags, message, options] of cases) {
      const result = await h.idm(['api', 'POST', '/event-streams', ...flags], options);
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr, flags.join(' ')).toMatch(message);
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stdout).toBe('');
    }
    expect(h.received()).toEqual([]);
  });
});

describe('idm api: --data given a file name or - without the @', () => {
  it('the hint names --data @FILE or --data @-, not JSON quoting; nothing is sent', async () => {
    const file = join(files, 'my stream.json');
    writeFileSync(file, JSON.stringify(newStream('api-no-at')));
    const cases: Array<[string, string]> = [
      ['-', 'Error: --data is not valid JSON: at line 1, column 2 (its end), a digit is expected after the minus sign.\nTo read the body from stdin, give --data @-.\n'],
      [file, `Error: --data is not valid JSON: at line 1, column 1, a value is expected (a "string", a number, true, false, null, an object or an array).\nTo send the content of the file ${file}, give --data '@${file}'.\n`],
    ];
    for (const [value, stderr] of cases) {
      const result = await h.idm(['api', 'POST', '/event-streams', '--data', value], { input: '{}' });
      expect(result.code, value).toBe(2);
      expect(result.stderr, value).toBe(stderr);
    }
    // A value that names no file keeps the JSON hint, and is never quoted (it may be a secret).
    const other = await h.idm(['api', 'POST', '/event-streams', '--data', 'no-such-file-hunter2.json']);
    expect(other.stderr).toMatch(/\nStrings and property names take double quotes/);
    expect(other.stderr).not.toContain('hunter2');
    expect(h.received()).toEqual([]);
  });
});

describe('idm api: --data @~/FILE, where no shell expands the ~', () => {
  it('the hint names $HOME in its place; nothing is sent', async () => {
    for (const [value, hint] of [
      ['@~/idm-no-such-body.json', 'No shell expands the ~ after @: give --data "@$HOME/idm-no-such-body.json".'],
      ['@~/$(x).json', 'No shell expands the ~ after @: write $HOME in its place.'],
    ]) {
      const result = await h.idm(['api', 'POST', '/event-streams', '--data', value!]);
      expect(result.code, value).toBe(2);
      expect(result.stderr, value).toBe(`Error: --data: cannot read ${value!.slice(1)}: no such file.\n${hint}\n`);
    }
    // Another file that cannot be read keeps the usual hint.
    const other = await h.idm(['api', 'POST', '/event-streams', '--data', '@idm-no-such-body.json']);
    expect(other.stderr).toBe("Error: --data: cannot read idm-no-such-body.json: no such file.\nPipe the JSON in, or give --data '{…}' or --data @FILE.\n");
    expect(h.received()).toEqual([]);
  });
});

describe('idm api --paginate', () => {
  /** Every stream id the tenant holds, read here page by page (the tests above created some). */
  async function allIds(): Promise<string[]> {
    const ids: string[] = [];
    let from: string | undefined;
    do {
      const page = await direct(h.sandbox, `/event-streams?take=100${from ? `&from=${from}` : ''}`);
      ids.push(...page.body.eventStreams.map((stream: { id: string }) => stream.id));
      from = page.body.next;
    } while (from);
    return ids;
  }

  it('follows next and merges the pages: every stream once, no next; one GET per page, each from the cursor before', async () => {
    const result = await h.idm(['api', 'GET', '/event-streams', '--paginate']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const calls = h.calls();
    const merged = JSON.parse(result.stdout);
    expect(Object.keys(merged)).toEqual(['eventStreams']);
    const ids = merged.eventStreams.map((stream: { id: string }) => stream.id);
    expect(ids.length).toBeGreaterThanOrEqual(6 + EXTRA_STREAMS);
    expect(ids.length).toBeLessThanOrEqual(150);
    expect(ids).toEqual(await allIds());

    // The service's default page is 50: three pages, the second and third asked for by the cursor of the one before.
    expect(calls.map((call) => call.path)).toEqual(['/api/v2/event-streams', '/api/v2/event-streams', '/api/v2/event-streams']);
    expect(calls[0]!.url).toBe('/api/v2/event-streams');
    const first = await direct(h.sandbox, '/event-streams');
    const second = await direct(h.sandbox, `/event-streams?from=${first.body.next}`);
    expect(calls[1]!.url).toBe(`/api/v2/event-streams?from=${first.body.next}`);
    expect(calls[2]!.url).toBe(`/api/v2/event-streams?from=${second.body.next}`);
    expect(ids.slice(0, 50)).toEqual(first.body.eventStreams.map((stream: { id: string }) => stream.id));
  });

  it('keeps the other query parameters on every page (take=100: two pages) and starts at a given from', async () => {
    const result = await h.idm(['api', 'GET', '/event-streams', '--paginate', '--query', 'take=100']);
    expect(result.code).toBe(0);
    const urls = h.calls().map((call) => new URL(call.url, 'http://x'));
    const total = (await allIds()).length;
    expect(JSON.parse(result.stdout).eventStreams).toHaveLength(total);
    expect(urls).toHaveLength(2);
    expect(urls.map((url) => url.searchParams.get('take'))).toEqual(['100', '100']);
    expect(urls[0]!.searchParams.has('from')).toBe(false);
    expect(urls[1]!.searchParams.getAll('from')).toHaveLength(1);

    const cursor = (await direct(h.sandbox, '/event-streams?take=100')).body.next;
    h.mark();
    const rest = await h.idm(['api', 'GET', '/event-streams', '--paginate', '--query', 'take=100', '--query', `from=${cursor}`]);
    expect(rest.code).toBe(0);
    expect(JSON.parse(rest.stdout).eventStreams).toHaveLength(total - 100);
    expect(seen()).toEqual([`/api/v2/event-streams?take=100&from=${cursor}`].map((url) => `GET ${url}`));
  });

  it('a bare array answer (connections without paging) is the one page, printed as received', async () => {
    const result = await h.idm(['api', 'GET', '/connections', '--paginate']);
    expect(result.code).toBe(0);
    expect(seen()).toEqual(['GET /api/v2/connections']);
    const service = (await direct(h.sandbox, '/connections')).body;
    expect(Array.isArray(service)).toBe(true);
    expect(JSON.parse(result.stdout)).toEqual(service);
  });

  it('a server that hands back the same cursor is stopped by the pagination iterator, exit 1', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', method: 'GET', kind: 'status', status: 200, count: Infinity, body: '{"eventStreams":[{"id":"x"}],"next":"again"}' });
    const result = await h.idm(['api', 'GET', '/event-streams', '--paginate']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: Could not follow the pages of GET \/api\/v2\/event-streams: the server returned a cursor twice/);
    expect(result.stderr).toContain('--query from=CURSOR');
    expect(h.calls()).toHaveLength(2);
  });

  it('is for GET only', async () => {
    const result = await h.idm(['api', 'POST', '/event-streams', '--paginate', '--data', '{}']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: --paginate follows the pages of a GET, not of a POST\.\n/);
    expect(h.received()).toEqual([]);
  });
});

describe('idm api --query', () => {
  it('sends each parameter percent-encoded, a repeated key twice, in order', async () => {
    const result = await h.idm(['api', 'GET', '/connections', '--query', 'strategy=google-apps', '--query', 'strategy=samlp', '--query', 'fields=id,name', '--query', 'name=a b&c=d+é']);
    expect(result.code).toBe(0);
    const [call] = h.calls();
    expect(call!.url).toBe('/api/v2/connections?strategy=google-apps&strategy=samlp&fields=id%2Cname&name=a+b%26c%3Dd%2B%C3%A9');
    const params = new URL(call!.url, 'http://x').searchParams;
    expect(params.getAll('strategy')).toEqual(['google-apps', 'samlp']);
    expect(params.get('name')).toBe('a b&c=d+é');
    expect(JSON.parse(result.stdout)).toEqual([]); // no connection has that name
  });

  it('an empty value is sent; a key that is not a name, a missing =, or control characters are refused before sending', async () => {
    const empty = await h.idm(['api', 'GET', '/connections', '--query', 'name=']);
    expect(empty.code).toBe(0);
    expect(h.calls()[0]!.url).toBe('/api/v2/connections?name=');
    h.mark();
    for (const [value, message] of [
      ['take', /^Error: --query takes KEY=VALUE, not "take"\.\n/],
      ['=5', /^Error: --query: the key "" may hold only letters/],
      ['a b=1', /^Error: --query: the key "a b" may hold only letters/],
      ['q=a\u0000b', /^Error: --query q: the value holds control or invisible characters\.\n/],
    ] as const) {
      const result = await h.idm(['api', 'GET', '/connections', '--query', value]);
      expect(result.code, value).toBe(2);
      expect(result.stderr, value).toMatch(message);
    }
    expect(h.received()).toEqual([]);
  });
});

describe('idm api: error statuses', () => {
  it('404: exit 1 with the service message; nothing on stdout', async () => {
    const result = await h.idm(['api', 'GET', `/event-streams/${UNKNOWN}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `Error: Could not GET /api/v2/event-streams/${UNKNOWN}: The requested stream does not exist (404 not_found).\nCheck the path: it is below /api/v2 (such as /event-streams/ID).\n`,
    );
  });

  it('404 with --json: the body on stdout as received, the error object on stderr, exit 1', async () => {
    const result = await h.idm(['api', 'GET', `/event-streams/${UNKNOWN}`, '--json']);
    expect(result.code).toBe(1);
    const service = await direct(h.sandbox, `/event-streams/${UNKNOWN}`);
    expect(service.status).toBe(404);
    expect(JSON.parse(result.stdout)).toEqual(service.body);
    const error = JSON.parse(result.stderr.trim().split('\n').at(-1)!).error;
    expect(error).toMatchObject({ status: 404, code: 'not_found', exitCode: 1 });
  });

  it('400 (a body the service refuses): exit 1, and with --json its body on stdout', async () => {
    const result = await h.idm(['api', 'POST', '/event-streams', '--data', '{"name":"no-destination"}', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ statusCode: 400 });
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ status: 400, exitCode: 1 });
  });

  it('400 quoting the webhook secret sent in --data, with --json: the body on stdout with the secret masked, as in the message', async () => {
    const token = 'api-quoted-token-Zq8vLx3mPf0s';
    recordSecrets([token]);
    const file = join(files, 'quoted.json');
    writeFileSync(file, JSON.stringify({ ...newStream('api-quoted'), destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://example.com/hook', webhook_authorization: { method: 'bearer', token } } } }));
    const answer = { statusCode: 400, error: 'Bad Request', message: `Payload validation error: '${token}' is not allowed`, errorCode: 'invalid_body', details: [{ value: token, n: 12345678901234567890 }] };
    h.sandbox.addFault({ kind: 'status', status: 400, path: '/api/v2/event-streams', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer).replace('12345678901234567000', '12345678901234567890') });
    const result = await h.idm(['api', 'POST', '/event-streams', '--data', `@${file}`, '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`${JSON.stringify({ ...answer, message: "Payload validation error: '[redacted]' is not allowed", details: [{ value: '[redacted]', n: 0 }] }, null, 2).replace('"n": 0', '"n": 12345678901234567890')}\n`);
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!).error.message).toContain("'[redacted]' is not allowed");
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it('403 insufficient_scope: exit 4, naming the scope from the service message', async () => {
    const result = await h.idm(['api', 'DELETE', `/event-streams/${BEARER}`], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: Not allowed to DELETE \/api\/v2\/event-streams\/est_demoInboxBearer0000000: client \S+ lacks the scope delete:event_streams \(403 insufficient_scope: Insufficient scope; expected any of: delete:event_streams\)\.\n/);
    expect(h.calls('DELETE')).toHaveLength(1);
    expect((await direct(h.sandbox, `/event-streams/${BEARER}`)).status).toBe(200);
  });

  it('429 beyond --max-wait: exit 5, and with --json the body on stdout', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, count: Infinity });
    const result = await h.idm(['api', 'GET', '/event-streams', '--json', '--max-wait', '0.001']);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout)).toMatchObject({ statusCode: 429 });
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ status: 429, exitCode: 5 });
    expect(h.calls()).toHaveLength(1);
  });

  it('405 for a method the path does not take: exit 1', async () => {
    const result = await h.idm(['api', 'PUT', `/event-streams/${BEARER}`, '--data', '{}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: Could not PUT \/api\/v2\/event-streams\/\w+: Method Not Allowed \(405 /);
  });
});

describe('idm api: retries follow the one policy', () => {
  it('a POST answered 503 (without Retry-After) is not sent again: exit 1, one POST, no stream created', async () => {
    const before = (await direct(h.sandbox, '/event-streams?take=100')).body.eventStreams.length;
    h.mark();
    h.sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'status', status: 503, count: 3 });
    const result = await h.idm(['api', 'POST', '/event-streams', '--data', JSON.stringify(newStream('api-503'))]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: Could not POST \/api\/v2\/event-streams: .*\(503 /);
    expect(h.calls('POST')).toHaveLength(1);
    expect((await direct(h.sandbox, '/event-streams?take=100')).body.eventStreams.length).toBe(before);
  });

  it('a POST whose connection is reset after sending is not sent again', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'reset', count: 3 });
    const result = await h.idm(['api', 'POST', '/event-streams', '--data', JSON.stringify(newStream('api-reset'))]);
    expect(result.code).toBe(1);
    expect(h.calls('POST')).toHaveLength(1);
  });

  it('a PUT (idempotent) answered 503 is retried and succeeds', async () => {
    h.sandbox.addFault({ path: `/api/v2/connections/${CONFIGURED}`, method: 'PUT', kind: 'status', status: 503, count: 1 });
    const result = await h.idm(['api', 'PUT', `/connections/${CONFIGURED}/directory-provisioning/synchronized-groups`, '--data', '{"groups":[]}']);
    expect(result.code).toBe(0);
    expect(h.calls('PUT').map((call) => call.status)).toEqual([503, 204]);
  });
});

describe('idm api: refused before anything is sent (exit 2)', () => {
  const refused: Array<[string, RegExp]> = [
    ['/event-streams/../connections', /dot segment \(\.\.\)/],
    ['/api/v2/../oauth/token', /dot segment \(\.\.\)/],
    ['/event-streams/./x', /dot segment \(\.\)/],
    ['/event-streams/%2e%2e/connections', /dot segment \(%2e%2e\)/],
    ['/event-streams/.%2E', /dot segment/],
    ['https://evil.example/api/v2/event-streams', /is a URL/],
    ['http://127.0.0.1:1/api/v2/event-streams', /is a URL/],
    ['//evil.example/api/v2/event-streams', /is a URL/],
    ['/event-streams\\..\\x', /backslash/],
    ['/event-streams/a%5Cb', /encoded \/ or \\/],
    ['/event-streams/a%2Fb', /encoded \/ or \\/],
    ['/event-streams/a\u0000b', /control or invisible/],
    ['/event-streams/a%0Ab', /control or invisible/],
    ['/event-streams/\u202eb', /control or invisible/],
    ['/event-streams?take=5', /query or a fragment/],
    ['/event-streams//x', /empty segment/],
    ['/event-streams/', /empty segment/],
    ['/api/v2', /names no endpoint/],
    ['', /is empty/],
    ['/event-streams/%zz', /not valid percent-encoding/],
  ];
  it.each(refused)('%j', async (path, message) => {
    const result = await h.idm(['api', 'GET', path]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^Error: PATH /);
    expect(result.stderr).toMatch(message);
    expect(h.received()).toEqual([]); // not even a token request
  });

  it('a management URL given as PATH: the hint is the path to give, its query named but not quoted', async () => {
    for (const [url, hint] of [
      [`${h.sandbox.url}/api/v2/event-streams/est_demoInboxBasic00000000`, 'Give its path alone, /event-streams/est_demoInboxBasic00000000.'],
      ['https://tenant.example.com/api/v2/event-streams?take=5&access_token=t0k3nValue', 'Give its path alone, /event-streams, and its query with --query KEY=VALUE.'],
      ['https://tenant.example.com/oauth/token', 'Give a path below /api/v2, such as /event-streams or /connections/ID/directory-provisioning.'],
    ] as const) {
      const result = await h.idm(['api', 'GET', url]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`Error: PATH is a URL: idm api calls only the profile's tenant.\n${hint}\n`);
    }
    expect(h.received()).toEqual([]);
  });

  it('with --json: one JSON error on stderr, code usage', async () => {
    const result = await h.idm(['api', 'GET', '/x/../y', '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'usage', exitCode: 2 });
    expect(h.received()).toEqual([]);
  });

  it('other methods, a body with GET, a missing path', async () => {
    for (const [args, message] of [
      [['HEAD', '/event-streams'], /^Error: <method> must be one of: GET, POST, PATCH, PUT, DELETE \(any case\)\.\n/],
      [['OPTIONS', '/event-streams'], /must be one of/],
      [['GET', '/event-streams', '--data', '{}'], /^Error: GET takes no body: --data goes with POST, PATCH, PUT or DELETE\.\n/],
      [['GET'], /^Error: Missing <path>\./],
      [['/event-streams'], /^Error: Give the method before the path, e\.g\. idm api GET \/event-streams\.\n/],
      // The two in the other order: the method given is the one in the command.
      [['/event-streams', 'delete'], /^Error: Give the method before the path, e\.g\. idm api DELETE \/event-streams\.\n/],
      [['event-streams?take=1', 'GET'], /^Error: Give the method before the path, e\.g\. idm api GET 'event-streams\?take=1'\.\n/],
      [['/x', 'FETCH'], /^Error: <method> must be one of: GET, POST, PATCH, PUT, DELETE \(any case\)\.\n/],
      [['event-streams?take=1'], /^Error: Give the method before the path, e\.g\. idm api GET 'event-streams\?take=1'\.\n/],
      // A path idm would refuse is not put in a command to copy (shown escaped, a copy would be another path).
      [['/event-streams\u200b'], /^Error: Give the method before the path, e\.g\. idm api GET PATH \(the path given holds a control or invisible character: type it again without it\)\.\n/],
      [['/x\u001b]8;;https://evil.example\u0007'], /^Error: Give the method before the path, e\.g\. idm api GET PATH \(the path given holds/],
      [['POST', '/event-streams', '--data', '{}', '--data', '[]'], /--data is given twice/],
    ] as const) {
      const result = await h.idm(['api', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(h.received()).toEqual([]);
  });
});

describe('idm api --debug', () => {
  it('traces the request and answer on stderr with the token and the body secret redacted; stdout is only the answer', async () => {
    const result = await h.idm(['api', 'POST', '/event-streams', '--debug', '--data', JSON.stringify(newStream('api-debug'))]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/api\/v2\/event-streams\n/);
    expect(result.stderr).toMatch(/> authorization: Bearer \[redacted\]\n/);
    expect(result.stderr).toContain('"token":"[redacted]"');
    expect(result.stderr).not.toContain('api-test-bearer-token-1');
    expect(JSON.parse(result.stdout).name).toBe('api-debug');
  });

  it('shows the bodies as sent and received: numbers a double cannot hold and keys of digits as written, secrets masked', async () => {
    const odd = '"n":12345678901234567890,"z":-0,"m":1e400,"d":[0.1000000000000000000001,1.5],"9":"nine","a":{"2":"b","1":"a"}';
    h.sandbox.addFault({ kind: 'status', status: 200, path: `/api/v2/event-streams/${BEARER}`, method: 'PATCH', headers: { 'content-type': 'application/json' }, body: `{"id":"${BEARER}",${odd},"password":"shown-on-stdout"}` });
    const result = await h.idm(['api', 'PATCH', `/event-streams/${BEARER}`, '--debug', '--data', `{"name":"x",${odd},"token":"api-test-bearer-token-1"}`]);
    expect(result.code).toBe(0);
    expect(h.calls('PATCH').map((call) => call.body)).toEqual([`{"name":"x",${odd},"token":"api-test-bearer-token-1"}`]);
    expect(result.stderr).toContain(`\n> {"name":"x",${odd},"token":"[redacted]"}\n`);
    expect(result.stderr).toContain(`\n< {"id":"${BEARER}",${odd},"password":"[redacted]"}\n`);
  });

  it('masks the values of query parameters that hold secrets in the request line, the others shown as sent', async () => {
    const secrets = ['query-access-token-Hq3wE8rTy6', 'query-client-secret-Vb7nQ2xL'];
    recordSecrets(secrets);
    for (const flags of [['--debug'], ['--debug', '--json']]) {
      h.mark();
      const result = await h.idm(['api', 'GET', '/connections', '--query', `access_token=${secrets[0]}`, '--query', 'name=x y', '--query', `Client_Secret=${secrets[1]}`, ...flags]);
      expect(result.code).toBe(0);
      expect(h.calls().map((call) => call.url)).toEqual([`/api/v2/connections?access_token=${secrets[0]}&name=x+y&Client_Secret=${secrets[1]}`]);
      expect(result.stderr).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/connections\?access_token=\[redacted\]&name=x\+y&Client_Secret=\[redacted\](\n|\\n)/);
      for (const secret of secrets) expect(result.stderr).not.toContain(secret);
    }
  });
});
