// idm provisioning update from flags against the sandbox: the PATCH body holds only what the flags
// change (--mapping replaces the whole mapping; --add-mapping / --remove-mapping read the current one
// and send it whole), the output with and without a terminal, --json as received, local validation
// that sends nothing (or, for edits of the current mapping, nothing but the read), and the service's
// 404 and 403.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

const START = [
  { platform: 'external_id', idp: 'id' },
  { platform: 'email', idp: 'primaryEmail' },
  { platform: 'is_admin', idp: 'isAdmin' },
];
const COUNT = 29;
const conn = (n: number) => `con_update${String(n).padStart(10, '0')}`;
const FRESH = 'con_updateFresh00001';

let h: Harness;
let next = 0;
/** A configured connection no test has changed yet: mapping START, automatic sync off, groups off. */
const configured = () => conn(++next);

beforeAll(async () => {
  h = await startHarness({
    seed: {
      connections: [
        ...Array.from({ length: COUNT }, (_, i) => ({ id: conn(i + 1), name: `update-${i + 1}`, strategy: 'google-apps', provisioning: { mapping: START } })),
        { id: FRESH, name: 'fresh', strategy: 'google-apps' },
      ],
    },
  });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

const patches = () => h.calls('PATCH');
const path = (id: string) => `/api/v2/connections/${id}/directory-provisioning`;

describe('idm provisioning update: the PATCH body', () => {
  it('--sync-groups sends only synchronize_groups, reads nothing first', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--sync-groups', 'selected']);
    expect(result.code).toBe(0);
    // After it, selected: whether any group is listed (none here: the note says so).
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`PATCH ${path(id)}`, `GET ${path(id)}/synchronized-groups`]);
    expect(patches()[0]!.json).toEqual({ synchronize_groups: 'selected' });
    expect(patches()[0]!.headers['content-type']).toMatch(/^application\/json/);
  });

  it('--sync-groups selected with no group listed: the note says none is synchronized and names groups add; with one listed, no note', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--sync-groups', 'selected']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `Updated directory provisioning for ${id} with 3 mapped attributes.\n` +
        `No group is listed for ${id}: with group synchronization "selected", none is synchronized until some are added: idm provisioning groups add ${id} GROUP_ID\n`,
    );
    expect((await h.idm(['provisioning', 'groups', 'add', id, '03ep43zb1xk6ay0'])).code).toBe(0);
    const again = await h.idm(['provisioning', 'update', id, '--sync-groups', 'selected']);
    expect(again.stderr).toBe(`Updated directory provisioning for ${id} with 3 mapped attributes.\n`);
    // --json: the answer only, and no read after it.
    h.mark();
    const json = await h.idm(['provisioning', 'update', configured(), '--sync-groups', 'selected', '--json']);
    expect(json.stderr).toBe('');
    expect(h.calls('GET')).toEqual([]);
  });

  it('--sync-automatically sends true; --no-sync-automatically sends false', async () => {
    const id = configured();
    expect((await h.idm(['provisioning', 'update', id, '--sync-automatically'])).code).toBe(0);
    expect((await h.idm(['provisioning', 'update', id, '--no-sync-automatically'])).code).toBe(0);
    expect(patches().map((call) => call.json)).toEqual([{ synchronize_automatically: true }, { synchronize_automatically: false }]);
  });

  it('--mapping (repeated) replaces the whole mapping with exactly those rows, in order', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--mapping', 'email=primaryEmail', '--mapping', ' name = name.fullName ']);
    expect(result.code).toBe(0);
    expect(h.calls('GET')).toEqual([]);
    expect(patches()[0]!.json).toEqual({ mapping: [{ platform: 'email', idp: 'primaryEmail' }, { platform: 'name', idp: 'name.fullName' }] });
    expect(result.stdout.split('\n').filter((line) => line.startsWith('mapping\t'))).toEqual(['mapping\temail\tprimaryEmail', 'mapping\tname\tname.fullName']);
  });

  it('--mapping-file - reads the whole mapping from stdin', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--mapping-file', '-', '--sync-groups', 'off'], { input: '[{"platform":"email","idp":"primaryEmail"}]' });
    expect(result.code).toBe(0);
    expect(patches()[0]!.json).toEqual({ mapping: [{ platform: 'email', idp: 'primaryEmail' }], synchronize_groups: 'off' });
  });

  it('--add-mapping reads the current mapping and sends it whole with the new row at the end', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'nickname=name.givenName']);
    expect(result.code).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`GET ${path(id)}`, `PATCH ${path(id)}`]);
    expect(patches()[0]!.json).toEqual({ mapping: [...START, { platform: 'nickname', idp: 'name.givenName' }] });
  });

  it('--remove-mapping sends the current mapping without that row; other settings are not sent', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'is_admin']);
    expect(result.code).toBe(0);
    expect(patches()[0]!.json).toEqual({ mapping: START.slice(0, 2) });
  });

  it('--remove-mapping of one attribute twice removes its row once, not "the mapping has no row"', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'is_admin', '--remove-mapping', ' is_admin ']);
    expect(result.stderr).toBe(`Updated directory provisioning for ${id} with 2 mapped attributes.\n`);
    expect(result.code).toBe(0);
    expect(patches().map((call) => call.json)).toEqual([{ mapping: START.slice(0, 2) }]);
  });

  it('--add-mapping of one row twice, as it is, adds it once, not "maps twice"', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'nickname=name.givenName', '--add-mapping', ' nickname = name.givenName ']);
    expect(result.stderr).toBe(`Updated directory provisioning for ${id} with 4 mapped attributes.\n`);
    expect(result.code).toBe(0);
    expect(patches().map((call) => call.json)).toEqual([{ mapping: [...START, { platform: 'nickname', idp: 'name.givenName' }] }]);
  });

  it('--remove-mapping x --add-mapping x=new replaces one row and keeps the order of the others', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'email', '--add-mapping', 'email=primaryEmailAlias', '--sync-automatically']);
    expect(result.code).toBe(0);
    expect(patches()[0]!.json).toEqual({
      mapping: [START[0], START[2], { platform: 'email', idp: 'primaryEmailAlias' }],
      synchronize_automatically: true,
    });
  });

  it('the change is kept: show afterwards prints the new settings', async () => {
    const id = configured();
    expect((await h.idm(['provisioning', 'update', id, '--sync-groups', 'all', '--remove-mapping', 'external_id'])).code).toBe(0);
    const shown = await h.idm(['provisioning', 'show', id]);
    expect(shown.stdout).toContain('Synchronize groups\tall\n');
    expect(shown.stdout).not.toContain('mapping\texternal_id\t');
    expect(shown.stdout).toContain('mapping\temail\tprimaryEmail\n');
  });
});

describe('idm provisioning update: output', () => {
  it('piped: the whole configuration as label<TAB>value lines and a note on stderr', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--sync-automatically']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([`Connection\t${id}`, `Name\tupdate-${next}`, 'Strategy\tgoogle-apps', 'Synchronize automatically\tyes', 'Synchronize groups\toff', 'mapping\texternal_id\tid']),
    );
    expect(result.stderr).toBe(`Updated directory provisioning for ${id} with 3 mapped attributes.\n`);
  });

  it('an answer that does not name its connection (tolerated): the note names the connection asked', async () => {
    const id = configured();
    h.sandbox.addFault({ path: path(id), method: 'PATCH', kind: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ synchronize_automatically: true, mapping: START }) });
    const result = await h.idm(['provisioning', 'update', id, '--sync-automatically']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Updated directory provisioning for ${id} with 3 mapped attributes.\n`);
  });

  it('at a terminal: aligned fields and the mapping table', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--sync-groups', 'all'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Synchronize groups\s+all\n/);
    expect(result.stdout).toMatch(/\n\nPlatform attribute\s+Identity-provider attribute\nexternal_id\s+id\nemail\s+primaryEmail\nis_admin\s+isAdmin\n$/);
    expect(result.stdout).not.toContain('\t');
  });

  it('--json prints exactly the configuration the service returned, and no note', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--sync-groups', 'selected', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ connection_id: id, synchronize_groups: 'selected', mapping: START });
    const shown = JSON.parse((await h.idm(['provisioning', 'show', id, '--json'])).stdout);
    expect(JSON.stringify(printed)).toBe(JSON.stringify(shown)); // the PATCH answer is the stored configuration
  });
});

describe('idm provisioning update: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp, string?, Record<string, string>?]> = [
    // Each says why the wizard did not open.
    // Every flag that changes something, --mapping-file and --no-sync-automatically too.
    ['no flag, without a terminal', [], /Nothing to change\.\nidm cannot ask here \(stdin, stdout and stderr are not terminals\): give --mapping, --mapping-file, --add-mapping, --remove-mapping, --sync-automatically, --no-sync-automatically or --sync-groups; run 'idm provisioning update --help'\.\n$/],
    ['no flag, with --no-input at a terminal', ['--no-input'], /Nothing to change\.\nidm cannot ask here \(--no-input\)/, undefined, { IDM_FORCE_TTY: 'all', NO_COLOR: '1' }],
    ['no flag, at a terminal with stdout piped', [], /Nothing to change\.\nidm cannot ask here \(stdout is not a terminal\)/, undefined, { IDM_FORCE_TTY: 'stdin,stderr', NO_COLOR: '1' }],
    ['--sync-automatically with --no-sync-automatically', ['--sync-automatically', '--no-sync-automatically'], /--sync-automatically and --no-sync-automatically contradict each other/],
    ['--no-sync-automatically with --sync-automatically', ['--no-sync-automatically', '--sync-automatically'], /contradict each other/],
    ['--mapping with --add-mapping', ['--mapping', 'a=b', '--add-mapping', 'c=d'], /--mapping and --add-mapping contradict each other/],
    ['--mapping with --remove-mapping', ['--mapping', 'a=b', '--remove-mapping', 'email'], /--mapping and --remove-mapping contradict each other/],
    ['--mapping with --mapping-file', ['--mapping', 'a=b', '--mapping-file', '-'], /--mapping and --mapping-file contradict each other: each gives the whole mapping/, '[{"platform":"c","idp":"d"}]'],
    ['--mapping-file with --add-mapping', ['--mapping-file', '-', '--add-mapping', 'c=d'], /--mapping-file and --add-mapping contradict each other/, '[{"platform":"a","idp":"b"}]'],
    ['a platform attribute mapped twice by --mapping', ['--mapping', 'email=a', '--mapping', 'email=b'], /entry 2 \(platform\): platform attribute "email" is mapped more than once/],
    ['a platform attribute mapped twice in --mapping-file', ['--mapping-file', '-'], /mapped more than once/, '[{"platform":"email","idp":"a"},{"platform":"email","idp":"b"}]'],
    ['a --mapping without =', ['--mapping', 'email'], /--mapping "email" must be platform=idp/],
    ['an --add-mapping without =', ['--add-mapping', 'email'], /must be platform=idp/],
    ['an empty identity-provider attribute', ['--mapping', 'email='], /the identity-provider attribute must not be empty/],
    ['an empty --mapping-file array', ['--mapping-file', '-'], /needs at least one entry/, '[]'],
    // --add-mapping and --remove-mapping read the current mapping: their own values are checked before that read.
    ['an --add-mapping with an empty platform attribute', ['--add-mapping', '=x'], /--add-mapping "=x": the platform attribute must not be empty/],
    ['an --add-mapping with an empty identity-provider attribute', ['--add-mapping', 'email='], /--add-mapping "email=": the identity-provider attribute must not be empty/],
    ['an --add-mapping with a control character', ['--add-mapping', 'nick\u0007name=a'], /the platform attribute holds control or invisible characters/],
    ['an --add-mapping of one platform attribute twice', ['--add-mapping', 'nickname=a', '--add-mapping', 'nickname=b'], /--add-mapping maps "nickname" twice \(to a and to b\)/],
    ['an empty --remove-mapping', ['--remove-mapping', ''], /--remove-mapping "": the platform attribute must not be empty/],
    ['a --remove-mapping with an invisible character', ['--remove-mapping', 'e\u200bmail'], /the platform attribute holds control or invisible characters/],
    ['a --mapping-file that is not JSON', ['--mapping-file', '-'], /is not valid JSON/, 'email=primaryEmail'],
    ['an unknown --sync-groups value', ['--sync-groups', 'selcted'], /--sync-groups must be one of: all, off, selected, not "selcted"\./],
    ['--sync-groups without a value', ['--sync-groups'], /--sync-groups needs a value/],
    ['an unknown flag', ['--mappings', 'a=b'], /Unknown flag --mappings/],
  ];
  for (const [name, args, message, input, env] of cases) {
    it(name, async () => {
      const id = conn(COUNT); // never changed by a test: nothing may reach it
      const argv = args[0] === '--no-input' ? ['--no-input', 'provisioning', 'update', id, ...args.slice(1)] : ['provisioning', 'update', id, ...args];
      const result = await h.idm(argv, { input, env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }

  it('a malformed connection id', async () => {
    const result = await h.idm(['provisioning', 'update', 'con_x', '--sync-groups', 'all']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Not a connection id: "con_x"/);
    expect(h.received()).toEqual([]);
  });

  it('a missing connection id', async () => {
    const result = await h.idm(['provisioning', 'update', '--sync-groups', 'all']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Missing <connection-id>/);
    expect(h.received()).toEqual([]);
  });
});

describe('idm provisioning update: a setting given twice with different values is a contradiction (exit 2)', () => {
  // As --sync-automatically with --no-sync-automatically is refused, so must be two different
  // --sync-groups values, or two different mapping files: idm cannot know which one is meant.
  it('--sync-groups all --sync-groups off: exit 2, nothing sent', async () => {
    const id = configured(); // its own connection: if idm sends the PATCH, no other test is affected
    const result = await h.idm(['provisioning', 'update', id, '--sync-groups', 'all', '--sync-groups', 'off']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--sync-groups/);
    expect(h.received()).toEqual([]);
  });

  it('--mapping-file a.json --mapping-file b.json: exit 2, nothing sent', async () => {
    const id = configured(); // its own connection: if idm sends the PATCH, no other test is affected
    const result = await h.idm(['provisioning', 'update', id, '--mapping-file', '/nonexistent/a.json', '--mapping-file', '-'], { input: '[{"platform":"email","idp":"primaryEmail"}]' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--mapping-file/);
    expect(h.received()).toEqual([]);
  });
});

describe('idm provisioning update: edits that do not fit the current mapping (read only, exit 2)', () => {
  it('--add-mapping of a platform attribute mapped already: names its current value, sends no PATCH', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'email=other']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--add-mapping email=other: "email" is mapped already (to primaryEmail).');
    expect(result.stderr).toContain('--remove-mapping email --add-mapping email=other');
    expect(h.calls().map((call) => call.method)).toEqual(['GET']);
  });

  it('--add-mapping of a row the mapping holds as it is (a script run again): exit 0, nothing sent, the note says so', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'email=primaryEmail']);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(`Nothing changed: email=primaryEmail is in the mapping of ${id} already; nothing was sent.\n`);
    expect(h.calls().map((call) => call.method)).toEqual(['GET']);
  });

  it('--add-mapping of a row there already, with other changes: those are sent, the row is not added twice', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'email=primaryEmail', '--add-mapping', 'nickname=name.givenName']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`email=primaryEmail is in the mapping of ${id} already: not added again.`);
    expect(patches().map((call) => call.json)).toEqual([{ mapping: [...START, { platform: 'nickname', idp: 'name.givenName' }] }]);
    h.mark();
    const settings = await h.idm(['provisioning', 'update', id, '--add-mapping', 'email=primaryEmail', '--sync-groups', 'all']);
    expect(settings.code).toBe(0);
    expect(settings.stderr).toContain(`email=primaryEmail is in the mapping of ${id} already: the mapping is not sent.`);
    expect(patches().map((call) => call.json)).toEqual([{ synchronize_groups: 'all' }]);
  });

  it('--remove-mapping of a platform attribute the mapping does not have: sends no PATCH', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'nickname']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--remove-mapping nickname: the mapping has no row for "nickname".');
    expect(patches()).toEqual([]);
  });

  it('--remove-mapping of a row written platform=idp: the hint names its platform attribute alone (exit 2, nothing sent)', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'email=primaryEmail']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'Error: --remove-mapping email=primaryEmail: the mapping has no row for "email=primaryEmail".\n' +
        '--remove-mapping takes the platform attribute alone: --remove-mapping email (its row is email = primaryEmail).\n',
    );
    expect(patches()).toEqual([]);
  });

  it('the hint to replace a row is a command to paste: its words quoted for the shell', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'email=other $(value)']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Replace it: idm provisioning update ${id} --remove-mapping email --add-mapping 'email=other $(value)'\n`);
    expect(patches()).toEqual([]);
  });

  it('the hint to replace rows is the whole command, with the other flags as given, and it runs', async () => {
    const id = configured();
    const args = ['provisioning', 'update', id, '--remove-mapping', 'is_admin', '--add-mapping', 'email=mail', '--add-mapping', 'nickname=name.givenName', '--add-mapping', 'external_id=uid', '--sync-groups', 'all'];
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'Error: --add-mapping email=mail: "email" is mapped already (to primaryEmail), and so is "external_id".\n' +
        `Replace them: idm provisioning update ${id} --remove-mapping is_admin --remove-mapping email --remove-mapping external_id --add-mapping email=mail --add-mapping nickname=name.givenName --add-mapping external_id=uid --sync-groups all\n`,
    );
    expect(patches()).toEqual([]);
    const hinted = result.stderr.split('\n')[1]!.replace(/^Replace them: idm /, '').split(' ');
    expect((await h.idm(hinted)).code).toBe(0);
    expect(patches().map((call) => call.json)).toEqual([
      {
        mapping: [
          { platform: 'email', idp: 'mail' },
          { platform: 'nickname', idp: 'name.givenName' },
          { platform: 'external_id', idp: 'uid' },
        ],
        synchronize_groups: 'all',
      },
    ]);
  });

  it('removing every row leaves an empty mapping, which is refused before the PATCH', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'external_id', '--remove-mapping', 'email', '--remove-mapping', 'is_admin']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Error: --remove-mapping would leave the mapping of ${id} empty, and a configuration needs at least one row.\n`);
    expect(result.stderr).toContain(`run 'idm provisioning delete ${id}'.`);
    expect(patches()).toEqual([]);
  });
});

describe('idm provisioning update: a current mapping with entries idm cannot send back', () => {
  // A configuration answered with an entry that is not a row (no idp) and one with a control
  // character: writing the rest back would drop them, so --add-mapping / --remove-mapping stop.
  const answered = (id: string) => ({
    connection_id: id,
    connection_name: 'odd',
    strategy: 'google-apps',
    mapping: [{ idp: 'primaryEmail', platform: 'email' }, { platform: 'nickname' }, { idp: 'a\u0007b', platform: 'bell' }],
    synchronize_automatically: false,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    synchronize_groups: 'off',
  });

  it.each([
    ['--add-mapping', ['--add-mapping', 'department=orgUnitPath']],
    ['--remove-mapping', ['--remove-mapping', 'email']],
  ])('%s: exit 1, names how many and what to do, sends no PATCH', async (_flag, args) => {
    const id = configured();
    h.sandbox.addFault({ path: path(id), method: 'GET', kind: 'status', status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(answered(id)) });
    const result = await h.idm(['provisioning', 'update', id, ...args]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`The current mapping of ${id} has 2 entries that idm cannot send back as they are: --add-mapping and --remove-mapping would drop them.`);
    expect(result.stderr).toContain(`See it with 'idm provisioning show ${id} --json', then give the whole mapping with --mapping-file.`);
    expect(h.calls().map((call) => call.method)).toEqual(['GET']);
  });

  it('--remove-mapping of such an entry is the way out of it: it is left out as asked, the rest sent whole', async () => {
    const id = configured();
    const answer = { path: path(id), method: 'GET', kind: 'status', status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(answered(id)) } as const;
    h.sandbox.addFault(answer);
    const one = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'nickname']);
    // The other such entry is still there: exit 1, nothing sent.
    expect(one.code).toBe(1);
    expect(one.stderr).toContain(`The current mapping of ${id} has 1 entry that idm cannot send back as it is`);
    expect(patches()).toEqual([]);
    h.sandbox.addFault(answer);
    const both = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'nickname', '--remove-mapping', 'bell']);
    expect(both.code).toBe(0);
    expect(patches().map((call) => call.json)).toEqual([{ mapping: [{ platform: 'email', idp: 'primaryEmail' }] }]);
  });
});

describe('idm provisioning update: a current row with a field idm does not know', () => {
  // A row the service answers with a field besides platform and idp (one of a newer service): sent
  // back as {platform, idp} it would lose that field, so --add-mapping / --remove-mapping stop.
  const answered = (id: string) => ({
    connection_id: id,
    connection_name: 'newer',
    strategy: 'google-apps',
    mapping: [{ idp: 'primaryEmail', platform: 'email' }, { idp: 'name.familyName', platform: 'family_name', transform: 'lowercase' }],
    synchronize_automatically: false,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    synchronize_groups: 'off',
  });
  const serve = (id: string) => h.sandbox.addFault({ path: path(id), method: 'GET', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(answered(id)) });

  it('--add-mapping: exit 1, nothing sent, rather than the row written back without its field', async () => {
    const id = configured();
    serve(id);
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'department=orgUnitPath']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`The current mapping of ${id} has 1 entry that idm cannot send back as it is: --add-mapping and --remove-mapping would drop it.`);
    expect(patches()).toEqual([]);
  });

  it('--remove-mapping of that row is the way out: the rest is sent whole', async () => {
    const id = configured();
    serve(id);
    const result = await h.idm(['provisioning', 'update', id, '--remove-mapping', 'family_name']);
    expect(result.code).toBe(0);
    expect(patches().map((call) => call.json)).toEqual([{ mapping: [{ platform: 'email', idp: 'primaryEmail' }] }]);
  });
});

describe('idm provisioning update: a current configuration without a mapping list', () => {
  // The mapping is required in an answer; one without it (or not a list) tells nothing of what the
  // service holds, and a mapping written whole from it would replace that with the rows added here.
  it.each([
    ['absent', undefined],
    ['null', null],
    ['an object', { platform: 'email', idp: 'primaryEmail' }],
  ])('mapping %s: --add-mapping is exit 1, nothing sent', async (_what, mapping) => {
    const id = configured();
    const answer = { connection_id: id, connection_name: 'odd', strategy: 'google-apps', mapping, synchronize_automatically: false, created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' };
    h.sandbox.addFault({ path: path(id), method: 'GET', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(answer) });
    const result = await h.idm(['provisioning', 'update', id, '--add-mapping', 'department=orgUnitPath']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`The current configuration of ${id} has no mapping list idm can read (${mapping === undefined ? 'the answer has none' : mapping === null ? 'it is null' : 'it is an object'}): --add-mapping and --remove-mapping would replace the mapping it holds.`);
    expect(result.stderr).toContain(`See it with 'idm provisioning show ${id} --json', then give the whole mapping with --mapping-file; --sync-automatically and --sync-groups change the rest without it.`);
    expect(patches()).toEqual([]);
  });
});

describe('idm provisioning update: errors of the service', () => {
  it('404 for a connection without provisioning: says to create it first (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'update', FRESH, '--sync-groups', 'all']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Directory provisioning configuration not found');
    expect(result.stderr).toMatch(/404/);
    expect(result.stderr).toContain(`idm provisioning create ${FRESH}`);
    expect(patches()).toHaveLength(1);
  });

  it('403: names the missing scope update:directory_provisionings (exit 4)', async () => {
    const result = await h.idm(['provisioning', 'update', conn(COUNT), '--sync-groups', 'all'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('update:directory_provisionings');
  });
});
