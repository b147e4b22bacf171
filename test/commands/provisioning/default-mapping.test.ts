// idm provisioning default-mapping against the sandbox: the strategy's default mapping as TSV, as a
// table at a terminal and as received with --json (the service shows it only for a connection with a
// configuration); a connection without one (404), a strategy without provisioning (400), a
// connection that does not exist (404), a token without the scope (403), and local validation.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runBash } from '../../helpers/cli.js';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { direct } from '../../helpers/sandbox.js';

let h: Harness;
const FRESH = 'con_defaultFresh0001';
const TAKEN = 'con_defaultTaken0001';
const DB = 'con_defaultDb0000001';
const SAML = 'con_defaultSaml00001';

beforeAll(async () => {
  h = await startHarness({
    seed: {
      connections: [
        { id: FRESH, name: 'g-fresh', strategy: 'google-apps' },
        { id: TAKEN, name: 'g-taken', strategy: 'google-apps', provisioning: { mapping: [{ platform: 'email', idp: 'primaryEmail' }] } },
        { id: DB, name: 'db', strategy: 'platform' },
        { id: SAML, name: 'saml', strategy: 'samlp' },
      ],
    },
  });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

describe('idm provisioning default-mapping', () => {
  it('piped: one platform<TAB>idp line per row of the service answer, in its order; one GET', async () => {
    const service = (await direct(h.sandbox, `/connections/${TAKEN}/directory-provisioning/default-mapping`)).body as { mapping: Array<{ platform: string; idp: string }> };
    h.mark();
    const result = await h.idm(['provisioning', 'default-mapping', TAKEN]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(service.mapping.map((row) => `${row.platform}\t${row.idp}\n`).join(''));
    expect(service.mapping.length).toBeGreaterThan(10);
    expect(result.stdout.split('\n')[0]).toBe('app_metadata.external_id\tid');
    expect(h.calls().map((call) => `${call.method} ${call.url}`)).toEqual([`GET /api/v2/connections/${TAKEN}/directory-provisioning/default-mapping`]);
    // the strategy's default, not the configuration's own one-row mapping
    expect(result.stdout.trimEnd().split('\n').length).toBeGreaterThan(10);
  });

  it('at a terminal: a table with the two headers, no tabs', async () => {
    const result = await h.idm(['provisioning', 'default-mapping', TAKEN], { env: TTY_OUT });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Platform attribute\s+Identity-provider attribute$/);
    expect(lines[1]).toMatch(/^app_metadata\.external_id\s+id$/);
    expect(result.stdout).not.toMatch(/[\t│┌]/);
  });

  it('--json prints exactly the service answer ({mapping})', async () => {
    const service = (await direct(h.sandbox, `/connections/${TAKEN}/directory-provisioning/default-mapping`)).text;
    const result = await h.idm(['provisioning', 'default-mapping', TAKEN, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.stringify(JSON.parse(result.stdout))).toBe(JSON.stringify(JSON.parse(service)));
    expect(Object.keys(JSON.parse(result.stdout))).toEqual(['mapping']);
  });
});

// Without jq the pipeline cannot run on a developer's machine; CI installs it (.ci/run).
const noJq = spawnSync('sh', ['-c', 'command -v jq']).status !== 0;

describe.skipIf(noJq && !process.env.CI)('idm provisioning default-mapping: the --help example, run with bash', () => {
  it('its --json example writes a mapping file that update --mapping-file takes back as it is', async () => {
    const help = await h.idm(['provisioning', 'default-mapping', '--help']);
    // The example with --json, its wrapped lines joined again, on the configured connection.
    const example = help.stdout
      .replace(/ \\\n\s+/g, ' ')
      .split('\n')
      .map((line) => /^\s+\$ (idm provisioning default-mapping \S+ --json.*)$/.exec(line)?.[1])
      .find((line) => line !== undefined)
      ?.replace('con_Xy12AbCdEf345678', TAKEN);
    expect(example, help.stdout).toMatch(/> mapping\.json$/);
    const dir = mkdtempSync(join(tmpdir(), 'idm-default-mapping-'));
    try {
      const written = await runBash(example!, { cwd: dir, configDir: h.configDir, env: credentialsEnv(h.sandbox) });
      expect(written.code, written.stderr).toBe(0);
      h.mark();
      const result = await h.idm(['provisioning', 'update', TAKEN, '--mapping-file', join(dir, 'mapping.json')]);
      expect(result.code, result.stderr).toBe(0);
      const service = (await direct(h.sandbox, `/connections/${TAKEN}/directory-provisioning/default-mapping`)).body as { mapping: unknown[] };
      expect(h.calls('PATCH').map((call) => call.json)).toEqual([{ mapping: service.mapping }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('idm provisioning default-mapping --json into --mapping-file', () => {
  it('its --json answer given whole to --mapping-file is refused (exit 2, nothing sent) with the jq that keeps the array', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-default-mapping-'));
    try {
      const answer = await h.idm(['provisioning', 'default-mapping', TAKEN, '--json']);
      writeFileSync(join(dir, 'answer.json'), answer.stdout);
      h.mark();
      const result = await h.idm(['provisioning', 'update', TAKEN, '--mapping-file', join(dir, 'answer.json')]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("It holds an object with a mapping (as 'idm provisioning default-mapping --json' prints it): keep only the array, e.g. with | jq .mapping.");
      expect(h.calls()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('idm provisioning default-mapping: errors of the service', () => {
  it('404 for a connection without provisioning yet (exit 1): says so, and how to create it with the default', async () => {
    const result = await h.idm(['provisioning', 'default-mapping', FRESH]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `Error: Could not read the default mapping of connection ${FRESH}: Directory provisioning configuration not found (404 not_found).\n` +
        `It has no directory provisioning yet, and the service shows the default mapping only once it has: 'idm provisioning create ${FRESH}' sets it up with the strategy's default mapping (no mapping flag), and 'idm provisioning show ${FRESH}' then prints it.\n`,
    );
    expect(h.calls().map((call) => `${call.method} ${call.url}`)).toEqual([`GET /api/v2/connections/${FRESH}/directory-provisioning/default-mapping`]);
    // --help says so before anyone runs into it.
    const help = (await h.idm(['provisioning', 'default-mapping', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('The service shows it only for a connection that has directory provisioning already (a 404 before)');
  });

  it.each([DB, SAML])('%s: a strategy without provisioning answers 400 with the service message (exit 1)', async (id) => {
    const result = await h.idm(['provisioning', 'default-mapping', id]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('The connection strategy does not support inbound directory provisioning');
    expect(result.stderr).toMatch(/400/);
    expect(result.stderr).toContain("\nStrategies that support it: google-apps ('idm connections list' shows each connection's strategy).\n");
  });

  it('404 for a connection that does not exist (exit 1), with the hint to check the id', async () => {
    const result = await h.idm(['provisioning', 'default-mapping', 'con_doesNotExist0001']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/con_doesNotExist0001.*The connection does not exist.*404/);
    expect(result.stderr).toContain("Check the id ('idm connections list' shows the tenant's connections).");
  });

  it('403: names the missing scope read:directory_provisionings (exit 4)', async () => {
    const result = await h.idm(['provisioning', 'default-mapping', FRESH], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('read:directory_provisionings');
  });
});

describe('idm provisioning default-mapping: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a missing connection id', [], /Missing <connection-id>/],
    ['a malformed connection id', ['con_short'], /Not a connection id: "con_short"/],
    ['an unknown flag', [FRESH, '--all'], /Unknown flag --all/],
    ['two connection ids', [FRESH, TAKEN], /Too many arguments/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await h.idm(['provisioning', 'default-mapping', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});
