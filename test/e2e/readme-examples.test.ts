// The README's shell examples against the sandbox, run as written: the built idm as `idm` on PATH,
// bash, curl and jq, in a directory of their own. The only changes to a block are a fixed path of
// its (/tmp/sb) moved into that directory, and --delivery-timeout for its sandbox: the tests' bound
// on a webhook attempt (TEST_DELIVERY_TIMEOUT_MS), not the service's 3 s, which a loaded machine can
// turn into a failed attempt that the Quick start's statistics count. The values (URL, CA file,
// client id, secret file) are the ones the started sandbox writes to sb.json, read by the block
// itself. Without bash, curl or jq the examples are skipped on a developer's machine, and fail in
// CI (.ci/run installs them).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBash, type RunResult } from '../helpers/cli.js';
import { TEST_DELIVERY_TIMEOUT_MS } from '../helpers/timeouts.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const TOOLS = ['bash', 'curl', 'jq'];
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

/** The first ```sh block after `heading` that contains `marker`. */
function shellBlock(heading: string, marker: string): string {
  const section = README.indexOf(`\n${heading}\n`);
  expect(section, heading).toBeGreaterThan(0);
  for (const [, body] of README.slice(section).matchAll(/```sh\n([\s\S]*?)```/g)) if (body!.includes(marker)) return body!;
  throw new Error(`no sh block with ${marker} after ${heading}`);
}

/** A sandbox's line of an earlier run left in `dir` (a second paste): a block must not read it for its own sandbox's. */
const stale = (name: string) => (dir: string) => writeFileSync(join(dir, name), '{"url":"http://127.0.0.1:9","caFile":"/nonexistent","clients":{"admin":{"clientId":"stale","clientSecretFile":"/nonexistent"},"mtls":{"clientId":"stale","certFile":"/nonexistent","keyFile":"/nonexistent"}}}\n');

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * Runs `block` with bash in a fresh directory (`idm` the built binary), each `replace` pair's DIR
 * being that directory; then stops the sandbox the block started in the background (SIGTERM: bash
 * starts background jobs with SIGINT ignored).
 */
async function runBlock(block: string, replace: Array<[string, string]> = [], prepare?: (dir: string) => void): Promise<RunResult & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'idm-readme-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'config'), { mode: 0o700 });
  prepare?.(dir);
  let script = block;
  for (const [from, to] of replace) script = script.replaceAll(from, to.replace('DIR', dir));
  script = script.replaceAll('idm sandbox start ', `idm sandbox start --delivery-timeout ${TEST_DELIVERY_TIMEOUT_MS} `);
  // TMPDIR: the Quick start's settings directory (mktemp -d) is made in `dir`, and removed with it.
  const result = await runBash(`${script}\nstatus=$?\nkill -TERM %1\nwait\nexit $status\n`, { cwd: dir, configDir: join(dir, 'config'), env: { TMPDIR: dir } });
  return { ...result, dir };
}

const skip = missing.length > 0 && !process.env.CI;
describe.skipIf(skip)(`README sandbox examples, run with bash${missing.length ? ` (${missing.join(', ')} not installed: ${skip ? 'skipped' : 'a failure in CI'})` : ''}`, () => {
  it(`${TOOLS.join(', ')} are installed (CI: .ci/run installs them)`, () => {
    expect(missing).toEqual([]);
  });

  it('Quick start: pasted as written (no placeholder to fill in), it logs in, lists, tests a stream and shows its statistics', async () => {
    const block = shellBlock('## Quick start', 'idm login');
    expect(block, 'a value to fill in by hand').not.toMatch(/\bPORT\b|…|\bID\b/);
    // The wizard reads the keyboard: pasted lines after it would be its answers.
    expect(block.trimEnd().split('\n').at(-1)).toBe('idm provisioning create');
    // No comment: an interactive zsh (macOS's shell) runs `# ...` as a command unless interactive_comments is set.
    expect(block).not.toMatch(/(?:^|\s)#/m);
    // Every command that fails is reported; a sandbox.json of an earlier paste must not be read for this one.
    const { code, stdout, stderr } = await runBlock(`trap 'echo "FAILED $?: $BASH_COMMAND" >&2' ERR\n${block}`, [], stale('sandbox.json'));
    // Only the wizard fails here (the block's last status), having no terminal: exit 2, pointing at the connections.
    expect(code, stderr).toBe(2);
    expect([...stderr.matchAll(/^FAILED .*$/gm)].map(([line]) => line), stderr).toEqual(['FAILED 2: idm provisioning create']);
    expect(stderr).toMatch(/Logged in to 127\.0\.0\.1:\d+ as client \w+/);
    expect(stdout).toMatch(/^est_demoInboxBearer0000000\tdemo-inbox-bearer\tenabled\t/m);
    expect(stdout).toMatch(/^Outcome\tdelivered$/m);
    expect(stdout).toMatch(/^\d{4}-\d\d-\d\dT00:00:00\.000Z\t1\t0$/m);
    expect(stderr).toContain("'idm connections list' shows the tenant's connections");
  });

  it('Quick start pasted a second time, its sandbox stopped in between: the second login starts from empty settings, not against the profile of the first', async () => {
    const block = shellBlock('## Quick start', 'idm login');
    const upToWizard = block.slice(0, block.indexOf('\nidm provisioning create') + 1);
    const { code, stderr } = await runBlock(`trap 'echo "FAILED $?: $BASH_COMMAND" >&2' ERR\n${upToWizard}kill -TERM %1\nwait\n${upToWizard}`);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/^FAILED/m);
    expect(stderr.match(/^Logged in to 127\.0\.0\.1:\d+ as client \w+ \(profile "default", the default; post\)\.$/gm), stderr).toHaveLength(2);
  });

  it('Sandbox, Starting it: the script that starts it and logs in runs as written, and again after it (its sandbox stopped by its kill -INT %1)', async () => {
    const block = shellBlock('### Starting it', 'idm login');
    expect(block.trimEnd().split('\n').at(-1)).toBe('kill -INT %1');
    const { code, stdout, stderr } = await runBlock(`trap 'echo "FAILED $?: $BASH_COMMAND" >&2' ERR\n${block}wait\n${block}`);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/^FAILED/m);
    expect(stderr.match(/^Logged in to 127\.0\.0\.1:\d+ as client \w+ \(profile "default", the default; post\)\.$/gm), stderr).toHaveLength(2);
    expect(stdout.match(/^est_demoInboxBearer0000000\t/gm)).toHaveLength(2);
  });

  it("streams list's examples, after the Quick start's login, run as written: the next page from a page's cursor", async () => {
    const quickStart = shellBlock('## Quick start', 'idm login');
    const login = quickStart.slice(0, quickStart.indexOf('\nidm streams') + 1);
    const block = shellBlock('#### `idm streams list`', '--from');
    const { code, stdout, stderr } = await runBlock(`trap 'echo "FAILED $?: $BASH_COMMAND" >&2' ERR\n${login}${block}`);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/^FAILED/m);
    // The page after the first two: the third and fourth demo streams, then the awk line of the disabled one.
    expect(stdout).toMatch(/\nest_demoInboxHeader0000000\t.*\nest_demoClosedPort00000000\t.*\nest_demoAction000000000000 demo-action\n/);
  });

  it('Directory provisioning: the blocks that save a list or a mapping to a file and send it back run as written', async () => {
    const quickStart = shellBlock('## Quick start', 'idm login');
    const login = quickStart.slice(0, quickStart.indexOf('\nidm streams') + 1);
    const blocks = [
      shellBlock('#### `idm provisioning list`, `idm provisioning show CONNECTION`, `idm provisioning default-mapping CONNECTION`', 'default-mapping'),
      shellBlock('#### `idm provisioning list`, `idm provisioning show CONNECTION`, `idm provisioning default-mapping CONNECTION`', '--mapping-file mapping.json'),
      shellBlock('#### `idm provisioning groups list CONNECTION` and its changes', '> groups.json'),
      shellBlock('#### `idm provisioning groups list CONNECTION` and its changes', '--groups-file groups.json'),
    ];
    const { code, stdout, stderr, dir } = await runBlock(`trap 'echo "FAILED $?: $BASH_COMMAND" >&2' ERR\n${login}${blocks.join('')}`);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/^FAILED/m);
    // The mapping saved is the strategy's default, sent back whole; the groups saved are the ones set again.
    const mapping = JSON.parse(readFileSync(join(dir, 'mapping.json'), 'utf8'));
    expect(mapping.length).toBeGreaterThan(1);
    expect(stderr).toMatch(new RegExp(`Updated directory provisioning for con_googleAppsDemo01 with ${mapping.length} mapped attributes`));
    expect(JSON.parse(readFileSync(join(dir, 'groups.json'), 'utf8')).groups.map((group: { id: string }) => group.id)).toEqual(['03ep43zb1xk6ay0']);
    expect(stderr).toContain('Set 1 group as the synchronized groups of con_googleAppsTaken1');
    expect(stdout).toMatch(/^mapping\temail\tprimaryEmail$/m);
  });

  it('Profiles: the transcript is what idm prints, for profiles its listing shows', async () => {
    const section = README.slice(README.indexOf('\n### Profiles\n'));
    const transcript = /```console\n([\s\S]*?)```/.exec(section)![1]!;
    const steps = transcript.split(/^\$ /m).filter(Boolean).map((step) => { const [command, ...output] = step.trimEnd().split('\n'); return { command: command!, output }; });
    expect(steps.map(({ command }) => command)).toEqual(['idm profiles list', 'idm profiles use prod', 'idm profiles remove staging --yes']);
    // The listing has the profiles the commands after it name.
    expect(steps[0]!.output.slice(1).map((row) => row.split(' ')[0])).toEqual(['default', 'prod', 'staging']);
    // The same profiles against the sandbox (prod with the admin's key, staging as the reader), then the transcript's commands.
    const quickStart = shellBlock('## Quick start', 'idm login');
    const login = quickStart.slice(0, quickStart.indexOf('\nidm streams') + 1);
    const more = [
      'idm login --profile prod --domain "$(jq -r .url sandbox.json)" --client-id "$(jq -r .clients.admin.clientId sandbox.json)" --private-key-file "$(jq -r .clients.admin.privateKeyFile sandbox.json)" 2>/dev/null',
      'idm login --profile staging --domain "$(jq -r .url sandbox.json)" --client-id "$(jq -r .clients.reader.clientId sandbox.json)" --client-secret-file "$(jq -r .clients.reader.clientSecretFile sandbox.json)" 2>/dev/null',
      // What each prints on stderr, after its command, on stdout.
      ...steps.slice(1).flatMap(({ command }) => [`echo '$ ${command}'`, `${command} 2>&1 >/dev/null`]),
    ];
    const { code, stdout, stderr } = await runBlock(`${login}${more.join('\n')}`);
    expect(code, stderr).toBe(0);
    const printed = stdout.slice(stdout.indexOf('$ idm profiles use')).trimEnd().split('\n');
    expect(printed).toEqual(steps.slice(1).flatMap(({ command, output }) => [`$ ${command}`, ...output]));
  });

  it('With curl: a token with the secret file, then a page of two streams over HTTPS trusting only the CA', async () => {
    const block = shellBlock('### With curl and the official SDKs', 'curl');
    expect(block).toContain('--data-urlencode client_secret@');
    const { code, stdout, stderr } = await runBlock(block, [], stale('sb.json'));
    expect(code, stderr).toBe(0);
    const page = JSON.parse(stdout);
    expect(page.eventStreams.map((stream: { id: string }) => stream.id)).toEqual(['est_demoInboxBearer0000000', 'est_demoInboxBasic00000000']);
    expect(typeof page.next).toBe('string');
  });

  it('HTTPS and mutual TLS: a tls_client_auth profile lists the streams', async () => {
    const block = shellBlock('### HTTPS, a kept tenant, and mutual TLS', 'tls_client_auth');
    const { code, stdout, stderr, dir } = await runBlock(block, [['/tmp/sb', 'DIR/sb-state']], stale('sb.json'));
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^est_demoInboxBearer0000000\t/);
    expect(JSON.parse(readFileSync(join(dir, 'sb.json'), 'utf8')).stateDir).toBe(join(dir, 'sb-state'));
  });
});
