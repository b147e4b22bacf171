// The prompts of streams test and the provisioning wizard, driven in a real pseudo-terminal (tmux)
// against the sandbox: what the user sees, the keys they press, the exit code, and what the sandbox
// received (or did not).
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ageCachedTokens, connectionsSeed, gappsId, missingScope, startHarness, type Harness } from '../helpers/harness.js';
import { credentialsEnv } from '../helpers/cli.js';
import { PROVISIONING_STRATEGIES } from '../../src/sandbox/samples.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';
import { displayWidth } from '../../src/output/width.js';

const DEFAULT_ROWS = PROVISIONING_STRATEGIES['google-apps']!.length;

// CI installs tmux (.ci/run); elsewhere, without tmux these tests are skipped rather than failed.
const run = hasTmux || Boolean(process.env.CI);

let terminal: Terminal | undefined;
afterEach(() => {
  terminal?.close();
  terminal = undefined;
});

/** `idm args` in a new terminal, as the sandbox's admin client (or its reader, without write scopes). */
function open(h: Harness, args: string[], as: 'admin' | 'reader' = 'admin'): Terminal {
  terminal = Terminal.start(args, { configDir: h.configDir, env: credentialsEnv(h.sandbox, as) });
  return terminal;
}

/**
 * The service shows a default mapping only once a connection has a configuration (404 before, as the
 * sandbox answers: wire-facts.md). To drive the wizard's editing of a default, the next GET of `id`'s
 * default mapping is served the strategy's default (200), as a service that showed it earlier would.
 */
function showDefaultMapping(h: Harness, id: string): void {
  const mapping = PROVISIONING_STRATEGIES['google-apps']!.map(({ idp, platform }) => ({ idp, platform }));
  h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning/default-mapping`, method: 'GET', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ mapping }) });
}

/** Keeps the default mapping and both settings' defaults, up to the confirmation; returns the screen. */
async function toConfirmation(t: Terminal): Promise<string> {
  await t.waitFor('What next?');
  t.keys('Enter');
  await t.waitFor('Synchronize users automatically');
  t.keys('Enter');
  await t.waitFor('Group synchronization');
  t.keys('Enter');
  return t.waitFor('Create directory provisioning');
}

describe.skipIf(!run)('provisioning wizard in a terminal', () => {
  let h: Harness;
  let next = 0;
  beforeAll(async () => {
    h = await startHarness({ seed: connectionsSeed(8) });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());
  const posts = () => h.calls('POST');

  /**
   * Picks the first connection the list lets one pick: the first fresh google-apps one (the cursor
   * starts on it, configured ones cannot be chosen). Returns the list as shown.
   */
  async function pick(t: Terminal): Promise<string> {
    const screen = await t.waitFor('Connection to set up');
    t.keys('Enter');
    return screen;
  }

  it('picks a connection from the list (a configured one shown, not selectable), edits the default mapping, and creates', async () => {
    const id = gappsId(++next);
    showDefaultMapping(h, id);
    const t = open(h, ['provisioning', 'create']);
    const list = await pick(t);
    // The tenant's google-apps connections; the configured one marked and skipped by the cursor.
    expect(list).toMatch(new RegExp(`google-1\\s+${gappsId(1)}\\s+\\(google-apps\\)`));
    expect(list).toMatch(/google-taken\s+con_takenTaken000001\s+\(google-apps\)\s+configured already/);
    expect(list).not.toContain('users-database');

    // The default mapping of google-apps is the starting point.
    let screen = await t.waitFor('What next?');
    expect(screen).toContain("Starting from the strategy's default mapping.");
    expect(screen).toMatch(/1\. app_metadata\.external_id\s+= id/);
    expect(h.calls('GET').map((call) => call.path)).toEqual([
      '/api/v2/connections',
      '/api/v2/connections-directory-provisionings',
      `/api/v2/connections/${id}/directory-provisioning`,
      `/api/v2/connections/${id}/directory-provisioning/default-mapping`,
    ]);

    // Edit row 1: keep the platform attribute, change the identity-provider one.
    t.keys('Down', 'Enter');
    await t.waitFor('Row to edit');
    t.keys('Enter');
    await t.waitFor('Platform attribute');
    t.keys('Enter');
    await t.waitFor('Identity-provider attribute for app_metadata.external_id');
    t.keys('C-u');
    t.type('externalId');
    t.keys('Enter');
    await t.waitFor('Row 1 is now app_metadata.external_id = externalId');

    // Remove row 2 (email = primaryEmail).
    await t.waitFor('What next?', 2);
    t.keys('Down', 'Down', 'Enter');
    await t.waitFor('Row to remove');
    t.keys('Down', 'Enter');
    await t.waitFor('Removed email = primaryEmail');

    // Add a row.
    await t.waitFor('What next?', 3);
    t.keys('Down', 'Down', 'Down', 'Enter');
    await t.waitFor('Platform attribute', 2);
    t.type('department');
    t.keys('Enter');
    await t.waitFor('Identity-provider attribute for department');
    t.type('organizations');
    t.keys('Enter');
    await t.waitFor('Added');

    // Keep it, then the two synchronization settings.
    await t.waitFor('What next?', 4);
    t.keys('Enter');
    await t.waitFor('Synchronize users automatically');
    t.type('y');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Up', 'Enter'); // from the default "off" to "all"

    screen = await t.waitFor(`Create directory provisioning for ${id}?`);
    expect(screen).toMatch(new RegExp(`Summary\\s+Connection\\s+${id}`));
    expect(screen).toMatch(/Synchronize automatically\s+yes/);
    expect(screen).toMatch(/Synchronize groups\s+all/);
    // The summary: the counts and only the rows that differ from the default shown at the start.
    expect(screen).toMatch(new RegExp(`Mapping\\s+${DEFAULT_ROWS} rows: the strategy's default with 1 changed, 1 removed, 1 added`));
    const summary = screen.slice(screen.lastIndexOf('Summary'));
    expect(summary).toMatch(/changed\s+app_metadata\.external_id = externalId \(was id\)/);
    expect(summary).toMatch(/removed\s+email = primaryEmail/);
    expect(summary).toMatch(/added\s+department = organizations/);
    expect(summary).not.toContain('given_name'); // an unchanged row
    expect(posts()).toEqual([]); // nothing sent before the confirmation
    t.keys('Enter');

    expect(await t.exitCode()).toBe(0);
    expect(posts()).toHaveLength(1);
    const body = posts()[0]!.json as { mapping: Array<{ platform: string; idp: string }> };
    expect(posts()[0]!.path).toBe(`/api/v2/connections/${id}/directory-provisioning`);
    expect(body).toMatchObject({ synchronize_automatically: true, synchronize_groups: 'all' });
    expect(body.mapping).toHaveLength(DEFAULT_ROWS);
    expect(body.mapping[0]).toEqual({ platform: 'app_metadata.external_id', idp: 'externalId' });
    expect(body.mapping.some((row) => row.platform === 'email')).toBe(false);
    expect(body.mapping.at(-1)).toEqual({ platform: 'department', idp: 'organizations' });
    expect(t.screen()).toMatch(new RegExp(`Connection\\s+${id}`)); // the created configuration, printed
  });

  it('without read:connections, asks for the id and says why; asks again after a 404 and after a configured one; checks values as typed', async () => {
    // The list of connections refused (its first request only), as for a token without read:connections.
    h.sandbox.addFault(missingScope('/api/v2/connections', 'GET', 'read:connections'));
    const id = gappsId(++next);
    showDefaultMapping(h, id);
    const t = open(h, ['provisioning', 'create']);
    let screen = await t.waitFor('Connection id');
    expect(screen).toContain("Cannot list the tenant's connections (the token lacks read:connections); type the connection id instead.");
    t.type('con bad');
    t.keys('Enter');
    await t.waitFor('A connection id is con_ and 16 letters or digits');
    t.keys('C-u');
    t.type('con_doesNotExist0001');
    t.keys('Enter');
    screen = await t.waitFor('Connection id', 2);
    expect(screen).toContain('There is no connection con_doesNotExist0001 in the tenant.');
    t.type('con_takenTaken000001');
    t.keys('Enter');
    screen = await t.waitFor('Connection id', 3);
    expect(screen).toContain('Connection con_takenTaken000001 (google-taken) has directory provisioning already.');
    t.type(id);
    t.keys('Enter');

    await t.waitFor('What next?');
    t.keys('Down', 'Down', 'Down', 'Enter'); // Add a row
    await t.waitFor('Platform attribute');
    t.type('email'); // row 2 of the default mapping
    t.keys('Enter');
    await t.waitFor('"email" is already mapped (row 2)');
    t.keys('C-u');
    t.type('department');
    t.keys('Enter');
    await t.waitFor('Identity-provider attribute for department');
    t.type('   ');
    t.keys('Enter');
    await t.waitFor('The identity-provider attribute must not be empty.');
    t.keys('C-u');
    t.type('orgUnitPath');
    t.keys('Enter');

    await t.waitFor('What next?', 2);
    t.keys('Enter');
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter');
    await t.waitFor('Create directory provisioning');
    t.keys('Enter');

    expect(await t.exitCode()).toBe(0);
    expect(posts()).toHaveLength(1);
    const body = posts()[0]!.json as { mapping: Array<{ platform: string; idp: string }> };
    expect(posts()[0]!.path).toBe(`/api/v2/connections/${id}/directory-provisioning`);
    expect(body).toMatchObject({ synchronize_automatically: false, synchronize_groups: 'off' });
    expect(body.mapping.filter((row) => row.platform === 'email')).toEqual([{ platform: 'email', idp: 'primaryEmail' }]);
    expect(body.mapping.at(-1)).toEqual({ platform: 'department', idp: 'orgUnitPath' });
  });

  it("a refusal quotes at most 100 characters of the service's message (one of thousands is not said whole), then asks again", async () => {
    h.sandbox.addFault(missingScope('/api/v2/connections', 'GET', 'read:connections'));
    const id = gappsId(next + 1); // fresh: nothing is created here
    const message = `The connection strategy does not support inbound directory provisioning ${'x'.repeat(3000)}`;
    h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning/default-mapping`, method: 'GET', kind: 'status', status: 400, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message }) });
    const t = open(h, ['provisioning', 'create']);
    await t.waitFor('Connection id');
    t.type(id);
    t.keys('Enter');
    const screen = await t.waitFor('Connection id', 2);
    expect(screen).toContain(`Connection ${id} cannot have directory provisioning: ${message.slice(0, 100)}… (${message.length - 100} more characters). Strategies that support it: google-apps`);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(posts()).toEqual([]);
  });

  it('a connection refused once picked is not offered again as it was: one configured since the list was read is shown configured, one that cannot be set up leaves the list', async () => {
    const taken = gappsId(++next); // configured while the list is shown
    const refused = gappsId(next + 1); // its default mapping answered 400 once: nothing is created for it
    const t = open(h, ['provisioning', 'create']);
    await t.waitFor('Connection to set up');
    expect((await h.idm(['provisioning', 'create', taken, '--no-input'])).code).toBe(0);
    t.keys('Enter');
    let screen = await t.waitFor('Connection to set up', 2);
    expect(screen).toContain(`Connection ${taken} (google-${next}) has directory provisioning already.`);
    let list = screen.slice(screen.lastIndexOf('Connection to set up'));
    expect(list).toMatch(new RegExp(`\\n- google-${next}\\s+${taken}\\s+\\(google-apps\\)\\s+configured already`));
    expect(list).toMatch(new RegExp(`\\n❯ google-${next + 1}\\s+${refused}`)); // the cursor on the next one
    const message = 'The connection strategy does not support inbound directory provisioning';
    h.sandbox.addFault({ path: `/api/v2/connections/${refused}/directory-provisioning/default-mapping`, method: 'GET', kind: 'status', status: 400, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message }) });
    t.keys('Enter');
    screen = await t.waitFor('Connection to set up', 3);
    expect(screen).toContain(`Connection ${refused} cannot have directory provisioning: ${message}.`);
    list = screen.slice(screen.lastIndexOf('Connection to set up'));
    expect(list).not.toContain(refused);
    expect(list).toMatch(new RegExp(`\\n❯ google-${next + 2}\\s+${gappsId(next + 2)}`));
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(posts()).toHaveLength(1); // the create of `taken`, by the other run
  });

  it('refuses a configured connection given as an argument before any question (exit 1), naming show and update', async () => {
    const t = open(h, ['provisioning', 'create', 'con_takenTaken000001']);
    expect(await t.exitCode()).toBe(1);
    const screen = t.screen();
    expect(screen).toContain('Error: Connection con_takenTaken000001 (google-taken) has directory provisioning already.');
    expect(screen).toContain("See it with 'idm provisioning show con_takenTaken000001', change it with 'idm provisioning update con_takenTaken000001'.");
    expect(screen).not.toContain('?');
    expect(posts()).toEqual([]);
  });

  it.each([
    ['the connection list', async (t: Terminal) => void (await t.waitFor('Connection to set up'))],
    ['the mapping', async (t: Terminal) => void (await pick(t), await t.waitFor('What next?'))],
    ['automatic synchronization', async (t: Terminal) => void (await pick(t), await t.waitFor('What next?'), t.keys('Enter'), await t.waitFor('Synchronize users automatically'))],
    ['the confirmation', async (t: Terminal) => void (await pick(t), await toConfirmation(t))],
  ])('Ctrl-C at %s exits 130 and sends nothing', async (_step, reach) => {
    const t = open(h, ['provisioning', 'create']);
    await reach(t);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.received().filter((request) => request.method !== 'GET' && request.path.startsWith('/api/'))).toEqual([]);
  });

  it('Edit a row and Remove a row can be left without changing a row (Back, one Up from the first row), and Add a row by typing nothing', async () => {
    const id = gappsId(++next);
    showDefaultMapping(h, id);
    const t = open(h, ['provisioning', 'create', id]);
    await t.waitFor('What next?');
    t.keys('Down', 'Enter'); // Edit a row
    let screen = await t.waitFor('Row to edit');
    expect(screen).toContain('Back to the mapping, changing no row');
    t.keys('Up', 'Enter');
    await t.waitFor('What next?', 2);
    t.keys('Down', 'Down', 'Enter'); // Remove a row
    await t.waitFor('Row to remove');
    t.keys('Up', 'Enter');
    await t.waitFor('What next?', 3);
    t.keys('Down', 'Down', 'Down', 'Enter'); // Add a row
    screen = await t.waitFor('Platform attribute');
    expect(screen).toContain('Platform attribute (empty: back, adding no row)');
    t.keys('Enter');
    screen = await t.waitFor('What next?', 4);
    expect(screen).not.toContain('must not be empty');
    expect(screen).not.toContain('Identity-provider attribute');
    t.keys('Enter');
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter');
    screen = await t.waitFor(`Create directory provisioning for ${id}?`);
    expect(screen).toMatch(new RegExp(`Mapping\\s+${DEFAULT_ROWS} rows: the strategy's default, unchanged`));
    expect(screen).not.toMatch(/Row \d+ is now|Removed |Added /);
    t.type('n');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(posts()).toEqual([]);
  });

  it('answering no at the confirmation exits 130, says nothing was sent, and sends nothing', async () => {
    const id = gappsId(++next);
    showDefaultMapping(h, id);
    const t = open(h, ['provisioning', 'create', id]);
    const screen = await toConfirmation(t);
    expect(screen).toMatch(new RegExp(`Mapping\\s+${DEFAULT_ROWS} rows: the strategy's default, unchanged`));
    t.type('n');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toContain('Cancelled: nothing was sent.');
    expect(posts()).toEqual([]);
  });

  it('without the scope to read the default mapping, starts from an empty one', async () => {
    const id = gappsId(++next);
    const t = open(h, ['provisioning', 'create', id], 'reader'); // read:event_streams only
    const screen = await t.waitFor('What next?');
    expect(screen).toContain('Cannot read the default mapping');
    expect(screen).toContain('The mapping is empty');
    expect(screen).toContain("Continue with the strategy's default");
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(posts()).toEqual([]);
  });

  it("a 404 to the default mapping without inexistent_connection is no unknown connection: the wizard starts from an empty mapping and the service's default applies", async () => {
    // The service's published 404 for the default mapping is "Directory provisioning configuration
    // not found" (no errorCode): it shows the default only once a configuration exists, as the sandbox.
    const id = gappsId(++next);
    const t = open(h, ['provisioning', 'create', id]);
    const screen = await t.waitFor('What next?');
    // Said once, then what an empty mapping means here: no third line restating it.
    const said = screen.slice(screen.indexOf('The service shows no default mapping'), screen.indexOf('? Mapping: 0 rows')).trimEnd().split('\n');
    expect(said).toEqual([
      `The service shows no default mapping for ${id} before it has provisioning; starting from an empty one.`,
      "The mapping is empty (the service would apply the strategy's default).",
    ]);
    expect(screen).not.toContain('There is no connection');
    t.keys('Enter'); // Continue with the strategy's default
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter');
    const summary = await t.waitFor(`Create directory provisioning for ${id}?`);
    expect(summary).toMatch(/Mapping\s+\(the strategy's default, applied by the service\)/);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.json).toEqual({ synchronize_automatically: false, synchronize_groups: 'off' });
  });

  it('with the settings given as flags, asks only for the connection, then confirms', async () => {
    // The cursor starts on the first connection still without provisioning.
    const id = h.sandbox.connections().find((c) => c.strategy === 'google-apps' && c.provisioning === 'not configured')!.id;
    const t = open(h, ['provisioning', 'create', '--sync-groups', 'selected']);
    await pick(t);
    const screen = await t.waitFor('Create directory provisioning');
    expect(screen).not.toContain('What next?');
    expect(screen).toMatch(/Synchronize groups\s+selected/);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(posts()[0]!.path).toBe(`/api/v2/connections/${id}/directory-provisioning`);
    expect(posts()[0]!.json).toEqual({ synchronize_groups: 'selected' });
  });
});

describe.skipIf(!run)('provisioning wizard: connection names from the server', () => {
  let h: Harness;
  const LONG = 'con_longName00000001';
  const HOSTILE = 'con_hostileName00001';
  beforeAll(async () => {
    h = await startHarness({
      seed: {
        connections: [
          { id: LONG, name: `directory-${'x'.repeat(3000)}-end`, strategy: 'google-apps' },
          { id: HOSTILE, name: 'evil\u001b[31mRED\u202eline\nbreak', strategy: 'google-apps' },
          { id: 'con_shortName0000001', name: 'short', strategy: 'google-apps' },
          { id: 'con_takenTaken000001', name: `taken-${'y'.repeat(200)}`, strategy: 'google-apps', provisioning: {} },
          { id: 'con_oneRow0000000001', name: `one-row-${'z'.repeat(200)}`, strategy: 'google-apps', provisioning: { mapping: [{ platform: 'email', idp: 'primaryEmail' }] } },
        ],
      },
    });
  });
  afterAll(() => h.close());

  it('each connection of the list is one line of a 100-column terminal, a long name cut with …, control characters shown escaped, and every id on screen', async () => {
    terminal = Terminal.start(['provisioning', 'create'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns: 100 });
    const t = terminal;
    await t.waitFor('navigate');
    const rows = t.rows();
    const at = rows.findIndex((row) => row.includes('Connection to set up'));
    const list = rows.slice(at + 1, at + 6);
    expect(list[0]).toMatch(new RegExp(`^❯ directory-x+…  ${LONG}  \\(google-apps\\)$`));
    expect(list[1]).toBe(`  evil\\x1b[31mRED\\u202eline\\nbreak  ${HOSTILE}  (google-apps)`);
    expect(list[2]).toBe('  short  con_shortName0000001  (google-apps)');
    expect(list[3]).toMatch(/^- taken-y+…  con_takenTaken000001  \(google-apps\) configured already: idm provisioning update$/);
    expect(list[4]).toMatch(/^- one-row-z+…  con_oneRow0000000001  \(google-apps\) configured already: idm provisioning update$/);
    for (const row of list) expect(row.length).toBeLessThanOrEqual(100);
    expect(rows.slice(at + 6, at + 8).join('\n')).toContain('navigate'); // nothing pushed below the list
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });

  for (const columns of [80, 60]) {
    it(`at ${columns} columns each connection is still one line: a configured one says so in fewer words (then without the strategy), its id whole`, async () => {
      terminal = Terminal.start(['provisioning', 'create'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns });
      const t = terminal;
      await t.waitFor('navigate');
      const rows = t.rows();
      const at = rows.findIndex((row) => row.includes('Connection to set up'));
      const list = rows.slice(at + 1, at + 6);
      const strategy = columns === 80 ? '  \\(google-apps\\)' : ' ';
      expect(list[0]).toMatch(new RegExp(`^❯ directory-x+…  ${LONG}  \\(google-apps\\)$`));
      expect(list[2]).toBe('  short  con_shortName0000001  (google-apps)');
      expect(list[3]).toMatch(new RegExp(`^- taken-y+…  con_takenTaken000001${strategy} configured already$`));
      expect(list[4]).toMatch(new RegExp(`^- one-row-z+…  con_oneRow0000000001${strategy} configured already$`));
      for (const row of list) expect(displayWidth(row), row).toBeLessThan(columns);
      expect(rows.slice(at + 6, at + 8).join('\n')).toContain('navigate'); // nothing pushed below the list
      t.keys('C-c');
      expect(await t.exitCode()).toBe(130);
    });
  }

  for (const columns of [80, 50]) {
    it(`at ${columns} columns the connection chosen is said on the question's row (its name cut to the room left there, or only its id), not wrapped onto a second`, async () => {
      terminal = Terminal.start(['provisioning', 'create'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns });
      const t = terminal;
      await t.waitFor('navigate');
      t.keys('Enter'); // the first, with a long name
      await t.waitFor('What next?');
      const rows = t.rows();
      const at = rows.findIndex((row) => row.startsWith('✔ Connection to set up'));
      expect(rows[at]).toMatch(columns === 80 ? new RegExp(`^✔ Connection to set up directory-x+…  ${LONG}$`) : new RegExp(`^✔ Connection to set up ${LONG}$`));
      expect(displayWidth(rows[at]!)).toBeLessThan(columns);
      expect(rows[at + 1]).toMatch(/^The service shows no default mapping/);
      t.keys('C-c');
      expect(await t.exitCode()).toBe(130);
    });
  }

  it('provisioning delete asks with at most 80 characters of the name and counts one mapped attribute in the singular; no sends nothing', async () => {
    h.mark();
    terminal = Terminal.start(['provisioning', 'delete', 'con_oneRow0000000001'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns: 200 });
    const t = terminal;
    const screen = (await t.waitFor('(y/N)')).replace(/\n/g, '');
    expect(screen).toContain(`(one-row-${'z'.repeat(71)}…), 1 mapped attribute?`);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('DELETE')).toEqual([]);
  });

  // That read's 403 dropped a cached token older than 5 minutes (as a 403 to a read a command needs
  // does, to pick up a scope granted since), so the DELETE fetched a new one: a token in every run for
  // a client that may not read provisioning. Last here: it deletes con_oneRow0000000001's configuration.
  it('provisioning delete by a client that may delete but not read the configuration (403 on the read): asked without its name, not refused, and the DELETE is sent with the cached token (no new token)', async () => {
    expect((await h.idm(['provisioning', 'show', 'con_oneRow0000000001'])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.mark();
    h.sandbox.addFault(missingScope('/api/v2/connections/con_oneRow0000000001/directory-provisioning', 'GET', 'read:directory_provisionings'));
    const issued = h.sandbox.tokensIssued();
    const t = open(h, ['provisioning', 'delete', 'con_oneRow0000000001']);
    const screen = await t.waitFor(/\(y\/N\)|Error/);
    expect(screen).toContain('Delete the directory provisioning of con_oneRow0000000001? Users and groups stop synchronizing. (y/N)');
    t.keys('y', 'Enter');
    expect(await t.exitCode()).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.status}`)).toEqual(['GET 403', 'DELETE 204']);
    expect(h.sandbox.tokensIssued()).toBe(issued);
  });
});

// The create wizard's reads of a connection before asking (its configuration, its default mapping)
// go on without them on a 403; that 403 dropped a cached token older than 5 minutes, as a 403 to a
// read a command needs does, so a client that may create provisioning but not read it paid a token
// request in every run.
describe.skipIf(!run)('provisioning create wizard: a client that may not read provisioning', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: connectionsSeed(1) });
  });
  afterAll(() => h.close());

  it('the 403s to the reads before the questions keep the cached token: no new token', async () => {
    const id = gappsId(1);
    expect((await h.idm(['connections', 'list'])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.mark();
    h.sandbox.addFault(missingScope(`/api/v2/connections/${id}/directory-provisioning`, 'GET', 'read:directory_provisionings'));
    h.sandbox.addFault(missingScope(`/api/v2/connections/${id}/directory-provisioning/default-mapping`, 'GET', 'read:directory_provisionings'));
    const issued = h.sandbox.tokensIssued();
    const t = open(h, ['provisioning', 'create', id]);
    const screen = await t.waitFor(/What next\?|Error/);
    expect(screen).toContain('Cannot read the default mapping (the token lacks read:directory_provisionings); starting from an empty one.');
    expect(h.calls().map((call) => `${call.method} ${call.status}`)).toEqual(['GET 403', 'GET 403']);
    expect(h.sandbox.tokensIssued()).toBe(issued);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });

  it("a 403 to the list of connections (the id is asked instead) keeps the cached token too", async () => {
    const id = gappsId(1);
    expect((await h.idm(['connections', 'list'])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.mark();
    h.sandbox.addFault(missingScope('/api/v2/connections', 'GET', 'read:connections'));
    const issued = h.sandbox.tokensIssued();
    const t = open(h, ['provisioning', 'create']);
    await t.waitFor('Connection id');
    t.type(id);
    t.keys('Enter');
    await t.waitFor(/What next\?|Error/);
    expect(h.calls().map((call) => `${call.method} ${call.status}`)).toEqual(['GET 403', 'GET 404', 'GET 404']);
    expect(h.sandbox.tokensIssued()).toBe(issued);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });
});

describe.skipIf(!run)('streams test in a terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ delivery: 'sync' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());
  const STREAM = 'est_demoInboxHeader0000000'; // subscribed to organization.created and organization.updated

  it("asks for the event type with the stream's subscriptions first, and sends the one picked", async () => {
    const t = open(h, ['streams', 'test', STREAM]);
    const screen = await t.waitFor('Event type to send');
    // The two subscribed types come first, before the others.
    const lines = screen.split('\n');
    const first = lines.findIndex((line) => line.includes('organization.created'));
    expect(first).toBeGreaterThan(-1);
    expect(lines[first + 1]).toContain('organization.updated');
    expect(screen).toContain('not subscribed');
    expect(screen.indexOf('organization.created')).toBeLessThan(screen.indexOf('group.created'));
    t.keys('Down', 'Enter'); // organization.updated
    expect(await t.exitCode()).toBe(0);
    expect(h.calls('GET').map((call) => call.path)).toEqual([`/api/v2/event-streams/${STREAM}`]);
    const tests = h.calls('POST');
    expect(tests).toHaveLength(1);
    expect(tests[0]!.json).toEqual({ event_type: 'organization.updated' });
    expect(t.screen()).toMatch(/Status\s+success/);
  });

  it('in a terminal of 12 rows the list of event types is paged to fit: moving through it redraws in place, the question shown once', async () => {
    terminal = Terminal.start(['streams', 'test', STREAM], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), rows: 12 });
    const t = terminal;
    await t.waitFor('Event type to send');
    for (let i = 0; i < 14; i++) t.keys('Down');
    await t.waitFor('❯ organization.group.role.deleted');
    expect(t.screen().match(/Event type to send/g)).toHaveLength(1);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen().match(/Event type to send/g)).toHaveLength(1);
    expect(h.calls('POST')[0]!.json).toEqual({ event_type: 'organization.group.role.deleted' });
  });

  // That read goes on without the stream on a 403 (every type, unsorted), but its 403 dropped a cached
  // token older than 5 minutes, and the test event's POST fetched a new one: a token per run.
  it('a client that may not read the stream: every type offered, and the 403 keeps the cached token (no new token for the POST)', async () => {
    expect((await h.idm(['streams', 'show', STREAM])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.mark();
    h.sandbox.addFault(missingScope(`/api/v2/event-streams/${STREAM}`, 'GET', 'read:event_streams'));
    const issued = h.sandbox.tokensIssued();
    const t = open(h, ['streams', 'test', STREAM]);
    const screen = await t.waitFor('Event type to send');
    expect(screen).toContain("Cannot read the stream's subscriptions (read:event_streams missing); showing every event type.");
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(h.calls('POST')).toHaveLength(1);
    expect(h.sandbox.tokensIssued()).toBe(issued);
  });

  it('a disabled stream is refused before the event-type question (exit 1, nothing sent), naming the command that enables it', async () => {
    const created = await h.idm(['streams', 'create', '--name', 'disabled-no-question', '--event-type', 'user.created', '--action', 'a-1', '--disabled', '--json']);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const t = open(h, ['streams', 'test', id]);
    expect(await t.exitCode()).toBe(1);
    const screen = t.screen();
    expect(screen).not.toContain('Event type to send');
    expect(screen).toContain(`Stream ${id} is disabled, and a disabled stream takes no test events: nothing was sent.`);
    expect(screen).toContain(`Enable it first with 'idm streams enable ${id}'.`);
    expect(h.calls('POST')).toEqual([]);
  });

  it('Ctrl-C at the event-type prompt exits 130 and sends no test event', async () => {
    const t = open(h, ['streams', 'test', STREAM]);
    await t.waitFor('Event type to send');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('POST')).toEqual([]);
  });
});

describe.skipIf(!run)('provisioning delete: a name of wide characters and emoji', () => {
  let h: Harness;
  const WIDE = 'con_wideName00000001';
  beforeAll(async () => {
    h = await startHarness({
      seed: {
        // 40 columns of CJK, 59 letters (99 columns, 79 UTF-16 units), then an emoji at units 79-80.
        connections: [{ id: WIDE, name: `${'界'.repeat(20)}${'a'.repeat(59)}😀-tail-end`, strategy: 'google-apps', provisioning: { mapping: [{ platform: 'email', idp: 'primaryEmail' }] } }],
      },
    });
  });
  afterAll(() => h.close());

  it('provisioning delete cuts a name at 80 columns as the terminal draws them: wide characters count two, an emoji at the cut is left out whole', async () => {
    h.mark();
    terminal = Terminal.start(['provisioning', 'delete', WIDE], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns: 200 });
    const t = terminal;
    const screen = (await t.waitFor('(y/N)')).replace(/\n/g, '');
    expect(screen).toContain(`(${'界'.repeat(20)}${'a'.repeat(39)}…), 1 mapped attribute?`);
    expect(screen).not.toContain('\ufffd');
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('DELETE')).toEqual([]);
  });
});

describe.skipIf(!run)('streams test --wait in a terminal', () => {
  let h: Harness;
  // The first attempt fails at once; the retry waits an hour: idm is waiting when Ctrl-C comes.
  beforeAll(async () => {
    h = await startHarness({ retryDelaysMs: [3_600_000, 3_600_000, 3_600_000] });
  });
  afterAll(() => h.close());

  // The line was cut from its end: at 40 (or 60) columns the event's id, shown above it already,
  // took it all ('Delivery of evt_qvk5EfTP8M3q9WZOxnlZ…'), and the state of the delivery was never seen.
  for (const columns of [40, 60]) {
    it(`at ${columns} columns the status line says the delivery's state (its id is shown above), not the start of a cut line`, async () => {
      terminal = Terminal.start(['streams', 'test', 'est_demoClosedPort00000000', '--event-type', 'user.created', '--wait'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns });
      const t = terminal;
      await t.waitFor(/Failed 1 time so far/);
      const row = t.rows().find((line) => line.startsWith('Failed 1 time so far'))!;
      expect(row).toMatch(columns === 40 ? /^Failed 1 time so far, retries to com…$/ : /^Failed 1 time so far, retries to co… \(waited \d+ s of 60 s\)$/);
      expect([...row].length).toBeLessThan(columns - 2);
      t.keys('C-c');
      expect(await t.exitCode()).toBe(130);
    });
  }

  it('Ctrl-C while waiting (the status line cut to 80 columns): exit 130, the status line gone (the echoed ^C with it), and where to see the event sent', async () => {
    terminal = Terminal.start(['streams', 'test', 'est_demoClosedPort00000000', '--event-type', 'user.created', '--wait'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns: 80 });
    const t = terminal;
    await t.waitFor(/Failed 1 time so far, retries to come \(waited \d+ s of 60 s\)/); // the state, then the time waited
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    const rows = t.rows();
    expect(rows.join('\n')).not.toContain('Delivery of');
    expect(rows.filter((row) => row.includes('^'))).toEqual([]);
    expect(rows.filter((row) => row.startsWith('Error:'))).toEqual(['Error: Interrupted.']);
    expect(t.screen()).toMatch(/\nEvent time {4}\S+\nError: Interrupted\.\nThe test event was sent; see how it went with 'idm streams deliveries show est_demoClosedPort00000000 evt_\w{22}'\.\n*$/);
  });
});

describe.skipIf(!run)('provisioning update in a terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: connectionsSeed(2) });
    // A configuration to change: the strategy's default mapping, no automatic synchronization, groups off.
    expect((await h.idm(['provisioning', 'create', gappsId(1), '--sync-groups', 'off'])).code).toBe(0);
    // And one with a mapping of one row.
    expect((await h.idm(['provisioning', 'create', gappsId(2), '--mapping', 'email=primaryEmail'])).code).toBe(0);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('without flags: the wizard from the current settings, a summary of what changes, and a PATCH of only that', async () => {
    const t = open(h, ['provisioning', 'update', gappsId(1)]);
    await t.waitFor('What next?');
    expect(t.screen()).toContain('the current mapping');
    t.keys('Enter'); // keep the mapping
    await t.waitFor('Synchronize users automatically');
    t.type('y');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter'); // off, as it was
    const screen = await t.waitFor(`Change the directory provisioning of ${gappsId(1)}?`);
    expect(screen).toMatch(/Synchronize automatically\s+no → yes/);
    expect(screen).not.toMatch(/Synchronize groups\s+off →/);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const patches = h.calls('PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.json).toEqual({ synchronize_automatically: true });
  });

  it('at 40 columns the mapping is not padded into a column that would wrap every row: a short row stays one line', async () => {
    terminal = Terminal.start(['provisioning', 'update', gappsId(1)], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin'), columns: 40 });
    const t = terminal;
    await t.waitFor('What next?');
    const rows = t.rows();
    expect(rows).toContain('   2. email = primaryEmail');
    expect(rows).toContain('   1. app_metadata.external_id = id');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('every row removed: continuing is not offered (PATCH applies no default); a row added, the whole mapping is sent and nobody is told nothing changed', async () => {
    const t = open(h, ['provisioning', 'update', gappsId(2)]);
    await t.waitFor('Mapping: 1 row. What next?');
    t.keys('Down', 'Down', 'Enter'); // Remove a row
    await t.waitFor('Row to remove');
    t.keys('Enter');
    await t.waitFor('Removed email = primaryEmail');
    const screen = await t.waitFor('Mapping: 0 rows. What next?');
    expect(screen).toContain('The mapping is empty: a configuration needs at least one row.');
    expect(screen).toContain('a mapping needs at least one row');
    expect(screen).not.toContain("Continue with the strategy's default");
    expect(screen).toContain('Start again from the current mapping');
    t.keys('Enter'); // the cursor skips the choice that cannot be taken: Add a row
    await t.waitFor('Platform attribute');
    t.type('email');
    t.keys('Enter');
    await t.waitFor('Identity-provider attribute for email');
    t.type('primaryEmailAlias');
    t.keys('Enter');
    await t.waitFor('Mapping: 1 row. What next?', 2);
    t.keys('Enter'); // keep it
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter');
    const changes = await t.waitFor(`Change the directory provisioning of ${gappsId(2)}?`);
    expect(changes).toMatch(/changed\s+email = primaryEmailAlias \(was primaryEmail\)/);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).not.toContain('Nothing changed');
    expect(h.calls('PATCH').map((call) => call.json)).toEqual([{ mapping: [{ platform: 'email', idp: 'primaryEmailAlias' }] }]);
  });

  it('entries of the current mapping it cannot send back are named at the start, and a changed mapping lists them as dropped before the confirmation', async () => {
    const id = gappsId(1);
    const current = JSON.parse((await h.idm(['provisioning', 'show', id, '--json'])).stdout);
    const mapping = [
      { platform: 'email', idp: 'primaryEmail' },
      { platform: 'external_id', idp: 'id' },
      { platform: 'bell\u0007', idp: 'x' },
      { platform: 'count', idp: 5 },
      { platform: 'family_name', idp: 'name.familyName', transform: 'lowercase' },
    ];
    h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'GET', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ ...current, mapping }) });
    const t = open(h, ['provisioning', 'update', id]);
    let screen = await t.waitFor('Mapping: 2 rows. What next?');
    expect(screen).toContain('Left out 3 entries of the current mapping that cannot be sent back');
    expect(screen).toMatch(/^ {2}bell\\x07 = x$/m);
    expect(screen).toMatch(/^ {2}\{"platform":"count","idp":5\}$/m);
    // A row with a field besides platform and idp: shown whole, the field is why.
    expect(screen).toMatch(/^ {2}\{"platform":"family_name","idp":"name.familyName","transform":"lowercase"\}$/m);
    t.keys('Down', 'Down', 'Enter'); // Remove a row
    await t.waitFor('Row to remove');
    t.keys('Enter'); // email
    await t.waitFor('Mapping: 1 row. What next?');
    t.keys('Enter');
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter');
    screen = await t.waitFor(`Change the directory provisioning of ${id}?`);
    const changes = screen.slice(screen.lastIndexOf('Changes'));
    expect(changes).toMatch(/removed\s+email = primaryEmail/);
    expect(changes).toMatch(/dropped\s+bell\\x07 = x \(cannot be sent back\)/);
    expect(changes).toMatch(/dropped\s+\{"platform":"count","idp":5\} \(cannot be sent back\)/);
    expect(changes).toMatch(/dropped\s+\{"platform":"family_name","idp":"name.familyName","transform":"lowercase"\} \(cannot be sent back\)/);
    t.type('n');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('a current configuration without a mapping list: the wizard stops before any question (it would make one add a row and send it as the whole mapping)', async () => {
    const id = gappsId(1);
    const current = JSON.parse((await h.idm(['provisioning', 'show', id, '--json'])).stdout);
    delete current.mapping;
    h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'GET', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(current) });
    const t = open(h, ['provisioning', 'update', id]);
    // The error, or (what it was) the mapping's first question, starting from no rows.
    const screen = await t.waitFor(/no mapping list|What next\?/);
    expect(screen).toContain(`The current configuration of ${id} has no mapping list idm can read (the answer has none)`);
    expect(screen).not.toContain('What next?');
    expect(await t.exitCode()).toBe(1);
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('an entry left out for an attribute too long, and a group synchronization idm does not know, are said cut, not whole (texts of thousands of characters from the service)', async () => {
    const id = gappsId(1);
    const current = JSON.parse((await h.idm(['provisioning', 'show', id, '--json'])).stdout);
    const mapping = [{ platform: 'email', idp: 'primaryEmail' }, { platform: 'p'.repeat(3000), idp: 'q' }];
    h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'GET', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ ...current, mapping, synchronize_groups: 'n'.repeat(3000) }) });
    const t = open(h, ['provisioning', 'update', id]);
    let screen = await t.waitFor('Mapping: 1 row. What next?');
    expect(screen).toContain(`Left out 1 entry of the current mapping that cannot be sent back`);
    expect(screen).toContain(`\n  ${'p'.repeat(100)}… (2900 more characters) = q\n`);
    expect(screen).toContain(`The current group synchronization, ${'n'.repeat(100)}… (2900 more characters), is not one idm knows`);
    t.keys('Enter');
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter'); // off
    screen = await t.waitFor(`Change the directory provisioning of ${id}?`);
    expect(screen).toContain(`Synchronize groups         ${'n'.repeat(100)}… (2900 more characters) → off`);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('a group synchronization idm does not know is said, and choosing off replaces it (it was taken for off: nothing was sent)', async () => {
    const id = gappsId(1);
    const current = JSON.parse((await h.idm(['provisioning', 'show', id, '--json'])).stdout);
    h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'GET', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ ...current, synchronize_groups: 'nested' }) });
    const t = open(h, ['provisioning', 'update', id]);
    const start = await t.waitFor('What next?');
    expect(start).toContain('The current group synchronization, nested, is not one idm knows (all, off, selected): any choice replaces it.');
    t.keys('Enter');
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter'); // off
    const screen = await t.waitFor(`Change the directory provisioning of ${id}?`);
    expect(screen).toMatch(/Synchronize groups\s+nested → off/);
    expect(screen).not.toMatch(/Synchronize automatically\s/);
    t.type('n');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('a row removed and added back as it was is no change: nothing sent (not a summary calling the mapping unchanged, then a PATCH of it reordered)', async () => {
    const id = 'con_takenTaken000001';
    const t = open(h, ['provisioning', 'update', id]);
    await t.waitFor('What next?');
    t.keys('Down', 'Down', 'Enter'); // Remove a row
    await t.waitFor('Row to remove');
    t.keys('Enter'); // row 1: app_metadata.external_id = id
    await t.waitFor('Removed app_metadata.external_id = id');
    await t.waitFor('What next?', 2);
    t.keys('Down', 'Down', 'Down', 'Enter'); // Add a row
    await t.waitFor('Platform attribute');
    t.type('app_metadata.external_id');
    t.keys('Enter');
    await t.waitFor('Identity-provider attribute for app_metadata.external_id');
    t.type('id');
    t.keys('Enter');
    await t.waitFor('What next?', 3);
    t.keys('Enter');
    await t.waitFor('Synchronize users automatically');
    t.keys('Enter');
    await t.waitFor('Group synchronization');
    t.keys('Enter');
    const screen = await t.waitFor(/Nothing changed: nothing was sent\.|Change the directory provisioning/);
    expect(screen).toContain('Nothing changed: nothing was sent.');
    expect(await t.exitCode()).toBe(0);
    expect(h.calls('PATCH')).toEqual([]);
  });

  it('changing nothing sends nothing and says so; Ctrl-C at a question sends nothing either', async () => {
    const same = open(h, ['provisioning', 'update', gappsId(1)]);
    await same.waitFor('What next?');
    same.keys('Enter');
    await same.waitFor('Synchronize users automatically');
    same.keys('Enter');
    await same.waitFor('Group synchronization');
    same.keys('Enter');
    expect(await same.exitCode()).toBe(0);
    expect(same.screen()).toContain('Nothing changed: nothing was sent.');
    same.close();

    const stopped = open(h, ['provisioning', 'update', gappsId(1)]);
    await stopped.waitFor('What next?');
    stopped.keys('C-c');
    expect(await stopped.exitCode()).toBe(130);
    expect(h.calls('PATCH')).toEqual([]);
  });
});

describe.skipIf(!run)('provisioning wizard: a tenant with more connections than the list offers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: connectionsSeed(1_150) });
  });
  afterAll(() => h.close());

  // Every page was read (12 of 100 here) though the list keeps the first 1,000: on a large tenant,
  // requests (and rate limit) spent before the first question on connections never shown.
  it('reads the pages of connections up to the 1,000 the list offers, not the ones after', async () => {
    h.mark();
    terminal = Terminal.start(['provisioning', 'create'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin') });
    const t = terminal;
    await t.waitFor('navigate');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    // The 10 pages of the first 1,000, and at most the one paginate asks for ahead (then abandoned).
    const pages = h.calls('GET').filter((call) => call.path === '/api/v2/connections').length;
    expect(pages).toBeGreaterThanOrEqual(10);
    expect(pages).toBeLessThanOrEqual(11);
  });

  // The connections after the first 1,000 could not be chosen at all (only given as the argument).
  it('a connection after the first 1,000 can be typed: the list ends with a choice that asks for its id', async () => {
    terminal = Terminal.start(['provisioning', 'create'], { configDir: h.configDir, env: credentialsEnv(h.sandbox, 'admin') });
    const t = terminal;
    await t.waitFor('navigate');
    t.keys('Up'); // the list loops: from the first choice to the last
    await t.waitFor('❯ Another connection: type its id (this list shows the first 1,000)');
    t.keys('Enter');
    await t.waitFor('Connection id (con_…)');
    t.type(gappsId(1_150));
    t.keys('Enter');
    const screen = await t.waitFor('What next?');
    expect(screen).toContain(`The service shows no default mapping for ${gappsId(1_150)} before it has provisioning`);
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });
});
