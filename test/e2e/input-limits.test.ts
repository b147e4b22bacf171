// Every file or stdin idm reads stops at the limit of its kind (src/io/input.ts INPUT_LIMITS): a JSON
// body at what the service accepts (1 MB), a secret or key at 64 KB. /dev/zero, a FIFO that pours
// zeros, a large file and a large stdin are refused through the built binary with exit 2 naming the
// flag and the limit, and nothing reaches the sandbox. A FIFO that no one writes is a wait that
// SIGTERM ends (143), like any other; so is a terminal no one types at (`--client-secret-file
// /dev/tty`, a character device: Ctrl-C 130, SIGTERM 143), and what is typed there is read. And
// `--data @` (no file name) says so, as a usage error.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm, spawnIdm, tempConfigDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, Terminal } from '../helpers/tmux.js';

const sandbox = useSandbox();
const config = tempConfigDir();
const files = tempConfigDir(); // the big files and the FIFOs
afterAll(() => {
  config.cleanup();
  files.cleanup();
});

const MB = 1024 * 1024;
const STREAM = 'est_demoInboxBearer0000000';
const WEBHOOK = ['--name', 'x', '--webhook', 'https://hooks.example.com/x', '--auth', 'bearer', '--event-type', 'user.created'];
const JSON_LIMIT = 'holds more than 1 MB, the most idm reads for a JSON body';
const SECRET_LIMIT = 'the file holds more than 64 KB, the most idm reads for a secret or key';

/** A file of `bytes` bytes: `head` and spaces, or a sparse file (nothing written) without `head`. */
function fileOf(name: string, bytes: number, head?: string): string {
  const path = join(files.dir, name);
  writeFileSync(path, head === undefined ? '' : head + ' '.repeat(bytes - head.length));
  if (head === undefined) truncateSync(path, bytes);
  return path;
}

function fifo(name: string): string {
  const path = join(files.dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** Every run: exit 2, the message on stderr, nothing on stdout, nothing sent, nothing stored. */
async function refused(args: string[], message: string, options: { input?: string; env?: Record<string, string> } = {}) {
  const before = sandbox().requests.length;
  const result = await runIdm(args, { configDir: config.dir, env: options.env ?? credentialsEnv(sandbox()), input: options.input });
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
  expect(result.stderr).toContain(message);
  expect(result.stderr).not.toMatch(/\n\s+at |Unexpected error/);
  expect(result.stdout).toBe('');
  expect(sandbox().requests.length).toBe(before);
  expect(existsSync(join(config.dir, 'config.json'))).toBe(false);
}

describe('/dev/zero for every flag that reads a file', () => {
  it.each([
    [['api', 'POST', '/event-streams', '--data', '@/dev/zero'], `--data: /dev/zero ${JSON_LIMIT}`],
    [['streams', 'test', STREAM, '--event-type', 'user.created', '--data-file', '/dev/zero'], `--data-file: /dev/zero ${JSON_LIMIT}`],
    [['provisioning', 'create', 'con_googleAppsDemo01', '--mapping-file', '/dev/zero'], `--mapping-file: /dev/zero ${JSON_LIMIT}`],
    [['streams', 'create', '--from-file', '/dev/zero'], `--from-file: /dev/zero ${JSON_LIMIT}`],
    [['streams', 'create', ...WEBHOOK, '--secret-file', '/dev/zero'], `--secret-file: ${SECRET_LIMIT}`],
  ])('%j', async (args, message) => {
    await refused(args, message);
  });

  it.each([
    [['--client-secret-file', '/dev/zero'], `--client-secret-file: ${SECRET_LIMIT}`],
    [['--private-key-file', '/dev/zero'], `--private-key-file: /dev/zero ${SECRET_LIMIT.replace('the file ', '')}`],
  ])('login %j', async (flags, message) => {
    await refused(['login', '--domain', sandbox().url, '--client-id', sandbox().clients.admin.clientId, ...flags], message, { env: {} });
  });

  it('IDM_PRIVATE_KEY naming a 200 MB file', async () => {
    // Not /dev/zero: the sweep takes IDM_PRIVATE_KEY's value for a secret, and other runs print that path.
    const { url, clients } = sandbox();
    const key = fileOf('big-key.pem', 200 * MB);
    await refused(['streams', 'list'], `IDM_PRIVATE_KEY: ${SECRET_LIMIT}`, { env: { IDM_DOMAIN: url, IDM_CLIENT_ID: clients.admin.clientId, IDM_PRIVATE_KEY: key } });
  });

  it('--ca-file /dev/zero: over the 1 MB of certificates', async () => {
    await refused(['streams', 'list', '--ca-file', '/dev/zero'], '--ca-file (IDM_CA_FILE): /dev/zero holds more than 1 MB, the most idm reads for certificates');
  });
});

describe('large files are refused before they are read; one at the limit is read', () => {
  it('a 50 MB --data @FILE, and one byte over 1 MB', async () => {
    await refused(['api', 'POST', '/event-streams', '--data', `@${fileOf('big.json', 50 * MB)}`], `big.json ${JSON_LIMIT}`);
    await refused(['streams', 'create', '--from-file', fileOf('over.json', MB + 1, '{}')], `over.json ${JSON_LIMIT}`);
  });

  it('a 200 MB --secret-file, and one byte over 64 KB', async () => {
    await refused(['streams', 'create', ...WEBHOOK, '--secret-file', fileOf('big.secret', 200 * MB)], `--secret-file: ${SECRET_LIMIT}`);
    await refused(['streams', 'create', ...WEBHOOK, '--secret-file', fileOf('over.secret', 64 * 1024 + 1, 'x')], `--secret-file: ${SECRET_LIMIT}`);
  });

  it('a body of exactly 1 MB is read and sent (the sandbox answers on its content)', async () => {
    const before = sandbox().requests.length;
    const result = await runIdm(['api', 'POST', '/event-streams', '--data', `@${fileOf('exact.json', MB, '{"name":"at-the-limit"}')}`], { configDir: config.dir, env: credentialsEnv(sandbox()) });
    expect(result.stderr).not.toContain('holds more than');
    expect(result.stderr).toContain('400 invalid_body');
    expect(result.code).toBe(1);
    expect(sandbox().requests.slice(before).some((r) => r.method === 'POST' && r.path === '/api/v2/event-streams')).toBe(true);
  });
});

describe('stdin and FIFOs stop at the limit too', () => {
  it('--data @- and --secret-file - with more than their limit on stdin', async () => {
    await refused(['api', 'POST', '/event-streams', '--data', '@-'], `--data: stdin ${JSON_LIMIT}`, { input: ' '.repeat(MB + 1) });
    await refused(['streams', 'create', ...WEBHOOK, '--secret-file', '-'], '--secret-file: stdin holds more than 64 KB', { input: 'x'.repeat(64 * 1024 + 1) });
  });

  it('a FIFO that pours zeros: refused at the limit, and its writer sees the reader go', async () => {
    const path = fifo('zeros');
    const writer = spawn('sh', ['-c', 'exec cat /dev/zero > "$1"', 'sh', path], { stdio: 'ignore' });
    const ended = new Promise((resolve) => writer.on('close', resolve));
    try {
      await refused(['streams', 'test', STREAM, '--event-type', 'user.created', '--data-file', path], `zeros ${JSON_LIMIT}`);
      await ended; // SIGPIPE once idm closed its end
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('a FIFO that no one writes: idm waits for it, and SIGTERM ends the run (143), nothing sent', async () => {
    const path = fifo('silent');
    const before = sandbox().requests.length;
    const { child, done } = spawnIdm(['streams', 'create', '--from-file', path], { configDir: config.dir, env: credentialsEnv(sandbox()) });
    // Waits for a state (idm holds the FIFO open), not for a time; bounded only so that a broken idm cannot hang the suite.
    const holds = () => {
      try {
        return readdirSync(`/proc/${child.pid}/fd`).some((fd) => readlinkSync(`/proc/${child.pid}/fd/${fd}`) === path);
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 2400 && !holds(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(holds()).toBe(true);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.signal).toBeNull();
    expect(result.code).toBe(143);
    expect(result.stderr).toContain('SIGTERM');
    expect(result.stdout).toBe('');
    expect(sandbox().requests.length).toBe(before);
  });
});

/** Whether process `pid` holds `path` open on a descriptor of its own (not its stdin, stdout or stderr). */
function holdsOpen(pid: number | undefined, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => Number(fd) > 2 && readlinkSync(`/proc/${pid}/fd/${fd}`) === path);
  } catch {
    return false;
  }
}

// Skipped where tmux is not installed (CI installs it).
describe.skipIf(!(hasTmux || process.env.CI))('a terminal as the file (/dev/tty): read on the event loop, like a FIFO', () => {
  const terminals: Terminal[] = [];
  afterAll(() => terminals.forEach((term) => term.close()));

  /** idm at a new terminal, once it waits for the terminal it opened as its file (a state, not a time). */
  async function waiting(args: string[], dir: string, env: Record<string, string>): Promise<Terminal> {
    const term = Terminal.start(args, { configDir: dir, env });
    terminals.push(term);
    // Bounded only so that a broken idm cannot hang the suite.
    const blocked = () => holdsOpen(term.idmPid(), term.tty());
    for (let i = 0; i < 2400 && !blocked() && term.exited() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(blocked(), term.screen()).toBe(true);
    return term;
  }

  const login = (secretFile: string) => ['login', '--domain', sandbox().url, '--client-id', sandbox().clients.admin.clientId, '--client-secret-file', secretFile];

  it('login --client-secret-file /dev/tty, nothing typed: Ctrl-C ends the wait (130), nothing stored', async () => {
    const dir = tempConfigDir();
    try {
      const before = sandbox().requests.length;
      const term = await waiting(login('/dev/tty'), dir.dir, {});
      term.keys('C-c');
      expect(await term.exitCode()).toBe(130);
      expect(term.screen()).toContain('Error: Interrupted.');
      expect(sandbox().requests.length).toBe(before);
      expect(existsSync(join(dir.dir, 'config.json'))).toBe(false);
    } finally {
      dir.cleanup();
    }
  });

  it('streams create --secret-file /dev/tty, nothing typed: SIGTERM ends the wait (143), nothing sent', async () => {
    const before = sandbox().requests.length;
    const term = await waiting(['streams', 'create', ...WEBHOOK, '--secret-file', '/dev/tty'], config.dir, credentialsEnv(sandbox()));
    process.kill(term.idmPid()!, 'SIGTERM');
    expect(await term.exitCode()).toBe(143);
    expect(term.screen()).toContain('SIGTERM');
    expect(sandbox().requests.length).toBe(before);
  });

  it('what is typed there, up to Ctrl-D, is the secret: the login succeeds', async () => {
    const dir = tempConfigDir();
    try {
      const term = await waiting(login('/dev/tty'), dir.dir, {});
      term.type(sandbox().clients.admin.clientSecret);
      term.keys('Enter', 'C-d');
      expect(await term.exitCode(), term.screen()).toBe(0);
      expect(JSON.parse(readFileSync(join(dir.dir, 'credentials', 'default.json'), 'utf8'))).toEqual({ clientSecret: sandbox().clients.admin.clientSecret, clientId: sandbox().clients.admin.clientId });
    } finally {
      dir.cleanup();
    }
  });
});

describe('--data @ names no file', () => {
  it('is a usage error that says how to name one', async () => {
    await refused(['api', 'POST', '/event-streams', '--data', '@'], '--data @ names no file.\nGive --data @FILE, or @- for stdin.');
  });
});
