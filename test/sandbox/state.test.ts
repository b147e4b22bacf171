// --state-dir: the tenant kept on disk and loaded at the next start (the same clients, keys, CA, port,
// streams, connections and deliveries), written atomically, guarded by a lock, and a damaged file is
// an error rather than a fresh tenant. Seeds may name client ids and secrets.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpsRequest } from 'node:https';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SandboxStateError, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { lockStateDir } from '../../src/sandbox/state.js';
import { retryWhilePortTaken } from '../helpers/ports.js';
import { TEST_DELIVERY_TIMEOUT_MS } from '../helpers/timeouts.js';
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
  const sandbox = await startSandbox({ deliveryTimeoutMs: TEST_DELIVERY_TIMEOUT_MS, ...options });
  recordSandboxSecrets(sandbox, options?.seed);
  open.push(sandbox);
  return sandbox;
}

async function stop(sandbox: Sandbox): Promise<void> {
  open.splice(open.indexOf(sandbox), 1);
  await sandbox.close();
}

/** When `pid` started (field 22 of /proc/<pid>/stat), as a lock records it. */
function startOf(pid: number | 'self'): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}
const ownStart = () => startOf('self');

/** A test that restarts a sandbox on its saved port: run again from the start if another process took that port meanwhile. */
const itRestarts = (name: string, test: () => Promise<void>) => it(name, () => retryWhilePortTaken(test));

const STREAM = { name: 'kept', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } };

describe('sandbox --state-dir', () => {
  itRestarts('a restart keeps the clients, the port, the data, and tokens issued before it', async () => {
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

  itRestarts('moves webhooks of the previous inbox to this run’s: a delivery to the inbox still succeeds after a restart', async () => {
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

  itRestarts('keeps the HTTPS CA and certificate, and the mtls client', async () => {
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

  itRestarts('a second sandbox on the same directory is refused while the first runs; a lock whose process is gone is taken over', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir });
    await expect(startSandbox({ stateDir: dir })).rejects.toThrow(new SandboxStateError(`Another sandbox (pid ${process.pid}) is using ${dir}.`, 'in_use'));
    await stop(first);
    writeFileSync(join(dir, 'state.lock'), '2147483646\n'); // no such process
    const second = await start({ stateDir: dir });
    expect(second.restored).toBe(true);
  });

  itRestarts('a state.lock naming this process, which does not hold it, was left by an earlier process with its pid (a container restarted after a kill, the sandbox pid 1 each time): taken over', async () => {
    const dir = stateDir();
    await stop(await start({ stateDir: dir }));
    writeFileSync(join(dir, 'state.lock'), `${process.pid}\n`); // as this idm wrote it before
    expect((await start({ stateDir: dir })).restored).toBe(true);
    await stop(open[0]!);
    writeFileSync(join(dir, 'state.lock'), `${process.pid} ${ownStart()} 0123456789abcdef\n`);
    expect((await start({ stateDir: dir })).restored).toBe(true);
  });

  itRestarts('a state.lock whose pid now belongs to another process (its start time differs) is taken over; one of a live process that wrote it is not', async () => {
    const dir = stateDir();
    await stop(await start({ stateDir: dir }));
    const other = process.ppid; // runs, and is not this process
    writeFileSync(join(dir, 'state.lock'), `${other} ${startOf(other)} 0123456789abcdef\n`);
    await expect(startSandbox({ stateDir: dir })).rejects.toThrow(new SandboxStateError(`Another sandbox (pid ${other}) is using ${dir}.`, 'in_use'));
    writeFileSync(join(dir, 'state.lock'), `${other} ${Number(startOf(other)) + 1} 0123456789abcdef\n`);
    expect((await start({ stateDir: dir })).restored).toBe(true);
  });

  it('two starts at once on a lock left by a killed sandbox: the one that takes it over second finds the first one\'s lock and is refused; that lock stays', () => {
    const dir = stateDir();
    mkdirSync(dir, { mode: 0o700 });
    const lock = join(dir, 'state.lock');
    writeFileSync(lock, '2147483646\n'); // no such process
    let first: ReturnType<typeof lockStateDir> | undefined;
    // The second start has judged the lock stale; the first one takes it over and holds it before it goes on.
    expect(() => lockStateDir(dir, () => (first ??= lockStateDir(dir)))).toThrow(new SandboxStateError(`Another sandbox (pid ${process.pid}) is using ${dir}.`, 'in_use'));
    expect(first).toBeDefined();
    expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid} \\S+ [0-9a-f]{16}\\n$`));
    expect(readdirSync(dir)).toEqual(['state.lock']);
    first!.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an empty state.lock is another start between creating and writing it: refused while recent, taken over once old', () => {
    const dir = stateDir();
    mkdirSync(dir, { mode: 0o700 });
    const lock = join(dir, 'state.lock');
    writeFileSync(lock, '');
    expect(() => lockStateDir(dir)).toThrow(new SandboxStateError(`Another sandbox is starting on ${dir}.`, 'in_use'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    lockStateDir(dir).release();
    expect(readdirSync(dir)).toEqual([]);
  });

  itRestarts('the temporary files of writes a killed sandbox left half done (a whole state.json each, or a secret) are removed at the next start; its state is loaded', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir });
    const { clients } = first;
    await stop(first);
    // As a sandbox killed (kill -9) while it wrote them leaves them: the name writeFileReplacing gives.
    writeFileSync(join(dir, 'state.json.tmp-4242-mi3x0q1a2b3c4d5'), '{"version":1,"port":');
    writeFileSync(join(dir, 'admin.secret.tmp-4242-mi3x0q1a9z8y7x6'), clients.admin.clientSecret);
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    const second = await start({ stateDir: dir });
    expect(second.restored).toBe(true);
    expect(second.clients.admin).toEqual(clients.admin);
    expect(readdirSync(dir).filter((name) => name.includes('.tmp-'))).toEqual([]);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it.each([
    ['dangling', (dir: string) => symlinkSync(join(dir, 'nowhere'), join(dir, 'state.lock'))],
    ['to a file naming a live process (never read as a holder; the file left alone)', (dir: string) => {
      writeFileSync(join(dir, 'target'), `${process.ppid} ${startOf(process.ppid)} 0123456789abcdef\n`);
      symlinkSync(join(dir, 'target'), join(dir, 'state.lock'));
    }],
  ])('a state.lock that is a symlink (%s) is no lock of a sandbox: taken over', (_name, plant) => {
    const dir = stateDir();
    mkdirSync(dir, { mode: 0o700 });
    plant(dir);
    const target = existsSync(join(dir, 'target')) ? readFileSync(join(dir, 'target'), 'utf8') : undefined;
    const lock = lockStateDir(dir);
    expect(lstatSync(join(dir, 'state.lock')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'state.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    lock.release();
    expect(readdirSync(dir)).toEqual(target === undefined ? [] : ['target']);
    if (target !== undefined) expect(readFileSync(join(dir, 'target'), 'utf8')).toBe(target);
  });

  it.each([
    ['not JSON', '{"version":1,', /is damaged: it is not JSON\./],
    ['missing parts', '{"version":1,"port":4010}', /is damaged: inboxUrl: .* \(and \d+ more problems\)\./],
    ['another version', '{"version":7}', /has version 7; this idm reads version 1\./],
    ['an empty object', '{}', /is damaged: it has no version\.$/],
    ['null', 'null', /is damaged: it is not a JSON object\.$/],
  ])('a damaged state file (%s) is an error, and the file is left as it was', async (_name, text, message) => {
    const dir = stateDir();
    await stop(await start({ stateDir: dir }));
    writeFileSync(join(dir, 'state.json'), text);
    await expect(startSandbox({ stateDir: dir })).rejects.toThrow(message);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe(text);
    expect(existsSync(join(dir, 'state.lock'))).toBe(false);
  });

  it('a state file over 512 MB (a sparse 1 GB one) is a damaged state, not read, and left as it was', async () => {
    const dir = stateDir();
    await stop(await start({ stateDir: dir }));
    const file = join(dir, 'state.json');
    truncateSync(file, 1024 ** 3);
    await expect(startSandbox({ stateDir: dir })).rejects.toThrow(
      new SandboxStateError(`The sandbox state ${file} is damaged: it holds more than 512 MB, the most the sandbox reads.`),
    );
    expect(statSync(file).size).toBe(1024 ** 3);
    expect(existsSync(join(dir, 'state.lock'))).toBe(false);
  });

  itRestarts('a state.lock far longer than a pid is no live sandbox: read no further, and taken over', async () => {
    const dir = stateDir();
    await stop(await start({ stateDir: dir }));
    writeFileSync(join(dir, 'state.lock'), `${process.pid}\n`);
    truncateSync(join(dir, 'state.lock'), 1024 ** 3);
    expect((await start({ stateDir: dir })).restored).toBe(true);
  });

  describe('keys and certificates that do not parse are a damaged state, named, and nothing is left running', () => {
    let good: string;
    beforeAll(async () => {
      const dir = stateDir();
      await stop(await start({ stateDir: dir, https: true, mtls: 'handshake' }));
      good = readFileSync(join(dir, 'state.json'), 'utf8');
    });
    const GARBAGE = '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n';
    it.each([
      ['the signing key', (state: any) => void (state.signingKey.pem = GARBAGE), 'signingKey.pem is not a PEM private key'], // eslint-disable-line @typescript-eslint/no-explicit-any
      ['the server certificate', (state: any) => void (state.server.cert = state.server.cert.replace(/[A-Za-z]{20}/, 'x'.repeat(20))), 'server holds no PEM certificate'], // eslint-disable-line @typescript-eslint/no-explicit-any
      ['a client key', (state: any) => void (state.clients.admin.privateKeyPem = GARBAGE), 'clients.admin.privateKeyPem is not a PEM private key'], // eslint-disable-line @typescript-eslint/no-explicit-any
      ['the mtls key of another certificate', (state: any) => void (state.clients.mtls.keyPem = state.server.key), 'clients.mtls holds no private key of its certificate'], // eslint-disable-line @typescript-eslint/no-explicit-any
      ['an EC signing key', (state: any) => void (state.signingKey.pem = state.server.key), 'signingKey.pem is not an RSA key'], // eslint-disable-line @typescript-eslint/no-explicit-any
      ['a stream without a destination', (state: any) => void delete state.streams[2].record.destination, 'streams.2: record.destination must be a webhook, eventbus or action destination'], // eslint-disable-line @typescript-eslint/no-explicit-any
    ])('%s', async (_name, damage, problem) => {
      const state = JSON.parse(good);
      damage(state);
      const dir = stateDir();
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, 'state.json'), JSON.stringify(state));
      await expect(startSandbox({ stateDir: dir, https: true, mtls: 'handshake' })).rejects.toThrow(
        new SandboxStateError(`The sandbox state ${join(dir, 'state.json')} is damaged: ${problem}.`),
      );
      expect(existsSync(join(dir, 'state.lock'))).toBe(false);
    });
  });

  itRestarts('a write answered just before a stop is there after the restart; a loaded tenant nobody changed is not written again', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir });
    const token = await getToken(first);
    const created = await call(first, 'POST', '/api/v2/event-streams', { token, body: STREAM });
    expect(created.status).toBe(201);
    await stop(first); // at once: the coalesced write is due, and close() makes it
    const second = await start({ stateDir: dir });
    expect((await call(second, 'GET', `/api/v2/event-streams/${created.body.id}`, { token })).body).toEqual(created.body);
    const written = statSync(join(dir, 'state.json'));
    expect((await call(second, 'GET', '/api/v2/event-streams?take=1', { token })).status).toBe(200);
    await stop(second);
    // Each write is a new file renamed over the old one: the same inode and time mean no write.
    const after = statSync(join(dir, 'state.json'));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  itRestarts('keeps the mtls client through a run without --mtls: the same client and certificate, still accepted', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir, https: true, mtls: 'handshake' });
    const mtls = first.clients.mtls!;
    await stop(first);
    const plain = await start({ stateDir: dir, https: true });
    expect(plain.clients.mtls).toBeUndefined();
    await stop(plain);
    const again = await start({ stateDir: dir, https: true, mtls: 'handshake' });
    expect(again.clients.mtls).toEqual(mtls);
    const answer = await new Promise<number>((resolve, reject) => {
      const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: mtls.clientId, audience: `${again.apiUrl}/` }).toString();
      const req = httpsRequest(again.tokenUrl, { method: 'POST', ca: again.caPem, cert: mtls.certPem, key: mtls.keyPem, agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(answer).toBe(200);
  });

  itRestarts('makes anew a kept certificate that has expired: the server\'s and the mtls client\'s (same client id), and all of them when the CA has', async () => {
    // Reviewed defect: kept certificates were used as saved whatever their dates, so a tenant kept past
    // their lifetime (365 days for the mtls client, 825 for the CA and the server) served a certificate
    // every client refused and refused its own mtls client, with no way out but a new tenant.
    const { generate } = (await import('selfsigned')) as unknown as { generate: (attrs: unknown, options: unknown) => Promise<{ cert: string; private: string }> };
    const expired = async (signer: { cert: string; key: string } | undefined, use: 'ca' | 'server' | 'client') => {
      const pems = await generate([{ name: 'commonName', value: `expired ${use}` }], {
        keyType: 'ec',
        algorithm: 'sha256',
        notBeforeDate: new Date(Date.now() - 400 * 86_400_000),
        notAfterDate: new Date(Date.now() - 86_400_000),
        ...(signer ? { ca: signer } : {}),
        extensions:
          use === 'ca'
            ? [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true, critical: true }]
            : [{ name: 'basicConstraints', cA: false }, { name: 'extKeyUsage', ...(use === 'server' ? { serverAuth: true } : { clientAuth: true }) }, ...(use === 'server' ? [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }] : [])],
      });
      return { cert: pems.cert, key: pems.private };
    };
    const mtlsToken = (sandbox: Sandbox) =>
      new Promise<number>((resolve, reject) => {
        const { clientId, certPem, keyPem } = sandbox.clients.mtls!;
        const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, audience: `${sandbox.apiUrl}/` }).toString();
        const req = httpsRequest(sandbox.tokenUrl, { method: 'POST', ca: sandbox.caPem, cert: certPem, key: keyPem, agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
    const dir = stateDir();
    const first = await start({ stateDir: dir, https: true, mtls: 'handshake' });
    const { caPem, clients } = first;
    await stop(first);
    const file = join(dir, 'state.json');
    // The server's and the client's certificates expired, signed by the kept CA.
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const server = await expired(state.ca, 'server');
    const client = await expired(state.ca, 'client');
    state.server = server;
    Object.assign(state.clients.mtls, { certPem: client.cert, keyPem: client.key });
    writeFileSync(file, JSON.stringify(state));
    const second = await start({ stateDir: dir, https: true, mtls: 'handshake' });
    expect(second.caPem).toBe(caPem);
    expect(second.clients.mtls!.clientId).toBe(clients.mtls!.clientId);
    expect(second.clients.mtls!.certPem).not.toBe(client.cert);
    // The handshake verifies the new server certificate (an expired one fails it), and the new client certificate gets a token.
    expect(await mtlsToken(second)).toBe(200);
    await stop(second);
    // The CA itself expired: a new one, and the certificates it signs.
    const again = JSON.parse(readFileSync(file, 'utf8'));
    again.ca = await expired(undefined, 'ca');
    writeFileSync(file, JSON.stringify(again));
    const third = await start({ stateDir: dir, https: true, mtls: 'handshake' });
    expect(third.caPem).not.toBe(caPem);
    expect(third.caPem).not.toBe(again.ca.cert);
    expect(third.clients.mtls!.clientId).toBe(clients.mtls!.clientId);
    expect(await mtlsToken(third)).toBe(200);
  });

  itRestarts('keeps the edge key through a run without --mtls-edge', async () => {
    const dir = stateDir();
    const first = await start({ stateDir: dir, mtls: 'edge' });
    const { edgeKey } = first;
    await stop(first);
    await stop(await start({ stateDir: dir }));
    const again = await start({ stateDir: dir, mtls: 'edge' });
    expect(again.edgeKey).toBe(edgeKey);
  });

  itRestarts('a restart with a seed uses the saved tenant as it was: none of the seed applies (its token lifetime and stream limit neither), the flags do', async () => {
    const dir = stateDir();
    await stop(await start({ stateDir: dir, seed: { streams: [STREAM], tokenLifetime: 60 } }));
    const other = { streams: [], tokenLifetime: 3_600, maxStreams: 1, delivery: 'sync' };
    const again = await start({ stateDir: dir, seed: other });
    expect(again.restored).toBe(true);
    const { clientId, clientSecret } = again.clients.admin;
    const token = await tokenRequest(again, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: `${again.apiUrl}/` });
    expect(token.body.expires_in).toBe(60);
    // The seed's maxStreams 1 would refuse this create (one stream is saved).
    const created = await call(again, 'POST', '/api/v2/event-streams', { token: token.body.access_token, body: { ...STREAM, name: 'second' } });
    expect(created.status).toBe(201);
    await stop(again);
    const flags = await start({ stateDir: dir, seed: other, tokenLifetime: 120 });
    const third = await tokenRequest(flags, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: `${flags.apiUrl}/` });
    expect(third.body.expires_in).toBe(120);
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
    [{ clients: { admin: { clientId: 'same-client-id' }, reader: { clientId: 'same-client-id' } } }, /clients\.reader\.clientId: is the admin client's id too: each client needs an id of its own/],
    [{ clients: { reader: { clientId: 'same-client-id' }, mtls: { clientId: 'same-client-id' } } }, /clients\.mtls\.clientId: is the reader client's id too/],
    [{ clients: { mtls: { certificateFingerprints: ['AB'.repeat(32)] } } }, /Invalid seed: clients\.mtls needs mutual TLS: start with --https --mtls, or --mtls-edge/],
  ])('a bad client in the seed is refused: %j', async (seed, message) => {
    await expect(startSandbox({ seed })).rejects.toThrow(message);
  });
});
