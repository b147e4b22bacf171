// idm sandbox start: its flags (builder with a spy run), and the usage errors and a port in use run in
// process. The running sandbox as a real process (its printed line, SIGINT, a restart) is in
// test/e2e/sandbox-start.test.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../../../src/cli/factory.js';
import { sandboxStartCommand, sandboxStartRun, type SandboxStartOptions } from '../../../src/commands/sandbox/start.js';
import { InterruptedError } from '../../../src/core/errors.js';
import { createIO } from '../../../src/io/io.js';
import { Capture } from '../../helpers/capture.js';
import { runInProcess, tempConfigDir } from '../../helpers/cli.js';

function parseFlags(args: string[]): SandboxStartOptions {
  let got: SandboxStartOptions | undefined;
  const command = sandboxStartCommand({} as Deps, async (options) => {
    got = options;
  });
  command.exitOverride();
  command.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  new Command('sandbox').exitOverride().addCommand(command).parse(['start', ...args], { from: 'user' });
  return got!;
}

describe('idm sandbox start: flags', () => {
  it('defaults to a free port, no seed file, no faults', () => {
    expect(parseFlags([])).toEqual({ faults: [] });
  });

  it('reads every flag', () => {
    const options = parseFlags([
      '--port', '4010', '--seed', 'seed.json', '--streams', '10000', '--token-lifetime', '60', '--rate-limit', '50/2.5', '--max-streams', '20',
      '--fault', '{"kind":"status","status":503}', '--fault', '{"kind":"reset","path":"/oauth/token"}',
      '--https', '--tls-cert', 'c.pem', '--tls-key', 'k.pem', '--mtls', '--state-dir', 'state', '--delivery-timeout', '60000',
    ]);
    expect(options).toEqual({
      port: 4010,
      https: true,
      tlsCert: 'c.pem',
      tlsKey: 'k.pem',
      mtls: 'handshake',
      stateDir: 'state',
      seedFile: 'seed.json',
      streams: 10_000,
      tokenLifetime: 60,
      rateLimit: { limit: 50, refillPerSecond: 2.5 },
      maxStreams: 20,
      deliveryTimeout: 60_000,
      faults: [{ kind: 'status', status: 503 }, { kind: 'reset', path: '/oauth/token' }],
    });
  });

  it.each([
    [['--port', '70000']],
    [['--port', 'abc']],
    [['--streams', '-1']],
    [['--token-lifetime', '0']],
    [['--rate-limit', '50']],
    [['--rate-limit', '0/1']],
    [['--max-streams', '0']],
    [['--max-streams', 'many']],
    [['--fault', 'not json']],
    [['--fault', '[1]']],
    [['--mtls', '--mtls-edge']],
    [['--state-dir', '']],
    [['--state-dir', '  ']],
    [['--delivery-timeout', '0']],
    [['--delivery-timeout', '600001']],
    [['--delivery-timeout', '1.5']],
  ])('refuses %j', (args) => {
    expect(() => parseFlags(args)).toThrow();
  });
});

describe('idm sandbox start: usage errors (exit 2, nothing on stdout)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  const configDir = () => {
    const { dir, cleanup } = tempConfigDir();
    cleanups.push(cleanup);
    return dir;
  };

  it.each([
    [['--rate-limit', 'lots'], '--rate-limit'],
    [['--fault', '{"kind":"explode"}'], '--fault number 1'],
    [['--seed', '/nonexistent/seed.json'], '--seed: cannot read /nonexistent/seed.json: no such file'],
    [['--mtls'], '--mtls needs --https: the client certificate is asked for in the TLS handshake.'],
    [['--tls-cert', 'c.pem'], '--tls-cert needs --tls-key too.'],
    [['--https', '--tls-cert', '/nonexistent/c.pem', '--tls-key', '/nonexistent/k.pem'], '--tls-cert: cannot read /nonexistent/c.pem'],
    // Not the current directory, which would get the clients' secrets and keys.
    [['--state-dir', ''], '--state-dir must be the path of a directory.'],
    // Which tenant to keep: two would be a guess (the last one silently won).
    [['--state-dir', '/nonexistent/a', '--state-dir', '/nonexistent/b'], '--state-dir is given twice (/nonexistent/a and /nonexistent/b): give it once.'],
    // As every one-value flag, compared parsed (the last one won). The --seed that cannot be read
    // ends a start that gets past the flags; the same value written twice does.
    [['--rate-limit', '50/10', '--rate-limit', '5/1', '--seed', '/nonexistent/seed.json'], '--rate-limit is given twice (50/10 and 5/1): give it once.'],
    [['--retry-delays', '1000,2000', '--retry-delays', '10', '--seed', '/nonexistent/seed.json'], '--retry-delays is given twice (1000,2000 and 10): give it once.'],
    [['--rate-limit', '50/10', '--rate-limit', ' 50 / 10 ', '--retry-delays', '1,2', '--retry-delays', '1, 2', '--seed', '/nonexistent/seed.json'], '--seed: cannot read /nonexistent/seed.json'],
  ])('%j', async (args, message) => {
    const result = await runInProcess(['sandbox', 'start', ...args], { configDir: configDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});

describe('idm sandbox start: a seed that is not JSON', () => {
  it('names where it breaks, never what the file holds (it may be any file: /etc/shadow)', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const seed = join(dir, 'seed.json');
      writeFileSync(seed, 'root:$6$secrethash:19000:0:99999:7:::\n');
      const result = await runInProcess(['sandbox', 'start', '--seed', seed], { configDir: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--seed ${seed} is not valid JSON: at line 1, column 1`);
      expect(result.stderr).not.toContain('secrethash');
      expect(result.stderr).not.toContain('root');
    } finally {
      cleanup();
    }
  });
});

describe('idm sandbox start: a port in use', () => {
  it('exits 1 naming the port, with the fix', async () => {
    const { startSandbox } = await import('../../../src/sandbox/index.js');
    const taken = await startSandbox({ seed: {} });
    const { dir, cleanup } = tempConfigDir();
    try {
      const port = new URL(taken.url).port;
      const result = await runInProcess(['sandbox', 'start', '--port', port], { configDir: dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
      expect(result.stderr).toContain('--port 0');
    } finally {
      cleanup();
      await taken.close();
    }
  });

  it('with a new --state-dir: leaves no directory it made; one that was there stays, as it was', async () => {
    const { startSandbox } = await import('../../../src/sandbox/index.js');
    const taken = await startSandbox({ seed: {} });
    const { dir, cleanup } = tempConfigDir();
    try {
      const port = new URL(taken.url).port;
      const result = await runInProcess(['sandbox', 'start', '--port', port, '--state-dir', join(dir, 'new', 'state')], { configDir: dir });
      expect([result.code, result.stderr]).toEqual([1, `Error: Port ${port} on 127.0.0.1 is already in use.\nChoose another with --port, or --port 0 for a free one.\n`]);
      expect(existsSync(join(dir, 'new'))).toBe(false);
      mkdirSync(join(dir, 'empty'));
      expect((await runInProcess(['sandbox', 'start', '--port', port, '--state-dir', join(dir, 'empty')], { configDir: dir })).code).toBe(1);
      expect(readdirSync(join(dir, 'empty'))).toEqual([]);
    } finally {
      cleanup();
      await taken.close();
    }
  });
});

describe('idm sandbox start: a seed refused once the --state-dir is made', () => {
  it('a stream id used twice: exit 2 naming it, and the new directory is gone again', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const stream = { id: 'est_sameIdTwice00000000000', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } };
      writeFileSync(join(dir, 'seed.json'), JSON.stringify({ streams: [stream, stream] }));
      const result = await runInProcess(['sandbox', 'start', '--seed', join(dir, 'seed.json'), '--state-dir', join(dir, 'state')], { configDir: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Invalid seed: streams.1.id: est_sameIdTwice00000000000 is used twice');
      expect(existsSync(join(dir, 'state'))).toBe(false);
    } finally {
      cleanup();
    }
  });
});

describe('idm sandbox start: a tenant that would start over its --max-streams', () => {
  it.each([
    [
      ['--max-streams', '3', '--streams', '10'],
      'Error: --max-streams 3 is less than the 16 streams the tenant would start with (6 of the demo seed, 10 of --streams): it would be over its limit before any create.\nGive --max-streams 16 or more, or fewer --streams.\n',
    ],
    [
      ['--max-streams', '5'],
      'Error: --max-streams 5 is less than the 6 streams the tenant would start with (6 of the demo seed): it would be over its limit before any create.\nGive --max-streams 6 or more, or a --seed with fewer streams.\n',
    ],
  ])('%j: exit 2 naming both, nothing started', async (args, stderr) => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runInProcess(['sandbox', 'start', ...args, '--state-dir', join(dir, 'state')], { configDir: dir });
      expect([result.code, result.stdout, result.stderr]).toEqual([2, '', stderr]);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    } finally {
      cleanup();
    }
  });

  it('a restart with a --max-streams below the saved tenant\'s streams: exit 2 naming the directory; the tenant is kept as it was', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const state = join(dir, 'state');
      const { startSandbox } = await import('../../../src/sandbox/index.js');
      await (await startSandbox({ stateDir: state })).close();
      const before = readFileSync(join(state, 'state.json'), 'utf8');
      const result = await runInProcess(['sandbox', 'start', '--state-dir', state, '--max-streams', '2'], { configDir: dir });
      expect([result.code, result.stderr]).toEqual([
        2,
        `Error: --max-streams 2 is less than the 6 streams the tenant would start with (saved in ${state}): it would be over its limit before any create.\nGive --max-streams 6 or more (or start without it and delete streams first).\n`,
      ]);
      expect(readFileSync(join(state, 'state.json'), 'utf8')).toBe(before);
    } finally {
      cleanup();
    }
  });

  it('a saved tenant over its own saved limit (saved before such starts were refused), restarted without --max-streams: named as the saved limit, and only a higher --max-streams is offered', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const state = join(dir, 'state');
      const { startSandbox } = await import('../../../src/sandbox/index.js');
      await (await startSandbox({ stateDir: state, maxStreams: 6 })).close();
      const file = join(state, 'state.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), maxStreams: 3 }));
      const result = await runInProcess(['sandbox', 'start', '--state-dir', state], { configDir: dir });
      expect([result.code, result.stderr]).toEqual([
        2,
        `Error: The saved tenant's maxStreams 3 is less than the 6 streams the tenant would start with (saved in ${state}): it would be over its limit before any create.\nGive --max-streams 6 or more (delete streams, then lower it at a later start).\n`,
      ]);
    } finally {
      cleanup();
    }
  });

  it('the seed\'s maxStreams below its own streams and --streams: named as the seed\'s', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const stream = (name: string) => ({ name, subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } });
      const seed = join(dir, 'seed.json');
      writeFileSync(seed, JSON.stringify({ streams: [stream('one'), stream('two')], maxStreams: 2 }));
      const result = await runInProcess(['sandbox', 'start', '--seed', seed, '--streams', '1'], { configDir: dir });
      expect([result.code, result.stderr]).toEqual([
        2,
        `Error: The seed's maxStreams 2 is less than the 3 streams the tenant would start with (2 of --seed ${seed}, 1 of --streams): it would be over its limit before any create.\nGive --max-streams 3 or more, or fewer --streams.\n`,
      ]);
    } finally {
      cleanup();
    }
  });
});

describe('idm sandbox start: a key file that cannot be written once the sandbox runs', () => {
  it('a directory where --state-dir\'s admin.secret goes: exit 1 naming the file, the sandbox stopped (its lock released), not an unexpected error and a process that never ends', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const state = join(dir, 'state');
      mkdirSync(join(state, 'admin.secret'), { recursive: true });
      const result = await runInProcess(['sandbox', 'start', '--state-dir', state], { configDir: dir });
      expect([result.code, result.stdout, result.stderr]).toEqual([
        1,
        '',
        `Error: Cannot write ${join(state, 'admin.secret')}: a directory is in the way (EISDIR).\nMove what is in the way out of --state-dir, or check its space and permissions.\n`,
      ]);
      expect(readdirSync(state).sort()).toEqual(['admin.secret', 'state.json']);
    } finally {
      cleanup();
    }
  });
});

describe('idm sandbox start: stopped while starting', () => {
  // Ctrl-C during a long start (--streams 1000000 takes seconds): the run is stopped before the
  // sandbox is up; it is closed, not announced with its URLs, secrets and a login for a gone tenant.
  it('prints nothing of the tenant it closes', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    const { dir, cleanup } = tempConfigDir();
    try {
      const io = createIO({ stdin: process.stdin, stdout, stderr }, { IDM_CONFIG_DIR: dir });
      io.stop(new InterruptedError('SIGINT'));
      const deps = createDeps(io, () => ({ json: false, color: false, input: false, debug: false }));
      await sandboxStartRun({ faults: [] }, deps);
      expect(stdout.text).toBe('');
      expect(stderr.text).toBe('Sandbox stopped.\n');
    } finally {
      cleanup();
    }
  });
});
