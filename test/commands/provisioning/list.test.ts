// idm provisioning list against the sandbox: TSV when piped, a table at a terminal, --json exactly as
// the service answered, paging (--take, --from, --all), the last synchronization column driven by the
// sandbox's clock, local validation that sends nothing, and the service's 400 and 403.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { direct } from '../../helpers/sandbox.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
let clock = T0;
let h: Harness;

const A = 'con_listA00000000001';
const B = 'con_listB00000000002';
const C = 'con_listC00000000003';
const seed = {
  connections: [
    { id: A, name: 'alpha', strategy: 'google-apps', provisioning: { mapping: [{ platform: 'email', idp: 'primaryEmail' }], synchronize_automatically: true, synchronize_groups: 'all' } },
    { id: B, name: 'beta', strategy: 'google-apps', provisioning: { mapping: [{ platform: 'email', idp: 'primaryEmail' }, { platform: 'name', idp: 'name.fullName' }] } },
    { id: 'con_listFresh0000004', name: 'fresh', strategy: 'google-apps' },
    { id: C, name: 'gamma', strategy: 'google-apps', provisioning: { synchronize_groups: 'selected' }, syncError: 'The directory refused the credentials: invalid_grant.' },
    { id: 'con_listDb0000000005', name: 'db', strategy: 'platform' },
  ],
};

const lists = () => h.calls('GET').filter((call) => call.path === '/api/v2/connections-directory-provisionings');
const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

beforeAll(async () => {
  h = await startHarness({ seed, syncDurationMs: 0, now: () => clock });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

describe('idm provisioning list: output', () => {
  it('piped: one tab-separated line per configuration, no header, nothing cut', async () => {
    const result = await h.idm(['provisioning', 'list']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `${A}\talpha\tgoogle-apps\t1\tyes\tall\tnever`,
        `${B}\tbeta\tgoogle-apps\t2\tno\toff\tnever`,
        `${C}\tgamma\tgoogle-apps\t51\tno\tselected\tnever`,
        '',
      ].join('\n'),
    );
    expect(lists()).toHaveLength(1);
    expect(h.calls()).toHaveLength(1);
    expect(query(lists()[0]!.url)).toEqual({});
  });

  it('at a terminal: a table with one header, no borders, no tabs', async () => {
    const result = await h.idm(['provisioning', 'list'], { env: { ...TTY_OUT, COLUMNS: '200' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CONNECTION\s+NAME\s+STRATEGY\s+MAPPED\s+AUTO SYNC\s+GROUPS\s+LAST SYNC$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^${A}\\s+alpha\\s+google-apps\\s+1\\s+yes\\s+all\\s+never$`));
    expect(lines[3]).toMatch(new RegExp(`^${C}\\s+gamma\\s+google-apps\\s+51\\s+no\\s+selected\\s+never$`));
    expect(result.stdout).not.toMatch(/[\t│┌─]/);
  });

  it('--json prints exactly the service body (same keys, same order)', async () => {
    const service = await direct(h.sandbox, '/connections-directory-provisionings');
    h.mark();
    const result = await h.idm(['provisioning', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.stringify(JSON.parse(result.stdout))).toBe(JSON.stringify(JSON.parse(service.text)));
    expect(JSON.parse(result.stdout).directory_provisionings.map((p: { connection_id: string }) => p.connection_id)).toEqual([A, B, C]);
  });

  it('LAST SYNC shows the time and status of the last synchronization (sandbox clock)', async () => {
    clock = T0 + 5 * 60_000;
    expect((await h.idm(['provisioning', 'sync', B])).code).toBe(0);
    expect((await h.idm(['provisioning', 'sync', C])).code).toBe(0);
    await h.sandbox.idle();
    h.mark();
    const result = await h.idm(['provisioning', 'list']);
    expect(result.code).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.find((row) => row[0] === B)![6]).toBe('2030-01-01T00:05:00.000Z completed');
    expect(rows.find((row) => row[0] === C)![6]).toBe('2030-01-01T00:05:00.000Z failed');
    expect(rows.find((row) => row[0] === A)![6]).toBe('never');

    // At a terminal the minute is enough, so that the whole table, status included, fits 120 columns.
    const table = await h.idm(['provisioning', 'list'], { env: { ...TTY_OUT, COLUMNS: '120' } });
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines.every((line) => line.length <= 120)).toBe(true);
    expect(lines.find((line) => line.startsWith(B))).toMatch(/\s2030-01-01 00:05 completed$/);
    expect(lines.find((line) => line.startsWith(C))).toMatch(/\s2030-01-01 00:05 failed$/);

    // At 80 columns, the status alone: the time cut first (`2030-01-…`) hid whether it failed.
    const narrow = (await h.idm(['provisioning', 'list'], { env: { ...TTY_OUT, COLUMNS: '80' } })).stdout.trimEnd().split('\n');
    expect(narrow.every((line) => line.length <= 80)).toBe(true);
    expect(narrow[0]).toMatch(/\sLAST SYNC$/);
    expect(narrow.find((line) => line.startsWith(B))).toMatch(/\sbeta\s.*\scompleted$/);
    expect(narrow.find((line) => line.startsWith(C))).toMatch(/\sgamma\s.*\sfailed$/);
    expect(narrow.find((line) => line.startsWith(A))).toMatch(/\salpha\s.*\snever$/);
  });

  it('narrower, STRATEGY (google-apps on every row) is left out before LAST SYNC or a name', async () => {
    const table = await h.idm(['provisioning', 'list'], { env: { ...TTY_OUT, COLUMNS: '67' } });
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CONNECTION\s+NAME\s+MAPPED\s+AUTO SYNC\s+GROUPS\s+LAST SYNC$/);
    expect(lines.every((line) => line.length <= 67)).toBe(true);
    expect(lines.find((line) => line.startsWith(C))).toMatch(/\sgamma\s/);
  });
});

describe('idm provisioning list: pages', () => {
  it('--take 2 sends take=2 and prints one page; at a terminal a note names the next page', async () => {
    const result = await h.idm(['provisioning', 'list', '--take', '2'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(query(lists()[0]!.url)).toEqual({ take: '2' });
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(3); // header and two rows
    const next = /More configurations: idm provisioning list --from (\S+) --take 2/.exec(result.stderr)?.[1];
    expect(next).toBeDefined();
    h.mark();
    const rest = await h.idm(['provisioning', 'list', '--from', next!, '--take', '2']);
    expect(rest.code).toBe(0);
    expect(query(lists()[0]!.url)).toEqual({ from: next, take: '2' });
    expect(rest.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([C]);
    expect(rest.stderr).toBe(''); // last page, and nothing is a terminal
  });

  it('piped, a page with more after it prints no note', async () => {
    const result = await h.idm(['provisioning', 'list', '--take', '1']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toBe('');
  });

  it('--all follows next to the last page', async () => {
    const result = await h.idm(['provisioning', 'list', '--all', '--take', '1']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([A, B, C]);
    expect(lists()).toHaveLength(3);
    expect(lists().map((call) => query(call.url).take)).toEqual(['1', '1', '1']);
    expect(query(lists()[0]!.url).from).toBeUndefined();
  });

  it('--all without --take asks for pages of 100', async () => {
    const result = await h.idm(['provisioning', 'list', '--all']);
    expect(result.code).toBe(0);
    expect(lists()).toHaveLength(1);
    expect(query(lists()[0]!.url)).toEqual({ take: '100' });
  });

  it('--all --json is one document holding every configuration, without next', async () => {
    const service = JSON.parse((await direct(h.sandbox, '/connections-directory-provisionings')).text);
    h.mark();
    const result = await h.idm(['provisioning', 'list', '--all', '--take', '2', '--json']);
    expect(result.code).toBe(0);
    expect(lists()).toHaveLength(2);
    expect(JSON.parse(result.stdout)).toEqual({ directory_provisionings: service.directory_provisionings });
  });
});

describe('idm provisioning list: nothing configured', () => {
  let empty: Harness;
  beforeAll(async () => {
    empty = await startHarness({ seed: { connections: [{ id: 'con_emptyGoogle00001', name: 'g', strategy: 'google-apps' }] } });
  });
  afterAll(() => empty.close());

  it('at a terminal: no rows, and a note says how to create one', async () => {
    const result = await empty.idm(['provisioning', 'list'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('No connection has directory provisioning yet (idm provisioning create).');
  });

  it('piped: nothing on stdout or stderr', async () => {
    const result = await empty.idm(['provisioning', 'list']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('--json: the empty list as received', async () => {
    const result = await empty.idm(['provisioning', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ directory_provisionings: [] });
  });
});

describe('idm provisioning list: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['--take 0', ['--take', '0'], /--take must be from 1 to 100, not 0/],
    ['--take 101', ['--take', '101'], /--take must be from 1 to 100/],
    ['--take that is not a number', ['--take', 'ten'], /--take/],
    ['an empty --from', ['--from', ''], /--from must not be empty/],
    ['--take without a value', ['--take'], /--take needs a value/],
    ['an unknown flag', ['--bogus'], /Unknown flag --bogus/],
    ['an argument it does not take', ['con_listA00000000001'], /Too many arguments/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await h.idm(['provisioning', 'list', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain("Run 'idm provisioning list --help' for usage.");
      expect(h.received()).toEqual([]);
    });
  }
});

describe('idm provisioning list: errors of the service', () => {
  it('a cursor the service does not know: 400, the service message and a hint about --from (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'list', '--from', 'not-a-cursor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Invalid query string paging options');
    expect(result.stderr).toMatch(/400/);
    expect(result.stderr).toContain('Check --from');
    expect(lists()).toHaveLength(1);
  });

  it('403: names the missing scope read:directory_provisionings (exit 4)', async () => {
    const result = await h.idm(['provisioning', 'list'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('read:directory_provisionings');
  });
});

describe("idm provisioning list: a 400 (the service refusing its query) names what was sent, as every listing's does", () => {
  it.each([
    ['no flag: no flag to check (it said "Check --take (1-100)")', ['provisioning', 'list'], undefined],
    ['--take', ['provisioning', 'list', '--take', '20'], 'Check --take (1-100: 20 was sent).'],
    ['--all: the size --all sent', ['provisioning', 'list', '--all'], 'Check --take (1-100: 100 was sent).'],
  ])('%s', async (_name, args, hint) => {
    h.sandbox.addFault({ path: '/api/v2/connections-directory-provisionings', kind: 'status', status: 400, body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid query string paging options' }) });
    const result = await h.idm(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid query string paging options');
    if (hint === undefined) expect(result.stderr).not.toContain('Check ');
    else expect(result.stderr).toContain(hint);
  });
});
