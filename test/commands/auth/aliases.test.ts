// `idm auth login` and `idm auth logout` are `idm login` and `idm logout` (as in the GitHub CLI).
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess, tempConfigDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/sandbox.js';

const sandbox = useSandbox();
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempConfigDir()));
afterEach(() => {
  cleanup();
  rmSync(`${dir}-secret`, { force: true }); // the secret file a test writes beside the config directory
});

describe('idm auth login / auth logout', () => {
  it('log in, list, log out, as the top-level commands do', async () => {
    const secret = `${dir}-secret`;
    writeFileSync(secret, sandbox().clients.reader.clientSecret);
    const login = await runInProcess(['auth', 'login', '--domain', sandbox().url, '--client-id', sandbox().clients.reader.clientId, '--client-secret-file', secret], { configDir: dir });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('(profile "default", the default; post).');
    expect(existsSync(`${dir}/credentials/default.json`)).toBe(true);
    const list = await runInProcess(['streams', 'list', '--take', '1'], { configDir: dir });
    expect(list.code).toBe(0);
    const logout = await runInProcess(['auth', 'logout'], { configDir: dir });
    expect(logout.code, logout.stderr).toBe(0);
    expect(existsSync(`${dir}/credentials/default.json`)).toBe(false);
  });

  it('have the same flags and help as login and logout', async () => {
    for (const name of ['login', 'logout']) {
      const [top, nested] = await Promise.all([runInProcess([name, '--help'], { configDir: dir }), runInProcess(['auth', name, '--help'], { configDir: dir })]);
      expect(nested.stdout.replace(`Usage: idm auth ${name}`, `Usage: idm ${name}`)).toBe(top.stdout);
    }
  });
});
