// What a person sees in a real terminal (tmux): list tables at 60, 80, 120 and 200 columns (no row
// wraps, every id whole), prompts without colour under --no-color, a countdown that leaves nothing
// behind where its text would wrap, and a spinner on a stalled request that is gone once it ends.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { hostileServer, tokenBody } from '../helpers/hostile-server.js';
import { credentialsEnv, spawnIdm } from '../helpers/cli.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

// CI installs tmux (.ci/run); elsewhere, without tmux these tests are skipped rather than failed.
const run = hasTmux || Boolean(process.env.CI);
const CLOSED = 'est_demoClosedPort00000000';
const ID = /^(est_[A-Za-z0-9]{22}|evt_[A-Za-z0-9]{22}|con_[A-Za-z0-9]{16}) /;

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
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ delivery: 'sync' });
    // A failed delivery, so that the deliveries table has a row.
    expect((await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created'])).code).toBe(3);
  });
  afterAll(() => h.close());

  const TABLES: Array<[string, string[], number]> = [
    ['streams list', ['streams', 'list'], 6],
    ['streams deliveries list', ['streams', 'deliveries', 'list', CLOSED], 1],
    ['connections list', ['connections', 'list'], 5],
    ['provisioning list', ['provisioning', 'list'], 2],
  ];

  for (const columns of [60, 80, 120, 200]) {
    it.each(TABLES)(`%s at ${columns} columns: a header and one row per record, none wider than the terminal, every id whole`, async (_name, args, count) => {
      const t = open(h, args, { columns });
      expect(await t.exitCode()).toBe(0);
      const rows = t.rows().filter((row) => row.trim() !== '');
      expect(rows[0]).toMatch(/^[A-Z][A-Z ]*[A-Z]$/); // the header, none of it cut
      const records = rows.slice(1);
      expect(records, rows.join('\n')).toHaveLength(count); // a wrapped row would be two
      for (const row of records) {
        expect(row, row).toMatch(ID);
        expect([...row].length).toBeLessThanOrEqual(columns);
      }
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
    await t.waitFor('Rate limited (429)');
    const during = t.rows().filter((row) => row.includes('Rate limited'));
    expect(during).toHaveLength(1); // one row: it did not wrap
    expect([...during[0]!].length).toBeLessThan(60);
    expect(during[0]).toMatch(/…$/);
    expect(await t.exitCode()).toBe(0);
    const rows = t.rows();
    expect(rows.join('\n')).not.toMatch(/Rate limited|trying again|Ctrl-C/);
    expect(rows.filter((row) => ID.test(row))).toHaveLength(6);
  });

  it('a stalled request shows a spinner and what it waits for; once answered, the line is gone', async () => {
    const server = await hostileServer((request) => (request.url.startsWith('/api/v2/event-streams') ? 'stall' : { body: tokenBody() }));
    try {
      terminal = Terminal.start(['streams', 'list'], { configDir: h.configDir, env: server.env(h.configDir) as Record<string, string>, columns: 80 });
      await terminal.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] List event streams…/);
      server.release({ body: { eventStreams: [] } });
      expect(await terminal.exitCode()).toBe(0);
      expect(terminal.screen()).not.toContain('List event streams…');
    } finally {
      await server.close();
    }
  });

  it('piped, there is no spinner: stderr stays empty while waiting', async () => {
    const server = await hostileServer((request) => (request.url.startsWith('/api/v2/event-streams') ? 'stall' : { body: tokenBody() }));
    try {
      const { child, done } = spawnIdm(['streams', 'list'], { configDir: h.configDir, env: server.env(h.configDir) });
      for (let i = 0; i < 600 && server.stalledCount() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      let stderr = '';
      child.stderr.on('data', (chunk: string) => (stderr += chunk));
      await new Promise((resolve) => setTimeout(resolve, 500)); // longer than the spinner's delay
      server.release({ body: { eventStreams: [] } });
      const result = await done;
      expect(result.code).toBe(0);
      expect(stderr).toBe('');
      expect(result.stderr).toBe('');
    } finally {
      await server.close();
    }
  });
});
