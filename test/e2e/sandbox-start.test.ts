// idm sandbox start as a real process: the line it prints (JSON or for people), a token request
// answered, SIGINT ending it with exit 0 and its key files gone, and a restart from --state-dir
// over HTTPS that a stored profile still reaches. Its flags and usage errors: test/commands/sandbox.
import { existsSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runIdm, spawnIdm, tempConfigDir, type Spawned } from '../helpers/cli.js';

/** The first line the sandbox prints on stdout (a failure if it exits before). */
function firstLineOf(child: Spawned['child'], done: Spawned['done']): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    void done.then((result) => reject(new Error(`exited before printing: ${result.stderr}`)));
  });
}

describe('idm sandbox start as a process', () => {
  it('prints one JSON line, answers a token request, and exits 0 on SIGINT', async () => {
    const { dir, cleanup } = tempConfigDir();
    const { child, done } = spawnIdm(['sandbox', 'start', '--port', '0', '--json'], { configDir: dir });
    try {
      const firstLine = await firstLineOf(child, done);
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
      expect((await done).code).toBe(0);
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
    const { child, done } = spawnIdm(['sandbox', 'start', '--streams', '5'], { configDir: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: string) => {
          stderr += chunk;
          if (stderr.includes('Running until Ctrl-C.')) resolve();
        });
        void done.then((result) => reject(new Error(`exited early: ${result.stderr}`)));
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
      expect((await done).code).toBe(0);
    } finally {
      child.kill('SIGKILL');
      cleanup();
    }
  });
});

describe('idm sandbox start --https --state-dir as a process', () => {
  /** Starts the sandbox and returns its JSON line and a stop (SIGINT, then its exit code). */
  async function startProcess(args: string[], configDir: string) {
    const { child, done } = spawnIdm(['sandbox', 'start', '--json', ...args], { configDir });
    const line = await firstLineOf(child, done);
    return {
      info: JSON.parse(line),
      stop: async () => {
        child.kill('SIGINT');
        return (await done).code;
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
