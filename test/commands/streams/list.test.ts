// idm streams list, run in process: listRun against a sandbox with a Deps whose terminal we control
// (the table at a terminal, TSV when piped, JSON exactly as received, --all across pages, the token
// cache, every error path); the table at a terminal under --all through main() (one header, every
// line within the terminal's width, the id never cut); and a server whose cursors go round in a
// circle (A, B, A), which --all must not follow forever. What only the built binary shows (exit codes,
// stdout and stderr apart, a pipe) is in test/e2e.
import { writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listRun } from '../../../src/commands/streams/list.js';
import { signJwt } from '../../../src/sandbox/jwt.js';
import { credentialsEnv, runInProcess, tempConfigDir } from '../../helpers/cli.js';
import { fakeServer, json, tokenAnswer } from '../../helpers/fake-server.js';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { useSandbox, type Sandbox } from '../../helpers/sandbox.js';
import { cachedTokenFile, insufficientScope, runCommand, type RunSetup } from '../../helpers/deps.js';

const sandbox = useSandbox({ streams: 1_200 });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempConfigDir()));
afterEach(() => {
  sandbox().clearFaults();
  cleanup();
});

const credentials = (client: 'admin' | 'reader' = 'admin') => ({ IDM_CONFIG_DIR: dir, ...credentialsEnv(sandbox(), client) });

/** Runs `idm streams list` as main() would, returning what it printed and the error, if any. */
const list = (opts: { take?: number; from?: string; all?: boolean } = {}, setup: RunSetup = {}) =>
  runCommand((deps) => listRun({ all: false, ...opts }, deps), { ...setup, env: setup.env ?? credentials() });

const listRequests = (sb: Sandbox, since: number) => sb.requests.slice(since).filter((r) => r.path === '/api/v2/event-streams');

describe('idm streams list (run function against the sandbox)', () => {
  it('piped: one stream per line, tab-separated, no colour, no header; no hint', async () => {
    const { stdout, stderr, error } = await list({ take: 20 });
    expect(error).toBeUndefined();
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    for (const line of lines) {
      const cells = line.split('\t');
      expect(cells).toHaveLength(6);
      expect(cells[0]).toMatch(/^est_\w{22}$/);
      expect(cells[5]).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(stdout).not.toContain('\u001b[');
    expect(stdout).not.toContain('┌');
    expect(stderr).toBe('');
    expect(lines[0]).toMatch(/\twebhook https:\/\/127\.0\.0\.1:\d+\/inbox\/[\w-]+\t/);
  });

  it('at a terminal: a table with the columns, and the command for the next page on stderr', async () => {
    const { stdout, stderr } = await list({ take: 5 }, { tty: true });
    expect(stdout).toMatch(/^ID\s+NAME\s+STATUS\s+DESTINATION\s+EVENT TYPES\s+CREATED\n/);
    expect(stdout).not.toMatch(/[│┌─\t]/); // borderless and aligned, not TSV
    expect(stdout.match(/est_\w{22}/g)).toHaveLength(5);
    const hint = /More streams: idm streams list --from (\S+) --take 5/.exec(stderr);
    expect(hint).not.toBeNull();
    // The hinted command gives the next page.
    const next = await list({ take: 5, from: hint![1] });
    const firstIds = stdout.match(/est_\w{22}/g)!;
    const nextIds = next.stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0]);
    expect(nextIds).toHaveLength(5);
    expect(nextIds.some((id) => firstIds.includes(id!))).toBe(false);
  });

  it('--json prints the answer exactly as received, and nothing on stderr', async () => {
    const before = sandbox().requests.length;
    const { stdout, stderr } = await list({ take: 3 }, { json: true });
    expect(stderr).toBe('');
    const parsed = JSON.parse(stdout);
    expect(Object.keys(parsed)).toEqual(['eventStreams', 'next']);
    expect(parsed.eventStreams).toHaveLength(3);
    expect(listRequests(sandbox(), before)[0]!.url).toBe('/api/v2/event-streams?take=3');
  });

  it('--all follows next to the last page: every stream once, page by page (TSV) and merged (--json, no next)', async () => {
    const before = sandbox().requests.length;
    const { stdout } = await list({ all: true });
    const ids = stdout.trimEnd().split('\n').map((line) => line.split('\t')[0]);
    expect(ids.length).toBeGreaterThanOrEqual(1_200);
    expect(new Set(ids).size).toBe(ids.length);
    const pages = listRequests(sandbox(), before);
    expect(pages.length).toBe(Math.ceil(ids.length / 100));
    expect(pages[0]!.url).toBe('/api/v2/event-streams?take=100');
    expect(pages.at(-1)!.url).toMatch(/from=/);

    const json = JSON.parse((await list({ all: true }, { json: true })).stdout);
    expect(Object.keys(json)).toEqual(['eventStreams']);
    expect(json.eventStreams.map((s: { id: string }) => s.id)).toEqual(ids);
  });

  it('the second run makes no token request: the token comes from the cache on disk', async () => {
    const issued = sandbox().tokensIssued();
    await list({ take: 1 });
    expect(sandbox().tokensIssued()).toBe(issued + 1);
    await list({ take: 1 });
    await list({ take: 1 }, { json: true });
    expect(sandbox().tokensIssued()).toBe(issued + 1);
    const files = readdirSync(join(dir, 'tokens'));
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(1);
  });

  it('a cached token that the API refuses (401) is dropped, one new token is fetched, the call retried once', async () => {
    await list({ take: 1 }); // warm the cache
    const file = cachedTokenFile(dir)!;
    // A well-formed token signed by a key the tenant does not know: the service answers 401.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = signJwt({ iss: `${sandbox().url}/`, aud: `${sandbox().url}/api/v2/`, exp: Math.floor(Date.now() / 1000) + 3600, scope: 'read:event_streams', jti: randomUUID() }, createPrivateKey(stranger.export({ type: 'pkcs8', format: 'pem' })));
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...cached, accessToken: forged }));

    const issued = sandbox().tokensIssued();
    const before = sandbox().requests.length;
    const { stdout, error } = await list({ take: 2 });
    expect(error).toBeUndefined();
    expect(stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(sandbox().tokensIssued()).toBe(issued + 1);
    expect(listRequests(sandbox(), before).map((r) => r.status)).toEqual([401, 200]);
    expect(JSON.parse(readFileSync(file, 'utf8')).accessToken).not.toBe(forged);
  });

  it('a token fetched in this run and refused (401) is not replaced: exit 4 after one token request (issuance is metered)', async () => {
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 401, count: 10 });
    const issued = sandbox().tokensIssued();
    const before = sandbox().requests.length;
    const { stdout, error } = await list({ take: 2 });
    expect(error?.exitCode).toBe(4);
    expect(error?.message).toMatch(/^Could not list event streams: .*\(401/);
    expect(stdout).toBe('');
    expect(listRequests(sandbox(), before)).toHaveLength(1);
    expect(sandbox().tokensIssued()).toBe(issued + 1); // the cold one only
    expect(cachedTokenFile(dir)).toBeUndefined(); // refused: not kept
  });

  it('a cached token refused, and its replacement refused too: exit 4 after one new token, not a loop', async () => {
    await list({ take: 1 }); // warm the cache
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 401, count: 10 });
    const issued = sandbox().tokensIssued();
    const before = sandbox().requests.length;
    const { error } = await list({ take: 2 });
    expect(error?.exitCode).toBe(4);
    expect(listRequests(sandbox(), before)).toHaveLength(2);
    expect(sandbox().tokensIssued()).toBe(issued + 1); // the one replacement
  });

  it('403 names the missing scope and how to grant it (exit 4)', async () => {
    sandbox().addFault(insufficientScope);
    const { error, stdout } = await list({}, { env: credentials('reader') });
    expect(stdout).toBe('');
    expect(error?.exitCode).toBe(4);
    expect(error?.code).toBe('insufficient_scope');
    expect(error?.message).toContain(`client ${sandbox().clients.reader.clientId} lacks the scope read:event_streams`);
    expect(error?.hint).toMatch(/Grant the scope read:event_streams to client \S+ in the dashboard/);
  });

  it('403 insufficient_scope drops the cached token only when it is older than 5 minutes (a new grant is seen soon, without a token per run)', async () => {
    const insufficient = () => sandbox().addFault(insufficientScope);
    await list({ take: 1 }); // a token obtained just now
    const file = cachedTokenFile(dir)!;
    insufficient();
    expect((await list({ take: 1 })).error?.exitCode).toBe(4);
    const issued = sandbox().tokensIssued();
    expect((await list({ take: 1 })).error).toBeUndefined();
    expect(sandbox().tokensIssued()).toBe(issued); // kept: young

    const cached = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...cached, obtainedAt: Date.now() - 6 * 60_000 }));
    insufficient();
    expect((await list({ take: 1 })).error?.exitCode).toBe(4);
    expect((await list({ take: 1 })).error).toBeUndefined();
    expect(sandbox().tokensIssued()).toBe(issued + 1); // dropped: older than 5 minutes
  });

  it('400 from the server on a garbage --from cursor: exit 1 with its message and a hint about --from', async () => {
    const { error, stdout } = await list({ from: 'not-a-cursor!!' });
    expect(stdout).toBe('');
    expect(error?.exitCode).toBe(1);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe('Could not list event streams: Invalid query string paging options (400 invalid_query_string).');
    expect(error?.hint).toContain('--from');
  });

  it('429: exit 5 with the reset time in the message and in the --json error', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120; // beyond --max-wait (60 s): no waiting
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(reset) } });
    const { error } = await list({}, { json: true });
    expect(error?.exitCode).toBe(5);
    const when = new Date(reset * 1000).toISOString();
    expect(error?.hint).toContain(when.replace('.000Z', 'Z'));
    expect(error?.toJSON().error).toMatchObject({ status: 429, code: 'too_many_requests', resetAt: when, exitCode: 5 });
  });

  it('a connection reset mid-request is a network failure (exit 1) naming the host', async () => {
    await list({ take: 1 });
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'reset', count: 3 }); // a GET is tried 3 times
    const { error } = await list({ take: 1 });
    expect(error?.exitCode).toBe(1);
    expect(error?.code).toBe('network');
    expect(error?.message).toContain(new URL(sandbox().url).host);
  });

  it('unknown fields and enum values are shown as they are, never a crash', async () => {
    // The reference recording of the real service, plus a future destination type and status.
    const answer = {
      eventStreams: [
        { id: 'est_tDC5h6Ywj37t8HDZWgu2hp', name: 'future', status: 'paused', subscriptions: [{ event_type: 'user.merged' }], destination: { type: 'queue', configuration: { queue_url: 'https://q.example.com/1' } }, created_at: '2025-07-26T05:34:09.261Z', extra: { nested: true } },
        { id: 'est_71tv5N87Pp6qDnynqDCJ7m', name: 'eventbus-example', status: 'enabled', subscriptions: [{ event_type: 'user.created' }], created_at: '2025-07-29T04:20:27.246Z', updated_at: '2025-07-29T04:20:27.246Z', destination: { type: 'eventbus', configuration: { cloud_region: 'us-east-2', cloud_account_id: '242109005777' } } },
      ],
      cursorInfo: 'kept',
    };
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 200, body: JSON.stringify(answer), headers: { 'content-type': 'application/json' } });
    const { stdout } = await list();
    expect(stdout).toBe(
      'est_tDC5h6Ywj37t8HDZWgu2hp\tfuture\tpaused\tqueue https://q.example.com/1\tuser.merged\t2025-07-26T05:34:09.261Z\n' +
        'est_71tv5N87Pp6qDnynqDCJ7m\teventbus-example\tenabled\teventbus us-east-2 (242109005777)\tuser.created\t2025-07-29T04:20:27.246Z\n',
    );
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 200, body: JSON.stringify(answer), headers: { 'content-type': 'application/json' } });
    expect(JSON.parse((await list({}, { json: true })).stdout)).toEqual(answer);
  });

  it('an entry that is not an object (a number, a string, a list) is shown as it is in the ID column, never a crash', async () => {
    const answer = { eventStreams: [42, 'est_plain', ['est_in_a_list']] };
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 200, body: JSON.stringify(answer), headers: { 'content-type': 'application/json' } });
    const { stdout, error } = await list();
    expect(error).toBeUndefined();
    expect(stdout.split('\n').map((line) => line.split('\t')[0])).toEqual(['42', 'est_plain', '["est_in_a_list"]', '']);
  });
});

describe('idm streams list --all at a terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ streams: 250 }); // and the 6 demo streams: 3 pages of 100
  });
  afterAll(() => h.close());

  it.each([80, 200])('at %i columns: one header, one line per stream, none longer than the terminal', async (columns) => {
    const result = await h.idm(['streams', 'list', '--all'], { env: { ...TTY_OUT, COLUMNS: String(columns) } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => /^ID\s+NAME\s+STATUS\s+/.test(line))).toHaveLength(1);
    expect(lines).toHaveLength(1 + 256);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
    expect(lines.slice(1).every((line) => /^est_\w{22}  /.test(line))).toBe(true);
    expect(result.stdout).not.toMatch(/[│┌─]/);
    if (columns === 200) expect(result.stdout).toMatch(/\s127\.0\.0\.1:\d+\/inbox\/demo-bearer\s/); // a webhook as host and path
    else expect(result.stdout).toContain('…');
    expect(h.calls('GET').filter((call) => call.path === '/api/v2/event-streams').length).toBeGreaterThanOrEqual(3);
  });

  it.each([50, 45, 42])('at %i columns: ID, NAME and STATUS stay (enabled or disabled matters most); DESTINATION gives way first, then the names are cut down to NAME', async (columns) => {
    const result = await h.idm(['streams', 'list', '--take', '10'], { env: { ...TTY_OUT, COLUMNS: String(columns) } });
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+STATUS$/);
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row).toMatch(/^est_\w{22}  \S+\s+(enabled|disabled)$/);
      expect([...row].length).toBeLessThanOrEqual(columns);
    }
  });
});

describe('idm streams list --all against cursors that go round', () => {
  it('stops with exit 1 when the server returns a cursor it returned before (A, B, A)', async () => {
    const stream = (id: string) => ({ id, name: id, status: 'enabled', subscriptions: [], destination: { type: 'action', configuration: { action_id: 'a' } } });
    const pages: Record<string, { eventStreams: unknown[]; next?: string }> = {
      '': { eventStreams: [stream('est_page0000000000000000001')], next: 'A' },
      A: { eventStreams: [stream('est_page0000000000000000002')], next: 'B' },
      B: { eventStreams: [stream('est_page0000000000000000003')], next: 'A' },
    };
    const server = await fakeServer((request, res) => {
      if (request.url.startsWith('/oauth/token')) return json(res, 200, tokenAnswer(1));
      const from = new URL(request.url, 'http://x').searchParams.get('from') ?? '';
      json(res, 200, pages[from] ?? { eventStreams: [] });
    });
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runInProcess(['streams', 'list', '--all'], { configDir: dir, env: credentialsEnv(server.url, { clientId: 'client', clientSecret: 'not-a-real-secret' }) });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('the server returned a cursor twice');
      const lists = server.seen.filter((request) => request.url.startsWith('/api/v2/event-streams'));
      expect(lists.map((request) => new URL(request.url, 'http://x').searchParams.get('from'))).toEqual([null, 'A', 'B']);
    } finally {
      cleanup();
      await server.close();
    }
  });
});
