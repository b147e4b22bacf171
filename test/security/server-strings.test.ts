// Strings of a server's answer or of a file that reach the terminal outside the main tables: the
// error code, a redirect's Location, a prompt's default read from config.json. Each is masked (a
// secret idm sent, quoted back) and escaped or left out (never raw on a terminal), in text and as
// JSON. The built idm as a process, against a hostile server on 127.0.0.1; assertions on the bytes
// it wrote, or on what a real terminal (tmux) did with them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIdm, startSandboxProcess, tempConfigDir } from '../helpers/cli.js';
import { hostileServer, type Answer } from '../helpers/hostile-server.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

const SECRET = 'hostile-client-secret-0123456789';
let answer: (url: string) => Answer | undefined = () => undefined;
let server: Awaited<ReturnType<typeof hostileServer>>;
const config = tempConfigDir();
beforeAll(async () => {
  server = await hostileServer((request) => (request.url.startsWith('/api/v2') ? answer(request.url) : undefined));
});
afterAll(async () => {
  await server.close();
  config.cleanup();
});
const run = (argv: string[]) => runIdm(argv, { configDir: config.dir, env: server.env(config.dir) });

describe('a secret quoted back in a field other than the message is masked', () => {
  it('the errorCode of a management error, in text and as JSON', async () => {
    answer = () => ({ status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Refused', errorCode: `bad_${SECRET}` } });
    for (const flags of [[], ['--json']]) {
      const result = await run(['streams', 'list', ...flags]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('[redacted]');
      expect(result.stderr + result.stdout).not.toContain(SECRET);
    }
  });

  it("the Location of a redirect, escaped too", async () => {
    answer = () => ({ status: 302, headers: { location: `https://elsewhere.example/\u0085?client_secret=${SECRET}` }, body: '' });
    const text = await run(['streams', 'list']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('a redirect to https://elsewhere.example/\\x85?client_secret=[redacted].');
    const json = await run(['streams', 'list', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr.trim()).error.message).toContain('client_secret=[redacted]');
    for (const result of [text, json]) expect(result.stderr + result.stdout).not.toContain(SECRET);
  });
});

describe.skipIf(!hasTmux && !process.env.CI)('a prompt default read from a file', () => {
  it("a hand-written config.json's client id with escapes is not offered at idm login's Client ID prompt: the terminal is not retitled or cleared", async () => {
    const dir = tempConfigDir();
    const clientId = 'cid\u001b]0;PWNED\u0007\u001b[2Jafter';
    writeFileSync(join(dir.dir, 'config.json'), JSON.stringify({ defaultProfile: 'default', profiles: { default: { domain: server.url, clientId, authMethod: 'post' } } }), { mode: 0o600 });
    const term = Terminal.start(['login', '--domain', server.url], { configDir: dir.dir, env: {} });
    try {
      const screen = await term.waitFor('? Client ID');
      expect(term.title()).not.toContain('PWNED');
      expect(screen.split('\n').find((line) => line.startsWith('? Client ID'))?.trimEnd()).toBe('? Client ID');
      expect(screen).not.toContain('after');
    } finally {
      term.close();
      dir.cleanup();
    }
  });
});

describe('idm sandbox start --json', () => {
  it("a saved tenant's client id and connection read from state.json: one line of JSON, the same values, nothing a terminal acts on", async () => {
    const dir = tempConfigDir();
    const options = { configDir: dir.dir, json: true };
    try {
      const first = await startSandboxProcess(['--port', '0', '--state-dir', dir.dir], options);
      await first.stop();
      const file = join(dir.dir, 'state.json');
      const state = JSON.parse(readFileSync(file, 'utf8'));
      const hostile = 'adm\u009b2J\u202e\u2028x';
      state.clients.admin.clientId = hostile;
      state.connections[0].name = `name${hostile}`;
      writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
      const second = await startSandboxProcess(['--port', '0', '--state-dir', dir.dir], options);
      try {
        const line = second.stdout().slice(0, second.stdout().indexOf('\n'));
        expect(line).toMatch(/^[\x20-\x7e]+$/);
        expect(line).toContain('"clientId":"adm\\u009b2J\\u202e\\u2028x"');
        expect(second.info.clients.admin.clientId).toBe(hostile);
        expect(second.info.connections[0].name).toBe(`name${hostile}`);
      } finally {
        await second.stop();
      }
    } finally {
      dir.cleanup();
    }
  });
});
