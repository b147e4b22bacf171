// Issue 11, item 1: text from a server never reaches the terminal raw. Control, format and separator
// characters become visible escapes in every text mode (table, TSV, records, errors, the login scope
// line, the wizard's mapping, --debug traces); --json stays the same JSON value, with those
// characters escaped. TSV keeps one record per line for every line splitter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Capture, stdinOf } from '../helpers/capture.js';
import { hostileServer, idm, tempDir, tokenBody, unsafeCharacters } from '../helpers/hostile-server.js';

// Everything a hostile name can carry: OSC (retitle), CSI (clear, erase), CR, BS, NUL, NEL, C1 CSI,
// DEL, bidi overrides and isolates, zero-width space, line and paragraph separators, the separators
// Python's splitlines() honours, VT, FF, tab.
const EVIL = 'evil\u001b]0;pwned\u0007\u001b[2J\r\b\u0000\u0085\u009b\u007f\u202e\u2066\u200b\u2028\u2029\u001c\u001d\u001e\u000b\u000c\tend';
const ID = 'est_hostile00000000000000a';
const stream = (id: string) => ({
  id,
  name: `a\u2028est_FAKE00000000000000000\tforged ${EVIL}`,
  status: `enabled${EVIL}`,
  subscriptions: [{ event_type: `user.created${EVIL}` }],
  destination: { type: 'webhook', configuration: { webhook_endpoint: `https://hooks.example.com/${EVIL}`, webhook_authorization: { method: 'bearer' } } },
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
});
const PAGE = { eventStreams: [stream(`${ID}`), stream('est_hostile00000000000000b')] };
const DELIVERY = {
  id: `evt_${EVIL}`,
  event_stream_id: ID,
  event_type: `user.created${EVIL}`,
  status: 'failed',
  attempts: [{ status: `failed${EVIL}`, timestamp: '2026-11-01T10:00:00.000Z', error_message: `502 ${EVIL}` }],
  event: { id: 'evt_x', source: EVIL, specversion: '1.0', type: 'user.created', time: '2026-11-01T10:00:00.000Z', data: {} },
};
const CONFIG = {
  connection_id: 'con_hostile000000001',
  connection_name: EVIL,
  strategy: 'google-apps',
  mapping: [{ platform: `email${EVIL}`, idp: `primaryEmail${EVIL}` }],
  synchronize_automatically: false,
  synchronize_groups: 'off',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

let server: Awaited<ReturnType<typeof hostileServer>>;
const config = tempDir();
beforeAll(async () => {
  server = await hostileServer((request) => {
    if (request.url.startsWith('/oauth/token')) return { body: tokenBody({ scope: `read:event_streams ${EVIL}` }) };
    if (/^\/api\/v2\/event-streams(\?|$)/.test(request.url)) return { body: PAGE };
    if (request.url === `/api/v2/event-streams/${ID}/test`) return { status: 202, body: DELIVERY };
    if (request.url.endsWith('/directory-provisioning') && request.method === 'POST') return { status: 201, body: CONFIG };
    if (request.url.startsWith('/api/v2/event-streams/est_hostileError0000000000')) return { status: 400, body: { statusCode: 400, error: 'Bad Request', message: `Payload validation error: ${EVIL}`, errorCode: 'invalid_body' } };
    return undefined;
  });
});
afterAll(async () => {
  await server.close();
  config.cleanup();
});
const env = (extra: Record<string, string> = {}) => server.env(config.dir, extra);

describe('every text mode escapes what a server sent', () => {
  it('TSV: one line per stream for every line splitter, no raw control character', async () => {
    const result = await idm(['streams', 'list'], { env: env() });
    expect(result.code).toBe(0);
    expect(unsafeCharacters(result.stdout, { tabs: true })).toEqual([]);
    // Python's str.splitlines() boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
    const lines = result.stdout.split(/\r\n|[\n\r\v\f\u001c\u001d\u001e\u0085\u2028\u2029]/).filter((line) => line !== '');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.split('\t')).toHaveLength(6);
    expect(lines[0]).toContain('a\\u2028est_FAKE00000000000000000\\tforged evil\\x1b]0;pwned\\x07\\x1b[2J\\r\\x08\\x00\\x85\\x9b\\x7f\\u202e\\u2066\\u200b\\u2028\\u2029\\x1c\\x1d\\x1e\\x0b\\x0c\\tend');
  });

  it('the table at a terminal, with --no-color and with colour: nothing but the palette', async () => {
    const plain = await idm(['streams', 'list', '--no-color'], { env: env(), tty: true, columns: 400 });
    expect(plain.code).toBe(0);
    expect(unsafeCharacters(plain.stdout)).toEqual([]);
    expect(plain.stdout).toContain('\\x1b]0;pwned\\x07');
    const coloured = await idm(['streams', 'list'], { env: env({ FORCE_COLOR: '1' }), tty: true, columns: 400 });
    expect(coloured.stdout).toContain('\u001b[1m'); // the bold header: colour is on
    expect(unsafeCharacters(coloured.stdout, { colour: true })).toEqual([]);
  });

  it('--json: the same JSON value, with nothing a terminal acts on', async () => {
    const result = await idm(['streams', 'list', '--json'], { env: env() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(PAGE);
    expect(unsafeCharacters(result.stdout)).toEqual([]);
  });

  it('a delivery record and its attempts (streams test)', async () => {
    for (const tty of [false, true]) {
      const result = await idm(['streams', 'test', ID, '--event-type', 'user.created', '--no-color'], { env: env(), tty, columns: 300 });
      expect(result.code).toBe(3);
      expect(unsafeCharacters(result.stdout, { tabs: !tty })).toEqual([]);
      expect(unsafeCharacters(result.stderr)).toEqual([]);
      expect(result.stdout).toContain('502 evil\\x1b]0;pwned');
    }
  });

  it('a provisioning configuration and its mapping (provisioning create)', async () => {
    for (const tty of [false, true]) {
      const result = await idm(['provisioning', 'create', 'con_hostile000000001', '--mapping', 'email=primaryEmail', '--no-color'], { env: env(), tty, columns: 300 });
      expect(result.code).toBe(0);
      expect(unsafeCharacters(result.stdout, { tabs: !tty })).toEqual([]);
      expect(unsafeCharacters(result.stderr)).toEqual([]);
      expect(result.stdout).toContain('email evil\\x1b]0;pwned'.replace(' ', ''));
    }
  });

  it('an error message that quotes the server, in text and as JSON', async () => {
    const text = await idm(['streams', 'test', 'est_hostileError0000000000', '--event-type', 'user.created'], { env: env() });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('Payload validation error: evil\\x1b]0;pwned');
    expect(unsafeCharacters(text.stderr)).toEqual([]);
    const json = await idm(['streams', 'test', 'est_hostileError0000000000', '--event-type', 'user.created', '--json'], { env: env() });
    expect(unsafeCharacters(json.stderr)).toEqual([]);
    expect(JSON.parse(json.stderr).error.message).toContain(`Payload validation error: ${EVIL}`);
  });

  it('--debug traces of hostile answers', async () => {
    const result = await idm(['streams', 'list', '--debug'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('< 200');
    expect(unsafeCharacters(result.stderr)).toEqual([]);
  });

  it('--json --debug: JSON lines on stderr with the trace as sent, and nothing a terminal acts on', async () => {
    const result = await idm(['streams', 'list', '--json', '--debug'], { env: env() });
    expect(result.code).toBe(0);
    expect(unsafeCharacters(result.stderr)).toEqual([]);
    const lines = result.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as { debug?: string });
    expect(lines.some((line) => line.debug?.includes(`"name":${JSON.stringify(PAGE.eventStreams[0]!.name)}`))).toBe(true);
  });

  it('the scope line of idm login', async () => {
    const home = tempDir();
    try {
      const result = await idm(['login', '--domain', server.url, '--client-id', 'hostile-client', '--client-secret-file', '-'], {
        env: { IDM_CONFIG_DIR: home.dir },
        stdin: 'hostile-client-secret-0123456789\n',
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('Token scopes: read:event_streams evil\\x1b]0;pwned');
      expect(unsafeCharacters(result.stderr)).toEqual([]);
    } finally {
      home.cleanup();
    }
  });
});

describe("the wizard's default mapping", () => {
  it('is shown with escapes, whatever the service named the attributes', async () => {
    const { createDeps } = await import('../../src/cli/factory.js');
    const { createIO } = await import('../../src/io/io.js');
    const { runProvisioningWizard } = await import('../../src/commands/provisioning/wizard.js');
    const captured = new Capture(true, 200);
    const io = createIO({ stdin: stdinOf('', true), stdout: new Capture(true, 200), stderr: captured }, env({ NO_COLOR: '1' }));
    const mapping = { mapping: [{ platform: `email${EVIL}`, idp: `primary${EVIL}` }, { platform: 'name', idp: 'fullName' }] };
    const mappingServer = await hostileServer((request) => (request.url.endsWith('/default-mapping') ? { body: mapping } : undefined));
    const deps = createDeps(io, () => ({ json: false, color: false, input: true, debug: false }));
    // The answers of a person who keeps the mapping, says no to both settings, and confirms.
    const answers: unknown[] = ['done', false, 'off', true];
    deps.prompter = async () => ({
      input: async () => 'unused',
      password: async () => 'unused',
      select: async <T>() => answers.shift() as T,
      checkbox: async <T>() => [] as T[],
      confirm: async () => answers.shift() as boolean,
    });
    io.env.IDM_DOMAIN = mappingServer.url;
    try {
      const result = await runProvisioningWizard({ connectionId: 'con_hostile000000001', body: {}, askSettings: true }, deps);
      // The unsafe row is left out of the starting mapping (the schema refuses it); the rest is kept.
      expect(result.body.mapping).toEqual([{ platform: 'name', idp: 'fullName' }]);
      expect(captured.text).toContain('Left out 1 entry of the default mapping');
      expect(captured.text).toContain('email evil\\x1b]0;pwned'.replace(' ', ''));
      expect(unsafeCharacters(captured.text)).toEqual([]);
    } finally {
      await deps.close();
      await mappingServer.close();
    }
  });
});
