// idm streams create against the sandbox: the POST body for each destination (webhook with each
// authorization, event bus, action), the secret read from a file, stdin or IDM_WEBHOOK_SECRET and
// never printed, --from-file with flags over its fields, --json exactly as answered, and local
// validation that sends nothing (exit 2).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { hasTmux, Terminal } from '../../helpers/tmux.js';
import { nameAnswerCheck } from '../../../src/commands/streams/create.js';

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'idm-create-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.close();
});
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

let n = 0;
/** A secret file holding `text` (with the newline an editor adds). */
const secretFile = (text: string) => {
  const path = join(dir, `secret-${++n}.txt`);
  writeFileSync(path, `${text}\n`);
  return path;
};
const posts = () => h.calls('POST').filter((call) => call.path === '/api/v2/event-streams');
const fields = (stdout: string) => new Map(stdout.trimEnd().split('\n').map((line) => line.split('\t') as [string, string]));

describe('idm streams create: the request sent, for each destination', () => {
  it('webhook with bearer: the token from --secret-file (newline dropped), enabled by default; never printed', async () => {
    const token = 'tok-create-bearer-7f3a9c';
    const result = await h.idm([
      'streams', 'create', '--name', 'orders', '--event-type', 'user.created,user.deleted',
      '--webhook', 'https://hooks.example.com/idm', '--auth', 'bearer', '--secret-file', secretFile(token),
    ]);
    expect(result.code).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.json).toEqual({
      name: 'orders',
      subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.deleted' }],
      // Sent, not left to the service: early streams were created disabled without it (wire-facts.md).
      status: 'enabled',
      destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/idm', webhook_authorization: { method: 'bearer', token } } },
    });
    expect(posts()[0]!.headers['content-type']).toMatch(/^application\/json/);
    const f = fields(result.stdout);
    expect(f.get('ID')).toMatch(/^est_\w{22}$/);
    expect(f.get('Name')).toBe('orders');
    expect(f.get('Status')).toBe('enabled');
    expect(f.get('Webhook URL')).toBe('https://hooks.example.com/idm');
    expect(f.get('Event types')).toBe('user.created, user.deleted');
    expect(result.stdout + result.stderr).not.toContain(token);
    expect(result.stderr).toBe(`Created stream ${f.get('ID')}. Try it: idm streams test ${f.get('ID')} --event-type user.created --wait\n`);
    // It exists now, as created.
    const shown = await h.idm(['streams', 'show', f.get('ID')!]);
    expect(fields(shown.stdout).get('Name')).toBe('orders');
  });

  it('webhook with basic: --username and the password from IDM_WEBHOOK_SECRET', async () => {
    const password = 'pw-from-env-51d0';
    const result = await h.idm(
      ['streams', 'create', '--name', 'audit', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/a', '--auth', 'basic', '--username', 'idm'],
      { env: { IDM_WEBHOOK_SECRET: password } },
    );
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toMatchObject({
      destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/a', webhook_authorization: { method: 'basic', username: 'idm', password } } },
    });
    expect(fields(result.stdout).get('Username')).toBe('idm');
    expect(result.stdout + result.stderr).not.toContain(password);
  });

  it('webhook with custom-header: --header-key and the value from stdin (--secret-file -)', async () => {
    const value = 'hdr-from-stdin-88e2';
    const result = await h.idm(
      ['streams', 'create', '--name', 'hdr', '--event-type', 'organization.created', '--webhook', 'https://hooks.example.com/h', '--auth', 'custom-header', '--header-key', 'X-Api-Key', '--secret-file', '-'],
      { input: `${value}\n` },
    );
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toMatchObject({
      destination: { configuration: { webhook_authorization: { method: 'custom_header', header_key: 'X-Api-Key', header_value: value } } },
    });
    expect(fields(result.stdout).get('Header')).toBe('X-Api-Key');
    expect(result.stdout + result.stderr).not.toContain(value);
  });

  // At a terminal the method follows from --username or --header-key; without one it did not ("Missing --auth.").
  it('without a terminal, --username alone says basic and --header-key alone custom-header: --auth is not asked for', async () => {
    const basic = await h.idm(['streams', 'create', '--name', 'basic-inferred', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/b', '--username', 'idm'], { env: { IDM_WEBHOOK_SECRET: 'pw-inferred-1' } });
    expect(basic.code, basic.stderr).toBe(0);
    const header = await h.idm(['streams', 'create', '--name', 'header-inferred', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/c', '--header-key', 'X-Api-Key'], { env: { IDM_WEBHOOK_SECRET: 'hdr-inferred-2' } });
    expect(header.code, header.stderr).toBe(0);
    expect(posts().map((call) => (call.json as { destination: { configuration: unknown } }).destination.configuration)).toEqual([
      { webhook_endpoint: 'https://hooks.example.com/b', webhook_authorization: { method: 'basic', username: 'idm', password: 'pw-inferred-1' } },
      { webhook_endpoint: 'https://hooks.example.com/c', webhook_authorization: { method: 'custom_header', header_key: 'X-Api-Key', header_value: 'hdr-inferred-2' } },
    ]);
  });

  it('event bus: the note names the step left in the cloud account, associating the partner event source the service names (stderr only, not with --json)', async () => {
    const result = await h.idm(['streams', 'create', '--name', 'bus-next-step', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'eu-west-1']);
    expect(result.code, result.stderr).toBe(0);
    const f = fields(result.stdout);
    const source = f.get('Partner event source')!;
    expect(source).toMatch(/^cloud\.partner\/platform\.com\/sandbox-[\w-]+\/platform\.events$/);
    expect(result.stderr).toBe(
      `Created stream ${f.get('ID')}. Try it: idm streams test ${f.get('ID')} --event-type user.created --wait\n` +
        `Next, in cloud account 123456789012 (eu-west-1): associate the partner event source ${source} with an event bus; the stream's events reach the bus only once it is associated.\n`,
    );
    const json = await h.idm(['streams', 'create', '--name', 'bus-next-step-json', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'eu-west-1', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout).destination.configuration.cloud_partner_event_source).toMatch(/^cloud\.partner\//);
  });

  it('event bus: a partner event source (or id, account, region) of 100,000 characters is cut in the note, whole in --json', async () => {
    const long = (head: string) => `${head}${'x'.repeat(100_000)}`;
    const answer = {
      id: long('est_'),
      name: 'bus-long',
      status: 'enabled',
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'eventbus', configuration: { cloud_account_id: long('1'), cloud_region: long('eu-'), cloud_partner_event_source: long('cloud.partner/') } },
    };
    const fault = { path: '/api/v2/event-streams', method: 'POST', kind: 'status', status: 201, body: JSON.stringify(answer), headers: { 'content-type': 'application/json; charset=utf-8' } } as const;
    h.sandbox.addFault(fault);
    const result = await h.idm(['streams', 'create', '--name', 'bus-long', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'eu-west-1']);
    expect(result.code, result.stderr).toBe(0);
    const cut = (head: string) => `${long(head).slice(0, 200)}… (${100_000 + head.length - 200} more characters)`;
    expect(result.stderr).toBe(
      `Created stream ${cut('est_')}.\n` +
        `Next, in cloud account ${cut('1')} (${cut('eu-')}): associate the partner event source ${cut('cloud.partner/')} with an event bus; the stream's events reach the bus only once it is associated.\n`,
    );
    h.sandbox.addFault(fault);
    const json = await h.idm(['streams', 'create', '--name', 'bus-long', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'eu-west-1', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).destination.configuration.cloud_partner_event_source).toBe(long('cloud.partner/'));
  });

  it('a name in use by a stream whose id is 100,000 characters: the prompt\'s answer check names it cut', () => {
    const id = `est_${'x'.repeat(100_000)}`;
    expect(nameAnswerCheck(new Map([['taken', id]]))('taken')).toBe(`Stream ${id.slice(0, 200)}… (${id.length - 200} more characters) has that name: choose another.`);
  });

  it('event bus, --disabled: account, region and status disabled', async () => {
    const result = await h.idm(['streams', 'create', '--name', 'bus', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'us-east-1', '--disabled']);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({
      name: 'bus',
      status: 'disabled',
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'us-east-1' } },
    });
    const f = fields(result.stdout);
    expect(f.get('Status')).toBe('disabled');
    expect(f.get('Region')).toBe('us-east-1');
    expect(f.get('Account')).toBe('123456789012');
    // A disabled stream takes no test event: the note offers to enable it, not a test that fails.
    expect(result.stderr.split('\n')[0]).toBe(`Created stream ${f.get('ID')}. It is disabled; to enable it: idm streams enable ${f.get('ID')}`);
    const test = await h.idm(['streams', 'test', f.get('ID')!, '--event-type', 'user.created']);
    expect(test.code).toBe(1);
    expect(test.stderr).toContain('disabled');
  });

  it('action, event types repeated and comma-separated', async () => {
    const result = await h.idm(['streams', 'create', '--name', 'act', '--event-type', 'group.created', '--event-type', 'group.deleted,group.updated', '--action', 'act-1']);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({
      name: 'act',
      subscriptions: [{ event_type: 'group.created' }, { event_type: 'group.deleted' }, { event_type: 'group.updated' }],
      status: 'enabled',
      destination: { type: 'action', configuration: { action_id: 'act-1' } },
    });
    expect(fields(result.stdout).get('Action')).toBe('act-1');
  });

  it('an event type given twice is subscribed once, in the order first given (review C5)', async () => {
    const result = await h.idm(['streams', 'create', '--name', 'dup', '--event-type', 'user.deleted,user.created,user.deleted', '--event-type', 'user.created', '--action', 'a']);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toMatchObject({ subscriptions: [{ event_type: 'user.deleted' }, { event_type: 'user.created' }] });
  });

  it('--from-file: the body as given, with --name overriding its name', async () => {
    const path = join(dir, 'body.json');
    writeFileSync(path, JSON.stringify({ name: 'from-file', subscriptions: [{ event_type: 'user.updated' }], destination: { type: 'action', configuration: { action_id: 'ff' } } }));
    const result = await h.idm(['streams', 'create', '--from-file', path, '--name', 'copy-of-it']);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual({ name: 'copy-of-it', subscriptions: [{ event_type: 'user.updated' }], status: 'enabled', destination: { type: 'action', configuration: { action_id: 'ff' } } });
  });

  it("--from-file: the file's status is kept, and --disabled overrides it", async () => {
    const path = join(dir, 'body-disabled.json');
    writeFileSync(path, JSON.stringify({ name: 'file-disabled', status: 'disabled', subscriptions: [{ event_type: 'user.updated' }], destination: { type: 'action', configuration: { action_id: 'fd' } } }));
    expect((await h.idm(['streams', 'create', '--from-file', path])).code).toBe(0);
    expect(posts()[0]!.json).toMatchObject({ status: 'disabled' });
    writeFileSync(path, JSON.stringify({ name: 'file-enabled', status: 'enabled', subscriptions: [{ event_type: 'user.updated' }], destination: { type: 'action', configuration: { action_id: 'fe' } } }));
    expect((await h.idm(['streams', 'create', '--from-file', path, '--disabled'])).code).toBe(0);
    expect(posts()[1]!.json).toMatchObject({ name: 'file-enabled', status: 'disabled' });
  });

  it('--from-file - reads the body from stdin', async () => {
    const body = { name: 'stdin-body', status: 'disabled', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'x' } } };
    const result = await h.idm(['streams', 'create', '--from-file', '-'], { input: JSON.stringify(body) });
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toEqual(body);
  });
});

describe('idm streams create: output', () => {
  it('--json prints exactly the created stream the service answered, nothing on stderr', async () => {
    const result = await h.idm(['streams', 'create', '--name', 'json-one', '--event-type', 'user.created', '--action', 'j1', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ name: 'json-one', status: 'enabled', destination: { type: 'action', configuration: { action_id: 'j1' } } });
    // Exactly what the service holds: read it back with --json.
    const read = await h.idm(['streams', 'show', created.id, '--json']);
    expect(JSON.parse(read.stdout)).toEqual(created);
  });

  it('--json prints the answer as received, unknown fields included', async () => {
    const answer = { id: 'est_answeredAnswered000001', name: 'x', status: 'enabled', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a' } }, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z', future_field: { a: 1 } };
    h.sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'status', status: 201, body: JSON.stringify(answer), headers: { 'content-type': 'application/json; charset=utf-8' } });
    const result = await h.idm(['streams', 'create', '--name', 'x', '--event-type', 'user.created', '--action', 'a', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(answer);
  });

  it('at a terminal: an aligned record, and the note to try it', async () => {
    const result = await h.idm(['streams', 'create', '--name', 'tty-one', '--event-type', 'user.deleted', '--action', 't1'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\t');
    expect(result.stdout).toMatch(/^ID {2,}est_\w{22}\n/);
    expect(result.stdout).toMatch(/\nName {2,}tty-one\n/);
    expect(result.stderr).toMatch(/^Created stream est_\w{22}\. Try it: idm streams test est_\w{22} --event-type user\.deleted --wait\n$/);
  });
});

describe('idm streams create: local validation sends nothing (exit 2)', () => {
  const secret = () => secretFile('s3cr3t-value');
  const cases: Array<[string, () => string[], RegExp, Record<string, string>?]> = [
    ['no destination', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created'], /Missing a destination/],
    ['no name and no event type', () => ['streams', 'create', '--action', 'a'], /Missing --name, --event-type\./],
    ['two destinations', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--action', 'a', '--webhook', 'https://x.example.com'], /Give one destination, not webhook and action/],
    ['event bus and action', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--action', 'a', '--eventbus-account', '123456789012'], /Give one destination, not eventbus and action/],
    ['an unknown event type', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.bogus', '--action', 'a'], /--event-type is not one of the 22 event types/],
    ['an http:// webhook', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'http://x.example.com', '--auth', 'bearer', '--secret-file', secret()], /--webhook must be an https:\/\/ URL/],
    ['an unknown --auth', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'oauth'], /--auth/],
    ['basic without --username', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'basic', '--secret-file', secret()], /Missing --username/],
    ['--username with bearer', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'bearer', '--username', 'u', '--secret-file', secret()], /--username goes with --auth basic/],
    ['--header-key with basic', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'basic', '--username', 'u', '--header-key', 'X-K', '--secret-file', secret()], /--header-key goes with --auth custom-header/],
    // Without --auth the method follows from either flag; from both it does not (at a terminal, basic was taken and --header-key dropped).
    ['--username and --header-key without --auth', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--username', 'u', '--header-key', 'X-K', '--secret-file', secret()], /--username \(for --auth basic\) and --header-key \(for --auth custom-header\) are settings of two methods\./],
    ['--username and --header-key without --auth, at a terminal', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--username', 'u', '--header-key', 'X-K', '--secret-file', secret()], /are settings of two methods\./, { IDM_FORCE_TTY: 'all' }],
    ['--header-key without --auth or a secret: the secret alone is missing', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--header-key', 'X-K'], /Missing --secret-file \(or IDM_WEBHOOK_SECRET\)\.\n/],
    ['a webhook without a secret (no file, no IDM_WEBHOOK_SECRET, no terminal)', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'bearer'], /Missing --secret-file \(or IDM_WEBHOOK_SECRET\)/],
    ['IDM_WEBHOOK_SECRET set but empty (a CI secret the job cannot read): said to be empty', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'bearer'], /^Error: Missing --secret-file \(IDM_WEBHOOK_SECRET is set, but empty\)\.\n/, { IDM_WEBHOOK_SECRET: '' }],
    ['an empty secret file', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'bearer', '--secret-file', secretFile('')], /--secret-file: the file is empty/],
    ['a secret of two lines', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'bearer', '--secret-file', secretFile('one\ntwo')], /more than one line/],
    ['a bearer token with a control character', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'bearer', '--secret-file', secretFile('tok\u0001en')], /token holds a control character or begins or ends with a space/],
    ['a header value ending with a space', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'custom-header', '--header-key', 'X-K', '--secret-file', secretFile('value ')], /holds a control character or begins or ends with a space, which an HTTP header cannot carry\.\nPut only the secret in the file\./],
    ['IDM_WEBHOOK_SECRET ending with a space: the fix names the variable, not a file', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--webhook', 'https://x.example.com', '--auth', 'bearer'], /token holds a control character or begins or ends with a space, which an HTTP header cannot carry\.\nSet IDM_WEBHOOK_SECRET to the secret alone/, { IDM_WEBHOOK_SECRET: 'env-token-value ' }],
    ['an account that is not 12 digits', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--eventbus-account', '12', '--eventbus-region', 'us-east-1'], /Invalid stream: --eventbus-account: must be exactly 12 digits\./],
    ['an unknown region', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--eventbus-account', '123456789012', '--eventbus-region', 'mars-1'], /--eventbus-region/],
    ['an event-bus account without region', () => ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--eventbus-account', '123456789012'], /Missing --eventbus-region/],
    ['a name of 129 characters', () => ['streams', 'create', '--name', 'a'.repeat(129), '--event-type', 'user.created', '--action', 'a'], /Invalid stream: --name: must be at most 128 characters\./],
    ['--from-file that is not JSON', () => ['streams', 'create', '--from-file', secretFile('{nope')], /--from-file .* (is not valid JSON|JSON)/],
    ['--from-file holding an array', () => ['streams', 'create', '--from-file', secretFile('[1]')], /must hold a JSON object \(the request body\), not an array/],
    ['--from-file with a field the service does not take', () => ['streams', 'create', '--from-file', secretFile(JSON.stringify({ name: 'a', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a' } }, colour: 'red' }))], /Invalid stream/],
    ['missing flags with --no-input at a terminal', () => ['--no-input', 'streams', 'create', '--name', 'a'], /Missing --event-type/, { IDM_FORCE_TTY: 'all' }],
  ];
  for (const [name, args, message, env] of cases) {
    it(name, async () => {
      const argv = args();
      h.mark();
      const result = await h.idm(argv, { env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.calls()).toEqual([]);
    });
  }
});

// Audit of issue 12: webhook settings given without a webhook were dropped without a word, the
// missing-flag list left out the secret, the URL was checked only after the secret was read (and
// quoted with its user name and password), and --from-file - with --secret-file - read stdin twice.
describe('idm streams create: webhook settings and their checks (exit 2, nothing sent)', () => {
  const base = ['streams', 'create', '--name', 'a', '--event-type', 'user.created'];
  const run = async (args: string[], options: { env?: Record<string, string>; input?: string } = {}) => {
    h.mark();
    const result = await h.idm(args, options);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(h.calls()).toEqual([]);
    return result;
  };

  it('--secret-file and --username beside --action: refused, naming both and that the destination is an action', async () => {
    const result = await run([...base, '--action', 'a', '--secret-file', secretFile('s'), '--username', 'u']);
    expect(result.stderr).toContain('--secret-file and --username are webhook settings, and this destination is an action.');
    expect(posts()).toEqual([]);
  });

  // The update's words ("it needs --auth basic ... rotating a secret is --auth bearer ...") sent a
  // create to a second error (Missing --webhook): a new stream's webhook needs its endpoint.
  it('webhook settings without --webhook: the error and its fix name --webhook URL, and no rotation', async () => {
    const withUser = await run([...base, '--username', 'u', '--secret-file', secretFile('s')]);
    expect(withUser.stderr).toBe('Error: --secret-file and --username are webhook settings: they need --webhook URL.\nGive --webhook URL (--username says --auth basic).\n');
    const secretOnly = await run([...base, '--secret-file', secretFile('s')]);
    expect(secretOnly.stderr).toBe('Error: --secret-file is a webhook setting: it needs --webhook URL.\nGive --webhook URL --auth METHOD.\n');
    // The fix as said is enough: the stream is created.
    h.mark();
    const fixed = await h.idm(['streams', 'create', '--name', 'settings-fixed', '--event-type', 'user.created', '--username', 'u', '--secret-file', secretFile('s'), '--webhook', 'https://hooks.example.com/fixed']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
  });

  it('--header-key beside an event bus: refused', async () => {
    const result = await run([...base, '--eventbus-account', '123456789012', '--eventbus-region', 'us-east-1', '--header-key', 'X-K']);
    expect(result.stderr).toContain('--header-key is a webhook setting, and this destination is an event bus.');
  });

  it('the missing-flag list names the secret too', async () => {
    const result = await run(['streams', 'create', '--webhook', 'https://x.example.com/h']);
    expect(result.stderr).toContain('Missing --name, --event-type, --auth, --secret-file (or IDM_WEBHOOK_SECRET).');
  });

  it('an http:// webhook is refused before the secret is read (a secret file that does not exist is not reached)', async () => {
    const result = await run([...base, '--webhook', 'http://x.example.com/h', '--auth', 'bearer', '--secret-file', join(dir, 'no-such-file')]);
    expect(result.stderr).toContain('--webhook must be an https:// URL, not "http://x.example.com/…".');
    expect(result.stderr).not.toContain('no-such-file');
  });

  it('a bad URL is quoted by its scheme and host only: no user name and password, query or path (any may be the secret)', async () => {
    const result = await run([...base, '--webhook', 'http://joe:pa55-w0rd@x.example.com/h', '--auth', 'bearer'], { env: { IDM_WEBHOOK_SECRET: 'x' } });
    expect(result.stderr).toContain('--webhook must be an https:// URL, not "http://x.example.com/…".');
    expect(result.stderr).not.toContain('pa55-w0rd');
    expect(result.stderr).not.toContain('joe');
    for (const webhook of ['http://hook.example.com/x?token=t0k3n-s3cret', 'http://hook.example.com/services/T0K3N/s3cret', 'http://hook.example.com#t0k3n-s3cret']) {
      const quoted = await run([...base, '--webhook', webhook, '--auth', 'bearer'], { env: { IDM_WEBHOOK_SECRET: 'x' } });
      expect(quoted.stderr).toContain('--webhook must be an https:// URL, not "http://hook.example.com/…".');
      expect(quoted.stderr).not.toMatch(/t0k3n|s3cret|T0K3N/);
    }
    // https:// but not a URL: the same.
    const broken = await run([...base, '--webhook', 'https://hook.example.com:99999/x?token=t0k3n-s3cret', '--auth', 'bearer'], { env: { IDM_WEBHOOK_SECRET: 'x' } });
    expect(broken.stderr).toContain('--webhook "https://hook.example.com:99999/…" is not a URL.');
    expect(broken.stderr).not.toContain('t0k3n');
  });

  it('--from-file - and --secret-file -: refused before stdin is read', async () => {
    const result = await run(['streams', 'create', '--from-file', '-', '--webhook', 'https://x.example.com/h', '--auth', 'bearer', '--secret-file', '-'], { input: '{"name":"a"}' });
    expect(result.stderr).toContain('--from-file - and --secret-file - both read stdin.');
  });
});

// Review C1: the service takes any text after https://, so a URL with no host, with a newline or a
// space, or with a user name and password (shown to whoever lists streams) was created (exit 0).
describe('idm streams create: what a webhook URL may hold (exit 2, nothing sent)', () => {
  const base = ['streams', 'create', '--name', 'a', '--event-type', 'user.created', '--auth', 'bearer'];
  const refused = async (webhook: string) => {
    h.mark();
    const result = await h.idm([...base, '--webhook', webhook, '--secret-file', secretFile('s')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(h.calls()).toEqual([]);
    return result.stderr;
  };

  it('no host: https:///path', async () => {
    expect(await refused('https:///path')).toBe('Error: --webhook "https:///…" has no host (https://HOST/PATH).\n');
  });

  it('a newline, a tab, a space or a backslash anywhere in it', async () => {
    for (const webhook of ['https://a.example/x\ny', 'https://a.example/x\ty', 'https://a.example/ x', 'https://a.example\\@b.example/x', 'https://a.example/x\u200b']) {
      expect(await refused(webhook)).toContain('" must not hold spaces, backslashes or control characters (a space in a path is %20).');
    }
  });

  it('a user name and password: refused, and never quoted back', async () => {
    const stderr = await refused('https://joe:pa55-w0rd@hooks.example.com/x');
    expect(stderr).toContain('--webhook "https://hooks.example.com/…" must not hold a user name or password');
    expect(stderr).not.toMatch(/joe|pa55/);
  });

  it('an ordinary URL with a port, a query and percent-encoding is still sent as given', async () => {
    const webhook = 'https://hooks.example.com:8443/a%20b?x=1#f';
    const result = await h.idm([...base, '--webhook', webhook, '--secret-file', secretFile('s')]);
    expect(result.code).toBe(0);
    expect(posts()[0]!.json).toMatchObject({ destination: { configuration: { webhook_endpoint: webhook } } });
  });
});

// Review C2 and C3: a --from-file body skipped the event-type list (and the note then suggested an
// `idm streams test` that idm refuses); a bad flag value was named by its field path in the body.
describe('idm streams create: a problem names the flag, or the field of the --from-file body (exit 2, nothing sent)', () => {
  const body = (fields: Record<string, unknown>) => secretFile(JSON.stringify({ name: 'f', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a' } }, ...fields }));
  const webhook = ['--webhook', 'https://hooks.example.com/x'];
  const refused = async (args: string[]) => {
    h.mark();
    const result = await h.idm(['streams', 'create', ...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(h.calls()).toEqual([]);
    return result.stderr;
  };

  it('an event type of the body that is not in the list: named with its path, and the near miss suggested', async () => {
    const stderr = await refused(['--from-file', body({ subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.createdd' }] })]);
    expect(stderr).toBe('Error: Invalid stream: subscriptions.1.event_type: "user.createdd" is not an event type.\nDid you mean user.created? Run \'idm streams test --help\' for the list.\n');
  });

  it('an event type the body lists twice (or more): refused at its second place, naming every place; flags send each once', async () => {
    const types = (...list: string[]) => ({ subscriptions: list.map((event_type) => ({ event_type })) });
    expect(await refused(['--from-file', body(types('user.created', 'user.deleted', 'group.created', 'user.created'))])).toBe(
      'Error: Invalid stream: subscriptions.3.event_type: "user.created" is listed twice (at 0 and 3).\nList each event type once: a stream receives the events of each type it lists.\n',
    );
    expect(await refused(['--from-file', body(types('user.created', 'user.deleted', 'user.created', 'user.deleted', 'user.created'))])).toContain(
      'Error: Invalid stream: subscriptions.2.event_type: "user.created" is listed 3 times (at 0, 2 and 4); subscriptions.3.event_type: "user.deleted" is listed twice (at 1 and 3).\n',
    );
    // --event-type replaces the body's list, and sends each type once: no refusal.
    h.mark();
    const result = await h.idm(['streams', 'create', '--from-file', body(types('user.created', 'user.created')), '--event-type', 'user.deleted,user.deleted']);
    expect(result.code, result.stderr).toBe(0);
    expect(h.calls().find((call) => call.method === 'POST')!.json).toMatchObject({ subscriptions: [{ event_type: 'user.deleted' }] });
  });

  it('a webhook URL of the body: the same rules as --webhook, the URL not quoted', async () => {
    const configuration = (endpoint: string) => ({ destination: { type: 'webhook', configuration: { webhook_endpoint: endpoint, webhook_authorization: { method: 'bearer', token: 't' } } } });
    expect(await refused(['--from-file', body(configuration('https://joe:pa55-w0rd@hooks.example.com/x'))])).toMatch(/^Error: Invalid stream: destination\.configuration\.webhook_endpoint: must not hold a user name or password[^\n]*\.\n/);
    expect(await refused(['--from-file', body(configuration('https:///x'))])).toContain('destination.configuration.webhook_endpoint: has no host');
    expect(await refused(['--from-file', body(configuration('https://a.example/x\ny'))])).toContain('destination.configuration.webhook_endpoint: must not hold spaces');
  });

  it('flags are named by the flag: --eventbus-account, --header-key, --username, --action', async () => {
    expect(await refused(['--name', 'a', '--event-type', 'user.created', '--eventbus-account', '12345', '--eventbus-region', 'us-east-1'])).toContain('Error: Invalid stream: --eventbus-account: must be exactly 12 digits.\n');
    expect(await refused(['--name', 'a', '--event-type', 'user.created', ...webhook, '--auth', 'custom-header', '--header-key', 'bad key', '--secret-file', secretFile('s')])).toContain('Error: Invalid stream: --header-key: must be a valid HTTP header name.\n');
    expect(await refused(['--name', 'a', '--event-type', 'user.created', ...webhook, '--auth', 'basic', '--username', 'a:b', '--secret-file', secretFile('s')])).toContain('Error: Invalid stream: --username: must not contain a colon.\n');
    expect(await refused(['--name', 'a', '--event-type', 'user.created', '--action', ''])).toContain('Error: Invalid stream: --action: must not be empty.\n');
  });

  it('a blank --name, --username or --action, or a blank name in the body, is refused as the prompts refuse it (it was sent)', async () => {
    expect(await refused(['--name', '   ', '--event-type', 'user.created', '--action', 'a'])).toContain('Error: Invalid stream: --name: must not be blank (only spaces).\n');
    expect(await refused(['--name', 'a', '--event-type', 'user.created', ...webhook, '--auth', 'basic', '--username', '  ', '--secret-file', secretFile('s')])).toContain('Error: Invalid stream: --username: must not be blank (only spaces).\n');
    expect(await refused(['--name', 'a', '--event-type', 'user.created', '--action', ' '])).toContain('Error: Invalid stream: --action: must not be blank (only spaces).\n');
    expect(await refused(['--from-file', body({ name: '\t ', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a' } } })])).toContain('Error: Invalid stream: name: must not be blank (only spaces).\n');
  });

  it('an empty --username or --header-key is said to be empty, and nothing else', async () => {
    expect(await refused(['--name', 'a', '--event-type', 'user.created', ...webhook, '--auth', 'basic', '--username', '', '--secret-file', secretFile('s')])).toContain('Error: Invalid stream: --username: must not be empty.\n');
    expect(await refused(['--name', 'a', '--event-type', 'user.created', ...webhook, '--auth', 'custom-header', '--header-key', '', '--secret-file', secretFile('s')])).toContain('Error: Invalid stream: --header-key: must not be empty.\n');
  });

  it('a body with flags over it: the file\'s fields by their path, the flags\' by the flag', async () => {
    const file = body({ destination: { type: 'eventbus', configuration: { cloud_account_id: '12345', cloud_region: 'us-east-1' } } });
    expect(await refused(['--from-file', file, '--name', 'a'.repeat(129)])).toContain(
      'Error: Invalid stream: --name: must be at most 128 characters; destination.configuration.cloud_account_id: must be exactly 12 digits.\n',
    );
    // The same account from the flag: named by the flag, the file's destination replaced.
    expect(await refused(['--from-file', file, '--eventbus-account', '123', '--eventbus-region', 'us-east-1'])).toContain('Error: Invalid stream: --eventbus-account: must be exactly 12 digits.\n');
  });
});

describe('idm streams create: errors of the service', () => {
  it('the reader client (no create:event_streams): 403, exit 4, names the scope', async () => {
    const result = await h.idm(['streams', 'create', '--name', 'r', '--event-type', 'user.created', '--action', 'a'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('create:event_streams');
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.status).toBe(403);
  });

  it('409 (name taken or too many streams): exit 1 with the hint; the POST is not repeated', async () => {
    h.sandbox.addFault({
      path: '/api/v2/event-streams',
      method: 'POST',
      kind: 'status',
      status: 409,
      body: JSON.stringify({ statusCode: 409, error: 'Conflict', message: 'You have reached the maximum number of event streams for your account OR Event stream name already in use.' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'create', '--name', 'dup', '--event-type', 'user.created', '--action', 'a']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Event stream name already in use');
    expect(result.stderr).toContain('choose another --name');
    expect(posts()).toHaveLength(1);
  });
});

// At a terminal, what the flags leave out is asked for: a webhook given without --auth is no longer
// refused with "idm asks for them only at a terminal" (said at a terminal). The built idm in tmux.
describe.skipIf(!hasTmux && !process.env.CI)('idm streams create at a terminal: a partial destination is completed by asking', () => {
  let terminal: Terminal | undefined;
  afterEach(() => {
    terminal?.close();
    terminal = undefined;
  });

  it('--webhook without --auth: asks the method and the token (masked), then creates', async () => {
    const { clientId, clientSecret } = h.sandbox.clients.admin;
    const t = (terminal = Terminal.start(['streams', 'create', '--name', 'asked-auth', '--event-type', 'user.created', '--webhook', 'https://hooks.example.com/asked'], {
      configDir: h.configDir,
      env: { IDM_DOMAIN: h.sandbox.url, IDM_CLIENT_ID: clientId, IDM_CLIENT_SECRET: clientSecret },
    }));
    await t.waitFor('How does the webhook authenticate deliveries?');
    t.keys('Enter'); // bearer, the first
    await t.waitFor('Webhook token');
    t.type('typed-token-5b1');
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).not.toContain('typed-token-5b1');
    expect(t.screen()).not.toContain('asks for them only at a terminal');
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.json).toEqual({
      name: 'asked-auth',
      subscriptions: [{ event_type: 'user.created' }],
      status: 'enabled',
      destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/asked', webhook_authorization: { method: 'bearer', token: 'typed-token-5b1' } } },
    });
  });
});

// A CI runner that hands its job a terminal: idm does not ask (CI is set), and must not say that it
// asks "only at a terminal" to someone at one.
describe.skipIf(!hasTmux && !process.env.CI)('idm streams create and idm login at a terminal with CI set', () => {
  let terminal: Terminal | undefined;
  afterEach(() => {
    terminal?.close();
    terminal = undefined;
  });

  it.each([
    [['streams', 'create', '--name', 'in-ci'], 'Missing --event-type, a destination'],
    [['login', '--profile', 'in-ci', '--domain', 'http://127.0.0.1:9'], 'Missing --client-id'],
  ])('idm %j: the usage error says why idm cannot ask (CI), nothing sent', async (args, missing) => {
    const { clientId, clientSecret } = h.sandbox.clients.admin;
    const env: Record<string, string> = { CI: 'true', ...(args[0] === 'login' ? {} : { IDM_DOMAIN: h.sandbox.url, IDM_CLIENT_ID: clientId, IDM_CLIENT_SECRET: clientSecret }) };
    const t = (terminal = Terminal.start(args, { configDir: h.configDir, env }));
    expect(await t.exitCode()).toBe(2);
    const screen = t.screen().replace(/\s*\n\s*/g, ' ');
    expect(screen).toContain(missing);
    expect(screen).toContain('cannot ask here (CI is set)');
    expect(screen).not.toContain('only at a terminal');
    expect(posts()).toHaveLength(0);
  });
});
