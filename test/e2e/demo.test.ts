// `npm run demo` is the README's first command: it must keep working and keep showing idm's main job.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEnv, tempConfigDir } from '../helpers/cli.js';

describe('scripts/demo.sh', () => {
  it('logs in, lists, delivers one test event, fails another, and creates provisioning, against the sandbox', () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = spawnSync('bash', [fileURLToPath(new URL('../../scripts/demo.sh', import.meta.url))], {
        env: cliEnv(dir),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.stderr).toContain('Directory provisioning is already enabled'); // the 409 step
      expect(result.status).toBe(0);
      const out = result.stdout;
      expect(result.stderr).toMatch(/Logged in to 127\.0\.0\.1:\d+/);
      expect(out).toContain(`--data '{"object":{"user_id":"demo|1"}}'`);
      expect(out).toMatch(/^est_demoInboxBearer0000000\tdemo-inbox-bearer\tenabled\twebhook https:\/\/127\.0\.0\.1:\d+\/inbox\/demo-bearer/m);
      expect(out).toContain('1206 streams');
      expect(out).toMatch(/Status\tsuccess/);
      expect(out).toMatch(/POST \/inbox\/demo-bearer {2}authorization: Bearer sandbox-demo-token {2}type: user\.created/);
      expect(out).toMatch(/Status\tfailed[\s\S]*attempt\tfailed\t.*ECONNREFUSED[\s\S]*\(exit code 3\)/);
      expect(result.stderr).toContain('Created directory provisioning for con_googleAppsDemo01 with 2 mapped attributes.');
      expect(out).toMatch(/^Connection\tcon_googleAppsDemo01$/m);
      expect(out).toMatch(/mapping\temail\tprimaryEmail/);
    } finally {
      cleanup();
    }
  });
});
