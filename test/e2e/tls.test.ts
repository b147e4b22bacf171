// NODE_EXTRA_CA_CERTS, which Node reads when a process starts: the built idm trusts a tenant whose
// certificate that CA signed, and refuses it without. The rest of HTTPS is in test/api/tls.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { credentialsEnv, runIdm, tempConfigDir } from '../helpers/cli.js';
import { makeTestCa, type TestCa } from '../helpers/tls-ca.js';
import { recordSandboxSecrets, recordSecrets } from '../helpers/sandbox.js';

let ca: TestCa;
let tenant: Sandbox;
const config = tempConfigDir();

beforeAll(async () => {
  ca = await makeTestCa();
  recordSecrets([ca.server.key, ca.client.key]);
  tenant = await startSandbox({ tls: ca.server });
  recordSandboxSecrets(tenant);
});
afterAll(async () => {
  await tenant?.close();
  ca?.cleanup();
  config.cleanup();
});

describe('NODE_EXTRA_CA_CERTS', () => {
  it('makes the built idm trust the CA; without it the certificate is refused (exit 1)', async () => {
    const list = (env: Record<string, string>) => runIdm(['streams', 'list', '--take', '1'], { configDir: config.dir, env: { ...credentialsEnv(tenant), ...env } });
    const refused = await list({});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('could not be verified');
    const trusted = await list({ NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/^est_\w{22}\t/);
  });
});
