// The exit-code contract of the README (and of `idm --help`), as the built bin/idm.js reports it to
// its parent process: one run per code against the sandbox, with the data on stdout, the error on
// stderr, and nothing sent when the input is refused. The commands' behaviour behind each code is
// tested in process under test/commands; 130 (Ctrl-C) is in interrupt.test.ts.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../src/sandbox/types.js';
import { BIN, cliEnv, credentialsEnv, runIdm, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { insufficientScope } from '../helpers/deps.js';

const INBOX = 'est_demoInboxBearer0000000';
const CLOSED = 'est_demoClosedPort00000000'; // a webhook to a closed port: every delivery fails
const UNKNOWN = 'est_doesNotExist0000000000';

let h: Harness;
beforeAll(async () => {
  // Deliveries in the background as the service makes them, retried after 5 ms: a failure is final at once.
  h = await startHarness({ delivery: 'async', retryDelaysMs: [5, 5, 5] });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.sandbox.idle();
  h.sandbox.clearFaults();
  h.mark();
});

function idm(args: string[], client: 'admin' | 'reader' = 'admin'): Promise<RunResult> {
  return runIdm(args, { configDir: h.configDir, env: credentialsEnv(h.sandbox, client) });
}

/** stderr of a --json failure: JSON lines, the error last. */
function jsonError(result: RunResult): Record<string, unknown> {
  const lines = result.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, Record<string, unknown>>);
  expect(Object.keys(lines.at(-1)!)).toEqual(['error']);
  return lines.at(-1)!.error!;
}

describe('exit codes of the built binary', () => {
  it('0: the data on stdout, nothing on stderr', async () => {
    const result = await idm(['streams', 'show', INBOX]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`ID\t${INBOX}\n`);
    expect(result.stderr).toBe('');
  });

  it('1: the service refused (404); with --json one JSON error on stderr, stdout empty', async () => {
    const result = await idm(['streams', 'show', UNKNOWN]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: .*does not exist/);
    const json = await idm(['--json', 'streams', 'show', UNKNOWN]);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe('');
    expect(jsonError(json)).toMatchObject({ status: 404, exitCode: 1 });
  });

  it('1: a cursor the service does not know (400)', async () => {
    const result = await idm(['streams', 'list', '--from', '%%%garbage', '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(jsonError(result)).toMatchObject({ status: 400, code: 'invalid_query_string', exitCode: 1 });
  });

  it('1: a sandbox that is gone (connection refused on 127.0.0.1): the hint says nothing listens there and how to get it back, not to check the network', async () => {
    const gone = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runIdm(['streams', 'list'], { configDir: dir, env: { ...credentialsEnv(`http://127.0.0.1:${gone}`, h.sandbox.clients.admin) } });
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines.at(-2)).toBe(`Error: Could not get an access token: could not reach 127.0.0.1:${gone}: the connection was refused (ECONNREFUSED).`);
      expect(lines.at(-1)).toMatch(new RegExp(`^(Tried \\d times\\. )?Nothing listens on 127\\.0\\.0\\.1:${gone}: if it is an idm sandbox, start it again and use the address it prints \\(a new port, unless --port\\): log in to it, or set IDM_DOMAIN to it\\.$`));
    } finally {
      cleanup();
    }
  });

  it('1: a loopback domain without its port (http://localhost): refused at the default port, the hint says the port is missing', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runIdm(['streams', 'list'], { configDir: dir, env: credentialsEnv('http://localhost', h.sandbox.clients.admin) });
      // Port 80 of this machine: refused unless something serves it (then this case says nothing).
      if (!result.stderr.includes('ECONNREFUSED')) return;
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(/^(Tried \d times\. )?Nothing listens on localhost at the scheme's default port: give an idm sandbox's address with its port, as it prints it \(http:\/\/127\.0\.0\.1:4010\)\.$/);
    } finally {
      cleanup();
    }
  });

  it('2: a usage error, nothing sent (--take out of range; delete without --yes and without a terminal)', async () => {
    const take = await idm(['streams', 'list', '--take', '101']);
    expect(take.code).toBe(2);
    expect(take.stdout).toBe('');
    expect(take.stderr).toContain('--take must be from 1 to 100, not 101');
    const remove = await idm(['streams', 'delete', INBOX]);
    expect(remove.code).toBe(2);
    expect(remove.stderr).toContain('--yes');
    expect(h.received()).toEqual([]);
    expect(h.sandbox.seededStreams().some((stream) => stream.id === INBOX)).toBe(true);
  });

  it('3: streams test --wait, the delivery failed', async () => {
    const result = await idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--wait']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Delivery failed after 4 attempts');
  });

  it('3 with --json: the final record on stdout, the delivery_failed error object last on stderr', async () => {
    const result = await idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--wait', '--json']);
    expect(result.code).toBe(3);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ event_stream_id: CLOSED, status: 'failed' });
    expect(jsonError(result)).toEqual({
      code: 'delivery_failed',
      message: 'Delivery failed after 4 attempts; the service will not retry it.',
      hint: `See it with 'idm streams deliveries show ${CLOSED} ${record.id}'; send it again with 'idm streams redeliver ${CLOSED} ${record.id}'.`,
      exitCode: 3,
    });
    expect(h.calls('POST').map((call) => call.path)).toEqual([`/api/v2/event-streams/${CLOSED}/test`]);
  });

  it('4: a missing scope (403), named; with --json one JSON error on stderr', async () => {
    h.sandbox.addFault(insufficientScope);
    const result = await idm(['streams', 'list', '--json']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(jsonError(result)).toMatchObject({ status: 403, code: 'insufficient_scope', scope: 'read:event_streams', exitCode: 4 });
    const reader = await idm(['streams', 'create', '--name', 'refused', '--event-type', 'user.created', '--action', 'a'], 'reader');
    expect(reader.code).toBe(4);
    expect(reader.stderr).toContain('create:event_streams');
  });

  it('4: IDM_CLIENT_SECRET set but empty (IDM_CLIENT_SECRET="$SECRET" with a CI secret the job cannot read): said so, nothing sent', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runIdm(['streams', 'list'], { configDir: dir, env: { ...credentialsEnv(h.sandbox), IDM_CLIENT_SECRET: '' } });
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      const [message, hint] = result.stderr.split('\n');
      expect(message).toBe(`Error: No client secret or private key for client ${h.sandbox.clients.admin.clientId} at ${new URL(h.sandbox.url).host}. IDM_CLIENT_SECRET is set, but empty.`);
      expect(hint).toMatch(/^Give IDM_CLIENT_SECRET its value \(in CI, a secret the job cannot read is empty\), or store the credentials as a profile: idm login --profile NAME /);
      expect(h.received()).toEqual([]);
    } finally {
      cleanup();
    }
  });

  it('4: IDM_DOMAIN or IDM_CLIENT_ID set but empty: said to be empty, not unset; nothing sent', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      for (const variable of ['IDM_DOMAIN', 'IDM_CLIENT_ID'] as const) {
        const result = await runIdm(['streams', 'list'], { configDir: dir, env: { ...credentialsEnv(h.sandbox), [variable]: '' } });
        expect(result.code, variable).toBe(4);
        expect(result.stderr.split('\n')[0]).toBe(`Error: ${variable} is set, but empty.`);
      }
      expect(h.received()).toEqual([]);
    } finally {
      cleanup();
    }
  });

  it('5: rate limited beyond --max-wait, the reset time in the message', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120; // beyond --max-wait (60 s): no waiting
    h.sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 429, headers: { 'X-RateLimit-Reset': String(reset) } });
    const result = await idm(['streams', 'list']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Error: Rate limited by 127.0.0.1');
    expect(result.stderr).toContain(new Date(reset * 1000).toISOString().replace('.000Z', 'Z'));
  });

  it('6: streams test --wait, the outcome cannot be known (the statistics are refused)', async () => {
    const refused: FaultSpec = { ...insufficientScope, path: `/api/v2/event-streams/${INBOX}/stats`, count: Infinity };
    h.sandbox.addFault(refused);
    const result = await idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--wait-timeout', '1']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain("(The stream's statistics could not be read, so a success could not be seen.)");
  });

  it('6 with --json: the delivery_unknown error object last on stderr, naming the command that shows it (not redeliver)', async () => {
    const refused: FaultSpec = { ...insufficientScope, path: `/api/v2/event-streams/${INBOX}/stats`, count: Infinity };
    h.sandbox.addFault(refused);
    const result = await idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--wait', '--wait-timeout', '1', '--json']);
    expect(result.code).toBe(6);
    const record = JSON.parse(result.stdout);
    expect(jsonError(result)).toEqual({
      code: 'delivery_unknown',
      message: "Not known after 1 s whether the event was delivered. (The stream's statistics could not be read, so a success could not be seen.)",
      hint: `See it with 'idm streams deliveries show ${INBOX} ${record.id}'.`,
      exitCode: 6,
    });
  });
});

/**
 * The built binary with stdout or stderr on `path` (a file, /dev/full, whose every write fails with
 * ENOSPC); what went to the other one, piped, and the exit code.
 */
async function withOutputOn(path: string, which: 'stdout' | 'stderr', args: string[]): Promise<{ code: number | null; piped: string }> {
  const fd = openSync(path, 'w');
  try {
    const stdio: Array<'ignore' | 'pipe' | number> = which === 'stdout' ? ['ignore', fd, 'pipe'] : ['ignore', 'pipe', fd];
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv(h.configDir, credentialsEnv(h.sandbox)), stdio });
    let piped = '';
    (which === 'stdout' ? child.stderr : child.stdout)!.setEncoding('utf8').on('data', (chunk: string) => (piped += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, piped };
  } finally {
    closeSync(fd);
  }
}

describe('stdout as a file', () => {
  it('gets the very bytes a pipe gets (written without the stream), --all --json and a table alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-out-'));
    try {
      for (const args of [['streams', 'list', '--all', '--take', '2', '--json'], ['streams', 'list'], ['streams', 'show', INBOX, '--json']]) {
        const file = join(dir, 'out');
        expect(await withOutputOn(file, 'stdout', args)).toEqual({ code: 0, piped: '' });
        const piped = await idm(args);
        expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
        expect(piped.stdout.length).toBeGreaterThan(100);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('1: stdout refuses a write (a full disk: /dev/full)', () => {
  const toFullDisk = async (args: string[]) => {
    const { code, piped } = await withOutputOn('/dev/full', 'stdout', args);
    return { code, stderr: piped };
  };
  const SAID = 'Error: Could not write the output: the disk is full (ENOSPC); it is incomplete.\nFree some disk space, or send the output elsewhere, and run the command again.\n';

  it.skipIf(!existsSync('/dev/full'))('a table, a record, every page: the error in words, no stack trace, no more requests', async () => {
    for (const args of [['streams', 'list'], ['streams', 'show', INBOX]]) expect(await toFullDisk(args)).toEqual({ code: 1, stderr: SAID });
    h.mark();
    expect(await toFullDisk(['streams', 'list', '--all', '--take', '1'])).toEqual({ code: 1, stderr: SAID });
    // The first page's write failed: no page is asked for after the one already on its way.
    expect(h.calls('GET').length).toBeLessThanOrEqual(2);
  });

  it.skipIf(!existsSync('/dev/full'))('--json: the error object is the last line of stderr', async () => {
    const result = await toFullDisk(['streams', 'list', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!)).toEqual({
      error: { code: 'output_failed', message: 'Could not write the output: the disk is full (ENOSPC); it is incomplete.', hint: 'Free some disk space, or send the output elsewhere, and run the command again.', exitCode: 1 },
    });
  });

  it.skipIf(!existsSync('/dev/full'))('stderr on a full disk: what idm would say there is dropped, and the exit code still tells', async () => {
    expect(await withOutputOn('/dev/full', 'stderr', ['streams', 'show', 'nope'])).toEqual({ code: 2, piped: '' });
    expect(await withOutputOn('/dev/full', 'stderr', ['streams', 'show', UNKNOWN])).toEqual({ code: 1, piped: '' });
    const shown = await withOutputOn('/dev/full', 'stderr', ['streams', 'show', INBOX, '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.piped).id).toBe(INBOX);
  });

  it.skipIf(!existsSync('/dev/full'))('the fast paths (--version, --help) too, in the same words', async () => {
    for (const args of [['--version'], ['--help']]) expect(await toFullDisk(args)).toEqual({ code: 1, stderr: SAID });
  });
});
