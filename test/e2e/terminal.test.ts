// What a person sees in a real terminal (tmux): list tables at 60, 80, 120 and 200 columns (no row
// wraps, every id whole), prompts without colour under --no-color, a countdown that leaves nothing
// behind where its text would wrap, and a spinner on a stalled request that is gone once it ends.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { hostileServer, tokenBody } from '../helpers/hostile-server.js';
import { credentialsEnv, runInProcess, spawnIdm } from '../helpers/cli.js';
import { hasTmux, STOPPED, Terminal, WAIT_MS } from '../helpers/tmux.js';

// CI installs tmux (.ci/run); elsewhere, without tmux these tests are skipped rather than failed.
const run = hasTmux || Boolean(process.env.CI);
const ID = /^(est_[A-Za-z0-9]{22}|evt_[A-Za-z0-9]{22}|con_[A-Za-z0-9]{16}) /;

interface WideSeed {
  clients: Record<'admin' | 'reader', { clientId: string }>;
  streams: Array<{ id: string; name: string }>;
  connections: Array<{ id: string; provisioning?: unknown; synchronizedGroups?: Array<{ id: string }> }>;
}

/** No row of the screen wrapped: joined (capture-pane -J), the screen has as many lines as rows. */
function unwrapped(t: Terminal): boolean {
  return t.screen().replace(/\n+$/, '').split('\n').length === t.rows().length;
}

/** `start()` run with CI=true in this process's environment. */
function withCI<T>(start: () => T): T {
  const ci = process.env.CI;
  process.env.CI = 'true';
  try {
    return start();
  } finally {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  }
}

let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
});

function open(h: Harness, args: string[], options: { columns?: number; color?: boolean; env?: Record<string, string> } = {}): Terminal {
  terminal = Terminal.start(args, { configDir: h.configDir, env: { ...credentialsEnv(h.sandbox), ...options.env }, columns: options.columns, color: options.color });
  return terminal;
}

describe.skipIf(!run)('list tables in a real terminal', () => {
  // Long values, so that 120 and 200 columns have something to fit too: a 75-character stream name,
  // 120-character webhook URLs, CJK names (two columns a character), 32-character client ids.
  const seed = JSON.parse(readFileSync(new URL('./wide-seed.json', import.meta.url), 'utf8')) as WideSeed;
  const streams = seed.streams.map((stream) => stream.id);
  const closed = streams.find((id) => id.includes('ClosedPort'))!;
  const connections = seed.connections.map((connection) => connection.id);
  const configured = seed.connections.find((connection) => connection.provisioning)!;
  let h: Harness;
  let eventId: string;
  beforeAll(async () => {
    h = await startHarness({ seed, delivery: 'sync' });
    // A failed delivery, so that the deliveries table has a row and the stats a count.
    const test = await h.idm(['streams', 'test', closed, '--event-type', 'user.created', '--json']);
    expect(test.code).toBe(3);
    eventId = JSON.parse(test.stdout).id;
    // Profiles (the default first, then by name), one with a long name, each with a 32-character client id.
    const file = (name: string, text: string) => {
      writeFileSync(join(h.configDir, name), text, { mode: 0o600 });
      return join(h.configDir, name);
    };
    const { admin, reader } = h.sandbox.clients;
    for (const args of [
      ['--profile', 'production-eu-west', '--client-id', admin.clientId, '--client-secret-file', file('admin.secret', admin.clientSecret)],
      ['--profile', 'ro', '--client-id', reader.clientId, '--client-secret-file', file('reader.secret', reader.clientSecret), '--auth-method', 'basic'],
      ['--profile', 'jwt-admin', '--client-id', admin.clientId, '--private-key-file', file('admin.pem', admin.privateKeyPem)],
    ]) {
      const login = await runInProcess(['login', '--domain', h.sandbox.url, ...args], { configDir: h.configDir });
      expect(login.code, login.stderr).toBe(0);
    }
    for (const name of ['admin.secret', 'reader.secret', 'admin.pem']) rmSync(join(h.configDir, name));
  });
  afterAll(() => h.close());

  /** Each table, and the id each of its rows holds whole, in order. */
  const TABLES: Array<[string, string[], () => string[]]> = [
    ['streams list', ['streams', 'list'], () => streams],
    ['streams deliveries list', ['streams', 'deliveries', 'list', closed], () => [eventId]],
    ['connections list', ['connections', 'list'], () => connections],
    ['provisioning list', ['provisioning', 'list'], () => [configured.id]],
    // The service lists the groups in id order (sandbox: as recorded), not in the seed's.
    ['provisioning groups list', ['provisioning', 'groups', 'list', configured.id], () => configured.synchronizedGroups!.map((group) => group.id).sort()],
    ['profiles list', ['profiles', 'list'], () => [seed.clients.admin.clientId, seed.clients.admin.clientId, seed.clients.reader.clientId]],
  ];

  for (const columns of [60, 80, 120, 200]) {
    it.each(TABLES)(`%s at ${columns} columns: a header and one row per record, none wider than the terminal, every id whole`, async (_name, args, ids) => {
      const t = open(h, args, { columns });
      expect(await t.exitCode()).toBe(0);
      const rows = t.rows().filter((row) => row.trim() !== '');
      expect(unwrapped(t), rows.join('\n')).toBe(true);
      expect(rows[0]).toMatch(/^[A-Z][A-Z ]*[A-Z]$/); // the header, none of it cut
      const records = rows.slice(1);
      expect(records, rows.join('\n')).toHaveLength(ids().length); // a wrapped row would be two
      records.forEach((row, i) => {
        expect(row, row).toMatch(new RegExp(`(^|\\s)${ids()[i]}(\\s|$)`));
        expect(displayWidth(row)).toBeLessThanOrEqual(columns);
      });
    });

    it(`streams stats at ${columns} columns: no line wider than the terminal, the stream's name cut only where it must be`, async () => {
      const stream = seed.streams.find((s) => s.id === closed)!;
      const t = open(h, ['streams', 'stats', closed], { columns });
      expect(await t.exitCode()).toBe(0);
      const rows = t.rows();
      expect(unwrapped(t), rows.join('\n')).toBe(true);
      for (const row of rows) expect(displayWidth(row), row).toBeLessThanOrEqual(columns);
      const title = rows[0]!.split(/ {2}/)[0]!;
      if (columns >= 200) expect(title).toBe(stream.name);
      else expect(stream.name.startsWith(title.replace(/…$/, ''))).toBe(true);
      expect(rows.find((row) => row.startsWith('Total'))).toMatch(/^Total\s+0\s+4\s+\(0% delivered\)$/);
    });
  }

  it('profiles list at 80 columns: a domain cut to fit loses its http:// first (a … in its place), never its host or port', async () => {
    const t = open(h, ['profiles', 'list'], { columns: 80 });
    expect(await t.exitCode()).toBe(0);
    const [header, ...records] = t.rows().filter((row) => row.trim() !== '');
    const [from, to] = [header!.indexOf('DOMAIN'), header!.indexOf('CLIENT')];
    expect(records).toHaveLength(3);
    for (const row of records) expect(row.slice(from, to).trim(), row).toMatch(/^(…|http:\/\/)?127\.0\.0\.1:\d+$/);
  });
});

describe.skipIf(!run)('records in a real terminal', () => {
  let h: Harness;
  const TYPES = ['group.created', 'group.deleted', 'group.member.added', 'group.member.deleted', 'organization.created', 'organization.deleted', 'user.created', 'user.deleted', 'user.updated'];
  let id: string;
  beforeAll(async () => {
    h = await startHarness();
    const created = await h.idm(['streams', 'create', '--name', 'many-types', '--event-type', TYPES.join(','), '--action', 'a-1', '--json']);
    expect(created.code, created.stderr).toBe(0);
    id = JSON.parse(created.stdout).id;
  });
  afterAll(() => h.close());

  it('streams show and auth status at 40 columns: an id, a timestamp or a scope too wide for the value column goes under its label, whole; a URL wider than a line is one line of its own, from the first column', async () => {
    const url = `https://events-ingest.eu-west-1.customer-warehouse.example/api/v2/hooks/${'x'.repeat(20)}`;
    const secret = join(h.configDir, 'webhook.secret');
    writeFileSync(secret, 'a-webhook-token-of-enough-length\n', { mode: 0o600 });
    const created = await h.idm(['streams', 'create', '--name', 'long-url', '--event-type', 'user.created', '--webhook', url, '--auth', 'bearer', '--secret-file', secret, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const longUrl = JSON.parse(created.stdout).id as string;
    rmSync(secret);

    const show = open(h, ['streams', 'show', longUrl], { columns: 40 });
    expect(await show.exitCode()).toBe(0);
    const rows = show.rows();
    // The id and the times under their labels, whole, indented by two; the URL from the first column.
    expect(rows.slice(rows.indexOf('ID'), rows.indexOf('ID') + 2)).toEqual(['ID', `  ${longUrl}`]);
    // The times fit beside the labels (13 columns of them): there, whole.
    expect(rows.filter((row) => /^(Created|Updated) +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(row))).toHaveLength(2);
    const label = rows.indexOf('Webhook URL');
    expect(label).toBeGreaterThan(0);
    // Wider than the terminal: the terminal wraps it, and copying it gives the URL without a break.
    const joined = show.screen().split('\n');
    expect(joined[joined.indexOf('Webhook URL') + 1]).toBe(url);
    show.close();

    const status = open(h, ['auth', 'status'], { columns: 40 });
    expect(await status.exitCode()).toBe(0);
    const lines = status.rows();
    expect(unwrapped(status), lines.join('\n')).toBe(true);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(40);
    const clientId = lines.indexOf('Client ID');
    expect(lines[clientId + 1]).toBe(`  ${h.sandbox.clients.admin.clientId}`);
    const scopes = lines.slice(lines.indexOf('Scopes') + 1).filter((line) => line.startsWith('  '));
    expect(scopes.join(' ').split(/\s+/).filter(Boolean)).toContain('create:directory_provisionings');
    expect(lines.join('\n')).toMatch(/\n {2}\S*\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/); // the token's expiry, whole
  });

  for (const columns of [60, 80]) {
    it(`streams show at ${columns} columns: a long value is broken between its words, its lines under the value column`, async () => {
      const t = open(h, ['streams', 'show', id], { columns });
      expect(await t.exitCode()).toBe(0);
      const rows = t.rows();
      expect(unwrapped(t), rows.join('\n')).toBe(true);
      for (const row of rows) expect(displayWidth(row), row).toBeLessThanOrEqual(columns);
      const first = rows.findIndex((row) => row.startsWith('Event types  '));
      const last = rows.findIndex((row) => row.startsWith('Created '));
      const lines = rows.slice(first, last);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.slice(1).every((line) => /^ {13}\S/.test(line)), lines.join('\n')).toBe(true);
      expect(lines.map((line) => line.slice(13)).join(' ')).toBe(TYPES.join(', '));
    });
  }
});

describe.skipIf(!run)('prompts in a real terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  /** SGR sequences other than a reset: colour or style. */
  const styled = (screen: string) => (screen.match(/\x1b\[(?!0?m)[0-9;]*m/g) ?? []).length;

  it('the login prompts are coloured at a colour terminal, and not with --no-color', async () => {
    const coloured = open(h, ['login'], { color: true, env: { IDM_DOMAIN: '', IDM_CLIENT_ID: '', IDM_CLIENT_SECRET: '' } });
    await coloured.waitFor('Tenant domain');
    expect(styled(coloured.styledScreen())).toBeGreaterThan(0);
    coloured.keys('C-c');
    expect(await coloured.exitCode()).toBe(130);
    coloured.close();

    const plain = open(h, ['login', '--no-color'], { color: true, env: { IDM_DOMAIN: '', IDM_CLIENT_ID: '', IDM_CLIENT_SECRET: '' } });
    await plain.waitFor('Tenant domain');
    plain.type('tenant.example.com');
    plain.keys('Enter');
    await plain.waitFor('Client ID');
    expect(styled(plain.styledScreen())).toBe(0);
    plain.keys('C-c');
    expect(await plain.exitCode()).toBe(130);
  });

  it('Ctrl-C at a list erases its choices and keys\' help, and leaves the question, cancelled, on one line; the cursor shown', async () => {
    h.mark();
    const t = open(h, ['streams', 'create', '--name', 'cancelled-at-list', '--event-type', 'user.created']);
    await t.waitFor('An event bus');
    t.keys('Down');
    await t.waitFor('❯ An event bus');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    const rows = t.rows().filter((row) => row.trim() !== '');
    expect(rows).toEqual(['✖ Where do the events go? (cancelled)', 'Error: Interrupted.']);
    expect(t.cursorShown()).toBe(true);
    expect(h.calls('POST')).toEqual([]);
  });

  it('Ctrl-Z at a list: the list is erased before idm stops, and once continued (fg) it is asked again and the run goes on (not ended as interrupted)', async () => {
    h.mark();
    terminal = Terminal.start(['streams', 'create', '--name', 'suspended-at-list', '--event-type', 'user.created'], {
      configDir: h.configDir,
      env: { ...credentialsEnv(h.sandbox), IDM_WEBHOOK_SECRET: 'suspended-token' },
      jobControl: true,
    });
    const t = terminal;
    await t.waitFor('An event bus');
    t.keys('C-z');
    const stopped = await t.waitFor(STOPPED);
    expect(stopped).not.toMatch(/Where do the events go|An event bus|navigate/);
    t.continueJob();
    await t.waitFor('↑↓ navigate');
    t.keys('Enter'); // a webhook
    await t.waitFor('Webhook URL');
    t.type('https://hooks.example.com/suspended');
    t.keys('Enter');
    await t.waitFor('How does the webhook authenticate deliveries?');
    t.keys('Enter'); // bearer, its token IDM_WEBHOOK_SECRET's
    expect(await t.exitCode()).toBe(0);
    expect(h.calls('POST')).toHaveLength(1);
    expect(h.calls('POST')[0]!.json).toMatchObject({ name: 'suspended-at-list', destination: { type: 'webhook' } });
    expect(t.screen().match(/Where do the events go\?/g)).toHaveLength(1);
  });

  it('at 20 columns and 12 rows a list with its refusal and its keys\' help (four rows) still fits: each key redraws it in place, no copy of its question left above', async () => {
    h.mark();
    terminal = Terminal.start(['streams', 'create', '--name', 'narrow-list'], { configDir: h.configDir, env: credentialsEnv(h.sandbox), columns: 20, rows: 12 });
    const t = terminal;
    await t.waitFor('navigate');
    t.keys('Enter'); // nothing chosen: refused under the list
    await t.waitFor('must be selected');
    t.keys('Down');
    await t.waitFor(/❯◯ group\.deleted/);
    t.keys('Down');
    await t.waitFor(/❯◯ group\.member\.adde/);
    expect(t.screen().match(/\? Event types/g)).toHaveLength(1);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).not.toContain('group.');
    expect(h.calls('POST')).toEqual([]);
  });

  it('Escape at a list cancels as Ctrl-C does, and the keys\' help says so', async () => {
    h.mark();
    const t = open(h, ['streams', 'create', '--name', 'escaped-at-list', '--event-type', 'user.created']);
    await t.waitFor('↑↓ navigate • ⏎ select • esc cancel');
    t.keys('Down');
    await t.waitFor('❯ An event bus');
    t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
    const rows = t.rows().filter((row) => row.trim() !== '');
    expect(rows).toEqual(['✖ Where do the events go? (cancelled)', 'Error: Interrupted.']);
    expect(t.cursorShown()).toBe(true);
    expect(h.calls('POST')).toEqual([]);
  });
});

describe.skipIf(!run)('progress in a real terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  afterEach(() => h.sandbox.clearFaults());

  it('a rate-limit countdown too long for 60 columns is cut to fit, and nothing of it is left on the screen', async () => {
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, count: 1, headers: { 'retry-after': '4' } });
    const t = open(h, ['streams', 'list'], { columns: 60 });
    // The rows of the capture that shows the countdown: it lasts 4 s, which a second capture, after
    // one that found it, may come too late for on a loaded machine.
    let during: string[] = [];
    await vi.waitFor(() => {
      during = t.rows().filter((row) => row.includes('Rate limited'));
      expect(during.length, 'the countdown on screen').toBeGreaterThan(0);
    }, { timeout: WAIT_MS, interval: 50 });
    expect(during).toHaveLength(1); // one row: it did not wrap
    expect([...during[0]!].length).toBeLessThan(60);
    expect(during[0]).toMatch(/…$/);
    expect(await t.exitCode()).toBe(0);
    const rows = t.rows();
    expect(rows.join('\n')).not.toMatch(/Rate limited|trying again|Ctrl-C/);
    expect(rows.filter((row) => ID.test(row))).toHaveLength(6);
  });

  it('a stalled request shows a spinner and what it waits for; once answered, the line is gone (CI=true here never reaches the terminal)', async () => {
    const server = await hostileServer((request) => (request.url.startsWith('/api/v2/event-streams') ? 'stall' : { body: tokenBody() }));
    try {
      // As in CI: CI=true in this process, which tmux hands to the terminal's shell unless unset there.
      terminal = withCI(() => Terminal.start(['streams', 'list'], { configDir: h.configDir, env: server.env(h.configDir) as Record<string, string>, columns: 80 }));
      await terminal.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] List event streams…/);
      server.release({ body: { eventStreams: [] } });
      expect(await terminal.exitCode()).toBe(0);
      expect(terminal.screen()).not.toContain('List event streams…');
    } finally {
      await server.close();
    }
  });

  it('--debug while a spinner shows: the answer\'s trace is written above the spinner, not after it on its line, and nothing of it is left', async () => {
    const server = await hostileServer((request) => (request.url.startsWith('/api/v2/event-streams') ? 'stall' : { body: tokenBody() }));
    try {
      terminal = Terminal.start(['streams', 'list', '--debug'], { configDir: h.configDir, env: server.env(h.configDir) as Record<string, string>, columns: 80 });
      await terminal.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] List event streams…/);
      server.release({ body: { eventStreams: [] } });
      expect(await terminal.exitCode()).toBe(0);
      const rows = terminal.rows();
      expect(rows.filter((row) => row.startsWith('< 200'))).toHaveLength(2); // the token, then the list
      expect(rows.join('\n')).not.toContain('List event streams…');
    } finally {
      await server.close();
    }
  });

  it('piped, there is no spinner: a request that stalls past the spinner\'s delay leaves only its error on stderr', async () => {
    const server = await hostileServer((request) => (request.url.startsWith('/api/v2/event-streams') ? 'stall' : { body: tokenBody() }));
    try {
      // The spinner's delay (a third of a second) and --timeout (1 s) both run on idm's own clock, from
      // the start of the request, the spinner's first: at a terminal it would show before the timeout,
      // however busy the machine. No sleep here, and nothing waited for but idm's exit.
      // A ready token: the one request is the stalled list (a token request cannot meet the timeout).
      const env = { ...server.env(h.configDir), IDM_ACCESS_TOKEN: tokenBody().access_token as string };
      const { child, done } = spawnIdm(['streams', 'list', '--timeout', '1', '--max-wait', '0.001'], { configDir: h.configDir, env });
      let stderr = ''; // as it comes: spawnIdm's result has the spinner taken out
      child.stderr.on('data', (chunk: string) => (stderr += chunk));
      const result = await done;
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      // The server is in this process: a loaded machine may have it read the stalled request only after idm gave up.
      await vi.waitFor(() => expect(server.stalledCount()).toBeGreaterThan(0), { timeout: 30_000 });
      expect(stderr).toMatch(/(^|\n)Error: Could not list event streams: 127\.0\.0\.1:\d+ did not answer within 1 s\.\n/);
      expect(stderr).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏\r\x1b]/);
    } finally {
      await server.close();
    }
  });
});
