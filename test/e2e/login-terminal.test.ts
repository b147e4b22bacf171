// idm login in a real pseudo-terminal (tmux): the prompts, arrow keys in the method list, the masked
// secret, and Ctrl-C at a prompt (exit 130). Skipped where tmux is not installed.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN, tempConfigDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const run = promisify(execFile);
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const socket = `idm-test-${process.pid}`;
const sandbox = useSandbox();
const dirs: Array<() => void> = [];
afterAll(async () => {
  dirs.forEach((cleanup) => cleanup());
  await run('tmux', ['-L', socket, 'kill-server']).catch(() => {});
});

let session = 0;
/** Starts `idm args` in a fresh 200x50 terminal; returns helpers to type and to read the screen. */
async function terminal(args: string, dir: string) {
  const name = `s${++session}`;
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const command = `env -i PATH=${quote(process.env.PATH ?? '')} HOME=${quote(dir)} TERM=xterm-256color IDM_CONFIG_DIR=${quote(dir)} ${quote(process.execPath)} ${quote(BIN)} ${args}; echo "EXIT:$?"; sleep 60`;
  await run('tmux', ['-L', socket, 'new-session', '-d', '-x', '200', '-y', '50', '-s', name, command]);
  const screen = async () => (await run('tmux', ['-L', socket, 'capture-pane', '-p', '-t', name])).stdout;
  return {
    screen,
    keys: (...keys: string[]) => run('tmux', ['-L', socket, 'send-keys', '-t', name, ...keys]),
    /** Type text literally (no key names). */
    type: (text: string) => run('tmux', ['-L', socket, 'send-keys', '-t', name, '-l', text]),
    async waitFor(pattern: RegExp): Promise<string> {
      for (let i = 0; i < 200; i++) {
        const text = await screen();
        if (pattern.test(text)) return text;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the terminal never showed ${pattern}:\n${await screen()}`);
    },
    close: () => run('tmux', ['-L', socket, 'kill-session', '-t', name]).catch(() => {}),
  };
}

describe.skipIf(!hasTmux)('idm login in a pseudo-terminal', () => {
  const open: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of open.splice(0)) await close();
  });

  it('prompts for domain, client id, method (arrow keys) and a masked secret, then saves the profile', async () => {
    const { dir, cleanup } = tempConfigDir();
    dirs.push(cleanup);
    const { clientId, clientSecret } = sandbox().clients.admin;
    const term = await terminal('login', dir);
    open.push(term.close);

    await term.waitFor(/Tenant domain/);
    await term.type(sandbox().url);
    await term.keys('Enter');
    await term.waitFor(/Client ID/);
    await term.type(clientId);
    await term.keys('Enter');
    await term.waitFor(/How does the client authenticate\?/);
    await term.keys('Down'); // post -> basic
    await term.keys('Enter');
    await term.waitFor(/Client secret/);
    await term.type(clientSecret);
    await term.keys('Enter');
    const screen = await term.waitFor(/EXIT:\d+/);

    expect(screen).toContain('EXIT:0');
    expect(screen).toMatch(/Logged in to 127\.0\.0\.1:\d+ as client \w+ \(profile "default", the default; basic\)/);
    expect(screen).toContain('*'.repeat(8)); // the secret, masked
    expect(screen).not.toContain(clientSecret);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles.default).toEqual({ domain: sandbox().url, clientId, authMethod: 'basic' });
  });

  it('Ctrl-C at a prompt exits 130 and saves nothing', async () => {
    const { dir, cleanup } = tempConfigDir();
    dirs.push(cleanup);
    const term = await terminal('login', dir);
    open.push(term.close);
    await term.waitFor(/Tenant domain/);
    await term.keys('C-c');
    const screen = await term.waitFor(/EXIT:\d+/);
    expect(screen).toContain('EXIT:130');
    expect(screen).not.toMatch(/\n\s+at /);
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });
});
