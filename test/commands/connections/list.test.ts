// idm connections list against the sandbox: the tenant's connections with a PROVISIONING column read
// from the provisioning list (TSV piped, a table at a terminal), --json exactly as the service
// answered (a bare array without paging, {connections, next} with it), --strategy, paging, the column
// as '?' when the provisioning list is refused, local validation, and a 403 on the connections.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ageCachedTokens, missingScope, startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { direct } from '../../helpers/sandbox.js';

const G1 = 'con_connGoogle000001';
const G2 = 'con_connGoogle000002';
const G3 = 'con_connGoogle000003';
const DB = 'con_connDatabase0001';
const SAML = 'con_connSaml00000001';
const seed = {
  connections: [
    { id: G1, name: 'google-one', strategy: 'google-apps' },
    { id: DB, name: 'Username-Password-Authentication', strategy: 'platform' },
    { id: G2, name: 'google-two', strategy: 'google-apps', provisioning: {} },
    { id: SAML, name: 'enterprise-saml', strategy: 'samlp' },
    { id: G3, name: 'google-three', strategy: 'google-apps', provisioning: { synchronize_groups: 'all' } },
  ],
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

const connectionCalls = () => h.calls('GET').filter((call) => call.path === '/api/v2/connections');
const provisioningCalls = () => h.calls('GET').filter((call) => call.path === '/api/v2/connections-directory-provisionings');
const params = (url: string) => new URL(url, 'http://x').searchParams;

describe('idm connections list', () => {
  it('--strategy shows only some connections: the ids and strategies a TAB offers keep the others (as provisioning list merges)', async () => {
    expect((await h.idm(['connections', 'list'])).code).toBe(0);
    expect((await h.idm(['connections', 'list', '--strategy', 'samlp'])).code).toBe(0);
    const offered = async (kind: string) => (await h.idm(['completion', '--values', kind])).stdout.split('\n').filter(Boolean);
    // Not only SAML's: the google-apps connections, which provisioning commands take, are still offered.
    expect(await offered('connections')).toEqual([SAML, G1, DB, G2, G3]);
    expect(await offered('strategies')).toEqual(['samlp', 'google-apps', 'platform']);
    // An unfiltered listing shows them all: it replaces the list.
    expect((await h.idm(['connections', 'list'])).code).toBe(0);
    expect(await offered('connections')).toEqual([G1, DB, G2, SAML, G3]);
  });

  it('piped: id<TAB>name<TAB>strategy<TAB>provisioning, configured or not for google-apps, - for the rest', async () => {
    const result = await h.idm(['connections', 'list']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `${G1}\tgoogle-one\tgoogle-apps\tnot configured`,
        `${DB}\tUsername-Password-Authentication\tplatform\t-`,
        `${G2}\tgoogle-two\tgoogle-apps\tconfigured`,
        `${SAML}\tenterprise-saml\tsamlp\t-`,
        `${G3}\tgoogle-three\tgoogle-apps\tconfigured`,
        '',
      ].join('\n'),
    );
    expect(connectionCalls()).toHaveLength(1);
    expect(provisioningCalls()).toHaveLength(1);
  });

  it('a connection the provisioning list holds is configured, whatever its strategy (the service may support one idm does not know)', async () => {
    const listed = { connection_id: SAML, connection_name: 'enterprise-saml', strategy: 'samlp', mapping: [{ platform: 'email', idp: 'mail' }], synchronize_automatically: false, created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' };
    h.sandbox.addFault({ path: '/api/v2/connections-directory-provisionings', kind: 'status', status: 200, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ directory_provisionings: [listed] }) });
    const result = await h.idm(['connections', 'list']).finally(() => h.sandbox.clearFaults());
    expect(result.code).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.map((row) => [row[0], row[3]])).toEqual([[G1, 'not configured'], [DB, '-'], [G2, 'not configured'], [SAML, 'configured'], [G3, 'not configured']]);
  });

  it('at a terminal: a table with a header, no tabs', async () => {
    const result = await h.idm(['connections', 'list'], { env: { ...TTY_OUT, COLUMNS: '200' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STRATEGY\s+PROVISIONING$/);
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(new RegExp(`^${G1}\\s+google-one\\s+google-apps\\s+not configured$`));
    expect(lines[2]).toMatch(new RegExp(`^${DB}\\s+Username-Password-Authentication\\s+platform\\s+-$`));
    expect(result.stdout).not.toContain('\t');
  });

  it('--json: exactly the service answer (a bare array without paging); the provisioning list is not read', async () => {
    const service = (await direct(h.sandbox, '/connections')).text;
    h.mark();
    const result = await h.idm(['connections', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.stringify(JSON.parse(result.stdout))).toBe(JSON.stringify(JSON.parse(service)));
    expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
    expect(provisioningCalls()).toEqual([]);
  });

  it('--take 2 --json: exactly the service page, {connections, next}', async () => {
    const service = (await direct(h.sandbox, '/connections?take=2')).text;
    h.mark();
    const result = await h.idm(['connections', 'list', '--take', '2', '--json']);
    expect(result.code).toBe(0);
    expect(params(connectionCalls()[0]!.url).get('take')).toBe('2');
    expect(JSON.stringify(JSON.parse(result.stdout))).toBe(JSON.stringify(JSON.parse(service)));
    expect(JSON.parse(result.stdout).next).toEqual(expect.any(String));
  });

  it('--strategy sends the strategies and lists only those', async () => {
    const result = await h.idm(['connections', 'list', '--strategy', 'google-apps,samlp']);
    expect(result.code).toBe(0);
    const sent = params(connectionCalls()[0]!.url).getAll('strategy').flatMap((value) => value.split(','));
    expect(sent.sort()).toEqual(['google-apps', 'samlp']);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([G1, G2, SAML, G3]);
  });

  it('--strategy repeated is the same as comma-separated', async () => {
    const result = await h.idm(['connections', 'list', '--strategy', 'platform', '--strategy', 'samlp']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([DB, SAML]);
  });

  it('--take 2 at a terminal: one page, and a note with the command for the next one', async () => {
    const result = await h.idm(['connections', 'list', '--take', '2', '--strategy', 'google-apps'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(3);
    const cursor = /More connections: idm connections list --strategy google-apps --from (\S+) --take 2/.exec(result.stderr)?.[1];
    expect(cursor).toBeDefined();
    h.mark();
    const rest = await h.idm(['connections', 'list', '--strategy', 'google-apps', '--from', cursor!, '--take', '2']);
    expect(rest.stdout).toBe(`${G3}\tgoogle-three\tgoogle-apps\tconfigured\n`);
  });

  it('--all --take 2: every page, each asked with take=2', async () => {
    const result = await h.idm(['connections', 'list', '--all', '--take', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual([G1, DB, G2, SAML, G3]);
    expect(connectionCalls().map((call) => params(call.url).get('take'))).toEqual(['2', '2', '2']);
  });

  it('--all --json: one document with every connection', async () => {
    const result = await h.idm(['connections', 'list', '--all', '--take', '2', '--json']);
    expect(result.code).toBe(0);
    const all = JSON.parse((await direct(h.sandbox, '/connections')).text);
    expect(JSON.parse(result.stdout)).toEqual({ connections: all });
  });

  it('a configuration created meanwhile shows up as configured', async () => {
    const before = await h.idm(['connections', 'list', '--strategy', 'google-apps']);
    expect(before.stdout).toContain(`${G1}\tgoogle-one\tgoogle-apps\tnot configured\n`);
    expect((await h.idm(['provisioning', 'create', G1])).code).toBe(0);
    const after = await h.idm(['connections', 'list', '--strategy', 'google-apps']);
    expect(after.stdout).toContain(`${G1}\tgoogle-one\tgoogle-apps\tconfigured\n`);
    expect((await h.idm(['provisioning', 'delete', G1, '--yes'])).code).toBe(0);
  });
});

describe('idm connections list: the provisioning list refused', () => {
  it("a 403 on the provisioning list: the column says '?', a note names the scope, exit 0", async () => {
    h.sandbox.addFault({ path: '/api/v2/connections-directory-provisionings', kind: 'status', status: 403, count: 1 });
    try {
      const result = await h.idm(['connections', 'list']);
      expect(result.code).toBe(0);
      const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
      expect(rows.map((row) => row[3])).toEqual(['?', '-', '?', '-', '?']);
      expect(result.stderr).toContain("PROVISIONING '?'");
      expect(result.stderr).toContain('read:directory_provisionings');
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it("a 403 \"feature is not enabled for this tenant\" on the provisioning list: no token's fault, so the column says 'not enabled' and the note names no scope, exit 0", async () => {
    const message = 'The inbound directory provisioning feature is not enabled for this tenant';
    h.sandbox.addFault({ path: '/api/v2/connections-directory-provisionings', kind: 'status', status: 403, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message }) });
    try {
      const result = await h.idm(['connections', 'list']);
      expect(result.code).toBe(0);
      const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
      expect(rows.map((row) => row[3])).toEqual(['not enabled', '-', 'not enabled', '-', 'not enabled']);
      expect(result.stderr).toContain(`PROVISIONING 'not enabled': ${message}.`);
      expect(result.stderr).toContain('not by a scope');
      expect(result.stderr).not.toContain('the token cannot read');
      expect(result.stderr).not.toContain('read:directory_provisionings');
    } finally {
      h.sandbox.clearFaults();
    }
  });

  // That 403 dropped a cached token older than 5 minutes (as a 403 to a read a command needs does, to
  // pick up a scope granted since), so the connections' read fetched a new one: a token in every run
  // for a client that may list connections but not provisioning, which the token cache exists to avoid.
  it('a 403 insufficient_scope on the provisioning list keeps the cached token: the connections are read with it, no new token', async () => {
    expect((await h.idm(['connections', 'list', '--json'])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.sandbox.addFault(missingScope('/api/v2/connections-directory-provisionings', undefined, 'read:directory_provisionings'));
    try {
      const issued = h.sandbox.tokensIssued();
      const result = await h.idm(['connections', 'list']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[3])).toEqual(['?', '-', '?', '-', '?']);
      expect(h.sandbox.tokensIssued()).toBe(issued);
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it('another error of the provisioning list (400) is not hidden as "?": exit 1', async () => {
    h.sandbox.addFault({ path: '/api/v2/connections-directory-provisionings', kind: 'status', status: 400, count: 1 });
    try {
      const result = await h.idm(['connections', 'list']);
      expect(result.code).toBe(1);
      expect(result.stdout).not.toContain('?');
    } finally {
      h.sandbox.clearFaults();
    }
  });
});

describe('idm connections list: errors', () => {
  it('403 on the connections with the reader client: names read:connections (exit 4)', async () => {
    const result = await h.idm(['connections', 'list'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('read:connections');
  });

  it('a cursor the service does not know: 400, hint about --from (exit 1)', async () => {
    const result = await h.idm(['connections', 'list', '--from', 'bogus', '--take', '2']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid query string paging options');
    expect(result.stderr).toContain('Check --from');
  });

  const cases: Array<[string, string[], RegExp]> = [
    ['--take 0', ['--take', '0'], /--take must be from 1 to 100, not 0/],
    ['--take 500', ['--take', '500'], /--take must be from 1 to 100/],
    ['an empty --from', ['--from', ''], /--from must not be empty/],
    ['a --from of spaces', ['--from', '  '], /--from holds only spaces: give the `next` of a previous page\./],
    ['an empty --strategy', ['--strategy', ','], /--strategy must not be empty/],
    ['--strategy without a value', ['--strategy'], /--strategy needs a value/],
    ['an unknown flag', ['--name', 'x'], /Unknown flag --name/],
    ['an argument it does not take', ['google-apps'], /Too many arguments/],
  ];
  for (const [name, args, message] of cases) {
    it(`local validation, ${name}: exit 2, nothing sent`, async () => {
      const result = await h.idm(['connections', 'list', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});

describe("idm connections list: a 400 (the service refusing its query) names what was sent, as every listing's does (--json: the provisioning list, which the fault's path prefix also matches, is not read)", () => {
  it.each([
    ['no flag: no flag to check (it said "Check --strategy and --take (1-100)")', ['connections', 'list', '--json'], undefined],
    ['--strategy', ['connections', 'list', '--strategy', 'google-apps', '--json'], 'Check --strategy.'],
    ['--take', ['connections', 'list', '--take', '20', '--json'], 'Check --take (1-100: 20 was sent).'],
    ['--strategy --all: the size --all sent', ['connections', 'list', '--strategy', 'google-apps', '--all', '--json'], 'Check --strategy and --take (1-100: 100 was sent).'],
  ])('%s', async (_name, args, hint) => {
    h.sandbox.addFault({ path: '/api/v2/connections', kind: 'status', status: 400, body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid query string paging options' }) });
    const result = await h.idm(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid query string paging options');
    if (hint === undefined) expect(result.stderr).not.toContain('Check ');
    else expect(result.stderr).toContain(hint);
  });
});
