// The secrets sweep itself (test/helpers/secrets-sweep.ts): it must find a leak when there is one,
// and every built-binary run of the suite must reach its log, or it would pass by seeing nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { findLeaks } from './secrets-sweep.js';
import { runIdm, tempConfigDir } from './cli.js';

describe('the secrets sweep', () => {
  it('finds a registered secret in any output, and any JWT, without printing the secret', () => {
    const secret = 'Zx9-very-secret-client-secret-0123456789';
    const runs = [
      { label: 'idm streams list', stdout: 'est_1\tname\n', stderr: '' },
      { label: 'idm login --debug', stdout: '', stderr: `> client_secret=${secret}\n` },
      { label: 'idm auth status', stdout: 'token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ\n', stderr: '' },
    ];
    const leaks = findLeaks([secret, 'never-printed-value-xyz'], runs);
    expect(leaks).toHaveLength(2);
    expect(leaks[0]).toBe('a secret of 40 characters (starting "Zx9") appeared in the output of: idm login --debug');
    expect(leaks[1]).toMatch(/^a JWT \(\d+ characters\) appeared in the output of: idm auth status$/);
    expect(leaks.join('\n')).not.toContain(secret);
    expect(findLeaks([secret], runs.slice(0, 1))).toEqual([]);
  });

  it("logs every runIdm run's output and the secrets it was handed", async () => {
    const dir = inject('secretsSweepDir');
    expect(dir).toBeTruthy();
    const config = tempConfigDir();
    try {
      await runIdm(['streams', 'list', '--take', 'many'], { configDir: config.dir, env: { IDM_CLIENT_SECRET: 'handed-secret-for-the-sweep-test' } });
    } finally {
      config.cleanup();
    }
    const read = (prefix: string) => readdirSync(dir).filter((n) => n.startsWith(prefix)).map((n) => readFileSync(join(dir, n), 'utf8')).join('');
    expect(read('outputs-')).toContain('"label":"idm streams list --take many"');
    expect(read('secrets-')).toContain('"handed-secret-for-the-sweep-test"');
  });
});
