// IDM_CONFIG_DIR under /proc: no directory can be made there. Node 20's recursive mkdirSync loops
// forever on such a path; idm makes the settings directory one level at a time, and fails at once.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runIdm, tempConfigDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempConfigDir()));
afterEach(() => {
  cleanup();
  rmSync(`${dir}-secret`, { force: true });
});

describe('IDM_CONFIG_DIR that cannot be made', () => {
  it.skipIf(!existsSync('/proc/self'))('login with IDM_CONFIG_DIR=/proc/idmx: exit 2 at once with the write failure (ENOENT), not a process that never returns', async () => {
    const secret = `${dir}-secret`;
    writeFileSync(secret, sandbox().clients.reader.clientSecret);
    const args = ['login', '--domain', sandbox().url, '--client-id', sandbox().clients.reader.clientId, '--client-secret-file', secret];
    // Killed after 20 s if it hangs (the code is then not 2).
    const result = await runIdm(args, { configDir: dir, env: { IDM_CONFIG_DIR: '/proc/idmx' }, timeoutMs: 20_000 });
    expect(result.stderr).toContain('/proc/idmx');
    expect(result.stderr).toContain('ENOENT');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });
});
