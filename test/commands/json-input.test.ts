// Every command that reads JSON from a user (a flag, a file, stdin) refuses text that does not parse
// by naming the place and the fix, never quoting the text: a file named by mistake (/etc/shadow) or a
// body with a token must not reach the terminal or a CI log. Nothing is sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';

const STREAM = 'est_demoInboxBearer0000000';
const CONNECTION = 'con_googleAppsDemo01';
const SHADOW = 'root:*:20201:0:99999:7:::\ndaemon:*:20201:0:99999:7:::\n';
const BODY = '{"name": "x", "token": hunter2-secret-value}';

let h: Harness;
const files = mkdtempSync(join(tmpdir(), 'idm-json-input-'));
const file = (name: string, text: string) => {
  writeFileSync(join(files, name), text);
  return join(files, name);
};
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  rmSync(files, { recursive: true, force: true });
});
beforeEach(() => h.mark());

describe('JSON from a user that does not parse', () => {
  const shadow = () => file('shadow', SHADOW);
  const body = () => file('body.json', BODY);
  const cases: Array<[string, () => string[], string, { input?: string }?]> = [
    ['provisioning create --mapping-file', () => ['provisioning', 'create', CONNECTION, '--mapping-file', shadow()], `--mapping-file ${join(files, 'shadow')} is not valid JSON: at line 1, column 1`],
    ['provisioning update --mapping-file -', () => ['provisioning', 'update', CONNECTION, '--mapping-file', '-'], '--mapping-file - (stdin) is not valid JSON: at line 1, column 1', { input: SHADOW }],
    ['streams create --from-file', () => ['streams', 'create', '--from-file', body()], `--from-file ${join(files, 'body.json')} is not valid JSON: at line 1, column 24`],
    ['streams test --data', () => ['streams', 'test', STREAM, '--event-type', 'user.created', '--data', BODY], '--data is not valid JSON: at line 1, column 24'],
    ['streams test --data-file', () => ['streams', 'test', STREAM, '--event-type', 'user.created', '--data-file', shadow()], `--data-file ${join(files, 'shadow')} is not valid JSON: at line 1, column 1`],
    ['api --data', () => ['api', 'POST', '/event-streams', '--data', BODY], '--data is not valid JSON: at line 1, column 24'],
    ['api --data @FILE', () => ['api', 'POST', '/event-streams', '--data', `@${shadow()}`], `--data @${join(files, 'shadow')} is not valid JSON: at line 1, column 1`],
  ];

  it.each(cases)('%s: exit 2, the line and column and the fix, none of the text, nothing sent', async (_name, args, message, options) => {
    const result = await h.idm(args(), options);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    const [first, hint] = result.stderr.split('\n');
    expect(first).toMatch(new RegExp(`^Error: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, a value is expected \\(a "string", a number, true, false, null, an object or an array\\)\\.$`));
    expect(hint).toMatch(/Strings and property names take double quotes/);
    for (const part of ['root', '20201', 'daemon', 'hunter2', 'secret-value', "'h'", "'r'"]) expect(result.stderr).not.toContain(part);
    expect(h.calls()).toEqual([]);
  });
});

describe('a file flag given an empty path (an unset variable: --from-file "$FILE")', () => {
  const cases: Array<[string, string[]]> = [
    ['--from-file', ['streams', 'create', '--from-file', '']],
    ['--from-file', ['streams', 'update', STREAM, '--from-file', ' ']],
    ['--data-file', ['streams', 'test', STREAM, '--event-type', 'user.created', '--data-file', '']],
    ['--mapping-file', ['provisioning', 'create', CONNECTION, '--mapping-file', '']],
    ['--groups-file', ['provisioning', 'groups', 'set', CONNECTION, '--groups-file', '']],
    ['--secret-file', ['streams', 'create', '--name', 'x', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/a', '--auth', 'bearer', '--secret-file', '']],
    ['--client-secret-file', ['login', '--domain', 'http://127.0.0.1:9', '--client-id', 'abc', '--client-secret-file', '']],
    ['--private-key-file', ['login', '--domain', 'http://127.0.0.1:9', '--client-id', 'abc', '--private-key-file', '']],
  ];

  it.each(cases)('%s "": exit 2 saying the path is missing (not "cannot read : no such file"), nothing sent', async (flag, args) => {
    const result = await h.idm(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^Error: ${flag} must be the path of a file\\.\\n`));
    expect(h.received()).toEqual([]);
  });
});
