// idm streams show (alias get) against the sandbox: the stream as key/value lines when piped and an
// aligned record at a terminal, every destination type with what identifies it, --json exactly as
// the service answered (compared with a GET made here), local validation that sends nothing, and the
// service's errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';
import { direct } from '../../helpers/sandbox.js';

const BEARER = 'est_demoInboxBearer0000000';
const BASIC = 'est_demoInboxBasic00000000';
const HEADER = 'est_demoInboxHeader0000000';
const EVENTBUS = 'est_demoEventbus0000000000';
const ACTION = 'est_demoAction000000000000';
const UNKNOWN = 'est_0000000000000000000000';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

/** Piped output of a key/value record as a map (one `label<TAB>value` per line). */
const fields = (stdout: string) => new Map(stdout.trimEnd().split('\n').map((line) => line.split('\t') as [string, string]));

describe('idm streams show: piped, a record as label<TAB>value lines', () => {
  it('a bearer webhook: one GET of the stream, its fields, never a secret', async () => {
    const result = await h.idm(['streams', 'show', BEARER]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.split('\t')).toHaveLength(2);
    const f = fields(result.stdout);
    expect([...f.keys()]).toEqual(['ID', 'Name', 'Status', 'Destination', 'Webhook URL', 'Authorization', 'Event types', 'Created', 'Updated']);
    expect(f.get('ID')).toBe(BEARER);
    expect(f.get('Name')).toBe('demo-inbox-bearer');
    expect(f.get('Status')).toBe('enabled');
    expect(f.get('Destination')).toBe('webhook');
    expect(f.get('Webhook URL')).toBe(`${h.sandbox.inboxUrl}/demo-bearer`);
    expect(f.get('Authorization')).toBe('bearer');
    expect(f.get('Event types')).toBe('user.created, user.updated, user.deleted');
    expect(f.get('Created')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(result.stdout).not.toContain('sandbox-demo-token');
    const calls = h.calls();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([`GET /api/v2/event-streams/${BEARER}`]);
    expect(calls[0]!.headers.authorization).toMatch(/^Bearer ey/);
  });

  it('basic: shows the user name, not the password', async () => {
    const result = await h.idm(['streams', 'show', BASIC]);
    expect(result.code).toBe(0);
    const f = fields(result.stdout);
    expect(f.get('Authorization')).toBe('basic');
    expect(f.get('Username')).toBe('sandbox');
    expect(result.stdout).not.toContain('sandbox-demo-password');
  });

  it('custom header: shows the header name, not its value', async () => {
    const result = await h.idm(['streams', 'show', HEADER]);
    expect(result.code).toBe(0);
    const f = fields(result.stdout);
    expect(f.get('Authorization')).toBe('custom_header');
    expect(f.get('Header')).toBe('x-sandbox-secret');
    expect(f.get('Event types')).toBe('organization.created, organization.updated');
    expect(result.stdout).not.toContain('sandbox-demo-header-value');
  });

  it('event bus: region, account and partner event source', async () => {
    const result = await h.idm(['streams', 'show', EVENTBUS]);
    expect(result.code).toBe(0);
    const f = fields(result.stdout);
    expect(f.get('Destination')).toBe('eventbus');
    expect(f.get('Region')).toBe('us-east-1');
    expect(f.get('Account')).toBe('123456789012');
    expect(f.get('Partner event source')).toBe('cloud.partner/platform.com/sandbox/platform.events');
    expect(f.has('Webhook URL')).toBe(false);
  });

  it('the alias get: an action stream, disabled', async () => {
    const result = await h.idm(['streams', 'get', ACTION]);
    expect(result.code).toBe(0);
    const f = fields(result.stdout);
    expect(f.get('Status')).toBe('disabled');
    expect(f.get('Destination')).toBe('action');
    expect(f.get('Action')).toBe('6018e89f-245f-4da3-ac9f-e22fc6d8b0d1');
    expect(h.calls('GET').map((call) => call.path)).toEqual([`/api/v2/event-streams/${ACTION}`]);
  });

  it('fields idm does not know are shown as they came, not dropped', async () => {
    const stream = { ...((await direct(h.sandbox, `/event-streams/${BEARER}`)).body as object), region_hint: 'eu', retries: 3 };
    h.mark();
    h.sandbox.addFault({ path: `/api/v2/event-streams/${BEARER}`, method: 'GET', kind: 'status', status: 200, body: JSON.stringify(stream), headers: { 'content-type': 'application/json; charset=utf-8' } });
    const result = await h.idm(['streams', 'show', BEARER]);
    expect(result.code).toBe(0);
    const f = fields(result.stdout);
    expect(f.get('region_hint')).toBe('eu');
    expect(f.get('retries')).toBe('3');
  });
});

describe('idm streams show: at a terminal and --json', () => {
  it('at a terminal: aligned labels and values, no tabs, no table borders', async () => {
    const result = await h.idm(['streams', 'show', BEARER], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\t│┌─]/);
    expect(result.stdout).toMatch(new RegExp(`^ID {2,}${BEARER}\n`));
    expect(result.stdout).toMatch(/\nName {2,}demo-inbox-bearer\n/);
    expect(result.stdout).toMatch(/\nWebhook URL {2,}https:\/\/127\.0\.0\.1:\d+\/inbox\/demo-bearer\n/);
    expect(result.stdout).toMatch(/\nEvent types {2,}user\.created, user\.updated, user\.deleted\n/);
    // Values start in one column.
    const starts = result.stdout.trimEnd().split('\n').map((line) => /^\S+(?: \S+)* {2,}/.exec(line)![0].length);
    expect(new Set(starts).size).toBe(1);
  });

  it.each([BEARER, EVENTBUS, ACTION])('--json prints exactly the service body of %s', async (id) => {
    const expected = await direct(h.sandbox, `/event-streams/${id}`);
    expect(expected.status).toBe(200);
    h.mark();
    const result = await h.idm(['streams', 'show', id, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(expected.body);
    expect(h.calls()).toHaveLength(1);
  });

  it('--json keeps unknown fields and odd values as received', async () => {
    const odd = { id: BEARER, name: 'n', status: 'paused', subscriptions: [], destination: { type: 'queue', configuration: { url: 'q://x' } }, extra: { nested: [1, null] } };
    h.sandbox.addFault({ path: `/api/v2/event-streams/${BEARER}`, method: 'GET', kind: 'status', status: 200, body: JSON.stringify(odd), headers: { 'content-type': 'application/json; charset=utf-8' } });
    const result = await h.idm(['--json', 'streams', 'show', BEARER]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(odd);
  });
});

describe('idm streams show: validation (exit 2, nothing sent) and errors', () => {
  it.each([
    ['too short', 'est_short', /Not a stream id: "est_short"\. A stream id is est_ and 22 letters or digits, 26 characters in all \(it has 9 characters\)/],
    ['wrong prefix', 'evt_demoInboxBearer0000000', /Not a stream id: "evt_demoInboxBearer0000000"/],
    ['a character that is not a letter or digit', 'est_demoInboxBearer000000-', /Not a stream id/],
    ['a path in the id', 'est_../../oauth/token', /Not a stream id/],
    ['the rest of a stream id, without est_', 'demoInboxBasic00000000', /\(it has 22 characters\)\. Did you mean est_demoInboxBasic00000000\?\n/],
  ])('%s', async (_name, id, message) => {
    const result = await h.idm(['streams', 'show', id]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(h.received()).toEqual([]);
  });

  it('no id at all: usage error, nothing sent', async () => {
    const result = await h.idm(['streams', 'show']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/stream-id/);
    expect(h.received()).toEqual([]);
  });

  it('404: names the stream, says it does not exist, suggests idm streams list (exit 1)', async () => {
    const result = await h.idm(['streams', 'show', UNKNOWN]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Could not read stream ${UNKNOWN}`);
    expect(result.stderr).toContain('The requested stream does not exist');
    expect(result.stderr).toContain('404');
    expect(result.stderr).toContain("Run 'idm streams list' to see the stream ids.");
    expect(h.calls('GET')).toHaveLength(1);
  });

  it('404 with --json: one JSON error object on stderr', async () => {
    const result = await h.idm(['streams', 'show', UNKNOWN, '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 404, exitCode: 1, message: expect.stringContaining(UNKNOWN) } });
  });

  it('the reader client can read a stream (read:event_streams)', async () => {
    const result = await h.idm(['streams', 'show', BEARER], { client: 'reader' });
    expect(result.code).toBe(0);
    expect(fields(result.stdout).get('ID')).toBe(BEARER);
  });

  it('403 insufficient scope: exit 4, names the scope', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${BEARER}`,
      kind: 'status',
      status: 403,
      body: JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_streams.', errorCode: 'insufficient_scope' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'show', BEARER]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('read:event_streams');
  });

  it('a stored webhook URL with a password (set by another tool): shown as ***@, --json as received', async () => {
    const url = 'https://hookuser:s3cr3t-pass@hooks.example.com/x';
    const stream = { ...((await direct(h.sandbox, `/event-streams/${BEARER}`)).body as Record<string, unknown>) };
    stream.destination = { type: 'webhook', configuration: { webhook_endpoint: url, webhook_authorization: { method: 'bearer' } } };
    const answer = (path: string, body: unknown) =>
      h.sandbox.addFault({ path, method: 'GET', kind: 'status', status: 200, count: 1, body: JSON.stringify(body), headers: { 'content-type': 'application/json; charset=utf-8' } });
    answer(`/api/v2/event-streams/${BEARER}`, stream);
    const piped = await h.idm(['streams', 'show', BEARER]);
    expect(fields(piped.stdout).get('Webhook URL')).toBe('https://***@hooks.example.com/x');
    answer(`/api/v2/event-streams/${BEARER}`, stream);
    const terminal = await h.idm(['streams', 'show', BEARER], { env: TTY_OUT });
    expect(terminal.stdout).toContain('https://***@hooks.example.com/x');
    answer('/api/v2/event-streams', { eventStreams: [stream] });
    const list = await h.idm(['streams', 'list']);
    expect(list.stdout).toContain('webhook https://***@hooks.example.com/x');
    for (const result of [piped, terminal, list]) expect(result.stdout + result.stderr).not.toContain('s3cr3t-pass');
    answer(`/api/v2/event-streams/${BEARER}`, stream);
    const json = await h.idm(['streams', 'show', BEARER, '--json']);
    expect(JSON.parse(json.stdout).destination.configuration.webhook_endpoint).toBe(url);
    // A raw @ in the password: the user info ends at the last @, as a URL parser reads it.
    stream.destination = { type: 'webhook', configuration: { webhook_endpoint: 'https://hookuser:p@ss-w0rd@hooks.example.com/x', webhook_authorization: { method: 'bearer' } } };
    answer(`/api/v2/event-streams/${BEARER}`, stream);
    const raw = await h.idm(['streams', 'show', BEARER]);
    expect(fields(raw.stdout).get('Webhook URL')).toBe('https://***@hooks.example.com/x');
    // Reviewed defect: a user name alone (very often a token) was shown as it came.
    const bare = 'https://Tk7-bare-userinfo-token@hooks.example.com/x';
    stream.destination = { type: 'webhook', configuration: { webhook_endpoint: bare, webhook_authorization: { method: 'bearer' } } };
    answer(`/api/v2/event-streams/${BEARER}`, stream);
    const token = await h.idm(['streams', 'show', BEARER]);
    expect(fields(token.stdout).get('Webhook URL')).toBe('https://***@hooks.example.com/x');
    answer('/api/v2/event-streams', { eventStreams: [stream] });
    const tokenList = await h.idm(['streams', 'list']);
    expect(tokenList.stdout).toContain('webhook https://***@hooks.example.com/x');
    for (const result of [token, tokenList]) expect(result.stdout + result.stderr).not.toContain('Tk7-bare');
    answer(`/api/v2/event-streams/${BEARER}`, stream);
    const bareJson = await h.idm(['streams', 'show', BEARER, '--json']);
    expect(JSON.parse(bareJson.stdout).destination.configuration.webhook_endpoint).toBe(bare);
  });
});
