// A sample of the bad values of test/cli/bad-input.property.test.ts through the built binary: each
// kind ends in exit 2 naming the flag or argument, nothing on stdout, no stack trace, nothing sent,
// and no settings written.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm, tempConfigDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const config = tempConfigDir();
afterAll(() => config.cleanup());
const MISSING = join(config.dir, 'no-such-dir', 'file.json');

describe('the same through the built binary (a sample)', () => {
  it('each kind of bad value: exit 2, the flag named, nothing sent', async () => {
    const cases: Array<[string[], string]> = [
      [['streams', 'list', '--take', '１２'], '--take'],
      [['streams', 'list', '--take', `${'9'.repeat(100_000)}`], '--take'],
      [['--timeout', 'NaN', 'streams', 'list'], '--timeout'],
      [['streams', 'test', 'est_\u{1F600}\u{1F600}', '--event-type', 'user.created'], 'stream id'],
      [['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.creatd'], '--event-type'],
      [['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', '--data', '{"object": '], '--data'],
      [['streams', 'test', 'est_demoInboxBearer0000000', '--event-type', 'user.created', '--data', '[1,2]'], '--data'],
      [['provisioning', 'create', 'con/../x'], 'connection id'],
      [['provisioning', 'create', 'con_googleAppsDemo01', '--mapping', 'email'], '--mapping'],
      [['login', '--domain', 'http://tenant.example.com', '--client-id', 'x', '--client-secret-file', MISSING], '--domain'],
      [['login', '--domain', sandbox().url, '--client-secret', 'do-not-echo-this-secret'], '--client-secret'],
      [['completion', 'powershell'], '<shell>'],
      [['sandbox', 'start', '--port', '65536'], '--port'],
      [['sandbox', 'start', '--fault', '{"kind":"explode"}'], '--fault'],
    ];
    const before = sandbox().requests.length;
    for (const [args, name] of cases) {
      const result = await runIdm(args, { configDir: config.dir, env: credentialsEnv(sandbox()) });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(name);
      expect(result.stderr).not.toMatch(/\n\s+at |Unexpected error/);
      expect(result.stderr).not.toContain('do-not-echo-this-secret');
    }
    expect(sandbox().requests.length).toBe(before);
    expect(existsSync(join(config.dir, 'config.json'))).toBe(false);
  });

  it('--status near a delivery status (faild, Failed, fail): exit 2 with the suggestion, nothing sent; another value is sent as it is', async () => {
    const closed = 'est_demoClosedPort00000000';
    const before = sandbox().requests.length;
    for (const [command, value] of [['deliveries list', 'faild'], ['deliveries list', 'Failed'], ['redeliver', 'fail'], ['redeliver', 'failed,faild']] as const) {
      const result = await runIdm(['streams', ...command.split(' '), closed, '--status', value], { configDir: config.dir, env: credentialsEnv(sandbox()) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: --status "${value.split(',').at(-1)}" is not a delivery status. Did you mean failed?\nRun 'idm streams ${command} --help' for usage.\n`);
    }
    expect(sandbox().requests.length).toBe(before);
    const other = await runIdm(['streams', 'deliveries', 'list', closed, '--status', 'pending'], { configDir: config.dir, env: credentialsEnv(sandbox()) });
    expect(other.code, other.stderr).toBe(0);
    const sent = sandbox().requests.slice(before).filter((request) => request.path === `/api/v2/event-streams/${closed}/deliveries`);
    expect(sent.map((request) => new URL(request.url, 'http://x').searchParams.get('statuses'))).toEqual(['pending']);
  });
});
