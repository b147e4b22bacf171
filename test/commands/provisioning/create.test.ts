// idm provisioning create from flags, run in process against the sandbox: the body the sandbox
// received, the output with and without a terminal, --json, local validation that sends nothing, and
// the service's 400, 403, 404 and 409. The wizard's prompts are driven in a real terminal in
// test/e2e/wizard-terminal.test.ts; its summary is in wizard.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectionsSeed, gappsId, startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

let h: Harness;
let next = 0;
/** A google-apps connection no test has configured yet. */
const fresh = () => gappsId(++next);
const files = mkdtempSync(join(tmpdir(), 'idm-mapping-'));

beforeAll(async () => {
  h = await startHarness({ seed: connectionsSeed(20) });
});
afterAll(async () => {
  await h.close();
  rmSync(files, { recursive: true, force: true });
});
beforeEach(() => h.mark());

const posts = () => h.calls('POST');

describe('idm provisioning create: from flags', () => {
  it('sends exactly what the flags say and prints the configuration (piped: label<TAB>value lines)', async () => {
    const id = fresh();
    const result = await h.idm([
      'provisioning', 'create', id,
      '--mapping', 'external_id=id', '--mapping', 'email=primaryEmail',
      '--sync-automatically', '--sync-groups', 'selected',
    ]);
    expect(result.code).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.path).toBe(`/api/v2/connections/${id}/directory-provisioning`);
    expect(posts()[0]!.json).toEqual({
      mapping: [
        { platform: 'external_id', idp: 'id' },
        { platform: 'email', idp: 'primaryEmail' },
      ],
      synchronize_automatically: true,
      synchronize_groups: 'selected',
    });
    // selected, and no group listed yet: none is synchronized until some are added.
    expect(result.stderr).toContain(`No group is listed for ${id}: with group synchronization "selected", none is synchronized until some are added: idm provisioning groups add ${id} GROUP_ID\n`);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `Connection\t${id}`,
        'Strategy\tgoogle-apps',
        'Synchronize automatically\tyes',
        'Synchronize groups\tselected',
        'mapping\texternal_id\tid',
        'mapping\temail\tprimaryEmail',
      ]),
    );
    expect(result.stderr).toMatch(/Created directory provisioning for .* with 2 mapped attributes/);
  });

  it('at a terminal, prints the settings and the mapping as a table', async () => {
    const id = fresh();
    const result = await h.idm(['provisioning', 'create', id, '--mapping', 'email=primaryEmail', '--no-sync-automatically'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({ mapping: [{ platform: 'email', idp: 'primaryEmail' }], synchronize_automatically: false });
    expect(result.stdout).toMatch(new RegExp(`Connection\\s+${id}`));
    expect(result.stdout).toMatch(/Synchronize automatically\s+no/);
    expect(result.stdout).toMatch(/\n\nPlatform attribute\s+Identity-provider attribute\nemail\s+primaryEmail\n/);
    expect(result.stdout).not.toMatch(/[\t│┌]/);
  });

  it('with --json prints the configuration as received', async () => {
    const id = fresh();
    const result = await h.idm(['provisioning', 'create', id, '--sync-groups', 'all', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ connection_id: id, strategy: 'google-apps', synchronize_groups: 'all' });
    expect(record.mapping.length).toBeGreaterThan(1); // the strategy's default, filled in by the service
    expect(posts()[0]!.json).toEqual({ synchronize_groups: 'all' });
  });

  it('with --no-input at a terminal and no settings, never asks and sends an empty body', async () => {
    const id = fresh();
    const result = await h.idm(['--no-input', 'provisioning', 'create', id], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.json).toEqual({});
    expect(h.calls('GET')).toEqual([]); // no default mapping fetched: no wizard
    expect(result.stderr).not.toMatch(/\?/);
  });

  it('with stderr redirected (idm provisioning create 2>log), never asks: a missing id is a usage error', async () => {
    // stdin and stdout are terminals, stderr (where prompts are drawn) is not.
    const result = await h.idm(['provisioning', 'create'], { env: { IDM_FORCE_TTY: 'stdin,stdout', NO_COLOR: '1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: Missing the connection id.*\nidm cannot ask here \(stderr is not a terminal\): give the id;/);
    expect(h.received()).toEqual([]);
  });

  it('with stdout piped from a terminal (idm provisioning create | tee log), the missing id says why the wizard did not open', async () => {
    const result = await h.idm(['provisioning', 'create'], { env: { IDM_FORCE_TTY: 'stdin,stderr', NO_COLOR: '1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: Missing the connection id.*\nidm cannot ask here \(stdout is not a terminal\): give the id;/);
    expect(h.received()).toEqual([]);
  });

  it('without a terminal and no settings, sends an empty body', async () => {
    const id = fresh();
    const result = await h.idm(['provisioning', 'create', id]);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({});
  });

  it('reads the mapping from a file', async () => {
    const id = fresh();
    const file = join(files, 'mapping.json');
    writeFileSync(file, JSON.stringify([{ platform: 'email', idp: 'primaryEmail' }, { platform: 'name', idp: 'name.fullName' }]));
    const result = await h.idm(['provisioning', 'create', id, '--mapping-file', file]);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({ mapping: [{ platform: 'email', idp: 'primaryEmail' }, { platform: 'name', idp: 'name.fullName' }] });
  });

  it('reads the mapping from stdin with --mapping-file -', async () => {
    const id = fresh();
    const result = await h.idm(['provisioning', 'create', id, '--mapping-file', '-'], { input: '[{"platform":"email","idp":"primaryEmail"}]' });
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({ mapping: [{ platform: 'email', idp: 'primaryEmail' }] });
  });
});

describe('idm provisioning create: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp, string?, Record<string, string>?]> = [
    ['a missing connection id without a terminal', [], /Missing the connection id/],
    ['a missing connection id with --no-input', ['--no-input'], /Missing the connection id.*\nidm cannot ask here \(--no-input\)/],
    ['a --mapping without =', ['CONN', '--mapping', 'email'], /must be platform=idp/],
    ['an empty platform attribute', ['CONN', '--mapping', '=primaryEmail'], /entry 1 \(platform\): the platform attribute must not be empty/],
    ['an empty identity-provider attribute', ['CONN', '--mapping', 'email= '], /entry 1 \(idp\): the identity-provider attribute must not be empty/],
    ['a platform attribute mapped twice', ['CONN', '--mapping', 'email=a', '--mapping', 'email=b'], /entry 2 \(platform\): platform attribute "email" is mapped more than once/],
    ['an empty mapping file', ['CONN', '--mapping-file', '-'], /needs at least one entry/, '[]'],
    ['a mapping file that is not JSON', ['CONN', '--mapping-file', '-'], /is not valid JSON/, '[{'],
    ['a mapping file that is not an array', ['CONN', '--mapping-file', '-'], /must hold a JSON array.*not an object/, '{"platform":"a","idp":"b"}'],
    ['an entry with an unknown field', ['CONN', '--mapping-file', '-'], /entry 1/, '[{"platform":"a","idp":"b","extra":1}]'],
    ['an unknown --sync-groups value', ['CONN', '--sync-groups', 'selcted'], /--sync-groups must be one of: all, off, selected, not "selcted"\./],
    ['--mapping with --mapping-file', ['CONN', '--mapping', 'a=b', '--mapping-file', 'x.json'], /--mapping and --mapping-file contradict each other: each gives the whole mapping\.\n/],
    ['--sync-automatically with --no-sync-automatically', ['CONN', '--sync-automatically', '--no-sync-automatically'], /--sync-automatically and --no-sync-automatically contradict each other: give one\./],
    ['two different --sync-groups', ['CONN', '--sync-groups', 'all', '--sync-groups', 'off'], /--sync-groups is given twice \(all and off\): give it once\./],
    ['two --mapping-file', ['CONN', '--mapping-file', 'a.json', '--mapping-file', 'b.json'], /--mapping-file is given twice \(a\.json and b\.json\): give it once\./],
    ['a connection id with a slash', ['con_a/b'], /Not a connection id: "con_a\/b"\. A connection id is con_ and 16 letters or digits/],
    ['--mapping-file - when stdin is a terminal', ['CONN', '--mapping-file', '-'], /--mapping-file - reads stdin, which is a terminal here/, undefined, { IDM_FORCE_TTY: 'stdin' }],
  ];
  for (const [name, args, message, input, env] of cases) {
    it(name, async () => {
      const id = fresh();
      const isGlobal = args[0] === '--no-input';
      const argv = isGlobal ? ['--no-input', 'provisioning', 'create', ...args.slice(1)] : ['provisioning', 'create', ...args.map((a) => (a === 'CONN' ? id : a))];
      const result = await h.idm(argv, { input, env: env ?? (isGlobal ? { IDM_FORCE_TTY: 'all' } : undefined) });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});

describe('idm provisioning create: errors of the service', () => {
  it('409: says provisioning already exists on the connection and how to see or change it (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'create', 'con_takenTaken000001', '--sync-groups', 'off']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('con_takenTaken000001');
    expect(result.stderr).toMatch(/409/);
    expect(result.stderr).toMatch(/already exists/);
    expect(result.stderr).toContain("see it with 'idm provisioning show con_takenTaken000001', change it with 'idm provisioning update con_takenTaken000001'");
    expect(posts()).toHaveLength(1);
  });

  it('404: names the connection (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'create', 'con_doesNotExist0001']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/con_doesNotExist0001.*does not exist.*404/);
  });

  it("400: shows the server's message (a strategy without provisioning) and which strategies can have it", async () => {
    const result = await h.idm(['provisioning', 'create', 'con_database00000001']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The connection strategy does not support inbound directory provisioning');
    expect(result.stderr).toMatch(/400/);
    expect(result.stderr).toContain("\nStrategies that support it: google-apps ('idm connections list' shows each connection's strategy).\n");
  });

  it('403: names the missing scope create:directory_provisionings (exit 4)', async () => {
    const result = await h.idm(['provisioning', 'create', fresh()], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('create:directory_provisionings');
  });

  // A 403 about the tenant (wire-facts.md), not the token: no scope grants it, so none is named.
  const featureOff = (path: string, method: string, message: string) =>
    h.sandbox.addFault({ path, method, kind: 'status', status: 403, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message }) });
  const FEATURE_OFF = 'The inbound directory provisioning feature is not enabled for this tenant';

  it('403 "feature is not enabled for this tenant": the service\'s words, a hint that is not about scopes (exit 4)', async () => {
    const id = fresh();
    featureOff(`/api/v2/connections/${id}/directory-provisioning`, 'POST', FEATURE_OFF);
    try {
      const result = await h.idm(['provisioning', 'create', id, '--json']);
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      const error = JSON.parse(result.stderr.trim().split('\n').at(-1)!).error;
      expect(error.message).toBe(`Could not create directory provisioning for connection ${id}: ${FEATURE_OFF} (403 forbidden).`);
      expect(error.hint).toBe("Directory provisioning is enabled per tenant by the service, not by a scope: ask the service's support to enable it for this tenant.");
      expect(error.scope).toBeUndefined();
      expect(posts()).toHaveLength(1);
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it('403 "Group synchronization is not enabled for this tenant" on create: the hint turns it off with the same command\'s flag (there is nothing to update yet)', async () => {
    const id = fresh();
    featureOff(`/api/v2/connections/${id}/directory-provisioning`, 'POST', 'Group synchronization is not enabled for this tenant');
    try {
      const result = await h.idm(['provisioning', 'create', id, '--sync-groups', 'all']);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('Meanwhile users can still be synchronized with group synchronization off (with --sync-groups off).\n');
      expect(result.stderr).not.toContain('provisioning update');
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it('at a terminal, a 403 "feature is not enabled" to the first GET ends the wizard with it, before any question (exit 4)', async () => {
    const id = fresh();
    featureOff(`/api/v2/connections/${id}/directory-provisioning`, 'GET', FEATURE_OFF);
    try {
      const result = await h.idm(['provisioning', 'create', id], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`Error: Could not read the directory provisioning of connection ${id}: ${FEATURE_OFF} (403 forbidden).`);
      expect(result.stderr).toContain('not by a scope');
      expect(result.stderr).not.toContain('Grant the scope');
      expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`GET /api/v2/connections/${id}/directory-provisioning`]);
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it('at a terminal without a connection id, a 403 "feature is not enabled" to the list of configurations ends the wizard before the connection is asked (exit 4)', async () => {
    featureOff('/api/v2/connections-directory-provisionings', 'GET', FEATURE_OFF);
    try {
      const result = await h.idm(['provisioning', 'create'], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
      expect(result.code).toBe(4);
      expect(result.stderr).not.toContain('Connection to set up');
      expect(result.stderr).toContain(`Error: Could not list directory provisioning configurations: ${FEATURE_OFF} (403 forbidden).`);
      expect(result.stderr).toContain('not by a scope');
      expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual(['GET /api/v2/connections', 'GET /api/v2/connections-directory-provisionings']);
    } finally {
      h.sandbox.clearFaults();
    }
  });

  // The wizard checks the connection before its first question: a connection that does not exist,
  // or does not support provisioning, ends it there (stdin need not be a terminal for that).
  it('at a terminal, a connection that does not exist ends the wizard before any question (exit 1): the code of the first 404 says so', async () => {
    const result = await h.idm(['provisioning', 'create', 'con_doesNotExist0001'], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: There is no connection con_doesNotExist0001 in the tenant.');
    expect(result.stderr).toContain("Check the id ('idm connections list' shows the tenant's connections).");
    // 404 inexistent_connection to the first GET: nothing else is asked of the service.
    expect(h.calls('GET').map((call) => call.path)).toEqual(['/api/v2/connections/con_doesNotExist0001/directory-provisioning']);
    expect(posts()).toEqual([]);
  });

  it('at a terminal, a strategy without provisioning ends the wizard with the service message (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'create', 'con_database00000001'], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
    expect(result.code).toBe(1);
    // The service's sentence, as it said it: nothing of idm's own message around it.
    expect(result.stderr).toContain('Error: Connection con_database00000001 cannot have directory provisioning: The connection strategy does not support inbound directory provisioning.\n');
    expect(posts()).toEqual([]);
  });

  it('with --json, an error is one JSON object on stderr and stdout stays empty', async () => {
    const result = await h.idm(['--json', 'provisioning', 'create', 'con_takenTaken000001']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 409, exitCode: 1 } });
  });
});
