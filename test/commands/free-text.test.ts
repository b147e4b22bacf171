// Free-text flag values that idm sends to the service (names, cursors, filters, user and header
// names, action ids) against the sandbox: a control or invisible character is exit 2 with the flag
// named and the character escaped, never the raw value, and no request at all (review C4: each of
// these reached the tenant, a stream was stored with a raw ESC in its name). Secrets read from files
// keep their own rules (test/commands/streams/create.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';

const STREAM = 'est_demoInboxBearer0000000';

const dir = mkdtempSync(join(tmpdir(), 'idm-free-text-'));
const secretFile = join(dir, 'secret.txt');
writeFileSync(secretFile, 's3cr3t\n');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.close();
});

const create = ['streams', 'create', '--name', 'ok', '--event-type', 'user.created'];
const webhook = (auth: string[]) => [...create, '--webhook', 'https://hooks.example.com/x', ...auth, '--secret-file', secretFile];

describe('control and invisible characters in free-text flags: exit 2, nothing sent', () => {
  const cases: Array<[string, string[], string]> = [
    ['streams create --name (ESC)', ['streams', 'create', '--name', 'bad\x1bname', '--event-type', 'user.created', '--action', 'a'], '--name holds a control or invisible character (\\x1b, character 4)'],
    ['streams update --name (a newline)', ['streams', 'update', STREAM, '--name', 'two\nlines'], '--name holds a control or invisible character (\\n, character 4)'],
    ['streams create --action (a zero-width space)', [...create, '--action', 'a\u200bb'], '--action holds a control or invisible character (\\u200b, character 2)'],
    ['streams create --username (a bidi override)', webhook(['--auth', 'basic', '--username', 'jo\u202ee']), '--username holds a control or invisible character (\\u202e, character 3)'],
    ['streams create --header-key (DEL)', webhook(['--auth', 'custom-header', '--header-key', 'X-Key\x7f']), '--header-key holds a control or invisible character (\\x7f, character 6)'],
    ['streams list --from (an ANSI colour)', ['streams', 'list', '--from', 'abc\x1b[31m'], '--from holds a control or invisible character (\\x1b, character 4)'],
    ['connections list --strategy', ['connections', 'list', '--strategy', 'x\x1b'], '--strategy holds a control or invisible character (\\x1b, character 2)'],
    ['streams deliveries list --status', ['streams', 'deliveries', 'list', STREAM, '--status', 'fail\x1b'], '--status holds a control or invisible character (\\x1b, character 5)'],
    ['streams redeliver --status (BEL), after a good item', ['streams', 'redeliver', STREAM, '--status', 'failed,x\x07'], '--status holds a control or invisible character (\\x07, character 2)'],
    ['streams deliveries list --from', ['streams', 'deliveries', 'list', STREAM, '--from', 'c\u2028'], '--from holds a control or invisible character (\\u2028, character 2)'],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      h.mark();
      const result = await h.idm(args);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`Error: ${message}: give the value without it.\n`);
      // Described, never quoted: no raw control or invisible character on stderr.
      expect(result.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\u200b\u2028\u202e]/);
      expect(h.received()).toEqual([]);
    });
  }

  it('the same values without the character are sent', async () => {
    h.mark();
    const result = await h.idm(['streams', 'create', '--name', 'badname', '--event-type', 'user.created', '--action', 'ab']);
    expect(result.code).toBe(0);
    expect(h.calls('POST').map((call) => call.json)).toEqual([{ name: 'badname', subscriptions: [{ event_type: 'user.created' }], status: 'enabled', destination: { type: 'action', configuration: { action_id: 'ab' } } }]);
  });
});

describe('the same rule for a --from-file body: exit 2 naming the field in the file, nothing sent', () => {
  it('a name with ESC and an action id with a zero-width space', async () => {
    const body = join(dir, 'body.json');
    writeFileSync(body, JSON.stringify({ name: 'evil\u001b[31mred', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a\u200bb' } } }));
    h.mark();
    const result = await h.idm(['streams', 'create', '--from-file', body]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('name: holds a control or invisible character (\\x1b, character 5): give the value without it');
    expect(result.stderr).toContain('destination.configuration.action_id: holds a control or invisible character (\\u200b, character 2)');
    expect(result.stderr).not.toMatch(/[\u001b\u200b]/);
    expect(h.calls()).toEqual([]);
  });
});
