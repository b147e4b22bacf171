// idm provisioning groups list | add | remove | set against the sandbox: the list (TSV, table, --json
// as received, --search as q=name:<prefix>*, paging), the bodies of POST / DELETE / PUT
// ({groups: [{id}]}, as the interface describes them), what the list holds afterwards, local
// validation that sends nothing, and the service's 404 and 403.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm } from '../../helpers/cli.js';
import { ageCachedTokens, startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

const GROUPS = [
  { id: '03ep43zb1xk6ay0', name: 'Engineering', email: 'engineering@example.com', direct_members_count: 12 },
  { id: '03ep43zb2fw2ma9', name: 'Sales', email: 'sales@example.com', direct_members_count: 7 },
  { id: '03ep43zb3kd91ls', name: 'Support', email: 'support@example.com', direct_members_count: 5 },
  { id: '03ep43zb4qq0zfe', name: 'Everyone', email: 'everyone@example.com', direct_members_count: 24 },
];
const [ENG, SALES, SUPPORT, EVERYONE] = GROUPS.map((group) => group.id) as [string, string, string, string];
const LISTED = 'con_groupsListed0001';
const EMPTY = 'con_groupsEmpty00001';
const FRESH = 'con_groupsFresh00001';
const OFF = 'con_groupsOff0000001';
const conn = (n: number) => `con_groupsEdit${String(n).padStart(6, '0')}`;

let h: Harness;
let next = 0;
/** A connection with `selected` groups, synchronizing Engineering only, that no test has changed. */
const editable = () => conn(++next);

beforeAll(async () => {
  h = await startHarness({
    seed: {
      connections: [
        {
          id: LISTED,
          name: 'groups-listed',
          strategy: 'google-apps',
          provisioning: { synchronize_groups: 'selected' },
          groups: GROUPS,
          synchronizedGroups: [GROUPS[0], { id: SALES }, GROUPS[2]],
        },
        { id: EMPTY, name: 'groups-empty', strategy: 'google-apps', provisioning: { synchronize_groups: 'selected' }, groups: GROUPS },
        { id: FRESH, name: 'groups-fresh', strategy: 'google-apps', groups: GROUPS },
        { id: OFF, name: 'groups-off', strategy: 'google-apps', provisioning: { synchronize_groups: 'off' }, groups: GROUPS },
        ...Array.from({ length: 20 }, (_, i) => ({
          id: conn(i + 1),
          name: `groups-edit-${i + 1}`,
          strategy: 'google-apps',
          provisioning: { synchronize_groups: 'selected' },
          groups: GROUPS,
          synchronizedGroups: [GROUPS[0]],
        })),
      ],
    },
  });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

const groupsPath = (id: string) => `/api/v2/connections/${id}/directory-provisioning/synchronized-groups`;
const configPath = (id: string) => `/api/v2/connections/${id}/directory-provisioning`;
const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);
/** The ids the connection synchronizes now, read through idm. */
async function listed(id: string): Promise<string[]> {
  const result = await h.idm(['provisioning', 'groups', 'list', id, '--all', '--json']);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout).groups as Array<{ id: string }>).map((group) => group.id);
}

describe('idm provisioning groups list', () => {
  it('piped: one id<TAB>name<TAB>email<TAB>members line per group, empty fields for what the entry lacks', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`${ENG}\tEngineering\tengineering@example.com\t12\n${SALES}\t\t\t\n${SUPPORT}\tSupport\tsupport@example.com\t5\n`);
    expect(h.calls().map((call) => `${call.method} ${call.url}`)).toEqual([`GET ${groupsPath(LISTED)}`]);
  });

  it('at a terminal: a table with a header', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED], { env: TTY_OUT });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^GROUP ID\s+NAME\s+EMAIL\s+MEMBERS$/);
    expect(lines[1]).toMatch(new RegExp(`^${ENG}\\s+Engineering\\s+engineering@example\\.com\\s+12$`));
    expect(lines).toHaveLength(4);
    expect(result.stdout).not.toContain('\t');
  });

  it('a member count a double cannot hold is shown as the service wrote it (piped and in a table), not rounded or null', async () => {
    const body = `{"groups":[{"id":"${ENG}","name":"Engineering","direct_members_count":12345678901234567890},{"id":"${SALES}","direct_members_count":1e400}]}`;
    const fault = { kind: 'status', status: 200, body, headers: { 'content-type': 'application/json; charset=utf-8' }, path: groupsPath(LISTED) } as const;
    const run = (env: Record<string, string> = {}) => runIdm(['provisioning', 'groups', 'list', LISTED], { configDir: h.configDir, env: { ...credentialsEnv(h.sandbox), ...env } });
    h.sandbox.addFault(fault);
    const piped = await run();
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`${ENG}\tEngineering\t\t12345678901234567890\n${SALES}\t\t\t1e400\n`);
    h.sandbox.addFault(fault);
    const table = await run(TTY_OUT);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^${ENG}\\s+Engineering\\s+12345678901234567890$`, 'm'));
    expect(table.stdout).toMatch(new RegExp(`^${SALES}\\s+1e400$`, 'm'));
  });

  it('--json prints the service answer as received', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.stringify(JSON.parse(result.stdout))).toBe(JSON.stringify({ groups: [GROUPS[0], { id: SALES }, GROUPS[2]] }));
  });

  it('--search sends q=name:<text>* and prints the matching groups', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED, '--search', 'Su']);
    expect(result.code).toBe(0);
    expect(query(h.calls()[0]!.url)).toEqual({ q: 'name:Su*' });
    expect(result.stdout).toBe(`${SUPPORT}\tSupport\tsupport@example.com\t5\n`);
  });

  it('--search with no match, at a terminal: a note names the search', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED, '--search', 'zzz'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`No synchronized group's name starts with "zzz".`);
  });

  it('an empty list at a terminal: a note; piped: nothing at all', async () => {
    const tty = await h.idm(['provisioning', 'groups', 'list', EMPTY], { env: TTY_OUT });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('No groups are synchronized');
    const piped = await h.idm(['provisioning', 'groups', 'list', EMPTY]);
    expect(piped).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('--take 2 sends take=2; at a terminal the note names the next page, which holds the rest', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED, '--take', '2'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(query(h.calls()[0]!.url)).toEqual({ take: '2' });
    const cursor = new RegExp(`More groups: idm provisioning groups list ${LISTED} --from (\\S+) --take 2`).exec(result.stderr)?.[1];
    expect(cursor).toBeDefined();
    const rest = await h.idm(['provisioning', 'groups', 'list', LISTED, '--from', cursor!, '--take', '2']);
    expect(rest.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([SUPPORT]);
  });

  it('a --from the service refuses (400): the hint names --from, as the other listings do (exit 1)', async () => {
    const result = await runIdm(['provisioning', 'groups', 'list', LISTED, '--from', 'bogus'], { configDir: h.configDir, env: credentialsEnv(h.sandbox) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid query string paging options');
    expect(result.stderr).toContain('Check --from: it takes the `next` value of a previous page, as printed.');
  });

  it('--all --take 1 follows every page', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED, '--all', '--take', '1']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([ENG, SALES, SUPPORT]);
    expect(h.calls('GET')).toHaveLength(3);
  });
});

describe('idm provisioning groups add | remove | set: the bodies', () => {
  it('add: POST {groups: [{id}, ...]} in the order given; the groups are added', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'add', id, SALES, SUPPORT]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Added 2 groups to the synchronized groups of ${id}. See them: idm provisioning groups list ${id}\n`);
    // The list is read first: only what it does not hold is sent; then whether it counts (selected: no note).
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`GET ${groupsPath(id)}`, `POST ${groupsPath(id)}`, `GET ${configPath(id)}`]);
    expect(h.calls('POST')[0]!.json).toEqual({ groups: [{ id: SALES }, { id: SUPPORT }] });
    expect(h.calls('POST')[0]!.headers['content-type']).toMatch(/^application\/json/);
    expect(await listed(id)).toEqual([ENG, SALES, SUPPORT]);
  });

  it('add: a group id given twice is sent once', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'add', id, SALES, SALES, EVERYONE]);
    expect(result.code).toBe(0);
    expect(h.calls('POST')[0]!.json).toEqual({ groups: [{ id: SALES }, { id: EVERYONE }] });
    expect(result.stderr).toMatch(/^Added 2 groups/);
  });

  it('add of a group the list holds already: nothing sent, and the note says nothing changed (not "Added 1 group")', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'add', id, ENG]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Nothing to add to the synchronized groups of ${id}: group ${ENG} was there already; nothing sent.\n`);
    expect(h.calls('POST')).toEqual([]);
    // The stored entry keeps its name and email (a bare {id} sent would have replaced it).
    const shown = await h.idm(['provisioning', 'groups', 'list', id]);
    expect(shown.stdout).toBe(`${ENG}\tEngineering\tengineering@example.com\t12\n`);
  });

  it('add of a new group and one the list holds: counts and sends the new one only', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'add', id, ENG, SALES]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Added 1 group to the synchronized groups of ${id} (group ${ENG} was there already: not sent). See them: idm provisioning groups list ${id}\n`);
    expect(h.calls('POST').map((call) => call.json)).toEqual([{ groups: [{ id: SALES }] }]);
    expect(await listed(id)).toEqual([ENG, SALES]);
  });

  it('add by a client that may change the list but not read it (403 insufficient_scope on the read): every group is sent, and the note says so', async () => {
    const id = editable();
    const message = 'Insufficient scope, expected any of: read:directory_provisionings';
    h.sandbox.addFault({ path: groupsPath(id), method: 'GET', kind: 'status', status: 403, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message, errorCode: 'insufficient_scope' }) });
    const result = await h.idm(['provisioning', 'groups', 'add', id, ENG, SALES]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Sent 2 groups to add to the synchronized groups of ${id}, unread: the client may not read the list (read:directory_provisionings), so groups there already were sent too. See them: idm provisioning groups list ${id}\n`);
    expect(h.calls('POST').map((call) => call.json)).toEqual([{ groups: [{ id: ENG }, { id: SALES }] }]);
  });

  // Those reads (the list before the change, the configuration for the note after it) go on without
  // an answer on a 403, but the 403 dropped a cached token older than 5 minutes, as a 403 to a read
  // a command needs does: a client that may change the list but not read it paid a token per run.
  it('add by a client that may not read: the 403s to the reads keep the cached token, no new token', async () => {
    const id = editable();
    expect((await h.idm(['provisioning', 'groups', 'list', LISTED])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.mark();
    const message = 'Insufficient scope, expected any of: read:directory_provisionings';
    // Both GETs: the list's path starts with the configuration's.
    h.sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'GET', kind: 'status', status: 403, count: 2, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message, errorCode: 'insufficient_scope' }) });
    const issued = h.sandbox.tokensIssued();
    const result = await h.idm(['provisioning', 'groups', 'add', id, SALES]);
    expect(result.code, result.stderr).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.status}`)).toEqual(['GET 403', 'POST 204', 'GET 403']);
    expect(h.sandbox.tokensIssued()).toBe(issued);
    // and the next run, too, finds it in the cache
    expect((await h.idm(['provisioning', 'groups', 'list', id])).code).toBe(0);
    expect(h.sandbox.tokensIssued()).toBe(issued);
  });

  it('remove: DELETE {groups: [{id}]}; the group is gone', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'remove', id, ENG]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^Removed 1 group from the synchronized groups of ${id}\\.`));
    // The list is read first: only what it holds is sent.
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`GET ${groupsPath(id)}`, `DELETE ${groupsPath(id)}`]);
    expect(h.calls('DELETE')[0]!.json).toEqual({ groups: [{ id: ENG }] });
    expect(await listed(id)).toEqual([]);
  });

  it('remove of a group the list holds and one it does not (a typo): counts and sends the one there, names the other (not "Removed 2 groups")', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'remove', id, ENG, 'engineerin']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Removed 1 group from the synchronized groups of ${id} (group engineerin was not there: not sent). See them: idm provisioning groups list ${id}\n`);
    expect(h.calls('DELETE').map((call) => call.json)).toEqual([{ groups: [{ id: ENG }] }]);
    expect(await listed(id)).toEqual([]);
  });

  it('remove of groups the list does not hold: nothing sent, and the note names them (exit 0)', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'remove', id, SALES, SUPPORT]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Nothing to remove from the synchronized groups of ${id}: groups ${SALES}, ${SUPPORT} were not there; nothing sent. See them: idm provisioning groups list ${id}\n`);
    expect(h.calls('DELETE')).toEqual([]);
    expect(await listed(id)).toEqual([ENG]);
  });

  it('remove by a client that may change the list but not read it: every group is sent, and the note says so', async () => {
    const id = LISTED;
    const message = 'Insufficient scope, expected any of: read:directory_provisionings';
    h.sandbox.addFault({ path: groupsPath(id), method: 'GET', kind: 'status', status: 403, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message, errorCode: 'insufficient_scope' }) });
    const result = await h.idm(['provisioning', 'groups', 'remove', id, EVERYONE]).finally(() => h.sandbox.clearFaults());
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Sent 1 group to remove from the synchronized groups of ${id}, unread: the client may not read the list (read:directory_provisionings), so groups not there were sent too. See them: idm provisioning groups list ${id}\n`);
    expect(h.calls('DELETE').map((call) => call.json)).toEqual([{ groups: [{ id: EVERYONE }] }]);
  });

  it('set: PUT {groups: [...]} replaces the whole list', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'set', id, SUPPORT, SALES]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Set 2 groups as the synchronized groups of/);
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`GET ${groupsPath(id)}`, `PUT ${groupsPath(id)}`, `GET ${configPath(id)}`]);
    expect(h.calls('PUT')[0]!.json).toEqual({ groups: [{ id: SUPPORT }, { id: SALES }] });
    expect(await listed(id)).toEqual([SALES, SUPPORT]); // listed in id order, as the service does
  });

  it('set with ids: a group the list holds keeps its stored entry (name, email, member count), not a bare id', async () => {
    const id = editable(); // synchronizes Engineering, with its name, email and member count
    const result = await h.idm(['provisioning', 'groups', 'set', id, ENG, SALES]);
    expect(result.code).toBe(0);
    expect(h.calls('PUT')[0]!.json).toEqual({ groups: [GROUPS[0], { id: SALES }] });
    const shown = await h.idm(['provisioning', 'groups', 'list', id]);
    expect(shown.stdout).toBe(`${ENG}\tEngineering\tengineering@example.com\t12\n${SALES}\t\t\t\n`);
  });

  it('set with ids by a client that may change the list but not read it: the ids are sent bare, and the note says so', async () => {
    const id = editable();
    const message = 'Insufficient scope, expected any of: read:directory_provisionings';
    h.sandbox.addFault({ path: groupsPath(id), method: 'GET', kind: 'status', status: 403, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message, errorCode: 'insufficient_scope' }) });
    const result = await h.idm(['provisioning', 'groups', 'set', id, ENG]).finally(() => h.sandbox.clearFaults());
    expect(result.code).toBe(0);
    expect(h.calls('PUT')[0]!.json).toEqual({ groups: [{ id: ENG }] });
    expect(result.stderr).toContain('unread: the client may not read the list (read:directory_provisionings), so groups there already were sent as bare ids');
  });

  it('add and set where group synchronization is off or all: the note says the list does not count yet, naming the command that makes it', async () => {
    const off = OFF;
    const added = await h.idm(['provisioning', 'groups', 'add', off, SALES]);
    expect(added.code).toBe(0);
    expect(added.stderr).toBe(
      `Added 1 group to the synchronized groups of ${off}. See them: idm provisioning groups list ${off}\n` +
        `Group synchronization of ${off} is off: no group is synchronized, these neither, until it is "selected": idm provisioning update ${off} --sync-groups selected\n`,
    );
    const all = editable();
    expect((await h.idm(['provisioning', 'update', all, '--sync-groups', 'all'])).code).toBe(0);
    const set = await h.idm(['provisioning', 'groups', 'set', all, SALES]);
    expect(set.code).toBe(0);
    expect(set.stderr).toContain(`Group synchronization of ${all} is "all": every group is synchronized, not only the listed ones, until it is "selected": idm provisioning update ${all} --sync-groups selected\n`);
    // The command named makes the list count; then no note.
    expect((await h.idm(['provisioning', 'update', all, '--sync-groups', 'selected'])).code).toBe(0);
    expect((await h.idm(['provisioning', 'groups', 'set', all, SALES, SUPPORT])).stderr).not.toContain('Group synchronization');
  });

  it('set --none: PUT {groups: []}; the list is empty', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'set', id, '--none']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`${id} synchronizes no group now.\n`); // not 'Set 0 groups as …'
    expect(h.calls('PUT')[0]!.json).toEqual({ groups: [] });
    expect(await listed(id)).toEqual([]);
  });

  it('with --json: nothing on stdout or stderr, exit 0', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'add', id, SALES, '--json']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(h.calls('POST')[0]!.json).toEqual({ groups: [{ id: SALES }] });
  });
});

describe('idm provisioning groups add | set --groups-file: whole entries', () => {
  const files = mkdtempSync(join(tmpdir(), 'idm-groups-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));
  const file = (name: string, value: unknown) => {
    const path = join(files, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };
  const PLATFORM = { id: 'group1abc', name: 'Platform', email: 'platform@example.com', direct_members_count: 9 };

  it('add sends each entry as written (name, email, direct_members_count), and list shows them', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'add', id, '--groups-file', file('add.json', [PLATFORM, { id: SALES }])]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^Added 2 groups to the synchronized groups of ${id}\\.`));
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`GET ${groupsPath(id)}`, `POST ${groupsPath(id)}`, `GET ${configPath(id)}`]);
    expect(h.calls('POST')[0]!.json).toEqual({ groups: [PLATFORM, { id: SALES }] });
    const shown = await h.idm(['provisioning', 'groups', 'list', id]);
    expect(shown.stdout).toBe(`${ENG}\tEngineering\tengineering@example.com\t12\n${SALES}\t\t\t\ngroup1abc\tPlatform\tplatform@example.com\t9\n`);
  });

  it('set --groups-file - reads what groups list --json printed (stdin): the list is set back as it was', async () => {
    const id = editable();
    const listedJson = (await h.idm(['provisioning', 'groups', 'list', LISTED, '--json'])).stdout;
    h.mark();
    const result = await h.idm(['provisioning', 'groups', 'set', id, '--groups-file', '-'], { input: listedJson });
    expect(result.code).toBe(0);
    expect(h.calls('PUT')[0]!.json).toEqual({ groups: [GROUPS[0], { id: SALES }, GROUPS[2]] });
  });

  it('set --groups-file refuses one page of a longer list (a next cursor): the groups of the later pages would be removed', async () => {
    const id = editable();
    const page = { groups: [{ id: SALES }], next: 'YzE6Mg' };
    const result = await h.idm(['provisioning', 'groups', 'set', id, '--groups-file', file('page.json', page)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds one page of a longer list \(it has a next cursor\): set replaces the whole list/);
    expect(result.stderr).toContain(`Give the whole list: idm provisioning groups list ${id} --all --json > groups.json`);
    expect(h.received()).toEqual([]);
    // add takes the page's groups as they are: nothing else is removed.
    expect((await h.idm(['provisioning', 'groups', 'add', id, '--groups-file', file('page.json', page)])).code).toBe(0);
    expect(h.calls('POST')[0]!.json).toEqual({ groups: [{ id: SALES }] });
  });

  it('set --groups-file with an empty array empties the list (PUT {groups: []})', async () => {
    const id = editable();
    const result = await h.idm(['provisioning', 'groups', 'set', id, '--groups-file', file('empty.json', [])]);
    expect(result.code).toBe(0);
    expect(h.calls('PUT')[0]!.json).toEqual({ groups: [] });
    expect(await listed(id)).toEqual([]);
  });

  const bad: Array<[string, unknown, RegExp]> = [
    // The recorded 400: the service checks the email's format (an empty one too).
    ['an email that is not one (the recorded 400)', [{ id: 'group1abc', name: '', email: '', direct_members_count: 0 }], /entry 1 \(email\): must be an email address/],
    ['a member count that is not a whole number', [{ id: 'g1', direct_members_count: 1.5 }], /entry 1 \(direct_members_count\): must be a whole number/],
    ['a name that is not a string', [{ id: 'g1', name: 5 }], /entry 1 \(name\): must be a string/],
    ['a negative member count', [{ id: 'g1', direct_members_count: -5 }], /entry 1 \(direct_members_count\): must be 0 or more/],
    ['an entry without an id', [{ name: 'no id' }], /entry 1 \(id\): is missing/],
    ['an unknown field', [{ id: 'g1', color: 'red' }], /entry 1: unknown field: color/],
    ['an id with a control character', [{ id: 'g\u0007' }], /entry 1 \(id\): .* is not a group id/],
    ['one group twice', [{ id: 'g1' }, { id: 'g1', name: 'again' }], /entry 2: group g1 is listed twice/],
    ['an object that is not a list', { id: 'g1' }, /must hold a JSON array of \{"id", …\} objects/],
    ['no group to add', [], /holds no group: nothing to add/],
    // No control or invisible character reaches the tenant, from a file as from a flag.
    ['a name with an escape sequence', [{ id: 'g1', name: 'a\u001b[31mred' }], /entry 1 \(name\) holds a control or invisible character \(\\x1b, character 2\)/],
    ['an email with a bidi override', [{ id: 'g1', email: 'a\u202eb@example.com' }], /entry 1 \(email\) holds a control or invisible character \(\\u202e, character 2\)/],
  ];
  for (const [name, value, message] of bad) {
    it(`${name}: exit 2, nothing sent`, async () => {
      const result = await h.idm(['provisioning', 'groups', 'add', conn(20), '--groups-file', file('bad.json', value)]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});

describe('idm provisioning groups: local validation sends nothing (exit 2)', () => {
  const id = conn(20); // never changed by a test
  const cases: Array<[string, string[], RegExp]> = [
    ['set without group ids or --none', ['set', id], /Give the group ids, --groups-file, or --none to synchronize no group\./],
    ['set with group ids and --none', ['set', id, ENG, '--none'], /--none means no group: give group ids or --none, not both\./],
    ['add without group ids', ['add', id], /^Error: Give the group ids, or --groups-file\./],
    ['add with group ids and --groups-file', ['add', id, ENG, '--groups-file', 'groups.json'], /--groups-file gives the groups: give group ids or --groups-file, not both\./],
    ['remove --groups-file (the ids are what remove needs)', ['remove', id, '--groups-file', 'groups.json'], /Unknown flag --groups-file/],
    ['remove without group ids', ['remove', id], /^Error: Missing <group-id>\./],
    ['add with an empty group id', ['add', id, ''], /^Error: "" is not a group id: it is empty \(1 to 256 characters/],
    // " " is 1 character: the rule alone would not say what is wrong with it.
    ['add with a group id of spaces', ['add', id, '  '], /^Error: " {2}" is not a group id: it holds only spaces \(1 to 256 characters/],
    ['add with a control character in a group id', ['add', id, 'ab\u0007c'], /is not a group id/],
    // A pasted screenful is clipped in the message, not echoed whole.
    ['add with a 300-character group id', ['add', id, `g${'x'.repeat(299)}`], /^Error: "gx{39}… \(260 more characters\)" is not a group id: it has 300 characters, more than 256 \(1 to 256 characters/],
    ['add with a malformed connection id', ['add', 'con_1', ENG], /Not a connection id: "con_1"/],
    ['add --none (a flag of set only)', ['add', id, ENG, '--none'], /Unknown flag --none/],
    ['list with an unknown flag', ['list', id, '--query', 'x'], /Unknown flag --query/],
    ['list --take 0', ['list', id, '--take', '0'], /--take must be from 1 to 100/],
    ['list without a connection id', ['list'], /Missing <connection-id>/],
    // --search is sent as q=name:<text>*: a * of its own would be a second wildcard (q=name:**).
    ['list --search *', ['list', id, '--search', '*'], /--search holds a \*: it is a prefix already/],
    ['list --search eng*', ['list', id, '--search', 'eng*'], /--search holds a \*/],
    ['list --search with nothing in it', ['list', id, '--search', ''], /--search is empty\./],
    // Three characters: "is empty" would name no rule they break (as for group ids).
    ['list --search of spaces', ['list', id, '--search', '   '], /--search holds only spaces\./],
    ['list --search with a control character', ['list', id, '--search', 'en\u0007g'], /--search holds control characters\./],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await h.idm(['provisioning', 'groups', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});

describe('idm provisioning groups: errors of the service', () => {
  it('list on a connection without provisioning: 404, says to create it first (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', FRESH]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Directory provisioning configuration not found');
    expect(result.stderr).toContain(`idm provisioning create ${FRESH}`);
  });

  it('add on a connection that does not exist: 404 (exit 1), no success note', async () => {
    const result = await h.idm(['provisioning', 'groups', 'add', 'con_doesNotExist0001', ENG]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The connection does not exist');
    expect(result.stderr).not.toContain('Added');
  });

  it('list with the reader client: 403 naming read:directory_provisionings (exit 4)', async () => {
    const result = await h.idm(['provisioning', 'groups', 'list', LISTED], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('read:directory_provisionings');
  });

  it('403 "Group synchronization is not enabled for this tenant": the service\'s words and a hint that names no scope (exit 4)', async () => {
    const message = 'Group synchronization is not enabled for this tenant';
    h.sandbox.addFault({ path: `/api/v2/connections/${LISTED}/directory-provisioning/synchronized-groups`, kind: 'status', status: 403, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message }) });
    try {
      const result = await h.idm(['provisioning', 'groups', 'list', LISTED]);
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `Error: Could not list the synchronized groups of connection ${LISTED}: ${message} (403 forbidden).\n` +
          // A command to run: --sync-groups is no flag of groups list.
          `Group synchronization is enabled per tenant by the service, not by a scope: ask the service's support to enable it for this tenant. Meanwhile users can still be synchronized with group synchronization off ('idm provisioning update ${LISTED} --sync-groups off').\n`,
      );
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it('set with the reader client: 403 naming update:directory_provisionings (exit 4); the list is unchanged', async () => {
    const id = conn(20);
    const result = await h.idm(['provisioning', 'groups', 'set', id, '--none'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('update:directory_provisionings');
    expect(await listed(id)).toEqual([ENG]);
  });
});

describe("idm provisioning groups list: a 400 (the service refusing its query) names what was sent, as every listing's does", () => {
  it.each([
    ['no flag: no flag to check (it said "Check --search and --take (1-100)")', ['provisioning', 'groups', 'list', LISTED], undefined],
    ['--search', ['provisioning', 'groups', 'list', LISTED, '--search', 'Eng'], 'Check --search.'],
    ['--take', ['provisioning', 'groups', 'list', LISTED, '--take', '20'], 'Check --take (1-100: 20 was sent).'],
  ])('%s', async (_name, args, hint) => {
    h.sandbox.addFault({ path: groupsPath(LISTED), kind: 'status', status: 400, body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid query string paging options' }) });
    const result = await h.idm(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid query string paging options');
    if (hint === undefined) expect(result.stderr).not.toContain('Check ');
    else expect(result.stderr).toContain(hint);
  });
});
