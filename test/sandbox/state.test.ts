// --state-dir: the tenant kept on disk and loaded at the next start (the same clients, keys, CA, port,
// streams, connections and deliveries), written atomically, guarded by a lock, and a damaged file is
// an error rather than a fresh tenant. Seeds may name client ids and secrets.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxStateError, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, getToken, recordSandboxSecrets, tokenRequest } from '../helpers/sandbox.js';

const dirs: string[] = [];
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idm-sandbox-state-'));
  dirs.push(dir);
  return join(dir, 'state'); // made by the sandbox
}

async function start(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  recordSandboxSecrets(sandbox, options?.seed);
  open.push(sandbox);
  return sandbox;
}

async function stop(sandbox: Sandbox): Promise<void> {
  open.splice(open.indexOf(sandbox), 1);
  await sandbox.close();
}

const STREAM = { name: 'kept', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } };

describe('sandbox --state-dir', () => {
  it('a restart keeps the clients, the port, the data, and tokens issued before it', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir, delivery: 'sync' });
    expect(first.restored).toBe(false);
    const token = await getToken(first);
    const created = await call(first, 'POST', '/api/v2/event-streams', { token, body: STREAM });
    expect(created.status).toBe(201);
    const config = await call(first, 'POST', '/api/v2/connections/con_googleAppsDemo01/directory-provisioning', { token, body: { mapping: [{ platform: 'email', idp: 'primaryEmail' }] } });
    expect(config.status).toBe(201);
    const test = await call(first, 'POST', '/api/v2/event-streams/est_demoClosedPort00000000/test', { token, body: { event_type: 'user.created' } });
    expect(test.body.status).toBe('failed');
    const { url, clients } = first;
    await stop(first);

    const second = await start({ stateDir: dir });
    expect(second.restored).toBe(true);
    expect(second.url).toBe(url);
    expect(second.clients).toEqual(clients);
    // The old token is still good (same signing key, issuer and audience).
    const list = await call(second, 'GET', '/api/v2/event-streams?take=100', { token });
    expect(list.status).toBe(200);
    expect(list.body.eventStreams.map((s: { name: string }) => s.name)).toContain('kept');
    expect((await call(second, 'GET', `/api/v2/event-streams/${created.body.id}`, { token })).body).toEqual(created.body);
    expect((await call(second, 'GET', '/api/v2/connections/con_googleAppsDemo01/directory-provisioning', { token })).body).toEqual(config.body);
    const failed = await call(second, 'GET', '/api/v2/event-streams/est_demoClosedPort00000000/deliveries', { token });
    expect(failed.body.deliveries.map((d: { id: string }) => d.id)).toContain(test.body.id);
    // And the secrets: a new token with the same client secret.
    expect((await getToken(second)).split('.')).toHaveLength(3);
  });

  it('moves webhooks of the previous inbox to this run’s: a delivery to the inbox still succeeds after a restart', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir, delivery: 'sync' });
    const before = first.inboxUrl;
    await stop(first);
    const second = await start({ stateDir: dir, delivery: 'sync' });
    const token = await getToken(second);
    const stream = await call(second, 'GET', '/api/v2/event-streams/est_demoInboxBearer0000000', { token });
    expect(stream.body.destination.configuration.webhook_endpoint).toBe(`${second.inboxUrl}/demo-bearer`);
    if (second.inboxUrl !== before) expect(stream.body.destination.configuration.webhook_endpoint.startsWith(before)).toBe(false);
    const test = await call(second, 'POST', '/api/v2/event-streams/est_demoInboxBearer0000000/test', { token, body: { event_type: 'user.created' } });
    expect(test.body.status).toBe('success');
  });

  it('keeps the HTTPS CA and certificate, and the mtls client', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir, https: true, mtls: 'handshake' });
    const { caPem, clients } = first;
    await stop(first);
    const second = await start({ stateDir: dir, https: true, mtls: 'handshake' });
    expect(second.caPem).toBe(caPem);
    expect(second.clients.mtls).toEqual(clients.mtls);
  });

  it('writes state.json whole (0600, in a 0700 directory), and holds a lock only while running', async () => {
    const dir = stateDir();
    const sandbox = await start({ stateDir: dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'state.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.lock']);
    await stop(sandbox);
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).version).toBe(1);
  });

  it('a second sandbox on the same directory is refused while the first runs; a lock whose process is gone is taken over', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir });
    await expect(startSandbox({ stateDir: dir })).rejects.toThrow(new SandboxStateError(`Another sandbox (pid ${process.pid}) is using ${dir}.`));
    await stop(first);
    writeFileSync(join(dir, 'state.lock'), '2147483646\n'); // no such process
    const second = await start({ stateDir: dir });
    expect(second.restored).toBe(true);
  });

  it.each([
    ['not JSON', '{"version":1,', /is damaged: it is not JSON\./],
    ['missing parts', '{"version":1,"port":4010}', /is damaged: inboxUrl: .* \(and \d+ more problems\)\./],
    ['another version', '{"version":7}', /has version 7; this idm reads version 1\./],
  ])('a damaged state file (%s) is an error, and the file is left as it was', async (_name, text, message) => {
    const dir = stateDir();
    await stop(await start({ stateDir: dir }));
    writeFileSync(join(dir, 'state.json'), text);
    await expect(startSandbox({ stateDir: dir })).rejects.toThrow(message);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe(text);
    expect(existsSync(join(dir, 'state.lock'))).toBe(false);
  });

  it('without --state-dir, every start is a new tenant', async () => {
    const a = await start({});
    const b = await start({});
    expect(a.clients.admin.clientId).not.toBe(b.clients.admin.clientId);
    expect(a.restored).toBe(false);
  });
});

describe('seeded clients', () => {
  it('take the client ids and secrets the seed names', async () => {
    const seed = { clients: { admin: { clientId: 'ci-admin-client', clientSecret: 'ci-admin-secret-0123456789' }, reader: { clientId: 'ci-reader-client' } } };
    const sandbox = await start({ seed });
    expect(sandbox.clients.admin.clientId).toBe('ci-admin-client');
    expect(sandbox.clients.admin.clientSecret).toBe('ci-admin-secret-0123456789');
    expect(sandbox.clients.reader.clientId).toBe('ci-reader-client');
    const answer = await tokenRequest(sandbox, { grant_type: 'client_credentials', client_id: 'ci-admin-client', client_secret: 'ci-admin-secret-0123456789', audience: `${sandbox.apiUrl}/` });
    expect(answer.status).toBe(200);
  });

  it.each([
    [{ clients: { admin: { clientSecret: 'short' } } }, /clients\.admin\.clientSecret/],
    [{ clients: { admin: { clientId: 'has space' } } }, /clients\.admin\.clientId/],
    [{ clients: { mtls: { certificateFingerprints: ['AB:CD'] } } }, /clients\.mtls\.certificateFingerprints\.0: must be a SHA-256 fingerprint/],
    [{ clients: { other: {} } }, /clients/],
  ])('a bad client in the seed is refused: %j', async (seed, message) => {
    await expect(startSandbox({ seed })).rejects.toThrow(message);
  });
});
