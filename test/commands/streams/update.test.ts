// idm streams update against the sandbox: the PATCH body for each change (name, event types replaced,
// added or removed, webhook rotation, action), the current stream read first (nothing sent when nothing
// would change; a 403 to that read sends the change unchecked), what changed at a terminal, --json as received, and the refusals: contradictory flags, nothing to change, no
// event types left, an event-bus destination (the service does not let it change).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ageCachedTokens, startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

const webhook = (id: string, name: string, types: string[]) => ({
  id,
  name,
  subscriptions: types.map((event_type) => ({ event_type })),
  destination: { type: 'webhook', configuration: { webhook_endpoint: `{inbox}/${name}`, webhook_authorization: { method: 'bearer', token: 'seed-token' } } },
});
const ids = {
  rename: 'est_updRename000000000000a',
  replace: 'est_updReplace00000000000a',
  addRemove: 'est_updAddRemove000000000a',
  tty: 'est_updTty000000000000000a',
  rotate: 'est_updRotate000000000000a',
  move: 'est_updMove00000000000000a',
  toAction: 'est_updToAction0000000000a',
  json: 'est_updJson00000000000000a',
  fromFile: 'est_updFromFile0000000000a',
  bus: 'est_updEventbus0000000000a',
  busTty: 'est_updEventbusTty0000000a',
  userInUrl: 'est_updUserInUrl000000000a',
  unlisted: 'est_updUnlisted0000000000a',
  noRead: 'est_updNoRead000000000000a',
  same: 'est_updSame00000000000000a',
  sameAction: 'est_updSameAction00000000a',
};
const SEED = {
  streams: [
    webhook(ids.rename, 'rename', ['user.created']),
    webhook(ids.replace, 'replace', ['user.created', 'user.updated']),
    webhook(ids.addRemove, 'add-remove', ['user.created', 'user.deleted']),
    webhook(ids.tty, 'tty', ['user.created']),
    webhook(ids.rotate, 'rotate', ['user.created']),
    webhook(ids.move, 'move', ['user.created']),
    webhook(ids.toAction, 'to-action', ['user.created']),
    webhook(ids.json, 'json', ['user.created']),
    webhook(ids.fromFile, 'from-file', ['user.created']),
    webhook(ids.noRead, 'no-read', ['user.created']),
    webhook(ids.same, 'same', ['user.created', 'user.deleted']),
    { id: ids.sameAction, name: 'same-action', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'act-same' } } },
    webhook(ids.unlisted, 'unlisted', ['user.created', 'user.password.changed']), // a type idm's list lacks, set by another tool
    { ...webhook(ids.userInUrl, 'user-in-url', ['user.created']), destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://joe:pa55-w0rd@hooks.example.com/x', webhook_authorization: { method: 'bearer', token: 'seed-token' } } } },
    ...[ids.bus, ids.busTty].map((id, i) => ({
      id,
      name: `bus-${i}`,
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'us-east-1' } },
    })),
  ],
};
const UNKNOWN = 'est_0000000000000000000000';

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness({ seed: SEED });
  dir = mkdtempSync(join(tmpdir(), 'idm-update-'));
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
const file = (text: string) => {
  const path = join(dir, `f-${++n}`);
  writeFileSync(path, text);
  return path;
};
const patches = () => h.calls('PATCH');
const gets = () => h.calls('GET');
const fields = (stdout: string) => new Map(stdout.trimEnd().split('\n').map((line) => line.split('\t') as [string, string]));

describe('idm streams update: the PATCH sent', () => {
  it('--name: read first (to send nothing when nothing would change), then only the name; the whole stream printed', async () => {
    const result = await h.idm(['streams', 'update', ids.rename, '--name', 'renamed']);
    expect(result.code).toBe(0);
    expect(gets().map((call) => call.path)).toEqual([`/api/v2/event-streams/${ids.rename}`]);
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.path).toBe(`/api/v2/event-streams/${ids.rename}`);
    expect(patches()[0]!.json).toEqual({ name: 'renamed' });
    const f = fields(result.stdout);
    expect(f.get('ID')).toBe(ids.rename);
    expect(f.get('Name')).toBe('renamed');
    expect(f.get('Event types')).toBe('user.created');
  });

  it('--add-event-type of a type the stream has: read, nothing sent, the stream printed as it is, exit 0', async () => {
    const result = await h.idm(['streams', 'update', ids.rename, '--add-event-type', 'user.created']);
    expect(result.code).toBe(0);
    expect(gets()).toHaveLength(1);
    expect(patches()).toEqual([]);
    expect(result.stderr).toBe(`Stream ${ids.rename} subscribes to user.created already: nothing to change, nothing sent.\n`);
    expect(fields(result.stdout).get('ID')).toBe(ids.rename);
    const json = await h.idm(['--json', 'streams', 'update', ids.rename, '--add-event-type', 'user.created']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: ids.rename });
    expect(json.stderr).toBe('');
    expect(patches()).toEqual([]);
  });

  // A PATCH that changes nothing was sent (piped, and at a terminal too), moving only updated_at,
  // where --add-event-type of a type the stream has sends nothing and says so.
  it.each([
    ['--name, the name it has', ['--name', 'same'], 'that name'],
    ['--event-type, the types it has in another order', ['--event-type', 'user.deleted,user.created'], 'those event types'],
    ['--name and --add-event-type, both as it is', ['--name', 'same', '--add-event-type', 'user.created'], 'those event types and that name'],
    ['a --from-file body of its name and status', ['--from-file', '{"name":"same","status":"enabled"}'], 'that name and that status'],
  ])('%s: read, nothing sent, said; the stream printed as read, exit 0', async (_name, flags, what) => {
    const args = flags[0] === '--from-file' ? ['--from-file', file(flags[1]!)] : flags;
    const result = await h.idm(['streams', 'update', ids.same, ...args]);
    expect(result.code, result.stderr).toBe(0);
    expect(gets()).toHaveLength(1);
    expect(patches()).toEqual([]);
    expect(result.stderr).toBe(`Stream ${ids.same} has ${what} already: nothing to change, nothing sent.\n`);
    expect(fields(result.stdout).get('Name')).toBe('same');
  });

  it('--action, the action it has: nothing sent; --json prints the stream as read, nothing on stderr', async () => {
    const result = await h.idm(['streams', 'update', ids.sameAction, '--action', 'act-same', '--json']);
    expect(result.code).toBe(0);
    expect(patches()).toEqual([]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ id: ids.sameAction, destination: { configuration: { action_id: 'act-same' } } });
  });

  it('at a terminal too: nothing sent, said', async () => {
    const result = await h.idm(['streams', 'update', ids.same, '--name', 'same'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(patches()).toEqual([]);
    expect(result.stderr).toBe(`Stream ${ids.same} has that name already: nothing to change, nothing sent.\n`);
  });

  it('one field as it is and one changed: sent; a client that may not read the stream (403 to the read): sent unchecked', async () => {
    const changed = await h.idm(['streams', 'update', ids.same, '--name', 'same', '--event-type', 'user.created']);
    expect(changed.code).toBe(0);
    expect(patches().map((call) => call.json)).toEqual([{ name: 'same', subscriptions: [{ event_type: 'user.created' }] }]);
    h.mark();
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${ids.same}`,
      method: 'GET',
      kind: 'status',
      status: 403,
      body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_streams.', errorCode: 'insufficient_scope' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const unread = await h.idm(['streams', 'update', ids.same, '--name', 'same']);
    expect(unread.code, unread.stderr).toBe(0);
    expect(gets().map((call) => call.status)).toEqual([403]);
    expect(patches().map((call) => call.json)).toEqual([{ name: 'same' }]);
  });

  // That read's 403 dropped a cached token older than 5 minutes, as a 403 to a read the command needs
  // does (to pick up a scope granted since), and the PATCH then fetched a new one: a token in every
  // run for a client that may not read streams, which the token cache exists to avoid.
  it('a 403 to that read keeps the cached token: the PATCH is sent with it, no new token', async () => {
    expect((await h.idm(['streams', 'show', ids.noRead])).code).toBe(0); // a token in the cache
    ageCachedTokens(h.configDir);
    h.mark();
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${ids.noRead}`,
      method: 'GET',
      kind: 'status',
      status: 403,
      body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_streams.', errorCode: 'insufficient_scope' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const issued = h.sandbox.tokensIssued();
    const result = await h.idm(['streams', 'update', ids.noRead, '--name', 'no-read-token-kept']);
    expect(result.code, result.stderr).toBe(0);
    expect(gets().map((call) => call.status)).toEqual([403]);
    expect(patches().map((call) => call.json)).toEqual([{ name: 'no-read-token-kept' }]);
    expect(h.sandbox.tokensIssued()).toBe(issued);
  });

  it('--event-type replaces the list', async () => {
    const result = await h.idm(['streams', 'update', ids.replace, '--event-type', 'group.created,group.deleted']);
    expect(result.code).toBe(0);
    expect(patches()[0]!.json).toEqual({ subscriptions: [{ event_type: 'group.created' }, { event_type: 'group.deleted' }] });
    expect(fields(result.stdout).get('Event types')).toBe('group.created, group.deleted');
  });

  it('--add-event-type / --remove-event-type: reads the list, writes it whole', async () => {
    const result = await h.idm(['streams', 'update', ids.addRemove, '--add-event-type', 'user.updated', '--remove-event-type', 'user.deleted']);
    expect(result.code).toBe(0);
    expect(gets().map((call) => call.path)).toEqual([`/api/v2/event-streams/${ids.addRemove}`]);
    expect(patches()[0]!.json).toEqual({ subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }] });
  });

  it('a stream with a type idm does not list (set elsewhere) still takes --add-event-type / --remove-event-type', async () => {
    const result = await h.idm(['streams', 'update', ids.unlisted, '--add-event-type', 'user.deleted', '--remove-event-type', 'user.created']);
    expect(result.code, result.stderr).toBe(0);
    expect(patches()[0]!.json).toEqual({ subscriptions: [{ event_type: 'user.password.changed' }, { event_type: 'user.deleted' }] });
  });

  // It was refused as "not one of the 22 event types" before any read: such a type could only be
  // dropped by giving the whole list again with --event-type.
  it('--remove-event-type takes a type idm does not list that the stream has; a near miss of neither is still refused, no PATCH', async () => {
    const body = { name: 'remove-unlisted', subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.password.changed' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } };
    const created = await h.idm(['api', 'POST', '/event-streams', '--data', JSON.stringify(body)]);
    const id = JSON.parse(created.stdout).id as string;
    h.mark();
    const typo = await h.idm(['streams', 'update', id, '--remove-event-type', 'user.createdd']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^Error: --remove-event-type "user\.createdd" is not an event type\. Did you mean user\.created\?/);
    expect(patches()).toEqual([]);
    const result = await h.idm(['streams', 'update', id, '--remove-event-type', 'user.password.changed']);
    expect(result.code, result.stderr).toBe(0);
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.json).toEqual({ subscriptions: [{ event_type: 'user.created' }] });
  });

  it('adding a type it already has does not list it twice', async () => {
    const result = await h.idm(['streams', 'update', ids.addRemove, '--add-event-type', 'user.created,group.created']);
    expect(result.code).toBe(0);
    expect(patches()[0]!.json).toEqual({ subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }, { event_type: 'group.created' }] });
  });

  it('rotating the secret (--auth bearer --secret-file): the current endpoint is kept, the new token sent, never printed', async () => {
    const token = 'rotated-token-0c4e1';
    const result = await h.idm(['streams', 'update', ids.rotate, '--auth', 'bearer', '--secret-file', file(`${token}\n`)]);
    expect(result.code).toBe(0);
    expect(gets()).toHaveLength(1);
    expect(patches()[0]!.json).toEqual({
      destination: { type: 'webhook', configuration: { webhook_endpoint: `${h.sandbox.inboxUrl}/rotate`, webhook_authorization: { method: 'bearer', token } } },
    });
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it('a new webhook with basic: endpoint, user name and password together', async () => {
    const result = await h.idm(['streams', 'update', ids.move, '--webhook', 'https://hooks.example.com/v2', '--auth', 'basic', '--username', 'idm'], { env: { IDM_WEBHOOK_SECRET: 'pw-9' } });
    expect(result.code).toBe(0);
    expect(gets()).toHaveLength(1); // read first: an event-bus stream's destination cannot change
    expect(patches()[0]!.json).toEqual({
      destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/v2', webhook_authorization: { method: 'basic', username: 'idm', password: 'pw-9' } } },
    });
    const f = fields(result.stdout);
    expect(f.get('Webhook URL')).toBe('https://hooks.example.com/v2');
    expect(f.get('Username')).toBe('idm');
  });

  it('--action: the destination becomes an action', async () => {
    const result = await h.idm(['streams', 'update', ids.toAction, '--action', 'act-9']);
    expect(result.code).toBe(0);
    expect(patches()[0]!.json).toEqual({ destination: { type: 'action', configuration: { action_id: 'act-9' } } });
    expect(fields(result.stdout).get('Action')).toBe('act-9');
  });

  it('--from-file: a PATCH body, flags over its fields', async () => {
    const result = await h.idm(['streams', 'update', ids.fromFile, '--from-file', file(JSON.stringify({ name: 'in-file', status: 'disabled' })), '--name', 'flag-wins']);
    expect(result.code).toBe(0);
    expect(patches()[0]!.json).toEqual({ name: 'flag-wins', status: 'disabled' });
    expect(fields(result.stdout).get('Status')).toBe('disabled');
  });
});

describe('idm streams update: output', () => {
  it('at a terminal: the record, then what changed, one line per field', async () => {
    const result = await h.idm(['streams', 'update', ids.tty, '--name', 'tty-renamed', '--add-event-type', 'user.deleted'], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\t');
    expect(result.stdout).toMatch(/\nName {2,}tty-renamed\n/);
    expect(result.stderr).toBe('Changed:\n  Name: tty → tty-renamed\n  Event types: user.created → user.created, user.deleted\n');
  });

  it('at a terminal, a change the service does not show (a new secret): says so', async () => {
    const result = await h.idm(['streams', 'update', ids.tty, '--auth', 'bearer'], { env: { ...TTY_OUT, IDM_WEBHOOK_SECRET: 'another' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Changed:\n  Webhook token: replaced by the one given (never shown)\n');
  });

  it('at a terminal, a new endpoint is listed with its new secret, which was sent too (not only the URL, as if the secret were kept)', async () => {
    const result = await h.idm(['streams', 'update', ids.tty, '--webhook', 'https://hooks.example.com/moved', '--auth', 'basic', '--username', 'idm'], { env: { ...TTY_OUT, IDM_WEBHOOK_SECRET: 'another' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Changed:\n {2}Webhook URL: \S+ → https:\/\/hooks\.example\.com\/moved\n(.*\n)* {2}Webhook password: replaced by the one given \(never shown\)\n$/);
    expect(result.stderr).not.toContain('another');
  });

  // The read before a change that does not need it is for the summary alone: a 403 to it ended the
  // run (exit 4, nothing changed) where the change itself was allowed.
  it('at a terminal, a client that may not read streams (403 to the read): the change is made and printed, without the summary', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${ids.noRead}`,
      method: 'GET',
      kind: 'status',
      status: 403,
      body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_streams.', errorCode: 'insufficient_scope' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'update', ids.noRead, '--name', 'no-read-renamed'], { env: TTY_OUT });
    expect(result.code, result.stderr).toBe(0);
    expect(gets().map((call) => call.status)).toEqual([403]);
    expect(patches().map((call) => [call.status, call.json])).toEqual([[200, { name: 'no-read-renamed' }]]);
    expect(result.stdout).toMatch(/\nName {2,}no-read-renamed\n/);
    expect(result.stderr).toBe('');
  });

  it('--json: exactly the stream the service answered (as read back), nothing on stderr', async () => {
    const result = await h.idm(['streams', 'update', ids.json, '--name', 'json-renamed', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const answered = JSON.parse(result.stdout);
    expect(answered).toMatchObject({ id: ids.json, name: 'json-renamed' });
    const read = await h.idm(['streams', 'show', ids.json, '--json']);
    expect(JSON.parse(read.stdout)).toEqual(answered);
  });
});

describe('idm streams update: refusals sent before any change (exit 2)', () => {
  const cases: Array<[string, () => string[], RegExp]> = [
    ['nothing to change', () => ['streams', 'update', ids.rename], /Nothing to change\./],
    ['--event-type with --add-event-type', () => ['streams', 'update', ids.rename, '--event-type', 'user.created', '--add-event-type', 'user.deleted'], /--event-type replaces the list: give it alone/],
    // It was removed without a word (the add was dropped), after the stream was read.
    ['a type both added and removed', () => ['streams', 'update', ids.rename, '--add-event-type', 'user.updated,user.created', '--remove-event-type', 'user.created'], /^Error: user\.created is given to both --add-event-type and --remove-event-type: nothing sent\.\nGive each event type to one of them\.\n$/],
    ['--event-type with --remove-event-type', () => ['streams', 'update', ids.rename, '--event-type', 'user.created', '--remove-event-type', 'user.deleted'], /--event-type replaces the list/],
    // The file's list was dropped: the stream's list, changed, was sent in its place.
    ['a --from-file body with subscriptions, and --add-event-type', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ subscriptions: [{ event_type: 'group.created' }] })), '--add-event-type', 'user.deleted'], /^Error: The --from-file body sets subscriptions, which replaces the list: give it alone, or use --add-event-type \/ --remove-event-type without it\.\n$/],
    // The file's endpoint was dropped: the new secret went with the stream's own endpoint.
    ['a --from-file body with a destination, and --auth without --webhook', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://new.example.com/h', webhook_authorization: { method: 'bearer', token: 'old-token' } } } })), '--auth', 'bearer', '--secret-file', file('new-token')], /^Error: The --from-file body sets destination, and --auth without --webhook changes the stream's own endpoint\.\nGive --webhook URL with --auth, or leave the flags out/],
    ['a --from-file body with subscriptions, and --remove-event-type', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ subscriptions: [{ event_type: 'group.created' }] })), '--remove-event-type', 'user.created'], /The --from-file body sets subscriptions, which replaces the list/],
    ['an unknown event type', () => ['streams', 'update', ids.rename, '--add-event-type', 'user.nope'], /--add-event-type is not one of the 22 event types/],
    ['a bad stream id', () => ['streams', 'update', 'est_123', '--name', 'x'], /Not a stream id: "est_123"/],
    ['webhook and action at once', () => ['streams', 'update', ids.rename, '--action', 'a', '--webhook', 'https://x.example.com'], /Give one destination, not webhook and action/],
    ['an http:// webhook', () => ['streams', 'update', ids.rename, '--webhook', 'http://x.example.com', '--auth', 'bearer', '--secret-file', file('s')], /--webhook must be an https:\/\/ URL/],
    ['a webhook without --auth', () => ['streams', 'update', ids.rename, '--webhook', 'https://x.example.com/n'], /Missing --auth, --secret-file \(or IDM_WEBHOOK_SECRET\)\./],
    // --username says basic (as at a terminal): what is missing is the secret alone.
    ['a webhook with --username, without --auth or a secret', () => ['streams', 'update', ids.rename, '--webhook', 'https://x.example.com/n', '--username', 'joe'], /Missing --secret-file \(or IDM_WEBHOOK_SECRET\)\.\n/],
    ['an empty name', () => ['streams', 'update', ids.rename, '--name', ''], /Invalid change: --name: must not be empty\./],
    // Review C2 and C3: the --username below was refused only after the stream was read (a GET).
    ['--auth basic --username with a colon, rotating the secret (the endpoint kept)', () => ['streams', 'update', ids.rename, '--auth', 'basic', '--username', 'a:b', '--secret-file', file('pw')], /^Error: Invalid change: --username: must not contain a colon\.\n$/],
    ['--auth custom-header with a bad --header-key, rotating the secret', () => ['streams', 'update', ids.rename, '--auth', 'custom-header', '--header-key', 'bad key', '--secret-file', file('v')], /^Error: Invalid change: --header-key: must be a valid HTTP header name\.\n$/],
    ['a blank --name', () => ['streams', 'update', ids.rename, '--name', '  '], /^Error: Invalid change: --name: must not be blank \(only spaces\)\.\n$/],
    // Rotating the secret with the stream's own endpoint: the user name was sent after the read.
    ['a blank --username, rotating the secret', () => ['streams', 'update', ids.rename, '--auth', 'basic', '--username', ' ', '--secret-file', file('pw')], /^Error: Invalid change: --username: must not be blank \(only spaces\)\.\n$/],
    // A copy of streams show --json: refused for its unknown fields, with the hint that they are the answer's.
    ['a --from-file body copied from an answer (id, created_at, updated_at)', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ id: ids.rename, name: 'copied', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }))], /^Error: Invalid change: the body: unknown fields: id, created_at, updated_at\.\nid, created_at, updated_at: the service sets them \(a copy of 'idm streams show --json' holds them\); leave them out of the file\.\n$/],
    ['an empty --action', () => ['streams', 'update', ids.rename, '--action', ''], /^Error: Invalid change: --action: must not be empty\.\n$/],
    ['an event type of the --from-file body that is not in the list', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ subscriptions: [{ event_type: 'user.createdd' }] }))], /^Error: Invalid change: subscriptions\.0\.event_type: "user\.createdd" is not an event type\.\nDid you mean user\.created\?/],
    ['an event type the --from-file body lists twice', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ subscriptions: [{ event_type: 'user.deleted' }, { event_type: 'user.deleted' }] }))], /^Error: Invalid change: subscriptions\.1\.event_type: "user\.deleted" is listed twice \(at 0 and 1\)\.\nList each event type once/],
    ['a webhook URL of the --from-file body with a user name and password', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://joe:pw@x.example.com/h', webhook_authorization: { method: 'bearer', token: 't' } } } }))], /Invalid change: destination\.configuration\.webhook_endpoint: must not hold a user name or password/],
    // Audit of issue 12: each of these was sent (or said "Nothing to change.") before.
    ['--username without --auth (it was dropped: only the name was sent)', () => ['streams', 'update', ids.rename, '--name', 'n', '--username', 'joe'], /--username is a webhook setting: it needs --auth basic\.\nGive --auth basic \(and --webhook URL for a new endpoint\)\.\n$/],
    ['--secret-file without --auth (it said "Nothing to change.")', () => ['streams', 'update', ids.rename, '--secret-file', file('new')], /--secret-file is a webhook setting: it needs --auth METHOD\.\nGive --auth METHOD \(and --webhook URL for a new endpoint\); to rotate a secret, the stream's own method \(--auth bearer, --auth basic --username NAME, or --auth custom-header --header-key NAME\): another one would change how deliveries authenticate\.\n$/],
    ['--header-key beside --action', () => ['streams', 'update', ids.rename, '--action', 'a', '--header-key', 'X-K'], /--header-key is a webhook setting, and this destination is an action\./],
    ['--auth basic without --username: refused before the stream is read', () => ['streams', 'update', ids.rename, '--auth', 'basic', '--secret-file', file('pw')], /Missing --username\./],
    ['an event-bus destination in --from-file', () => ['streams', 'update', ids.rename, '--from-file', file(JSON.stringify({ destination: { type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'us-east-1' } } }))], /does not let a change set an event-bus destination[\s\S]*Create a new stream with the destination you want \('idm streams create'\), then delete this one\./],
    ['--from-file - and --secret-file -', () => ['streams', 'update', ids.rename, '--from-file', '-', '--auth', 'bearer', '--secret-file', '-'], /--from-file - and --secret-file - both read stdin\./],
    ['a URL with a user name and password (review C1)', () => ['streams', 'update', ids.rename, '--webhook', 'https://joe:pa55-w0rd@x.example.com/h', '--auth', 'bearer', '--secret-file', file('s')], /--webhook "https:\/\/x\.example\.com\/…" must not hold a user name or password/],
    ['a URL with no host (review C1)', () => ['streams', 'update', ids.rename, '--webhook', 'https:///h', '--auth', 'bearer', '--secret-file', file('s')], /--webhook "https:\/\/\/…" has no host/],
    ['a URL with a password in it, quoted by its scheme and host', () => ['streams', 'update', ids.rename, '--webhook', 'ftp://joe:pa55-w0rd@x.example.com/h?token=t0k3n', '--auth', 'bearer'], /--webhook must be an https:\/\/ URL, not "ftp:\/\/x\.example\.com\/…"\.\n/],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: no request at all`, async () => {
      const argv = args();
      h.mark();
      const result = await h.idm(argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.calls()).toEqual([]);
    });
  }

  it('removing every event type: refused after reading the list, no PATCH', async () => {
    const result = await h.idm(['streams', 'update', ids.rename, '--remove-event-type', 'user.created']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('That would leave the stream with no event types');
    expect(patches()).toEqual([]);
  });

  it('rotating a secret without a secret (no file, no IDM_WEBHOOK_SECRET, no terminal): no PATCH', async () => {
    const result = await h.idm(['streams', 'update', ids.rename, '--auth', 'bearer']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --secret-file (or IDM_WEBHOOK_SECRET).\nidm cannot ask here (stdin, stdout and stderr are not terminals).');
    expect(patches()).toEqual([]);
  });

  it('the same at a terminal with stdout piped: the refusal says why the secret was not asked', async () => {
    const result = await h.idm(['streams', 'update', ids.rename, '--auth', 'bearer'], { env: { IDM_FORCE_TTY: 'stdin,stderr', NO_COLOR: '1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing --secret-file (or IDM_WEBHOOK_SECRET).\nidm cannot ask here (stdout is not a terminal).');
    expect(patches()).toEqual([]);
  });

  it('rotating a secret of a stream whose stored URL holds a user name and password: not sent back, no PATCH (review C1)', async () => {
    const result = await h.idm(['streams', 'update', ids.userInUrl, '--auth', 'bearer', '--secret-file', file('new-token')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The webhook URL of stream ${ids.userInUrl} must not hold a user name or password`);
    expect(result.stderr).toContain('Give --webhook URL with the new secret: idm does not send that URL back as it is.');
    expect(result.stderr).not.toContain('pa55');
    expect(patches()).toEqual([]);
  });

  it('an event-bus stream and --auth (a webhook change): refused, no PATCH', async () => {
    const result = await h.idm(['streams', 'update', ids.bus, '--auth', 'bearer'], { env: { IDM_WEBHOOK_SECRET: 'x' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Stream ${ids.bus} sends events to an event bus, and the service does not let an event-bus destination change.`);
    expect(patches()).toEqual([]);
  });

  it('an event-bus stream and --action at a terminal: refused, no PATCH', async () => {
    const result = await h.idm(['streams', 'update', ids.busTty, '--action', 'a'], { env: TTY_OUT });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not let an event-bus destination change');
    expect(patches()).toEqual([]);
  });

  // The same refusal must not depend on whether stdout is a terminal: piped (a script), idm skips
  // reading the stream and sends the PATCH, turning an event-bus stream into an action stream.
  it('an event-bus stream and --action piped: refused as at a terminal, no PATCH', async () => {
    const result = await h.idm(['streams', 'update', ids.bus, '--action', 'a']);
    expect(patches()).toEqual([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not let an event-bus destination change');
    const shown = await h.idm(['streams', 'show', ids.bus]);
    expect(fields(shown.stdout).get('Destination')).toBe('eventbus');
  });
});

describe('idm streams update: audit of issue 12', () => {
  it('the PATCH schema takes a webhook or an action only (the published change body)', async () => {
    const EventStreamUpdateSchema = (await import('../../../src/schemas/requests.js')).eventStreamUpdateSchema();
    expect(EventStreamUpdateSchema.safeParse({ destination: { type: 'action', configuration: { action_id: 'a' } } }).success).toBe(true);
    expect(EventStreamUpdateSchema.safeParse({ destination: { type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'us-east-1' } } }).success).toBe(false);
  });

  it('an event-bus stream and a webhook destination in --from-file: refused after reading it, no PATCH', async () => {
    const body = { destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://x.example.com/h', webhook_authorization: { method: 'bearer', token: 't' } } } };
    const result = await h.idm(['streams', 'update', ids.bus, '--from-file', file(JSON.stringify(body))]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not let an event-bus destination change');
    expect(result.stderr).toContain('then delete this one');
    expect(patches()).toEqual([]);
  });

  it('--remove-event-type of a type the stream does not have: says so, no PATCH', async () => {
    const result = await h.idm(['streams', 'update', ids.rename, '--remove-event-type', 'group.deleted']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Stream ${ids.rename} does not subscribe to group.deleted: nothing to remove, nothing sent.`);
    expect(patches()).toEqual([]);
  });

  it('piped, what changed is not printed (stdout the record, stderr empty)', async () => {
    const result = await h.idm(['streams', 'update', ids.addRemove, '--add-event-type', 'group.updated']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(fields(result.stdout).get('Event types')).toContain('group.updated');
  });
});

describe('idm streams update: errors of the service', () => {
  it('404: names the stream (exit 1)', async () => {
    const result = await h.idm(['streams', 'update', UNKNOWN, '--name', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not read stream ${UNKNOWN}`);
    expect(result.stderr).toContain('The requested stream does not exist');
    expect(result.stderr).toContain('idm streams list');
    expect(patches()).toHaveLength(0);
  });

  it('409 for a name another stream has: exit 1, the service\'s message and what to do, nothing changed', async () => {
    const result = await h.idm(['streams', 'update', ids.json, '--name', 'replace']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Could not change stream ${ids.json}: You have reached the maximum number of event streams for your account OR Event stream name already in use`);
    expect(result.stderr).toContain('Another stream has that name: choose another --name.');
    expect(patches().map((call) => call.status)).toEqual([409]);
  });

  it('the reader client: 403, exit 4, names update:event_streams', async () => {
    const result = await h.idm(['streams', 'update', ids.rename, '--name', 'r'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('update:event_streams');
    expect(patches()[0]!.status).toBe(403);
  });

  it('400 invalid_body from the service: exit 1 with its message', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${ids.rename}`,
      method: 'PATCH',
      kind: 'status',
      status: 400,
      body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Payload validation error: something the service did not like.', errorCode: 'invalid_body' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'update', ids.rename, '--name', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not change stream ${ids.rename}: Payload validation error: something the service did not like`);
    expect(patches()).toHaveLength(1);
  });
});
