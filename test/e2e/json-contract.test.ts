// The machine contract a CI script relies on, as the built bin/idm.js keeps it against the sandbox:
// with --json every line on stderr is one JSON object (whatever else is asked for, --debug
// included), the error last; help and usage errors say what is wrong the same way at every level.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm, type RunResult } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

function idm(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runIdm(args, { configDir: h.configDir, env: { ...credentialsEnv(h.sandbox), ...env } });
}

/** Every line of stderr parsed as JSON (a line that is not JSON fails the test, naming it). */
function jsonLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .trimEnd()
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line on stderr: ${line}`);
      }
    });
}

describe('--json: stderr is JSON lines', () => {
  it('--debug --json: the stack of a failure with a cause is a {"debug"} line too, and the error is last', async () => {
    // A POST whose connection is reset once sent is not sent again: one attempt, a network error with its cause.
    h.sandbox.addFault({ kind: 'reset', path: '/api/v2/event-streams', method: 'POST' });
    const result = await idm(['api', 'POST', '/event-streams', '--data', '{}', '--json', '--debug']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = jsonLines(result.stderr);
    expect(Object.keys(lines.at(-1)!)).toEqual(['error']);
    expect(lines.at(-1)!.error).toMatchObject({ code: 'network', exitCode: 1 });
    const stack = lines.filter((line) => typeof line.debug === 'string' && /\n\s+at /.test(line.debug));
    expect(stack).toHaveLength(1);
  });

  it('a bad global flag before --json (the parser stops there, before it reads --json): the error is still the one JSON line', async () => {
    for (const args of [
      ['--timeout', '0', 'streams', 'list', '--json'],
      ['--max-wait', 'soon', '--json', 'streams', 'list'],
      ['--profile', 'no/such', 'streams', 'list', '--json'],
      ['--ca-file', 'a.pem', '--ca-file', 'b.pem', 'connections', 'list', '--json'],
    ]) {
      const result = await idm(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(jsonLines(result.stderr), args.join(' ')).toEqual([{ error: expect.objectContaining({ code: 'usage', exitCode: 2 }) }]);
    }
    // Without --json, the same error is words.
    const words = await idm(['--timeout', '0', 'streams', 'list']);
    expect(words.code).toBe(2);
    expect(words.stderr).toMatch(/^Error: --timeout must be a number of seconds greater than 0/);
    expect(h.received()).toEqual([]);
  });

  it('--debug without --json: the stack is on lines of its own, not one line of \\n escapes', async () => {
    h.sandbox.addFault({ kind: 'reset', path: '/api/v2/event-streams', method: 'POST' });
    const result = await idm(['api', 'POST', '/event-streams', '--data', '{}', '--debug']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\n\s+at /);
    expect(result.stderr).not.toMatch(/\\n\s+at /);
  });
});

describe('sandbox start --json --debug', () => {
  it('logs each request as a {"debug"} line: stderr stays JSON lines', async () => {
    const { startSandboxProcess } = await import('../helpers/cli.js');
    const sandbox = await startSandboxProcess(['--port', '0', '--debug'], { configDir: h.configDir, json: true });
    try {
      const answer = await fetch(`${sandbox.info.url}/api/v2/event-streams`);
      expect(answer.status).toBe(401);
    } finally {
      const result = await sandbox.stop('SIGINT');
      expect(result.code).toBe(0);
      const lines = jsonLines(result.stderr);
      expect(lines.map((line) => Object.keys(line))).toEqual([['debug']]);
      expect(lines[0]!.debug).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/v2\/event-streams 401$/);
    }
  });
});

describe('help below the top level', () => {
  it('`idm streams help deliveries list` is the help of that command, on stdout, exit 0', async () => {
    const result = await idm(['streams', 'help', 'deliveries', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: idm streams deliveries list /);
    expect(result.stderr).toBe('');
  });

  it('an unknown name after a nested help is an unknown command (exit 2), not a missing one', async () => {
    const json = await idm(['streams', 'help', 'lst', '--json']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(jsonLines(json.stderr)).toEqual([{ error: expect.objectContaining({ code: 'usage', message: "Unknown command 'lst'. Did you mean list?", exitCode: 2 }) }]);
    const words = await idm(['provisioning', 'groups', 'help', 'nope']);
    expect(words.code).toBe(2);
    expect(words.stdout).toBe('');
    expect(words.stderr).toMatch(/^Error: Unknown command 'nope'\.\nThe commands of idm provisioning groups: list, add, remove, set\.\n$/);
  });
});

describe('login --json', () => {
  it('a token without read:event_streams: the warning is a {"warning"} line on stderr, as it is a Warning line without --json', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'idm-login-json-'));
    try {
      const secretFile = join(dir, 'secret.txt');
      writeFileSync(secretFile, `${h.sandbox.clients.admin.clientSecret}\n`);
      const token = { access_token: 'x.y.z', token_type: 'Bearer', expires_in: 3600, scope: 'read:connections' };
      const args = ['login', '--profile', 'narrow', '--domain', h.sandbox.url, '--client-id', h.sandbox.clients.admin.clientId, '--client-secret-file', secretFile];
      for (const json of [true, false]) {
        h.sandbox.addFault({ kind: 'status', status: 200, path: '/oauth/token', headers: { 'content-type': 'application/json' }, body: JSON.stringify(token) });
        const result = await runIdm(json ? [...args, '--json'] : args, { configDir: dir });
        expect(result.code).toBe(0);
        if (json) {
          expect(JSON.parse(result.stdout)).toMatchObject({ profile: 'narrow', scopes: ['read:connections'] });
          expect(jsonLines(result.stderr)).toEqual([{ warning: expect.objectContaining({ message: 'The token lacks read:event_streams, so idm streams list will be refused.' }) }]);
        } else {
          expect(result.stdout).toBe('');
          expect(result.stderr).toContain('Warning: The token lacks read:event_streams, so idm streams list will be refused.');
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("--json objects of idm's own", () => {
  it('logout and profiles remove say alike what they removed: removedSecret and removedToken', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'idm-remove-json-'));
    try {
      const secretFile = join(dir, 'secret.txt');
      writeFileSync(secretFile, `${h.sandbox.clients.reader.clientSecret}\n`);
      const login = (profile: string) =>
        runIdm(['login', '--profile', profile, '--domain', h.sandbox.url, '--client-id', h.sandbox.clients.reader.clientId, '--client-secret-file', secretFile], { configDir: dir });
      expect((await login('one')).code).toBe(0);
      expect((await login('two')).code).toBe(0);
      const logout = await runIdm(['logout', '--profile', 'one', '--json'], { configDir: dir });
      // two's secret is still stored: the token both share stays for two.
      expect(JSON.parse(logout.stdout)).toEqual({ profile: 'one', removedSecret: true, removedToken: false });
      // two was the last with a secret (one is logged out): the token goes with it.
      const removed = await runIdm(['profiles', 'remove', 'two', '--yes', '--json'], { configDir: dir });
      expect(removed.code).toBe(0);
      expect(JSON.parse(removed.stdout)).toEqual({ profile: 'two', removedSecret: true, removedToken: true, default: 'one' });
      const again = await runIdm(['profiles', 'remove', 'one', '--yes', '--json'], { configDir: dir });
      expect(JSON.parse(again.stdout)).toEqual({ profile: 'one', removedSecret: false, removedToken: false, default: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
