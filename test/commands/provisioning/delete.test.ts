// idm provisioning delete against the sandbox: without --yes and without a terminal (or with
// --no-input) it refuses and sends nothing; with --yes (or -y) it sends one DELETE and the
// configuration is gone; the service's 404 and 403; local validation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm } from '../../helpers/cli.js';
import { startHarness, type Harness } from '../../helpers/harness.js';

const COUNT = 11;
const conn = (n: number) => `con_delete${String(n).padStart(10, '0')}`;
const FRESH = 'con_deleteFresh00001';

let h: Harness;
let next = 0;
const configured = () => conn(++next);
const state = (id: string) => h.sandbox.connections().find((connection) => connection.id === id)?.provisioning;
const path = (id: string) => `/api/v2/connections/${id}/directory-provisioning`;

beforeAll(async () => {
  h = await startHarness({
    seed: {
      connections: [
        ...Array.from({ length: COUNT }, (_, i) => ({ id: conn(i + 1), name: `delete-${i + 1}`, strategy: 'google-apps', provisioning: {} })),
        { id: FRESH, name: 'fresh', strategy: 'google-apps' },
      ],
    },
  });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

describe('idm provisioning delete: without --yes', () => {
  it('without a terminal: refuses (exit 2), says to add --yes, sends nothing', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'delete', id]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Error: Deleting the provisioning of ${id} needs --yes when idm cannot ask`);
    expect(result.stderr).toContain(`Run 'idm provisioning delete ${id} --yes'.`);
    expect(h.received()).toEqual([]);
    expect(state(id)).toBe('configured');
  });

  it('with --no-input at a terminal: refuses and sends nothing', async () => {
    const id = configured();
    const result = await h.idm(['--no-input', 'provisioning', 'delete', id], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs --yes/);
    expect(h.received()).toEqual([]);
    expect(state(id)).toBe('configured');
  });

  it('with --json: the refusal is one JSON object on stderr, nothing sent', async () => {
    const id = configured();
    const result = await h.idm(['--json', 'provisioning', 'delete', id]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2 } });
    expect(h.received()).toEqual([]);
  });
});

describe('idm provisioning delete --yes', () => {
  it('sends exactly one DELETE (no read first) and the configuration is gone', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'delete', id, '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Deleted the directory provisioning of ${id}.\n`);
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`DELETE ${path(id)}`]);
    expect(h.calls()[0]!.body).toBe('');
    expect(state(id)).toBe('not configured');
    const shown = await h.idm(['provisioning', 'show', id]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain('Directory provisioning configuration not found');
  });

  it('-y is --yes', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'delete', '-y', id]);
    expect(result.code).toBe(0);
    expect(h.calls('DELETE')).toHaveLength(1);
    expect(state(id)).toBe('not configured');
  });

  it('with --json: nothing on stdout or stderr, exit 0', async () => {
    const id = configured();
    const result = await h.idm(['provisioning', 'delete', id, '--yes', '--json']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(state(id)).toBe('not configured');
  });

  it('then create works again on the same connection', async () => {
    const id = configured();
    expect((await h.idm(['provisioning', 'delete', id, '--yes'])).code).toBe(0);
    const created = await h.idm(['provisioning', 'create', id, '--sync-groups', 'off']);
    expect(created.code).toBe(0);
    expect(state(id)).toBe('configured');
  });

  it('a second delete: the service answers 404, exit 1 with the service message', async () => {
    const id = configured();
    expect((await h.idm(['provisioning', 'delete', id, '--yes'])).code).toBe(0);
    h.mark();
    const again = await h.idm(['provisioning', 'delete', id, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(new RegExp(`${id}.*Directory provisioning configuration not found.*404`));
    expect(again.stderr).not.toContain('Deleted');
    // Not 'It has no directory provisioning yet … set it up with idm provisioning create', as a read's 404 says.
    expect(again.stderr).toContain(`It has no directory provisioning: deleted already, or never set up ('idm provisioning list' lists the connections that have it).`);
    expect(again.stderr).toContain('In a script that may run again, --ignore-not-found takes that as done.');
    expect(h.calls('DELETE')).toHaveLength(1);
  });
});

describe('idm provisioning delete --ignore-not-found', () => {
  // As kubectl's flag: nothing left to delete is what the delete is for (a script run again).
  const built = (args: string[], env: Record<string, string> = {}) => runIdm(args, { configDir: h.configDir, env: { ...credentialsEnv(h.sandbox), ...env } });

  it('a second delete: exit 0, the note says there was nothing to delete (built binary)', async () => {
    const id = configured();
    expect((await built(['provisioning', 'delete', id, '--yes', '--ignore-not-found'])).stderr).toBe(`Deleted the directory provisioning of ${id}.\n`);
    h.mark();
    const again = await built(['provisioning', 'delete', id, '--yes', '--ignore-not-found']);
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(again.stderr).toBe(`Nothing to delete: ${id} has no directory provisioning (deleted already, or never set up).\n`);
    expect(h.calls().map((call) => `${call.method} ${call.status}`)).toEqual(['DELETE 404']);
    const json = await built(['provisioning', 'delete', id, '--yes', '--ignore-not-found', '--json']);
    expect(json).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('at a terminal without --yes: the read finds none, no question is asked, exit 0', async () => {
    const result = await h.idm(['provisioning', 'delete', FRESH, '--ignore-not-found'], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Nothing to delete: ${FRESH} has no directory provisioning (deleted already, or never set up).\n`);
    expect(h.calls().map((call) => call.method)).toEqual(['GET']);
  });

  it('a connection that does not exist: exit 0, the note says so', async () => {
    const result = await h.idm(['provisioning', 'delete', 'con_doesNotExist0003', '--yes', '--ignore-not-found']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Nothing to delete: there is no connection con_doesNotExist0003 in the tenant.\n');
  });

  it('other errors stay errors: a 403 is exit 4, nothing deleted', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'delete', id, '--yes', '--ignore-not-found'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(state(id)).toBe('configured');
  });
});

describe('idm provisioning delete: a DELETE sent again after a lost answer', () => {
  // The service answers a repeated DELETE with 404 "configuration not found" (not 204, as for
  // streams): when idm sent it again (a 502, a timeout), that 404 says an earlier attempt did it.
  // Here the configuration is gone before the run, and the first DELETE gets a proxy's 502 (what a
  // lost answer looks like to idm); the built binary runs as a process.
  it('a 404 to the retried DELETE is the success (exit 0), and the note says it was sent more than once', async () => {
    const id = configured();
    expect((await h.idm(['provisioning', 'delete', id, '--yes'])).code).toBe(0);
    h.sandbox.addFault({ kind: 'status', status: 502, method: 'DELETE', path: path(id), count: 1 });
    h.mark();
    const result = await runIdm(['provisioning', 'delete', id, '--yes'], { configDir: h.configDir, env: credentialsEnv(h.sandbox) });
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Deleted the directory provisioning of ${id}. (It was sent more than once; the last attempt found none left.)`);
    expect(h.calls('DELETE').map((call) => call.status)).toEqual([502, 404]);
    expect(state(id)).toBe('not configured');
  });

  it('an unknown connection stays an error after a retry (exit 1)', async () => {
    const id = 'con_doesNotExist0002';
    h.sandbox.addFault({ kind: 'status', status: 502, method: 'DELETE', path: path(id), count: 1 });
    const result = await runIdm(['provisioning', 'delete', id, '--yes'], { configDir: h.configDir, env: credentialsEnv(h.sandbox) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The connection does not exist.*404/);
  });
});

describe('idm provisioning delete: errors of the service', () => {
  it('404 for a connection without provisioning (exit 1): nothing to delete, not a cue to create it', async () => {
    const result = await h.idm(['provisioning', 'delete', FRESH, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Directory provisioning configuration not found');
    expect(result.stderr).toContain('It has no directory provisioning: deleted already, or never set up');
    expect(result.stderr).not.toContain('idm provisioning create');
  });

  it('at a terminal, the read before the question: its 404 says the same, before any question', async () => {
    const result = await h.idm(['provisioning', 'delete', FRESH], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('It has no directory provisioning: deleted already, or never set up');
    expect(result.stderr).not.toContain('idm provisioning create');
    expect(h.calls().map((call) => call.method)).toEqual(['GET']);
  });

  it('404 for a connection that does not exist (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'delete', 'con_doesNotExist0001', '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/The connection does not exist.*404/);
  });

  it('403: names the missing scope delete:directory_provisionings (exit 4); nothing deleted', async () => {
    const id = conn(COUNT);
    const result = await h.idm(['provisioning', 'delete', id, '--yes'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('delete:directory_provisionings');
    expect(state(id)).toBe('configured');
  });
});

describe('idm provisioning delete: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a missing connection id', ['--yes'], /Missing <connection-id>/],
    ['a malformed connection id', ['con_nope', '--yes'], /Not a connection id: "con_nope"/],
    ['an unknown flag', [conn(COUNT), '--force'], /Unknown flag --force/],
    ['two connection ids', [conn(COUNT), conn(COUNT - 1), '--yes'], /Too many arguments/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await h.idm(['provisioning', 'delete', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
      expect(state(conn(COUNT))).toBe('configured');
    });
  }
});
