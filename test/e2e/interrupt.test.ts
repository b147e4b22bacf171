// Ctrl-C (SIGINT) while idm waits on the network: the built binary is interrupted while the sandbox
// stalls its request. It exits 130 with one line (or one JSON error), leaves no half-written file,
// temporary file or lock behind, and restores the terminal (cursor shown, countdown line cleared).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm, spawnIdm } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { useConfigDirs } from '../helpers/deps.js';

const sandbox = useSandbox();
const configDir = useConfigDirs();
afterEach(() => sandbox().clearFaults());

const credentials = () => credentialsEnv(sandbox());

/** Starts idm, waits until `ready()` says it is where the test wants it, sends SIGINT, and collects the outcome. */
async function interrupt(args: string[], dir: string, env: Record<string, string>, ready: (stderr: string) => boolean) {
  const { child, done } = spawnIdm(args, { configDir: dir, env });
  let stderr = ''; // as it comes, the countdown's erasing included
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  // Waits for a state, not for a time: bounded only so that a broken idm cannot hang the suite.
  for (let i = 0; i < 2400 && !ready(stderr); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(ready(stderr)).toBe(true);
  child.kill('SIGINT');
  const { code, signal, stdout } = await done;
  return { code, signal, stdout, stderr };
}

/** The request for `path` has reached the sandbox (and, stalled, hangs there). */
function arrived(path: string, since: number) {
  return () => sandbox().requests.slice(since).some((r) => r.path === path);
}

/** Every file left in the config directory, and that each JSON one parses. */
function leftovers(dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string, prefix = '') => {
    if (!existsSync(at)) return;
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(at, entry.name), `${prefix}${entry.name}/`);
      else {
        files.push(`${prefix}${entry.name}`);
        if (entry.name.endsWith('.json')) expect(() => JSON.parse(readFileSync(join(at, entry.name), 'utf8'))).not.toThrow();
      }
    }
  };
  walk(dir);
  return files.sort();
}

describe('Ctrl-C during a request', () => {
  it('streams list while the API stalls: exit 130, "Interrupted." on stderr, nothing on stdout', async () => {
    const dir = configDir();
    expect((await runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env: credentials() })).code).toBe(0); // warm token
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'stall' });
    const since = sandbox().requests.length;
    const result = await interrupt(['streams', 'list'], dir, credentials(), arrived('/api/v2/event-streams', since));
    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Error: Interrupted.\n');
  });

  // A POST the service got and had not answered may have taken effect: the hint says how to check
  // before running it again (a redelivery sent twice delivers every event twice).
  it('streams redeliver while its POST stalls: exit 130, and the hint says the deliveries may have been redelivered and how to check', async () => {
    const dir = configDir();
    const stream = 'est_demoClosedPort00000000';
    const path = `/api/v2/event-streams/${stream}/redeliver`;
    sandbox().addFault({ path, kind: 'stall' });
    const since = sandbox().requests.length;
    const result = await interrupt(['streams', 'redeliver', stream, '--event-type', 'user.created'], dir, credentials(), arrived(path, since));
    expect(result.code).toBe(130);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `Error: Interrupted.\nThe deliveries may have been redelivered all the same: check with 'idm streams deliveries list ${stream} --event-type user.created' (retrying attempts) before running this again.\n`,
    );
  });

  it('streams list, a GET, while it stalls: no such hint (nothing it asks for can have changed)', async () => {
    const dir = configDir();
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'stall' });
    const since = sandbox().requests.length;
    const result = await interrupt(['streams', 'list', '--json'], dir, credentials(), arrived('/api/v2/event-streams', since));
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stderr)).toEqual({ error: { code: 'interrupted', message: 'Interrupted.', exitCode: 130 } });
  });

  it('with --json: one JSON error with exit code 130', async () => {
    const dir = configDir();
    sandbox().addFault({ path: '/oauth/token', kind: 'stall' });
    const since = sandbox().requests.length;
    const result = await interrupt(['streams', 'list', '--json'], dir, credentials(), arrived('/oauth/token', since));
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stderr)).toEqual({ error: { code: 'interrupted', message: 'Interrupted.', exitCode: 130 } });
  });

  it('during a token refresh: the lock is released and no file is left half-written; the next run fetches at once', async () => {
    const dir = configDir();
    sandbox().addFault({ path: '/oauth/token', kind: 'stall' });
    const since = sandbox().requests.length;
    const result = await interrupt(['streams', 'list'], dir, credentials(), arrived('/oauth/token', since));
    expect(result.code).toBe(130);
    expect(leftovers(dir)).toEqual([]); // no lock, no temporary file, no cache
    const issued = sandbox().tokensIssued();
    const next = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env: credentials() });
    expect(next.code).toBe(0);
    expect(sandbox().tokensIssued() - issued).toBe(1);
  });

  it('during login (its token request): no profile and no secret are stored; the config stays valid', async () => {
    const dir = configDir();
    // An existing profile, to check it survives untouched.
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, sandbox().clients.reader.clientSecret, { mode: 0o600 });
    const first = await runIdm(['login', '--domain', sandbox().url, '--client-id', sandbox().clients.reader.clientId, '--client-secret-file', secret], { configDir: dir });
    expect(first.code).toBe(0);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');

    sandbox().addFault({ path: '/oauth/token', kind: 'stall' });
    const since = sandbox().requests.length;
    const args = ['login', '--profile', 'second', '--domain', sandbox().url, '--client-id', sandbox().clients.admin.clientId, '--client-secret-file', secret];
    const result = await interrupt(args, dir, {}, arrived('/oauth/token', since));
    expect(result.code).toBe(130);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(leftovers(dir).filter((f) => !f.startsWith('tokens/'))).toEqual(['config.json', 'credentials/default.json', 'secret.txt']);
    expect(leftovers(dir).filter((f) => f.startsWith('tokens/'))).toEqual([expect.stringMatching(/^tokens\/http_127\.0\.0\.1_\d+_\w+\.json$/)]);
  });

  it('during a rate-limit wait at a terminal: the countdown line is cleared and the cursor shown before the message', async () => {
    const dir = configDir();
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 20) } });
    // Interrupted once the countdown is on screen.
    const result = await interrupt(['streams', 'list'], dir, { ...credentials(), IDM_FORCE_TTY: 'stderr', NO_COLOR: '1', COLUMNS: '200' }, (stderr) => stderr.includes('Ctrl-C to stop'));
    expect(result.code).toBe(130);
    // Only a spinner (a request slower than a third of a second: a busy machine) may come before it.
    expect(result.stderr).toMatch(/^(?:\r\x1b\[K(?:[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\r\n]*)?)*\r\x1b\[KRate limited \(429\) at .* \(Ctrl-C to stop\)/);
    expect(result.stderr.endsWith('\r\x1b[K\x1b[?25hError: Interrupted.\n')).toBe(true);
  });

  it('at TERM=dumb (a terminal that cannot erase or hide the cursor, as Emacs\' shell): the wait is a plain line and the interrupt writes no escape sequence', async () => {
    const dir = configDir();
    sandbox().addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 20) } });
    const result = await interrupt(['streams', 'list'], dir, { ...credentials(), IDM_FORCE_TTY: 'stderr', TERM: 'dumb', COLUMNS: '200' }, (stderr) => stderr.includes('Rate limited'));
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/^Rate limited \(429\) at [^\n]*\nError: Interrupted\.\n$/);
    expect(result.stderr).not.toContain('\x1b');
  });
});
