// The prompts of streams create and delete, and profiles remove, in a real pseudo-terminal (tmux):
// what is asked, the keys pressed, and what the sandbox (or the settings) received.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv } from '../helpers/cli.js';
import { ageCachedTokens, missingScope, startHarness, type Harness } from '../helpers/harness.js';
import { hostileServer, tempDir } from '../helpers/hostile-server.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

const run = hasTmux || Boolean(process.env.CI);

let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
});

describe.skipIf(!run)('streams create and delete at a terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  function open(args: string[]): Terminal {
    terminal = Terminal.start(args, { configDir: h.configDir, env: credentialsEnv(h.sandbox) });
    return terminal;
  }

  it('create asks for the name, the event types (a checklist), the destination and the region (lists), then creates', async () => {
    const t = open(['streams', 'create']);
    await t.waitFor('Stream name');
    t.type('from-the-prompts');
    t.keys('Enter');
    await t.waitFor('Event types');
    t.keys('Space'); // group.created, the first
    t.keys('Down');
    t.keys('Space'); // group.deleted
    t.keys('Enter');
    await t.waitFor('Where do the events go?');
    t.keys('Down'); // an event bus
    t.keys('Enter');
    await t.waitFor('Account id');
    t.type('123456789012');
    t.keys('Enter');
    await t.waitFor('Region');
    t.keys('Down');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({
      name: 'from-the-prompts',
      subscriptions: [{ event_type: 'group.created' }, { event_type: 'group.deleted' }],
      destination: { type: 'eventbus', configuration: { cloud_account_id: '123456789012' } },
    });
    expect(t.screen()).toMatch(/Name\s+from-the-prompts/);
  });

  it('at 80 columns the event types chosen are said on the question\'s row: every one while they fit, else the first ones and how many more (not 22 names over seven rows)', async () => {
    terminal = Terminal.start(['streams', 'create'], { configDir: h.configDir, env: credentialsEnv(h.sandbox), columns: 80 });
    const t = terminal;
    await t.waitFor('Stream name');
    t.type('all-types');
    t.keys('Enter');
    await t.waitFor('Event types');
    t.keys('a'); // every type
    t.keys('Enter');
    await t.waitFor('Where do the events go?');
    const rows = t.rows();
    const at = rows.findIndex((row) => row.startsWith('✔ Event types'));
    expect(rows[at]).toBe('✔ Event types group.created, group.deleted, group.member.added and 19 more');
    expect(rows[at + 1]).toBe('? Where do the events go?');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('POST')).toHaveLength(0);
  });

  it('update at 80 columns: all three parts chosen are said in short on the question\'s row, not wrapped', async () => {
    terminal = Terminal.start(['streams', 'update', 'est_demoInboxBasic00000000'], { configDir: h.configDir, env: credentialsEnv(h.sandbox), columns: 80 });
    const t = terminal;
    await t.waitFor('What to change in stream');
    t.keys('a', 'Enter'); // name, event types and destination
    await t.waitFor('Stream name');
    const rows = t.rows();
    const at = rows.findIndex((row) => row.startsWith('✔ What to change'));
    expect(rows[at]).toBe('✔ What to change in stream est_demoInboxBasic00000000? name, types, destination');
    expect(rows[at + 1]).toMatch(/^\? Stream name/);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('PATCH')).toHaveLength(0);
  });

  it("an account id as the cloud console shows it (1234-5678-9012) is taken at the prompt and from --eventbus-account, and sent as its 12 digits", async () => {
    const t = open(['streams', 'create', '--name', 'bus-dashed', '--event-type', 'user.created', '--eventbus-region', 'us-east-1']);
    await t.waitFor('Account id');
    t.type('1234-5678-9012');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).not.toContain('An account id is exactly 12 digits.');
    const flagged = await h.idm(['streams', 'create', '--name', 'bus-dashed-flag', '--event-type', 'user.created', '--eventbus-region', 'us-east-1', '--eventbus-account', '2234 5678 9012']);
    expect(flagged.code, flagged.stderr).toBe(0);
    const posts = h.calls('POST');
    expect(posts.map((post) => (post.json as { destination: { configuration: { cloud_account_id: string } } }).destination.configuration.cloud_account_id)).toEqual(['123456789012', '223456789012']);
  });

  it('a webhook URL with a password typed at its prompt is refused with what to answer next there, not with flags', async () => {
    const t = open(['streams', 'create', '--name', 'url-with-password', '--event-type', 'user.created']);
    await t.waitFor('Where do the events go?');
    t.keys('Enter');
    await t.waitFor('Webhook URL');
    t.type('https://u:p@hooks.example.com/x');
    t.keys('Enter');
    const screen = await t.waitFor('must not hold a user name or password, which the service would show to whoever reads the stream (choose basic authorization next, and give them there).');
    expect(screen).not.toContain('--secret-file');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('POST')).toEqual([]);
  });

  it('at 80 columns each answer of the destination questions is one row: the choice in short, not its whole description', async () => {
    terminal = Terminal.start(['streams', 'create', '--name', 'short-answers', '--event-type', 'user.created'], { configDir: h.configDir, env: credentialsEnv(h.sandbox), columns: 80 });
    const t = terminal;
    await t.waitFor('Where do the events go?');
    t.keys('Enter');
    await t.waitFor('Webhook URL');
    t.type('https://hooks.example.com/s');
    t.keys('Enter');
    await t.waitFor('How does the webhook authenticate deliveries?');
    t.keys('Enter');
    await t.waitFor('Webhook token');
    const rows = t.rows();
    expect(rows).toContain('✔ Where do the events go? a webhook');
    expect(rows).toContain('✔ How does the webhook authenticate deliveries? bearer');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('POST')).toEqual([]);
  });

  it('at a terminal, a secret taken from IDM_WEBHOOK_SECRET instead of asked is said (never shown), so a variable left set is not sent unnoticed', async () => {
    terminal = Terminal.start(['streams', 'create', '--name', 'secret-from-env', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/e', '--auth', 'bearer'], {
      configDir: h.configDir,
      env: { ...credentialsEnv(h.sandbox), IDM_WEBHOOK_SECRET: 'left-set-token' },
    });
    const t = terminal;
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    expect(screen).toContain("The webhook token is IDM_WEBHOOK_SECRET's (not asked); unset it to type one.");
    expect(screen).not.toContain('left-set-token');
    expect(h.calls('POST')[0]!.json).toMatchObject({ destination: { configuration: { webhook_authorization: { token: 'left-set-token' } } } });
  });

  it('a terminal made smaller while the event types show: the list shrinks to fit from the next key, its question and keys still on screen', async () => {
    const t = open(['streams', 'create']);
    await t.waitFor('Stream name');
    t.type('resized');
    t.keys('Enter');
    await t.waitFor('group.member.deleted'); // a page of 12 in 50 rows
    t.resize(200, 10); // room for 4 rows of the list
    for (let n = 0; n < 6; n++) t.keys('Down');
    t.keys('Space');
    await t.waitFor('❯◉ group.updated');
    const shown = t.visible();
    // The page, its question and the keys' help all on the 10 rows (with the 12 of before, the
    // question scrolled away and each key left a copy of the list above).
    expect(shown).toContain('? Event types');
    expect(shown).toContain('space select');
    expect(shown.match(/^.?[◯◉] /gm)).toHaveLength(4);
    t.keys('Enter');
    await t.waitFor('Where do the events go?');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('POST')).toEqual([]);
  });

  it("a blank stream name (Enter alone, or spaces) is asked for again, not answered with a length rule it does not break", async () => {
    // One terminal for each: a key typed while the prompt checks an answer is not the prompt's, so the
    // next keys wait for the refusal to show, and a second refusal in the same words would not.
    const enter = open(['streams', 'create']);
    await enter.waitFor('Stream name');
    enter.keys('Enter');
    await enter.waitFor("Enter the stream's name.");
    enter.keys('C-c');
    expect(await enter.exitCode()).toBe(130);
    enter.close();
    const t = open(['streams', 'create']);
    await t.waitFor('Stream name');
    t.type('   ');
    t.keys('Enter');
    await t.waitFor("Enter the stream's name.");
    t.type('x');
    await t.waitFor('Stream name    x'); // the spaces were kept in the line: refused, not taken
    expect(t.screen()).not.toContain('1 to 128 characters');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('POST')).toEqual([]);
  });

  it('a name another stream has is refused at the name prompt (asked again), and a taken --name before the first question, not by a 409 after the last answer', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'name-in-use', '--event-type', 'user.created', '--action', 'a-1', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'create']);
    await t.waitFor('Stream name');
    t.type('name-in-use');
    t.keys('Enter');
    await t.waitFor(`Stream ${id} has that name: choose another.`);
    expect(t.screen()).not.toContain('Event types');
    t.keys('C-u');
    t.type('name-free');
    t.keys('Enter');
    await t.waitFor('Event types');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('POST')).toEqual([]);
    t.close();

    const flagged = open(['streams', 'create', '--name', 'name-in-use', '--event-type', 'user.created']);
    expect(await flagged.exitCode()).toBe(2);
    const screen = flagged.screen();
    expect(screen).toContain(`Stream ${id} is named "name-in-use" already: stream names are unique in a tenant.`);
    expect(screen).toContain('Choose another --name.');
    expect(screen).not.toContain('Where do the events go?');
    expect(h.calls('POST')).toEqual([]);
  });

  it('a client that may not list streams (403) is still asked, and the create is sent: the service judges the name', async () => {
    h.sandbox.addFault({ kind: 'status', status: 403, path: '/api/v2/event-streams', method: 'GET' });
    const t = open(['streams', 'create', '--name', 'unlisted-names', '--event-type', 'user.created']);
    await t.waitFor('Where do the events go?');
    t.keys('Down', 'Down'); // an action
    t.keys('Enter');
    await t.waitFor('Action id');
    t.type('a-2');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(h.calls('GET').map((call) => call.path)).toEqual(['/api/v2/event-streams']);
    expect(h.calls('POST')[0]!.json).toMatchObject({ name: 'unlisted-names', destination: { type: 'action' } });
  });

  it('basic: a blank user name is asked again before the password, not refused after it as an empty --username', async () => {
    const t = open(['streams', 'create', '--name', 'basic-prompted', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/b', '--auth', 'basic']);
    await t.waitFor('User name');
    t.type('   ');
    t.keys('Enter');
    await t.waitFor('Enter the user name.');
    expect(t.screen()).not.toContain('Webhook password');
    t.keys('C-u');
    t.type('a:b');
    t.keys('Enter');
    await t.waitFor('A user name has no colon.');
    t.keys('C-u');
    t.type(' idm ');
    t.keys('Enter');
    await t.waitFor('Webhook password');
    t.type('pass-word');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).not.toContain('--username');
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({ destination: { configuration: { webhook_authorization: { method: 'basic', username: 'idm', password: 'pass-word' } } } });
  });

  it('the name prompt counts characters as the service and --name do (code points): 128 emoji are a name, 129 are not', async () => {
    // 128 emoji are 256 UTF-16 units: the prompt counted those, and refused a name --name takes.
    const name = '😀'.repeat(128);
    const t = open(['streams', 'create', '--event-type', 'user.created', '--action', 'a-emoji']);
    await t.waitFor('Stream name');
    t.type(`${name}😀`);
    t.keys('Enter');
    await t.waitFor('A name has 1 to 128 characters.');
    t.keys('BSpace');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({ name, destination: { type: 'action' } });
  });

  it('the user name prompt counts characters as --username does (code points): 128 emoji are a user name, 129 are not', async () => {
    const username = '😀'.repeat(128); // 256 UTF-16 units
    const t = open(['streams', 'create', '--name', 'basic-emoji-user', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/e', '--auth', 'basic']);
    await t.waitFor('User name');
    t.type(`${username}😀`);
    t.keys('Enter');
    await t.waitFor('A user name has at most 128 characters.');
    t.keys('BSpace');
    t.keys('Enter');
    await t.waitFor('Webhook password');
    t.type('pass-word');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({ destination: { configuration: { webhook_authorization: { method: 'basic', username, password: 'pass-word' } } } });
  });

  it('a token with a space around it is refused at its masked prompt and asked again, not after it (exit 2, every answer lost)', async () => {
    const t = open(['streams', 'create']);
    await t.waitFor('Stream name');
    t.type('token-asked-again');
    t.keys('Enter');
    await t.waitFor('Event types');
    t.keys('Space');
    t.keys('Enter');
    await t.waitFor('Where do the events go?');
    t.keys('Enter'); // a webhook
    await t.waitFor('Webhook URL');
    t.type('https://hooks.example.com/t');
    t.keys('Enter');
    await t.waitFor('How does the webhook authenticate deliveries?');
    t.keys('Enter'); // bearer
    await t.waitFor('Webhook token');
    t.type('tok-en ');
    t.keys('Enter');
    const screen = await t.waitFor('begins or ends with a space, which an HTTP header cannot carry. Ctrl-U clears it.');
    expect(screen).not.toContain('tok-en');
    expect(t.exited()).toBeUndefined();
    expect(h.calls('POST')).toEqual([]);
    t.keys('BSpace');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).not.toContain('tok-en');
    const posts = h.calls('POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({ name: 'token-asked-again', destination: { configuration: { webhook_authorization: { method: 'bearer', token: 'tok-en' } } } });
  });

  it('update asks no secret of a stream that cannot take it: an event bus, or an action without --webhook (refused before the question, nothing sent)', async () => {
    const bus = await h.idm(['streams', 'create', '--name', 'bus-no-secret', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'us-east-1', '--json']);
    const action = await h.idm(['streams', 'create', '--name', 'action-no-secret', '--event-type', 'user.created', '--action', 'a-1', '--json']);
    const cases: Array<[string[], string]> = [
      [[JSON.parse(bus.stdout).id, '--auth', 'bearer'], 'sends events to an event bus'],
      [[JSON.parse(bus.stdout).id, '--webhook', 'https://hooks.example.com/new'], 'sends events to an event bus'],
      [[JSON.parse(action.stdout).id, '--auth', 'custom-header'], 'has no webhook: give --webhook URL with --auth.'],
    ];
    for (const [args, said] of cases) {
      h.mark();
      const t = open(['streams', 'update', ...args]);
      expect(await t.exitCode()).toBe(2);
      const screen = t.screen();
      expect(screen).toContain(said);
      expect(screen).not.toMatch(/Webhook (token|header value)|Header name|How does the webhook/);
      expect(h.calls('PATCH')).toEqual([]);
      t.close();
    }
  });

  it('update --auth asks no secret to send back with a stored webhook URL idm would not send (a user name and password in it)', async () => {
    const body = { name: 'password-in-url', status: 'enabled', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://u:p@hooks.example.com/x', webhook_authorization: { method: 'bearer', token: 'old' } } } };
    const created = await h.idm(['api', 'POST', '/event-streams', '--data', JSON.stringify(body)]);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'update', id, '--auth', 'bearer']);
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain(`The webhook URL of stream ${id} must not hold a user name or password`);
    expect(t.screen()).not.toContain('Webhook token');
    expect(h.calls('PATCH')).toEqual([]);
  });

  it("update --webhook asks with the stream's own method and user name as the defaults: Enter keeps a basic webhook basic", async () => {
    const created = await h.idm(['streams', 'create', '--name', 'basic-kept', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/old', '--auth', 'basic', '--username', 'alice', '--json'], { env: { IDM_WEBHOOK_SECRET: 'old-pass' } });
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'update', id, '--webhook', 'https://hooks.example.com/new']);
    await t.waitFor('basic: a user name and password (as now)');
    t.keys('Enter');
    await t.waitFor('User name (alice)');
    t.keys('Enter');
    await t.waitFor('Webhook password');
    t.type('new-pass');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const patches = h.calls('PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.json).toEqual({ destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/new', webhook_authorization: { method: 'basic', username: 'alice', password: 'new-pass' } } } });
  });

  it('update with no change flag asks what to change at a terminal (an event bus: its name and types, not its destination), and sends what the answers change', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'asked-update', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'us-east-1', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'update', id]);
    await t.waitFor(`What to change in stream ${id}?`);
    expect(t.screen()).toContain('an event bus cannot change: create a new stream');
    t.keys('Space'); // name
    t.keys('Down');
    t.keys('Space'); // event types
    t.keys('Enter');
    await t.waitFor('Stream name (asked-update)');
    t.type('asked-update-2');
    t.keys('Enter');
    await t.waitFor('◉ user.created'); // the stream's own, first and ticked
    t.keys('Down');
    t.keys('Space'); // group.created, the first of the others
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const patches = h.calls('PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.json).toEqual({ name: 'asked-update-2', subscriptions: [{ event_type: 'user.created' }, { event_type: 'group.created' }] });
    expect(t.screen()).toContain('Name: asked-update → asked-update-2');
  });

  it("update with no change flag keeps a type the stream has that idm's list lacks (set elsewhere) when another is ticked: not refused as a type idm does not know", async () => {
    const seeded = await startHarness({ seed: { streams: [{ id: 'est_wizUnlisted0000000000a', name: 'unlisted-asked', subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.password.changed' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } }] } });
    try {
      terminal = Terminal.start(['streams', 'update', 'est_wizUnlisted0000000000a'], { configDir: seeded.configDir, env: credentialsEnv(seeded.sandbox) });
      const t = terminal;
      await t.waitFor('What to change in stream');
      t.keys('Down');
      t.keys('Space'); // event types
      t.keys('Enter');
      await t.waitFor('◉ user.password.changed'); // the stream's own, first and ticked
      t.keys('Down', 'Down');
      t.keys('Space'); // group.created, the first of the others
      t.keys('Enter');
      expect(await t.exitCode()).toBe(0);
      const patches = seeded.calls('PATCH');
      expect(patches).toHaveLength(1);
      expect(patches[0]!.json).toEqual({ subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.password.changed' }, { event_type: 'group.created' }] });
    } finally {
      await seeded.close();
    }
  });

  it('update with no change flag: an action id of 5,000 characters is not offered as the prompt\'s default (it filled the screen); one typed is sent', async () => {
    const long = `act-${'x'.repeat(5_000)}`;
    const seeded = await startHarness({ seed: { streams: [{ id: 'est_wizLongAction00000000a', name: 'long-action', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: long } } }] } });
    try {
      terminal = Terminal.start(['streams', 'update', 'est_wizLongAction00000000a'], { configDir: seeded.configDir, env: credentialsEnv(seeded.sandbox) });
      const t = terminal;
      await t.waitFor('What to change in stream');
      t.keys('Down', 'Down');
      t.keys('Space'); // destination
      t.keys('Enter');
      await t.waitFor('Where do the events go?');
      t.keys('Enter'); // an action, the default
      await t.waitFor('Action id');
      expect(t.screen()).toMatch(/Action id *$/m); // no default after it
      expect(t.screen()).not.toContain('x'.repeat(200));
      t.type('a-2');
      t.keys('Enter');
      expect(await t.exitCode()).toBe(0);
      expect(seeded.calls('PATCH')[0]!.json).toEqual({ destination: { type: 'action', configuration: { action_id: 'a-2' } } });
    } finally {
      await seeded.close();
    }
  });

  it('update with no change flag: a new webhook for an action stream is asked (URL, method, secret); the same answers as now send nothing', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'asked-webhook', '--event-type', 'user.created', '--action', 'act-1', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'update', id]);
    await t.waitFor(`What to change in stream ${id}?`);
    t.keys('Down', 'Down');
    t.keys('Space'); // destination
    t.keys('Enter');
    await t.waitFor('Where do the events go?');
    t.keys('Up'); // from an action (the default) to a webhook
    t.keys('Enter');
    await t.waitFor('Webhook URL');
    t.type('https://hooks.example.com/asked');
    t.keys('Enter');
    await t.waitFor('How does the webhook authenticate deliveries?');
    t.keys('Enter'); // bearer
    await t.waitFor('Webhook token');
    t.type('asked-token');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).not.toContain('asked-token');
    const patches = h.calls('PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.json).toEqual({ destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/asked', webhook_authorization: { method: 'bearer', token: 'asked-token' } } } });
    t.close();

    h.mark();
    const same = open(['streams', 'update', id]);
    await same.waitFor(`What to change in stream ${id}?`);
    same.keys('Space'); // name
    same.keys('Enter');
    await same.waitFor('Stream name (asked-webhook)');
    same.keys('Enter'); // kept
    expect(await same.exitCode()).toBe(0);
    expect(same.screen()).toContain('Nothing changed: nothing was sent.');
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('update --json with no change flag, answers that change nothing: the stream as it is on stdout, as when --add-event-type adds a type it has', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'kept-json', '--event-type', 'user.created', '--action', 'act-1', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'update', id, '--json']);
    await t.waitFor(`What to change in stream ${id}?`);
    t.keys('Space'); // name
    t.keys('Enter');
    await t.waitFor('Stream name (kept-json)');
    t.keys('Enter'); // kept
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    expect(screen).toMatch(new RegExp(`"id": "${id}"`));
    expect(screen).toContain('"name": "kept-json"');
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('update with no change flag and no terminal stays a usage error naming the flags (exit 2, nothing read or sent)', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'not-asked-update', '--event-type', 'user.created', '--action', 'act-1', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const result = await h.idm(['streams', 'update', id]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Nothing to change.');
    expect(result.stderr).toMatch(/idm cannot ask here \(.*not terminals?\): give --name, --event-type \(or --add-event-type, --remove-event-type\), --webhook with --auth, --auth \(a new secret\), --action or --from-file\./);
    expect(h.calls()).toEqual([]);
  });

  it('delete shows the stream and asks; no sends nothing (exit 130), yes deletes', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'to-delete', '--event-type', 'user.created', '--action', 'a-1', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();

    const no = open(['streams', 'delete', id]);
    await no.waitFor(`Delete stream ${id}, to-delete (action a-1)?`);
    no.type('n');
    no.keys('Enter');
    expect(await no.exitCode()).toBe(130);
    expect(h.calls('DELETE')).toEqual([]);
    no.close();

    const yes = open(['streams', 'delete', id]);
    await yes.waitFor(`Delete stream ${id}`);
    yes.type('y');
    yes.keys('Enter');
    expect(await yes.exitCode()).toBe(0);
    expect(h.calls('DELETE').map((call) => call.path)).toEqual([`/api/v2/event-streams/${id}`]);
    expect(yes.screen()).toContain(`Deleted stream ${id}.`);
  });

  // That read's 403 dropped a cached token older than 5 minutes (as a 403 to a read a command needs
  // does, to pick up a scope granted since), so the DELETE fetched a new one: a token in every run for
  // a client that may not read streams. streams update's read keeps it (66360ee); so does this one.
  it('delete by a client that may delete but not read the stream (403 on the read): asked without its name, not refused, and the DELETE is sent with the cached token (no new token)', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'unreadable-token-kept', '--event-type', 'user.created', '--action', 'a-1', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    ageCachedTokens(h.configDir);
    h.mark();
    h.sandbox.addFault(missingScope(`/api/v2/event-streams/${id}`, 'GET', 'read:event_streams'));
    const issued = h.sandbox.tokensIssued();
    const t = open(['streams', 'delete', id]);
    const screen = await t.waitFor(/\(y\/N\)|Error/);
    expect(screen).toContain(`Delete stream ${id}? (y/N)`);
    t.type('y');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.status}`)).toEqual(['GET 403', 'DELETE 204']);
    expect(h.sandbox.tokensIssued()).toBe(issued);
  });

  // The names are read to refuse one in use where it is typed, and a 403 to them is gone on without;
  // but that 403 dropped a cached token older than 5 minutes, and the POST fetched a new one.
  it('create by a client that may not list streams: the name is asked all the same, and the 403 keeps the cached token', async () => {
    expect((await h.idm(['streams', 'list', '--take', '1'])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.mark();
    h.sandbox.addFault(missingScope('/api/v2/event-streams', 'GET', 'read:event_streams'));
    const issued = h.sandbox.tokensIssued();
    const t = open(['streams', 'create', '--event-type', 'user.created', '--action', 'a-1']);
    await t.waitFor('Stream name');
    t.type('unlisted-token-kept');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.status}`)).toEqual(['GET 403', 'POST 201']);
    expect(h.sandbox.tokensIssued()).toBe(issued);
  });

  it('redeliver with no event id and no filter asks first (every failed delivery, days old too); no sends nothing (exit 130), yes sends one POST', async () => {
    const stream = 'est_demoClosedPort00000000';
    const question = `Deliver every failed delivery of stream ${stream} again (--event-type, --since or --until would narrow it)?`;
    const no = open(['streams', 'redeliver', stream]);
    expect((await no.waitFor('(y/N)')).replace(/\n/g, '')).toContain(question);
    no.type('n');
    no.keys('Enter');
    expect(await no.exitCode()).toBe(130);
    expect(no.screen()).toContain('Cancelled: nothing was redelivered.');
    expect(h.calls('POST')).toEqual([]);
    no.close();

    const yes = open(['streams', 'redeliver', stream]);
    await yes.waitFor('(y/N)');
    yes.type('y');
    yes.keys('Enter');
    expect(await yes.exitCode()).toBe(0);
    expect(h.calls('POST').map((call) => [call.path, call.json])).toEqual([[`/api/v2/event-streams/${stream}/redeliver`, {}]]);
    expect(yes.screen()).toContain(`Asked the service to deliver every failed delivery of stream ${stream} again`);
  });

  it("delete quotes at most 80 characters of the stream's name and of its webhook URL in its question (as provisioning delete does), not the server's text whole", async () => {
    const name = `n${'a'.repeat(110)}-tail-end`;
    const url = `https://hooks.example.com/${'p'.repeat(300)}/url-end`;
    const created = await h.idm(['streams', 'create', '--name', name, '--event-type', 'user.created', '--webhook', url, '--auth', 'bearer', '--json'], { env: { IDM_WEBHOOK_SECRET: 'delete-question-token' } });
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'delete', id]);
    // The question is one line, which the prompt wraps at the terminal's width.
    const screen = (await t.waitFor('(y/N)')).replace(/\n/g, '');
    expect(screen).toContain(`Delete stream ${id}, ${name.slice(0, 79)}… (webhook ${url.slice(0, 71)}…)?`);
    expect(screen).not.toContain('tail-end');
    expect(screen).not.toContain('url-end');
    t.type('n');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('DELETE')).toEqual([]);
  });

  it("delete's question cuts a name at 80 columns as the terminal draws them: wide characters count two, and an emoji at the cut is left out whole, never split", async () => {
    // 40 columns of CJK, 59 letters (99 columns, 79 UTF-16 units), then an emoji at units 79-80.
    const name = `${'界'.repeat(20)}${'a'.repeat(59)}😀-tail-end`;
    const created = await h.idm(['streams', 'create', '--name', name, '--event-type', 'user.created', '--action', 'a-1', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(['streams', 'delete', id]);
    const screen = (await t.waitFor('(y/N)')).replace(/\n/g, '');
    // 40 + 39 columns and the …: 80 in all.
    expect(screen).toContain(`Delete stream ${id}, ${'界'.repeat(20)}${'a'.repeat(39)}… (action a-1)?`);
    expect(screen).not.toContain('\ufffd');
    t.type('n');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('DELETE')).toEqual([]);
  });

  it('profiles remove asks first at a terminal; no leaves the profile', async () => {
    writeFileSync(join(h.configDir, 'config.json'), JSON.stringify({ defaultProfile: 'prod', profiles: { prod: { domain: 'https://prod.example.com', clientId: 'c1', authMethod: 'post' } } }));
    const t = open(['profiles', 'remove', 'prod']);
    await t.waitFor('Remove profile "prod" (client c1 at prod.example.com), its secret and its cached token?');
    t.type('n');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(JSON.parse(readFileSync(join(h.configDir, 'config.json'), 'utf8')).profiles.prod.clientId).toBe('c1');
  });
});

describe.skipIf(!run)('streams update at a terminal, against a server whose stream name is longer than any the service allows', () => {
  const ID = 'est_longName00000000000000';
  const NAME = 'n'.repeat(5_000);
  it("the wizard shows the stream's name on one line (the question and the choices stay on the screen) and does not offer it as the default", async () => {
    const server = await hostileServer((request) => {
      if (request.url === `/api/v2/event-streams/${ID}`) return { body: { id: ID, name: NAME, status: 'enabled', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } } };
      if (request.url.startsWith('/api/v2/event-streams?')) return { body: { eventStreams: [] } };
      return undefined;
    });
    const config = tempDir();
    try {
      terminal = Terminal.start(['streams', 'update', ID], { configDir: config.dir, env: server.env(config.dir), columns: 80, rows: 24 });
      const t = terminal;
      await t.waitFor(`What to change in stream ${ID}?`);
      const shown = t.visible();
      expect(shown).toContain(`What to change in stream ${ID}?`);
      expect(shown).toContain('Destination (a webhook with a new secret, or an action)');
      expect(shown.split('\n').filter((row) => row.includes('nnnn'))).toHaveLength(1);
      t.keys('Space'); // the name
      t.keys('Enter');
      await t.waitFor('? Stream name');
      // Enter would only be refused (longer than the service allows): the name is not the default.
      const question = t.visible().split('\n').find((row) => row.includes('? Stream name'));
      expect(question, t.visible()).toBeDefined();
      expect(question).not.toContain('nnnn');
      t.keys('C-c');
      expect(await t.exitCode()).toBe(130);
      expect(server.seen.filter((request) => request.method === 'PATCH')).toEqual([]);
    } finally {
      config.cleanup();
      await server.close();
    }
  });

  it("update --webhook: the stream's user name or header name is not the default when the question's check refuses it (Enter would only be refused)", async () => {
    const streams: Record<string, unknown> = {
      est_longUser00000000000000: { method: 'basic', username: 'u'.repeat(300) },
      est_badHeader0000000000000: { method: 'custom_header', header_key: 'X Bad:Header' },
    };
    const server = await hostileServer((request) => {
      const id = /^\/api\/v2\/event-streams\/(est_\w+)$/.exec(request.url)?.[1];
      const authorization = id === undefined ? undefined : streams[id];
      if (authorization === undefined) return undefined;
      return { body: { id, name: 'n', status: 'enabled', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/a', webhook_authorization: authorization } } } };
    });
    const config = tempDir();
    try {
      for (const [id, question, bad] of [
        ['est_longUser00000000000000', '? User name', 'uuuu'],
        ['est_badHeader0000000000000', '? Header name', 'X Bad'],
      ] as const) {
        terminal = Terminal.start(['streams', 'update', id, '--webhook', 'https://hooks.example.com/b'], { configDir: config.dir, env: server.env(config.dir), columns: 80, rows: 24 });
        const t = terminal;
        await t.waitFor('(as now)');
        t.keys('Enter'); // the method it has
        await t.waitFor(question);
        const row = t.visible().split('\n').find((line) => line.includes(question));
        expect(row, t.visible()).toBeDefined();
        expect(row).not.toContain(bad);
        t.keys('C-c');
        expect(await t.exitCode()).toBe(130);
        t.close();
      }
      expect(server.seen.filter((request) => request.method === 'PATCH')).toEqual([]);
    } finally {
      config.cleanup();
      await server.close();
    }
  });
});
