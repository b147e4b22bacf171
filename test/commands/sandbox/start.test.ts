// idm sandbox start: its flags (builder with a spy run), and the built binary as a real process.
import { spawn } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import type { Deps } from '../../../src/cli/factory.js';
import { sandboxStartCommand, type SandboxStartOptions } from '../../../src/commands/sandbox/start.js';
import { BIN, cliEnv, runIdm, tempConfigDir } from '../../helpers/cli.js';

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
      '--port', '4010', '--seed', 'seed.json', '--streams', '10000', '--token-lifetime', '60', '--rate-limit', '50/2.5',
      '--fault', '{"kind":"status","status":503}', '--fault', '{"kind":"reset","path":"/oauth/token"}',
      '--https', '--tls-cert', 'c.pem', '--tls-key', 'k.pem', '--mtls', '--state-dir', 'state',
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
    [['--fault', 'not json']],
    [['--fault', '[1]']],
    [['--mtls', '--mtls-edge']],
  ])('refuses %j', (args) => {
    expect(() => parseFlags(args)).toThrow();
  });
});

describe('idm sandbox start: usage errors as a process (exit 2, nothing on stdout)', () => {
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
    [['--seed', '/nonexistent/seed.json'], 'seed file'],
    [['--mtls'], '--mtls needs --https: the client certificate is asked for in the TLS handshake.'],
    [['--tls-cert', 'c.pem'], '--tls-cert needs --tls-key too.'],
    [['--https', '--tls-cert', '/nonexistent/c.pem', '--tls-key', '/nonexistent/k.pem'], '--tls-cert: cannot read /nonexistent/c.pem'],
  ])('%j', async (args, message) => {
    const result = await runIdm(['sandbox', 'start', ...args], { configDir: configDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});

describe('idm sandbox start: a port in use', () => {
  it('exits 1 naming the port, with the fix', async () => {
    const { startSandbox } = await import('../../../src/sandbox/index.js');
    const taken = await startSandbox({ seed: {} });
    const { dir, cleanup } = tempConfigDir();
    try {
      const port = new URL(taken.url).port;
      const result = await runIdm(['sandbox', 'start', '--port', port], { configDir: dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
      expect(result.stderr).toContain('--port 0');
    } finally {
      cleanup();
      await taken.close();
    }
  });
});

describe('idm sandbox start as a process', () => {
  it('prints one JSON line, answers a token request, and exits 0 on SIGINT', async () => {
    const { dir, cleanup } = tempConfigDir();
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--json'], { env: cliEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout });
        lines.once('line', resolve);
        child.once('exit', () => reject(new Error(`exited before printing: ${stderr}`)));
      });
      const info = JSON.parse(firstLine);
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.inboxUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/inbox$/);
      expect(info.clients.reader.scopes).toEqual(['read:event_streams']);
      // The wizard asks for a connection id: the line names them, and where each stands.
      expect(info.connections).toEqual([
        { id: 'con_googleAppsDemo01', name: 'google-workspace', strategy: 'google-apps', provisioning: 'not configured' },
        { id: 'con_googleAppsTaken1', name: 'google-workspace-configured', strategy: 'google-apps', provisioning: 'configured' },
        { id: 'con_googleAppsFails1', name: 'google-workspace-broken', strategy: 'google-apps', provisioning: 'configured' },
        { id: 'con_usernamePasswd01', name: 'Username-Password-Authentication', strategy: 'platform', provisioning: 'unsupported' },
        { id: 'con_samlEnterprise01', name: 'enterprise-saml', strategy: 'samlp', provisioning: 'unsupported' },
      ]);
      for (const name of ['admin', 'reader']) {
        const client = info.clients[name];
        expect(statSync(client.privateKeyFile).mode & 0o777).toBe(0o600);
        expect(statSync(client.clientSecretFile).mode & 0o777).toBe(0o600);
      }

      const { clientId, clientSecret } = info.clients.admin;
      const res = await fetch(info.tokenUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: info.audience }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { token_type: string }).token_type).toBe('Bearer');
      const stats = await (await fetch(`${info.controlUrl}/stats`)).json();
      expect(stats).toMatchObject({ tokensIssued: 1, streams: 6, connections: 5 });

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(existsSync(info.stateDir)).toBe(false); // the key files go with the sandbox
    } finally {
      child.kill('SIGKILL');
      cleanup();
    }
  });
});

describe('idm sandbox start for people', () => {
  it('prints the seeded stream ids and the connections (id, strategy, provisioning), then runs until SIGINT', async () => {
    const { dir, cleanup } = tempConfigDir();
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--streams', '5'], { env: cliEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          if (stderr.includes('Running until Ctrl-C.')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
      });
      expect(stdout).toContain('Streams        11 (the 6 below and 5 more: idm streams list)\n  est_demoInboxBearer0000000  demo-inbox-bearer\n');
      expect(stdout).toContain('  est_demoClosedPort00000000  demo-closed-port\n');
      expect(stdout).toContain(
        [
          'Connections    5',
          '  con_googleAppsDemo01  google-apps  provisioning not configured',
          '  con_googleAppsTaken1  google-apps  provisioning configured',
          '  con_googleAppsFails1  google-apps  provisioning configured',
          '  con_usernamePasswd01  platform     provisioning unsupported',
          '  con_samlEnterprise01  samlp        provisioning unsupported',
        ].join('\n'),
      );
      expect(stdout).not.toContain('generated-001');
      // A login command to paste: on stderr, on a line of its own, shell-quoted.
      expect(stderr).toMatch(/\nTry: idm login --domain http:\/\/127\.0\.0\.1:\d+ --client-id \w+ --client-secret-file \S+\/admin\.secret\n\nRunning until Ctrl-C\.\n/);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      cleanup();
    }
  });
});

describe('idm sandbox start --https --state-dir as a process', () => {
  /** Starts the sandbox and returns its JSON line and a stop (SIGINT, then its exit code). */
  async function startProcess(args: string[], configDir: string) {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--json', ...args], { env: cliEnv(configDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error(`exited before printing: ${stderr}`)));
    });
    return {
      info: JSON.parse(line),
      stop: async () => {
        child.kill('SIGINT');
        return exited;
      },
      kill: () => child.kill('SIGKILL'),
    };
  }

  it('a profile logged in with the printed CA file still works after a restart (same port, clients, CA)', async () => {
    const { dir, cleanup } = tempConfigDir();
    const state = `${dir}-state`;
    let running: Awaited<ReturnType<typeof startProcess>> | undefined;
    try {
      running = await startProcess(['--https', '--state-dir', state], dir);
      const first = running.info;
      expect(first.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(first.caFile).toBe(`${state}/ca.pem`);
      expect(first.stateDir).toBe(state);
      const { clientId, clientSecretFile } = first.clients.admin;
      const login = await runIdm(['login', '--domain', first.url, '--client-id', clientId, '--client-secret-file', clientSecretFile, '--ca-file', first.caFile], { configDir: dir });
      expect(login.code, login.stderr).toBe(0);
      expect(await running.stop()).toBe(0);
      expect(existsSync(`${state}/state.json`)).toBe(true);

      running = await startProcess(['--https', '--state-dir', state], dir);
      expect(running.info.url).toBe(first.url);
      expect(running.info.clients.admin.clientId).toBe(clientId);
      // A cold token cache: the stored secret is asked for a new token, and the profile's CA trusted.
      rmSync(`${dir}/tokens`, { recursive: true, force: true });
      const list = await runIdm(['streams', 'list', '--take', '1'], { configDir: dir });
      expect(list.stderr).toBe('');
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^est_demoInboxBearer0000000\t/);
      expect(await running.stop()).toBe(0);
      running = undefined;
    } finally {
      running?.kill();
      rmSync(state, { recursive: true, force: true });
      cleanup();
    }
  });

  it('with --mtls prints the mtls client (certificate, key, fingerprint) and the CA; a login by certificate works', async () => {
    const { dir, cleanup } = tempConfigDir();
    let running: Awaited<ReturnType<typeof startProcess>> | undefined;
    try {
      running = await startProcess(['--https', '--mtls'], dir);
      const { info } = running;
      const mtls = info.clients.mtls;
      expect(mtls.certificateFingerprints[0]).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
      expect(statSync(mtls.keyFile).mode & 0o777).toBe(0o600);
      const login = await runIdm(
        ['login', '--domain', info.url, '--auth-method', 'tls_client_auth', '--client-id', mtls.clientId, '--client-cert', mtls.certFile, '--client-key', mtls.keyFile, '--ca-file', info.caFile],
        { configDir: dir },
      );
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain('tls_client_auth).');
      expect(await running.stop()).toBe(0);
      expect(existsSync(info.stateDir)).toBe(false);
      running = undefined;
    } finally {
      running?.kill();
      cleanup();
    }
  });
});
