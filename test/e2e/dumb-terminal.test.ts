// The prompts at TERM=dumb (Emacs's M-x shell, consoles with a terminal but no cursor control), in a
// real pseudo-terminal (tmux) whose every byte from idm is recorded: no escape sequence at all (such
// a terminal shows them as text), plain questions answered by a line (a list by its number), a secret
// not echoed, and Ctrl-C / the input's end still stopping with exit 130.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv, tempConfigDir } from '../helpers/cli.js';
import { connectionsSeed, gappsId, startHarness, type Harness } from '../helpers/harness.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

const run = hasTmux || Boolean(process.env.CI);
const ESC = /\x1b/;

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

describe.skipIf(!run)('prompts at TERM=dumb', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: connectionsSeed(2) });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  function open(args: string[], options: { env?: Record<string, string>; configDir?: string } = {}): Terminal {
    const t = Terminal.start(args, { configDir: options.configDir ?? h.configDir, env: options.env ?? credentialsEnv(h.sandbox), term: 'dumb', record: true });
    cleanups.push(() => t.close());
    return t;
  }
  function login(): { t: Terminal; dir: string } {
    const { dir, cleanup } = tempConfigDir();
    cleanups.push(cleanup);
    return { t: open(['login'], { env: {}, configDir: dir }), dir };
  }

  it('login: domain and client id as lines, the method by its number (a wrong one asked again), the secret not echoed', async () => {
    const { t, dir } = login();
    const { clientId, clientSecret } = h.sandbox.clients.admin;
    await t.waitFor('? Tenant domain (host or https:// URL)');
    t.type(h.sandbox.url);
    t.keys('Enter');
    await t.waitFor('? Client ID');
    t.type(clientId);
    t.keys('Enter');
    const list = await t.waitFor('Choose 1-3 (1):'); // tls_client_auth shown, not numbered: the sandbox is plain HTTP
    expect(list).toContain('  2) Client secret, sent as HTTP Basic (basic)');
    t.type('7');
    t.keys('Enter');
    await t.waitFor('> Enter a number from 1 to 3.');
    t.type('2');
    t.keys('Enter');
    await t.waitFor('? Client secret (not shown as typed)');
    t.type(`${clientSecret.slice(0, 3)}\t`);
    t.keys('Left', 'C-z'); // keys that type no text (an arrow's escape sequence, Tab, Ctrl-Z) add none to it
    t.type(`${clientSecret.slice(3)}x`);
    t.keys('BSpace'); // the terminal's erase, read as such
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const raw = await t.raw();
    expect(raw).not.toMatch(ESC);
    expect(raw).not.toContain(clientSecret.slice(0, 8));
    expect(raw).not.toContain('*');
    expect(t.screen()).toMatch(/Logged in to 127\.0\.0\.1:\d+ as client \w+ \(profile "default", the default; basic\)/);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default).toEqual({ domain: h.sandbox.url, clientId, authMethod: 'basic' });
  });

  // A refused answer left the rest of a paste to answer the question again: a private key pasted at
  // the secret prompt had its first line refused (9af3e1b), then its next line, base64 long enough for
  // a secret, was sent to the token endpoint as the secret, and the line after it at the 'try again'.
  it('a private key pasted at the secret prompt: refused, and none of its lines is sent as the secret; the secret typed then logs in', async () => {
    const { t } = login();
    const { clientId, clientSecret, privateKeyPem } = h.sandbox.clients.admin;
    await t.waitFor('? Tenant domain (host or https:// URL)');
    t.type(h.sandbox.url);
    t.keys('Enter');
    await t.waitFor('? Client ID');
    t.type(clientId);
    t.keys('Enter');
    await t.waitFor('Choose 1-3 (1):');
    t.keys('Enter');
    await t.waitFor('? Client secret (not shown as typed)');
    t.type(privateKeyPem); // pasted: its lines end in line feeds
    await t.waitFor('> That is a PEM key or certificate, not a client secret.');
    t.type(clientSecret);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(h.received().filter((request) => request.path === '/oauth/token')).toHaveLength(1); // the secret's, which logged in
    expect(t.screen()).not.toContain('try again');
  });

  it('login at 80 columns: why tls_client_auth cannot be chosen fits its line beside the indent and the parentheses (it filled all 80 columns)', async () => {
    const { dir, cleanup } = tempConfigDir();
    cleanups.push(cleanup);
    const t = Terminal.start(['login'], { configDir: dir, env: {}, term: 'dumb', columns: 80 });
    cleanups.push(() => t.close());
    await t.waitFor('? Tenant domain (host or https:// URL)');
    t.type(h.sandbox.url);
    t.keys('Enter');
    await t.waitFor('? Client ID');
    t.type(h.sandbox.clients.admin.clientId);
    t.keys('Enter');
    await t.waitFor('Choose 1-3 (1):');
    const row = t.rows().find((line) => line.includes('(tls_client_auth)'))!;
    expect(row).toBe('     Client certificate: mutual TLS (tls_client_auth) (needs https://)');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });

  it('streams create: the name, event types as numbers (a checklist), the destination and region by number', async () => {
    const t = open(['streams', 'create']);
    await t.waitFor('? Stream name');
    t.type('from-a-dumb-terminal');
    t.keys('Enter');
    await t.waitFor(/Choose one or more of 1-\d+, separated by spaces:/);
    t.type('1 2');
    t.keys('Enter');
    await t.waitFor('? Where do the events go?');
    await t.waitFor(/Choose 1-\d \(1\):/);
    t.type('2'); // an event bus
    t.keys('Enter');
    await t.waitFor('Account id');
    t.type('123456789012');
    t.keys('Enter');
    await t.waitFor('Region');
    await t.waitFor(/Choose 1-\d+ \(1\):/, 2);
    t.type('2');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(await t.raw()).not.toMatch(ESC);
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({
      name: 'from-a-dumb-terminal',
      subscriptions: [{ event_type: 'group.created' }, { event_type: 'group.deleted' }],
      destination: { type: 'eventbus', configuration: { cloud_account_id: '123456789012' } },
    });
  });

  it('answers pasted ahead, several lines at once, answer the questions that follow in turn', async () => {
    const t = open(['streams', 'create']);
    await t.waitFor('? Stream name');
    t.type('pasted-answers\n3\n2\n210987654321\n1\n'); // name, an event type, an event bus, its account and region
    expect(await t.exitCode()).toBe(0);
    expect(await t.raw()).not.toMatch(ESC);
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({
      name: 'pasted-answers',
      subscriptions: [{ event_type: 'group.member.added' }],
      destination: { type: 'eventbus', configuration: { cloud_account_id: '210987654321' } },
    });
  });

  it('the provisioning wizard: lists by number (Enter takes the default), yes/no questions, a configured connection not numbered', async () => {
    const t = open(['provisioning', 'create']);
    const list = await t.waitFor('? Connection to set up');
    expect(list).toMatch(new RegExp(`1\\) google-1\\s+${gappsId(1)}`));
    expect(list).toMatch(/^ {4,}google-taken .*\(configured already/m);
    await t.waitFor('Choose 1-2 (1):');
    t.keys('Enter');
    await t.waitFor('What next?');
    t.keys('Enter'); // continue with the strategy's default
    await t.waitFor('? Synchronize users automatically (every 30 minutes)? (y/N)');
    t.type('maybe');
    t.keys('Enter');
    await t.waitFor('> Answer y or n.');
    t.type('yes');
    t.keys('Enter');
    await t.waitFor('off - users only, no groups');
    t.type('3');
    t.keys('Enter');
    await t.waitFor(`? Create directory provisioning for ${gappsId(1)}? (Y/n)`);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(await t.raw()).not.toMatch(ESC);
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toEqual({ synchronize_automatically: true, synchronize_groups: 'selected' });
  });

  it('Ctrl-C at a question, or at the secret (echo off), stops with exit 130, the error on a line of its own', async () => {
    const first = login().t;
    await first.waitFor('? Tenant domain');
    first.type('half-typed');
    first.keys('C-c');
    expect(await first.exitCode()).toBe(130);
    expect(first.screen()).toMatch(/^Error: Interrupted\.$/m);
    expect(await first.raw()).not.toMatch(ESC);

    const t = open(['streams', 'create', '--name', 'n', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/e', '--auth', 'bearer']);
    await t.waitFor('Webhook token');
    t.type('half-a-token');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toMatch(/^Error: Interrupted\.$/m);
    const raw = await t.raw();
    expect(raw).not.toMatch(ESC);
    expect(raw).not.toContain('half-a-token');
    expect(h.calls('POST')).toEqual([]);
  });

  it('with --json, Ctrl-C at a question: the error object starts a line of its own', async () => {
    const t = open(['streams', 'create', '--json']);
    await t.waitFor('? Stream name');
    t.type('half');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toMatch(/^\{"error":\{"code":"interrupted"/m);
    expect(await t.raw()).not.toMatch(ESC);
  });

  it('Ctrl-C during a wait (no prompt): the error starts a line of its own, after the ^C the terminal echoed', async () => {
    // A wait far longer than any test: it is Ctrl-C that ends it.
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, count: 1, headers: { 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 3000) } });
    const t = open(['streams', 'list', '--max-wait', '3600']);
    await t.waitFor('Rate limited (429)');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toMatch(/^\^C\nError: Interrupted\.$/m);
    expect(await t.raw()).not.toMatch(ESC);
  });

  it('the input ending (Ctrl-D) at a question cancels: exit 130, nothing sent', async () => {
    const t = open(['streams', 'create']);
    await t.waitFor('? Stream name');
    t.keys('C-d');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toMatch(/^Error: Cancelled: the input ended before an answer\.$/m);
    expect(await t.raw()).not.toMatch(ESC);
    expect(h.calls('POST')).toEqual([]);
  });
});

describe.skipIf(!run)('the connection list at TERM=dumb, long names', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      seed: {
        connections: [
          { id: gappsId(1), name: `google-workspace-${'x'.repeat(60)}`, strategy: 'google-apps' },
          { id: 'con_takenTaken000001', name: `google-workspace-${'y'.repeat(60)}`, strategy: 'google-apps', provisioning: {} },
        ],
      },
    });
  });
  afterAll(() => h.close());

  // The names were cut for the other prompts' lines (a two-column cursor, `why` after a space): with
  // the number before them, and why in parentheses, each line was wider than the terminal.
  it('at 80 columns each connection is one line: its name cut to the room left by the number (or its indent) and ` (why)`', async () => {
    const t = Terminal.start(['provisioning', 'create'], { configDir: h.configDir, env: credentialsEnv(h.sandbox), term: 'dumb', columns: 80 });
    cleanups.push(() => t.close());
    await t.waitFor('Choose 1-1 (1):');
    const rows = t.rows();
    const at = rows.findIndex((row) => row.startsWith('? Connection to set up'));
    expect(rows[at + 1]).toMatch(new RegExp(`^  1\\) google-workspace-x+…  ${gappsId(1)}  \\(google-apps\\)$`));
    expect(rows[at + 2]).toMatch(/^ {5}google-work\S*…  con_takenTaken000001  \(google-apps\) \(configured already\)$/);
    expect(rows[at + 3]).toBe('Choose 1-1 (1):');
    for (const row of rows.slice(at + 1, at + 3)) expect(row.length, row).toBeLessThan(80);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });
});
