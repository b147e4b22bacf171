// `npm run demo` is the README's first command: it must keep working and keep showing idm's main
// job, the lifecycles of event streams and of directory provisioning among it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEnv, tempConfigDir } from '../helpers/cli.js';

/** Below the test's own limit (vitest.config.ts, 180 s), so that a demo that hangs fails with what it printed. */
const DEMO_LIMIT_MS = 150_000;

/**
 * Runs the demo without blocking the worker (a spawnSync would hold its event loop, and vitest's own
 * timeout with it), in a process group of its own: at the limit the whole group is killed, the
 * sandbox the demo started in the background included.
 */
function runDemo(env: NodeJS.ProcessEnv): Promise<{ status: number | null; timedOut: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [fileURLToPath(new URL('../../scripts/demo.sh', import.meta.url))], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, DEMO_LIMIT_MS);
    child.on('error', (error) => (clearTimeout(timer), reject(error)));
    child.on('close', (status) => (clearTimeout(timer), resolve({ status, timedOut, stdout, stderr })));
  });
}

describe('scripts/demo.sh', () => {
  it('logs in, lists, takes a stream through its life, and provisioning through its, against the sandbox', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runDemo(cliEnv(dir));
      expect(result.timedOut, `the demo did not end within ${DEMO_LIMIT_MS / 1000} s: ${result.stderr}`).toBe(false);
      expect(result.status, result.stderr).toBe(0);
      const out = result.stdout;
      const err = result.stderr;
      expect(err).toMatch(/Logged in to 127\.0\.0\.1:\d+/);
      expect(out).toMatch(/^est_demoInboxBearer0000000\tdemo-inbox-bearer\tenabled\twebhook https:\/\/127\.0\.0\.1:\d+\/inbox\/demo-bearer/m);
      expect(out).toContain('1206 streams');
      // The stream's life: created, tested with --wait (delivered to the inbox), changed, disabled, deleted.
      expect(out).toMatch(/created est_\w{22}/);
      expect(out).toMatch(/Name\tdemo-orders\n/);
      expect(err).toContain("Delivered: the stream's statistics count one more successful delivery");
      expect(out).toMatch(/POST \/inbox\/orders {2}authorization: Bearer demo-orders-token {2}type: user\.created/);
      // The failing stream: --wait sees the failure, its deliveries, a redelivery, its statistics.
      expect(err).toMatch(/Delivery failed after 4 attempts; the service will not retry it\./);
      expect(out).toMatch(/\(exit code 3\)/);
      expect(out).toMatch(/^evt_\w{22}\tuser\.created\tfailed\t4\t.*ECONNREFUSED/m);
      expect(err).toMatch(/Asked the service to deliver event evt_\w{22} of stream est_demoClosedPort00000000 again/);
      expect(out).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z\t0\t[1-9]\d*$/m);
      // The update, as the record printed after it (piped: no "Changed:" summary, which is for a terminal).
      expect(out).toMatch(/streams update est_\w{22} --remove-event-type user\.deleted --name demo-orders-v2\nID\test_\w{22}\nName\tdemo-orders-v2\n(?:.*\n)*?Event types\tuser\.created\n/);
      expect(out).toMatch(/Status\tdisabled/);
      expect(err).toMatch(/Deleted stream est_\w{22}\./);
      // Provisioning: connections, create, list, update, groups, sync, show, a 409, delete.
      expect(out).toMatch(/^con_googleAppsDemo01\tgoogle-workspace\tgoogle-apps\tnot configured$/m);
      expect(err).toContain('Created directory provisioning for con_googleAppsDemo01 with 2 mapped attributes.');
      expect(out).toMatch(/^con_googleAppsDemo01\tgoogle-workspace\tgoogle-apps\t2\tno\tselected\tnever$/m);
      expect(err).toContain('Updated directory provisioning for con_googleAppsDemo01 with 3 mapped attributes.');
      expect(out).toMatch(/^03ep43zb1xk6ay0\t/m);
      expect(out).toMatch(/^Synchronization\tdsync_\w+$/m);
      // show, after the synchronization it was told to follow, has its outcome.
      expect(out).toMatch(/\$ idm provisioning show con_googleAppsDemo01\n(?:.*\n)*?Last synchronization status\tcompleted\n/);
      expect(err).toContain('Directory provisioning is already enabled'); // the 409 step
      expect(err).toContain('Deleted the directory provisioning of con_googleAppsDemo01.');
      // Every command it shows pastes into an interactive zsh: a comment goes on a line of its own, never after a command.
      expect(out.split('\n').filter((line) => line.startsWith('$ ') && /\s#/.test(line))).toEqual([]);
    } finally {
      cleanup();
    }
  });
});
