// idm provisioning show (alias get) against the sandbox: the settings and the mapping (TSV when
// piped, aligned fields and a table at a terminal), --json exactly as received, the last
// synchronization after one ran on the sandbox's clock, the service's 404s and 403, and local
// validation that sends nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { direct } from '../../helpers/sandbox.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
let clock = T0;
let h: Harness;

const SHOWN = 'con_showConfigured01';
const FAILS = 'con_showFailing00001';
const FRESH = 'con_showFresh0000001';
const SAML = 'con_showSaml00000001';
const seed = {
  connections: [
    {
      id: SHOWN,
      name: 'google-shown',
      strategy: 'google-apps',
      provisioning: { mapping: [{ platform: 'email', idp: 'primaryEmail' }, { platform: 'name', idp: 'name.fullName' }], synchronize_automatically: true, synchronize_groups: 'all' },
    },
    { id: FAILS, name: 'google-failing', strategy: 'google-apps', provisioning: { mapping: [{ platform: 'email', idp: 'primaryEmail' }] }, syncError: 'The directory refused the credentials: invalid_grant.' },
    { id: FRESH, name: 'google-fresh', strategy: 'google-apps' },
    { id: SAML, name: 'saml', strategy: 'samlp' },
  ],
};

beforeAll(async () => {
  h = await startHarness({ seed, syncDurationMs: 0, now: () => clock });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

describe('idm provisioning show', () => {
  it('piped: label<TAB>value lines, then one mapping<TAB>platform<TAB>idp line per row; one GET', async () => {
    const result = await h.idm(['provisioning', 'show', SHOWN]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `Connection\t${SHOWN}`,
        'Name\tgoogle-shown',
        'Strategy\tgoogle-apps',
        'Synchronize automatically\tyes',
        'Synchronize groups\tall',
        'Created\t2030-01-01T00:00:00.000Z',
        'Updated\t2030-01-01T00:00:00.000Z',
        'mapping\temail\tprimaryEmail',
        'mapping\tname\tname.fullName',
        '',
      ].join('\n'),
    );
    expect(h.calls().map((call) => `${call.method} ${call.url}`)).toEqual([`GET /api/v2/connections/${SHOWN}/directory-provisioning`]);
  });

  it('get is an alias of show', async () => {
    const result = await h.idm(['provisioning', 'get', SHOWN]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Connection\t${SHOWN}\n`);
    expect(h.calls('GET')).toHaveLength(1);
  });

  it('at a terminal: aligned fields, a blank line, and the mapping as a table', async () => {
    const result = await h.idm(['provisioning', 'show', SHOWN], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Connection\\s{2,}${SHOWN}\n`));
    expect(result.stdout).toMatch(/\nSynchronize automatically {2}yes\n/);
    expect(result.stdout).toMatch(/\nSynchronize groups\s+all\n/);
    expect(result.stdout).toMatch(/\n\nPlatform attribute\s+Identity-provider attribute\nemail\s+primaryEmail\nname\s+name\.fullName\n$/);
    expect(result.stdout).not.toMatch(/[\t│┌]/);
  });

  it('--json prints exactly the configuration the service returned (same keys, same order)', async () => {
    const service = (await direct(h.sandbox, `/connections/${SHOWN}/directory-provisioning`)).text;
    h.mark();
    const result = await h.idm(['provisioning', 'show', SHOWN, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.stringify(JSON.parse(result.stdout))).toBe(JSON.stringify(JSON.parse(service)));
  });

  it('after a failed synchronization: its time (sandbox clock), status and error', async () => {
    clock = T0 + 42 * 60_000;
    expect((await h.idm(['provisioning', 'sync', FAILS])).code).toBe(0);
    await h.sandbox.idle();
    const result = await h.idm(['provisioning', 'show', FAILS]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('Last synchronization\t2030-01-01T00:42:00.000Z');
    expect(lines).toContain('Last synchronization status\tfailed');
    expect(lines).toContain('Last synchronization error\tThe directory refused the credentials: invalid_grant.');
  });

  it('without a synchronization, prints no last-synchronization lines', async () => {
    const result = await h.idm(['provisioning', 'show', SHOWN]);
    expect(result.stdout).not.toMatch(/Last synchronization/);
  });
});

describe('idm provisioning show: errors of the service', () => {
  // The two 404s differ by their error code: only inexistent_connection means a wrong id.
  it('404 for a connection without provisioning: the service message and the command that sets it up (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'show', FRESH]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(FRESH);
    expect(result.stderr).toContain('Directory provisioning configuration not found');
    expect(result.stderr).toMatch(/404/);
    expect(result.stderr).toContain(
      `It has no directory provisioning yet. If its strategy supports it (google-apps; 'idm connections list' shows each connection's strategy), set it up with 'idm provisioning create ${FRESH}'.`,
    );
    expect(result.stderr).not.toContain('Check the id');
  });

  // The 404 does not name the strategy: create is offered only on the condition that it supports it
  // (a samlp connection would answer create with 400).
  it.each([
    ['update', ['provisioning', 'update', SAML, '--sync-automatically']],
    ['groups add', ['provisioning', 'groups', 'add', SAML, 'group1']],
    ['sync', ['provisioning', 'sync', SAML]],
  ])('%s on a connection whose strategy has no provisioning: create is offered only where the strategy supports it', async (_name, args) => {
    const result = await h.idm(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Directory provisioning configuration not found');
    expect(result.stderr).toContain(`If its strategy supports it (google-apps; 'idm connections list' shows each connection's strategy), set it up with 'idm provisioning create ${SAML}'.`);
    expect(result.stderr).not.toMatch(/yet: set it up with/);
  });

  it('404 for a connection that does not exist: to check the id, with the command that lists them (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'show', 'con_doesNotExist0001']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/con_doesNotExist0001.*The connection does not exist.*404/);
    expect(result.stderr).toContain("Check the id ('idm connections list' shows the tenant's connections).");
    expect(result.stderr).not.toContain('idm provisioning create');
  });

  it('--json: the error is one JSON object on stderr, stdout empty', async () => {
    const result = await h.idm(['--json', 'provisioning', 'show', FRESH]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 404, exitCode: 1 } });
  });

  it('403: names the missing scope read:directory_provisionings (exit 4)', async () => {
    const result = await h.idm(['provisioning', 'show', SHOWN], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('read:directory_provisionings');
  });

  it('an error answer that is not JSON (an HTML page) is exit 1 with its status, nothing on stdout', async () => {
    h.sandbox.addFault({ path: `/api/v2/connections/${SHOWN}/directory-provisioning`, kind: 'status', status: 400, body: '<html><body>Bad gateway config</body></html>', headers: { 'content-type': 'text/html' } });
    try {
      const result = await h.idm(['provisioning', 'show', SHOWN]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/400/);
      expect(result.stderr).not.toContain('<html>');
    } finally {
      h.sandbox.clearFaults();
    }
  });
});

describe('idm provisioning show: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a missing connection id', [], /Missing <connection-id>/],
    ['a connection id that is too short', ['con_bad'], /Not a connection id: "con_bad"/],
    ['a connection id with a slash', ['con_a/b4567890123456'], /Not a connection id/],
    ['a connection id without con_', ['googleAppsDemo01abcd'], /Not a connection id/],
    // The 16 characters after con_: the id is named, as it can be pasted.
    ['the rest of a connection id, without con_', ['googleAppsDemo01'], /\(it has 16 characters\)\. Did you mean con_googleAppsDemo01\?\n/],
    ['two connection ids', [SHOWN, FAILS], /Too many arguments/],
    ['an unknown flag', [SHOWN, '--yes'], /Unknown flag --yes/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await h.idm(['provisioning', 'show', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});
