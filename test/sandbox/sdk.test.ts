// The platform's official Node SDK (npm `auth0` 7.1.0, a devDependency), unchanged, against the
// sandbox tenant over HTTPS (`https: true`: the sandbox's own CA and certificate, as `idm sandbox
// start --https` serves them): every event-stream and directory-provisioning operation the sandbox
// serves that the SDK has a method for. The SDK runs in a child process (./sdk-client.mjs) that
// trusts the sandbox's CA only through NODE_EXTRA_CA_CERTS (no NODE_TLS_REJECT_UNAUTHORIZED),
// gets its own token with client credentials from https://127.0.0.1:<port>/oauth/token (with the
// client secret, and with a private-key JWT it signs: RS256, PS256, ES256 with a seeded key), and reports
// one JSON line per operation. The test drives it phase by phase, waiting for the sandbox's
// background work (deliveries, synchronizations) in between, and checks each answer against the
// interface (/work/shared/spec/interface.md) and against the sandbox's own state and request log.
// A last part runs the built binary, `idm sandbox start --https --json`, and the SDK with the CA
// file it printed.
//
// The SDK does not validate bodies at run time, so the interface's names are sent and received as
// they are; only its TypeScript types use other names. Differences noticed (SDK types vs interface):
//   - directory-provisioning mapping entry: `auth0` (DirectoryProvisioningMappingItem) vs `platform`;
//   - event-bus destination type: `eventbridge` (EventStreamEventBridgeDestinationTypeEnum) vs `eventbus`;
//   - event-bus configuration: `aws_account_id` vs `cloud_account_id`, `aws_region` (enum
//     EventStreamEventBridgeAwsRegionEnum) vs `cloud_region`, `aws_partner_event_source` vs
//     `cloud_partner_event_source`;
//   - the database connection's strategy: `auth0` (ConnectionStrategyEnum) vs `platform` in the
//     sandbox's seed (the interface names no strategy values);
//   - not names, but type gaps: the SDK's webhook authorization type for create/update is the
//     response shape (no `token`, `password`, `header_value`: the secret is sent with a cast);
//     its delivery-status enum has `failed` only (the interface too), while the test operation
//     answers `pending` in the asynchronous mode; its event-type enums also list
//     `connection.created|updated|deleted`, which the interface's list lacks; it has no method for
//     GET /event-streams/{id}/stats (reached here with the SDK's passthrough `client.fetch`).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, DEMO_IDS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { recordSandboxSecrets, recordSecrets } from '../helpers/sandbox.js';
import { TEST_DELIVERY_TIMEOUT_MS } from '../helpers/timeouts.js';

/** One line the SDK child printed for an operation. */
interface OpLine {
  op: string;
  ok: boolean;
  status?: number;
  result?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  error?: { name: string; statusCode?: number; body?: any; headers?: Record<string, string>; message: string; cause?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const HELPER = fileURLToPath(new URL('./sdk-client.mjs', import.meta.url));
const WEBHOOK_TOKEN = 'sdk-test-webhook-bearer-token';
const GROUPS = { engineering: '03ep43zb1xk6ay0', sales: '03ep43zb2fw2ma9', support: '03ep43zb3kd91ls', everyone: '03ep43zb4qq0zfe' };
const EVENT_STREAM_ID = /^est_[A-Za-z0-9]{22}$/;
const EVENT_ID = /^evt_[A-Za-z0-9]{22}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** An EC P-256 key the seed registers for the admin client, for the SDK's ES256 assertions. */
const EC = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const EC_PRIVATE = EC.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SEED = { ...DEFAULT_SEED, clients: { admin: { publicKeys: [EC.publicKey.export({ type: 'spki', format: 'pem' }).toString()] } } };

/** A private directory for the sandbox's CA file (NODE_EXTRA_CA_CERTS names a file). */
let dir: string;
let caFile: string;
let sandbox: Sandbox;
let child: ChildProcessWithoutNullStreams;
let childErr = '';
const pending: string[] = [];
let wake: (() => void) | undefined;

/** Sends a phase to the SDK child and collects its operations' lines, by operation name. */
async function phase(name: string, args: Record<string, unknown> = {}): Promise<Record<string, OpLine> & { $extra: Array<Record<string, unknown>> }> {
  child.stdin.write(`${JSON.stringify({ phase: name, args })}\n`);
  const ops: Record<string, OpLine> & { $extra: Array<Record<string, unknown>> } = Object.assign(Object.create(null), { $extra: [] });
  for (;;) {
    while (pending.length === 0) {
      if (child.exitCode !== null) throw new Error(`the SDK child exited (${child.exitCode}): ${childErr}`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
    const line = JSON.parse(pending.shift()!) as Record<string, unknown>;
    if (line.done === name) return ops;
    if (typeof line.op === 'string') ops[line.op] = line as unknown as OpLine;
    else ops.$extra.push(line);
  }
}

/** The operation succeeded with this HTTP status; its result. */
function ok(ops: Record<string, OpLine>, name: string, status: number | undefined): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const line = ops[name];
  expect(line, `${name}: no line from the SDK child`).toBeDefined();
  expect({ op: name, ok: line!.ok, status: line!.status, error: line!.error }).toEqual({ op: name, ok: true, status, error: undefined });
  return line!.result;
}

/** The SDK requests of a method and path (query string ignored), in order. */
const sent = (method: string, path: string) => sandbox.requests.filter((r) => r.method === method && r.path === `/api/v2${path}`);

/**
 * The SDK child, in a minimal environment: the machine's own NODE_EXTRA_CA_CERTS is replaced by
 * `extraCa` (the test CA's file), or by nothing at all.
 */
function spawnSdk(extraCa: string | undefined, target: { url: string; clientId: string; clientSecret: string } = { url: sandbox.url, ...sandbox.clients.admin }): ChildProcessWithoutNullStreams {
  const { clientId, clientSecret } = target;
  return spawn(process.execPath, [HELPER], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...(extraCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: extraCa }),
      SDK_DOMAIN: target.url.replace(/^https:\/\//, ''),
      SDK_CLIENT_ID: clientId,
      SDK_CLIENT_SECRET: clientSecret,
      SDK_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ https: true, seed: SEED, retryDelaysMs: [0, 0, 0], syncDurationMs: 0, deliveryTimeoutMs: TEST_DELIVERY_TIMEOUT_MS });
  recordSandboxSecrets(sandbox, SEED);
  recordSecrets([WEBHOOK_TOKEN, EC_PRIVATE]);
  dir = mkdtempSync(join(tmpdir(), 'idm-sdk-'));
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, sandbox.caPem!);
  child = spawnSdk(caFile);
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (childErr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    pending.push(line);
    wake?.();
  });
  child.on('exit', () => wake?.());
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.stdin.end(`${JSON.stringify({ phase: 'exit' })}\n`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => (child.kill(), resolve()), 5000);
      child.once('exit', () => (clearTimeout(timer), resolve()));
    });
  }
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the auth0 Node SDK against the sandbox over HTTPS', () => {
  let createdId = '';
  let closedFailedId = '';

  it('event streams: list (paged), create a bearer webhook, get, update, test (202 pending)', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ops = await phase('streams', { inboxUrl: sandbox.inboxUrl, closedPortId: DEMO_IDS.closedPort });

    // The SDK got its token itself: client credentials, form-encoded, audience https://<domain>/api/v2/.
    const tokenRequests = sandbox.requests.filter((r) => r.path === '/oauth/token');
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]!.status).toBe(200);
    expect(tokenRequests[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(tokenRequests[0]!.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'client_credentials',
      client_id: sandbox.clients.admin.clientId,
      client_secret: sandbox.clients.admin.clientSecret,
      audience: `${sandbox.url}/api/v2/`,
    });

    // list: first page of 2 with a `next` the SDK follows as `from`.
    const first = ok(ops, 'eventStreams.list take=2', 200);
    expect(first.items.map((s: { id: string }) => s.id)).toEqual([DEMO_IDS.inboxBearer, DEMO_IDS.inboxBasic]);
    expect(first.hasNextPage).toBe(true);
    expect(typeof first.response.next).toBe('string');
    for (const stream of first.items) {
      expect(Object.keys(stream).sort()).toEqual(['created_at', 'destination', 'id', 'name', 'status', 'subscriptions', 'updated_at']);
      expect(stream.id).toMatch(EVENT_STREAM_ID);
      expect(stream.status).toBe('enabled');
      expect(stream.created_at).toMatch(ISO);
      // The secret is never returned.
      expect(stream.destination.configuration.webhook_authorization).not.toHaveProperty('token');
      expect(stream.destination.configuration.webhook_authorization).not.toHaveProperty('password');
    }
    expect(first.items[0].destination.configuration.webhook_authorization).toEqual({ method: 'bearer' });
    expect(first.items[1].destination.configuration.webhook_authorization).toEqual({ method: 'basic', username: 'sandbox' });
    const all = ok(ops, 'eventStreams.list all pages', undefined) as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(all.map((s) => s.id)).toEqual(sandbox.seededStreams().map((s) => s.id));
    // The event-bus stream reaches the SDK with the interface's names (its types say eventbridge / aws_*).
    expect(all.find((s) => s.id === DEMO_IDS.eventbus)!.destination).toEqual({
      type: 'eventbus',
      configuration: { cloud_account_id: '123456789012', cloud_region: 'us-east-1', cloud_partner_event_source: 'cloud.partner/platform.com/sandbox/platform.events' },
    });
    expect(all.find((s) => s.id === DEMO_IDS.action)).toMatchObject({ status: 'disabled', destination: { type: 'action', configuration: { action_id: expect.any(String) } } });
    const listed = sent('GET', '/event-streams');
    expect(listed.map((r) => new URL(r.url, sandbox.url).searchParams.get('take'))).toEqual(['2', '2', '2', '2']);

    // create
    const created = ok(ops, 'eventStreams.create', 201);
    createdId = created.id;
    expect(created).toEqual({
      id: expect.stringMatching(EVENT_STREAM_ID),
      name: 'sdk-webhook',
      status: 'enabled',
      subscriptions: [{ event_type: 'user.created' }],
      destination: { type: 'webhook', configuration: { webhook_endpoint: `${sandbox.inboxUrl}/sdk`, webhook_authorization: { method: 'bearer' } } },
      created_at: expect.stringMatching(ISO),
      updated_at: created.created_at,
    });
    const createRequest = sent('POST', '/event-streams');
    expect(createRequest).toHaveLength(1);
    expect(createRequest[0]!.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(createRequest[0]!.body).destination.configuration.webhook_authorization).toEqual({ method: 'bearer', token: WEBHOOK_TOKEN });

    // get: the same record, from the tenant.
    expect(ok(ops, 'eventStreams.get created', 200)).toEqual(created);

    // update (PATCH): the given fields replace the stored ones; the second get sees them.
    const updated = ok(ops, 'eventStreams.update', 200);
    expect(updated).toMatchObject({ id: createdId, name: 'sdk-webhook-renamed', subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }], destination: created.destination });
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect(sent('PATCH', `/event-streams/${createdId}`).map((r) => JSON.parse(r.body))).toEqual([
      { name: 'sdk-webhook-renamed', subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }] },
    ]);
    expect(ok(ops, 'eventStreams.get updated', 200)).toEqual(updated);

    // test: 202, a pending delivery record without attempts yet, then delivered in the background.
    const tested = ok(ops, 'eventStreams.test created', 202);
    expect(tested).toMatchObject({ id: expect.stringMatching(EVENT_ID), event_stream_id: createdId, status: 'pending', event_type: 'user.created', attempts: [] });
    const closed = ok(ops, 'eventStreams.test closed port', 202);
    expect(closed).toMatchObject({ id: expect.stringMatching(EVENT_ID), event_stream_id: DEMO_IDS.closedPort, status: 'pending', event_type: 'user.created', attempts: [] });
    closedFailedId = closed.id;
    // interface.md says the envelope comes only with a failed delivery; the recorded service (and the
    // sandbox, wire-facts.md) includes it in the pending record too.
    expect(tested.event).toMatchObject({ id: tested.id, type: 'user.created', specversion: '1.0' });
    expect(JSON.parse(sent('POST', `/event-streams/${createdId}/test`)[0]!.body)).toEqual({ event_type: 'user.created', data: { object: { user_id: 'sdk|42' } } });

    await sandbox.idle();
    // The inbox got the event with the secret the SDK sent at creation, and the raw data.
    const received = sandbox.inbox().filter((entry) => entry.path === '/inbox/sdk');
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.authorization).toBe(`Bearer ${WEBHOOK_TOKEN}`);
    expect(received[0]!.body).toMatchObject({ id: tested.id, type: 'user.created', specversion: '1.0', data: { object: { user_id: 'sdk|42' } } });
    // The closed port's delivery failed after its 4 attempts.
    const failed = sandbox.deliveries().find((d) => d.record.id === closedFailedId)!;
    expect(failed.record.status).toBe('failed');
    expect(failed.record.attempts).toHaveLength(4);
  });

  it('event streams: deliveries list and get of a failed delivery, redeliver one, delete (then get is 404)', async () => {
    const ops = await phase('deliveries', { closedPortId: DEMO_IDS.closedPort, failedId: closedFailedId, createdId });

    const list = ok(ops, 'eventStreams.deliveries.list', 200);
    // The SDK sends take=50, and with take the service's last page has a next too (recorded with
    // this SDK: pages of 4 and 1 with take=50, each with a next), leading to an empty page.
    expect(list.hasNextPage).toBe(true);
    expect(list.response.next).toEqual(expect.any(String));
    expect(list.items).toHaveLength(1);
    const delivery = list.items[0];
    expect(delivery).toMatchObject({ id: closedFailedId, event_stream_id: DEMO_IDS.closedPort, status: 'failed', event_type: 'user.created' });
    expect(delivery.attempts).toHaveLength(4);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({ status: 'failed', timestamp: expect.stringMatching(ISO), error_message: expect.any(String) });
    }
    expect(delivery.event).toMatchObject({ id: closedFailedId, specversion: '1.0', type: 'user.created', time: expect.stringMatching(ISO), source: expect.any(String) });
    expect(delivery.event).toHaveProperty('data');
    const filtered = ok(ops, 'eventStreams.deliveries.list filtered', 200);
    expect(filtered.items.map((d: { id: string }) => d.id)).toEqual([closedFailedId]);
    const filteredQuery = new URL(sent('GET', `/event-streams/${DEMO_IDS.closedPort}/deliveries`)[1]!.url, sandbox.url).searchParams;
    expect(Object.fromEntries(filteredQuery)).toEqual({ statuses: 'failed', event_types: 'user.created', take: '10' });

    expect(ok(ops, 'eventStreams.deliveries.getHistory', 200)).toEqual(delivery);

    // redeliver one: 202, nothing to return; a `retrying` attempt, then attempts on the schedule.
    expect(ok(ops, 'eventStreams.redeliveries.createById', 202)).toBeNull();
    expect(sent('POST', `/event-streams/${DEMO_IDS.closedPort}/redeliver/${closedFailedId}`)).toHaveLength(1);

    // delete: 204; the second get answers 404, which the SDK throws as NotFoundError.
    expect(ok(ops, 'eventStreams.delete', 204)).toBeNull();
    const gone = ops['eventStreams.get deleted']!;
    expect(gone.ok).toBe(false);
    expect(gone.error).toMatchObject({ name: 'NotFoundError', statusCode: 404, body: { statusCode: 404, error: 'Not Found', message: 'The requested stream does not exist.' } });
    expect(sandbox.seededStreams().map((s) => s.id)).not.toContain(createdId);

    await sandbox.idle();
    const redelivered = sandbox.deliveries().find((d) => d.record.id === closedFailedId)!;
    expect(redelivered.record.status).toBe('failed');
    expect(redelivered.record.attempts.map((a) => a.status)).toEqual([...Array(4).fill('failed'), 'retrying', ...Array(4).fill('failed')]);
  });

  it('event streams: redeliver many (filters), statistics through the passthrough fetch', async () => {
    const ops = await phase('redeliver', { closedPortId: DEMO_IDS.closedPort });

    ok(ops, 'eventStreams.redeliveries.create', 202);
    expect(sent('POST', `/event-streams/${DEMO_IDS.closedPort}/redeliver`).map((r) => JSON.parse(r.body))).toEqual([{ statuses: ['failed'], event_types: ['user.created'] }]);

    const stats = ok(ops, 'client.fetch stats', 200);
    expect(stats).toMatchObject({ id: DEMO_IDS.closedPort, name: 'demo-closed-port', window: { date_from: expect.any(String), date_to: expect.any(String) } });
    expect(stats.metrics).toHaveLength(2);
    // Read before the redelivery: the 8 failed attempts so far (4, then 4 more after the first redelivery).
    expect(stats.metrics.map((m: { name: string; window_total: number }) => [m.name.replace(/^[^.]+\./, ''), m.window_total])).toEqual([
      ['event_streams.successful_deliveries', 0],
      ['event_streams.failed_deliveries', 8],
    ]);
    expect(stats.buckets.length).toBeGreaterThan(0);

    await sandbox.idle();
    const again = sandbox.deliveries().find((d) => d.record.id === closedFailedId)!;
    expect(again.record.attempts.filter((a) => a.status === 'retrying')).toHaveLength(2);
    expect(again.record.attempts).toHaveLength(14);
  });

  it('connections and directory provisioning: list, default mapping, create, get, update, list all, synchronize, synchronized groups', async () => {
    const ops = await phase('provisioning', { connectionId: DEMO_IDS.googleApps, configuredId: DEMO_IDS.googleAppsConfigured, groups: GROUPS });

    // connections.list: the SDK always sends take (and include_totals), so the sandbox pages.
    const connections = ok(ops, 'connections.list', 200);
    expect(connections.items.map((c: { id: string }) => c.id)).toEqual(sandbox.connections().map((c) => c.id));
    expect(connections.items.find((c: { id: string }) => c.id === DEMO_IDS.googleApps)).toMatchObject({ name: 'google-workspace', strategy: 'google-apps' });

    const defaults = ok(ops, 'directoryProvisioning.getDefaultMapping', 200);
    expect(defaults.mapping.length).toBeGreaterThan(0);
    for (const entry of defaults.mapping) expect(Object.keys(entry).sort()).toEqual(['idp', 'platform']);
    expect(defaults.mapping).toContainEqual({ platform: 'email', idp: 'primaryEmail' });

    const created = ok(ops, 'directoryProvisioning.create', 201);
    const mapping = [
      { platform: 'email', idp: 'primaryEmail' },
      { platform: 'app_metadata.external_id', idp: 'id' },
    ];
    expect(created).toEqual({
      connection_id: DEMO_IDS.googleApps,
      connection_name: 'google-workspace',
      strategy: 'google-apps',
      mapping,
      synchronize_automatically: true,
      synchronize_groups: 'selected',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(JSON.parse(sent('POST', `/connections/${DEMO_IDS.googleApps}/directory-provisioning`)[0]!.body)).toEqual({ mapping, synchronize_automatically: true, synchronize_groups: 'selected' });
    expect(ok(ops, 'directoryProvisioning.get', 200)).toEqual(created);

    const updated = ok(ops, 'directoryProvisioning.update', 200);
    expect(updated).toEqual({ ...created, synchronize_automatically: false, synchronize_groups: 'all', updated_at: expect.stringMatching(ISO) });

    const all = ok(ops, 'directoryProvisioning.list', 200);
    expect(all.hasNextPage).toBe(false);
    expect(all.items.map((p: { connection_id: string }) => p.connection_id)).toEqual([DEMO_IDS.googleApps, DEMO_IDS.googleAppsConfigured, DEMO_IDS.googleAppsFailing]);
    expect(all.items[0]).toEqual(updated);
    expect(sandbox.connections().filter((c) => c.provisioning === 'configured').map((c) => c.id)).toEqual(all.items.map((p: { connection_id: string }) => p.connection_id));

    const sync = ok(ops, 'directoryProvisioning.synchronizations.create', 201);
    expect(sync).toEqual({ connection_id: DEMO_IDS.googleApps, synchronization_id: expect.any(String), status: 'pending' });

    const before = ok(ops, 'directoryProvisioning.listSynchronizedGroups before', 200);
    expect(before.items).toEqual([{ id: GROUPS.engineering, name: 'Engineering', email: 'engineering@example.com', direct_members_count: 12 }]);
    expect(ok(ops, 'directoryProvisioning.set', 204)).toBeNull();
    expect(ok(ops, 'directoryProvisioning.addSynchronizedGroupSelections', 204)).toBeNull();
    expect(ok(ops, 'directoryProvisioning.deleteSynchronizedGroupSelections', 204)).toBeNull();
    const path = `/connections/${DEMO_IDS.googleAppsConfigured}/directory-provisioning/synchronized-groups`;
    expect(sent('PUT', path).map((r) => JSON.parse(r.body))).toEqual([{ groups: [{ id: GROUPS.sales }, { id: GROUPS.support, name: 'Support' }] }]);
    expect(sent('POST', path).map((r) => JSON.parse(r.body))).toEqual([{ groups: [{ id: GROUPS.everyone }] }]);
    expect(sent('DELETE', path).map((r) => JSON.parse(r.body))).toEqual([{ groups: [{ id: GROUPS.sales }] }]);
    expect(ok(ops, 'directoryProvisioning.listSynchronizedGroups after', 200).items).toEqual([{ id: GROUPS.support, name: 'Support' }, { id: GROUPS.everyone }]);
    expect(ok(ops, 'directoryProvisioning.listSynchronizedGroups q', 200).items).toEqual([{ id: GROUPS.support, name: 'Support' }]);

    await sandbox.idle();
  });

  it('directory provisioning: the finished synchronization, delete (then get is 404)', async () => {
    const ops = await phase('provisioning-end', { connectionId: DEMO_IDS.googleApps });

    const synced = ok(ops, 'directoryProvisioning.get synchronized', 200);
    expect(synced).toMatchObject({ connection_id: DEMO_IDS.googleApps, last_synchronization_status: 'completed', last_synchronization_at: expect.stringMatching(ISO) });
    expect(synced).not.toHaveProperty('last_synchronization_error');

    expect(ok(ops, 'directoryProvisioning.delete', 204)).toBeNull();
    const gone = ops['directoryProvisioning.get deleted']!;
    expect(gone.ok).toBe(false);
    expect(gone.error).toMatchObject({ name: 'NotFoundError', statusCode: 404, body: { statusCode: 404, message: 'Directory provisioning configuration not found' } });
    expect(sandbox.connections().find((c) => c.id === DEMO_IDS.googleApps)!.provisioning).toBe('not configured');

    // One token for the whole run, every API request authorized and answered by the sandbox.
    expect(sandbox.tokensIssued()).toBe(1);
    const api = sandbox.requests.filter((r) => r.path.startsWith('/api/v2/'));
    expect(api.every((r) => r.headers.authorization?.startsWith('Bearer '))).toBe(true);
    expect(api.filter((r) => r.status === 401 || r.status === 403 || r.status >= 500)).toEqual([]);
    expect(childErr).toBe('');
  });

  it('errors the SDK types: 400 (path, body), 401, 403, 404, 409 (stream, provisioning), each with the service body and rate-limit headers', async () => {
    const ops = await phase('errors', { reader: sandbox.clients.reader, configuredId: DEMO_IDS.googleAppsConfigured, closedPortId: DEMO_IDS.closedPort, takenName: 'demo-closed-port' });
    const failed = (name: string) => {
      const line = ops[name];
      expect(line, `${name}: no line from the SDK child`).toBeDefined();
      expect(line!.ok, name).toBe(false);
      // Every management answer carries the bucket's headers (wire-facts.md), in lower case for the SDK.
      expect(line!.error!.headers, name).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-limit': expect.stringMatching(/^\d+$/),
        'x-ratelimit-remaining': expect.stringMatching(/^\d+$/),
        'x-ratelimit-reset': expect.stringMatching(/^\d{10}$/),
      });
      return line!.error!;
    };
    // The SDK's get has no 400 in its error table: a plain ManagementError, with the same fields.
    expect(failed('400 malformed id')).toMatchObject({
      name: 'ManagementError',
      statusCode: 400,
      body: { statusCode: 400, error: 'Bad Request', message: "Path validation error: 'Object didn't pass validation for format event-stream-id: est_short' on property id (Unique identifier for the event stream).", errorCode: 'invalid_uri' },
    });
    expect(failed('400 body')).toMatchObject({ name: 'BadRequestError', statusCode: 400, body: { statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Payload validation error: .*destination/), errorCode: 'invalid_body' } });
    const notFound = failed('404 unknown stream');
    expect(notFound).toMatchObject({ name: 'NotFoundError', statusCode: 404 });
    expect(notFound.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'The requested stream does not exist.' });
    expect(failed('409 stream name')).toMatchObject({ name: 'ConflictError', statusCode: 409, body: { statusCode: 409, error: 'Conflict', message: 'You have reached the maximum number of event streams for your account OR Event stream name already in use.' } });
    expect(failed('409 provisioning')).toMatchObject({ name: 'ConflictError', statusCode: 409, body: { statusCode: 409, error: 'Conflict', message: 'Directory provisioning is already enabled on the specified connection' } });
    expect(failed('403 scope')).toMatchObject({ name: 'ForbiddenError', statusCode: 403, body: { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: update:event_streams.', errorCode: 'insufficient_scope' } });
    expect(failed('401 token')).toMatchObject({ name: 'UnauthorizedError', statusCode: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Invalid token.' } });
    // Nothing was made by the refused calls.
    expect(sandbox.seededStreams().filter((s) => s.name === 'demo-closed-port')).toHaveLength(1);
    expect(childErr).toBe('');
  });

  it("deliveries paged one at a time with the SDK's own pagination: oldest first, each with the service's a0tenant and a0stream, and no page twice", async () => {
    const tested = await phase('more-tests', { closedPortId: DEMO_IDS.closedPort });
    const ids = [ok(tested, 'test user.updated', 202).id, ok(tested, 'test user.deleted', 202).id];
    await sandbox.idle();
    const paged = ok(await phase('deliveries-paged', { closedPortId: DEMO_IDS.closedPort }), 'deliveries.list take=1 all pages', undefined) as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    // The one that failed first (the first test's, redelivered twice since), then the two new ones, in the order sent.
    expect(paged.map((d) => d.id)).toEqual([closedFailedId, ...ids]);
    expect(paged.map((d) => d.event_type)).toEqual(['user.created', 'user.updated', 'user.deleted']);
    for (const delivery of paged) {
      expect(Object.keys(delivery)).toEqual(['id', 'event_stream_id', 'event_type', 'status', 'attempts', 'event']);
      expect(delivery.status).toBe('failed');
      expect(Object.keys(delivery.event)).toEqual(['id', 'source', 'specversion', 'type', 'time', 'data', 'a0tenant', 'a0stream']);
      expect(delivery.event.a0stream).toBe(DEMO_IDS.closedPort);
      expect(delivery.event.a0tenant).toBe(new URL(sandbox.url).host);
    }
    // A page of one each, then the empty page the last one's `next` leads to, which has no `next`.
    const pages = sent('GET', `/event-streams/${DEMO_IDS.closedPort}/deliveries`).slice(-4);
    expect(pages.map((r) => new URL(r.url, sandbox.url).searchParams.get('take'))).toEqual(['1', '1', '1', '1']);
    expect(pages.map((r) => new URL(r.url, sandbox.url).searchParams.has('from'))).toEqual([false, true, true, true]);
  });

  it('client credentials with a private-key JWT (private_key_jwt) the SDK signs: RS256, PS256 with the client key, ES256 with a seeded EC key', async () => {
    const cases = [
      ['RS256', sandbox.clients.admin.privateKeyPem],
      ['PS256', sandbox.clients.admin.privateKeyPem],
      ['ES256', EC_PRIVATE],
    ] as const;
    for (const [alg, privateKeyPem] of cases) {
      const tokensBefore = sandbox.tokensIssued();
      const ops = await phase('assertion', { alg, privateKeyPem });
      expect(ok(ops, `eventStreams.list ${alg}`, 200).items.map((s: { id: string }) => s.id)).toEqual([DEMO_IDS.inboxBearer]);
      expect(sandbox.tokensIssued()).toBe(tokensBefore + 1);
      // The token request: form-encoded, no secret, the assertion type and a JWT the SDK signed as
      // wire-facts.md has it (iss = sub = client id, aud = the tenant's base URL with a slash, exp at
      // most 5 minutes after iat, a jti).
      const request = sandbox.requests.filter((r) => r.path === '/oauth/token').at(-1)!;
      expect(request.status).toBe(200);
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const form = Object.fromEntries(new URLSearchParams(request.body));
      expect(Object.keys(form).sort()).toEqual(['audience', 'client_assertion', 'client_assertion_type', 'client_id', 'grant_type']);
      expect(form).toMatchObject({ grant_type: 'client_credentials', client_id: sandbox.clients.admin.clientId, audience: `${sandbox.url}/api/v2/`, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' });
      const [header, payload] = form.client_assertion!.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
      expect(header.alg).toBe(alg);
      expect(payload).toMatchObject({ iss: sandbox.clients.admin.clientId, sub: sandbox.clients.admin.clientId, aud: `${sandbox.url}/`, jti: expect.any(String) });
      expect(payload.exp - payload.iat).toBeGreaterThan(0);
      expect(payload.exp - payload.iat).toBeLessThanOrEqual(300);
      // The list was made with the token that assertion got.
      expect(sandbox.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/v2/event-streams', status: 200 });
    }
  });

  it('private_key_jwt with a key the client does not have: the SDK reports the token endpoint\'s 401 invalid_client, and no token is issued', async () => {
    const tokensBefore = sandbox.tokensIssued();
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    recordSecrets([stranger]);
    const line = (await phase('assertion', { alg: 'RS256', privateKeyPem: stranger }))['eventStreams.list RS256']!;
    expect(line.ok).toBe(false);
    expect(line.error).toMatchObject({ statusCode: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed: invalid assertion signature' } });
    expect(sandbox.tokensIssued()).toBe(tokensBefore);
    expect(childErr).toBe('');
  });

  it('control: the same SDK without the sandbox CA in NODE_EXTRA_CA_CERTS is refused in the TLS handshake', async () => {
    const tokensBefore = sandbox.tokensIssued();
    const control = spawnSdk(undefined);
    let out = '';
    control.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => control.once('exit', resolve));
    control.stdin.end(`${JSON.stringify({ phase: 'probe' })}\n${JSON.stringify({ phase: 'exit' })}\n`);
    expect(await exited).toBe(0);
    const line = JSON.parse(out.split('\n')[0]!) as OpLine;
    expect(line.ok).toBe(false);
    expect(`${line.error!.message} ${line.error!.cause ?? ''}`).toMatch(/certificate|self.signed|unable to verify/i);
    expect(sandbox.tokensIssued()).toBe(tokensBefore);
  });
});

/** Runs the SDK child's one-call `probe` phase (a first page of one stream) and returns its line. */
async function probe(extraCa: string | undefined, target: { url: string; clientId: string; clientSecret: string }): Promise<OpLine> {
  const sdk = spawnSdk(extraCa, target);
  let out = '';
  let err = '';
  sdk.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  sdk.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => sdk.once('exit', resolve));
  sdk.stdin.end(`${JSON.stringify({ phase: 'probe' })}\n${JSON.stringify({ phase: 'exit' })}\n`);
  expect(await exited, err).toBe(0);
  return JSON.parse(out.split('\n')[0]!) as OpLine;
}

describe('the auth0 Node SDK against a sandbox with a small rate limit', () => {
  it('the 429 of an empty bucket: management (X-RateLimit-* headers, Reset in Unix seconds) and token endpoint (its own error shape), as the SDK reports them', async () => {
    // Two requests a bucket, refilled at one per 1000 s: the third is refused whatever the machine's speed.
    const limited = await startSandbox({ https: true, rateLimit: { limit: 2, refillPerSecond: 0.001 } });
    recordSandboxSecrets(limited);
    const limitedCa = join(dir, 'limited-ca.pem');
    writeFileSync(limitedCa, limited.caPem!);
    const sdk = spawnSdk(limitedCa, { url: limited.url, ...limited.clients.admin });
    let out = '';
    let err = '';
    sdk.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    sdk.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => sdk.once('exit', resolve));
    try {
      const before = Math.floor(Date.now() / 1000);
      sdk.stdin.end(`${JSON.stringify({ phase: 'rate-limit', args: { calls: 3 } })}\n${JSON.stringify({ phase: 'exit' })}\n`);
      expect(await exited, err).toBe(0);
      const ops = Object.fromEntries(out.trim().split('\n').map((line) => JSON.parse(line) as OpLine).filter((line) => line.op).map((line) => [line.op, line]));
      expect(ops['list 1']).toMatchObject({ ok: true, status: 200, result: { limit: '2', remaining: '1' } });
      expect(ops['list 2']).toMatchObject({ ok: true, status: 200, result: { limit: '2', remaining: '0' } });
      const limitedApi = ops['list 3']!;
      expect(limitedApi.ok).toBe(false);
      expect(limitedApi.error).toMatchObject({
        name: 'TooManyRequestsError',
        statusCode: 429,
        body: { statusCode: 429, error: 'Too Many Requests', message: 'Global limit has been reached', errorCode: 'too_many_requests' },
        headers: { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0' },
      });
      // The reset is when a request will be allowed again: about 1000 s ahead, in seconds (not ms).
      const reset = Number(limitedApi.error!.headers!['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(before + 900);
      expect(reset).toBeLessThan(before + 100_000);
      // The token endpoint's bucket (of its own): the first client's token, one more (whose list meets
      // the empty management bucket), then its 429 in the token endpoint's shape.
      expect(ops['token 1']).toMatchObject({ ok: false, error: { name: 'TooManyRequestsError', statusCode: 429, body: { errorCode: 'too_many_requests' } } });
      // (The SDK keeps no headers of a failed token request, so its Retry-After is not seen here.)
      expect(ops['token 2']).toMatchObject({ ok: false, error: { statusCode: 429 } });
      expect(ops['token 2']!.error!.body).toEqual({ error: 'too_many_requests', error_description: 'Global limit has been reached' });
      expect(limited.tokensIssued()).toBe(2);
      const refused = limited.requests.filter((r) => r.path === '/oauth/token' && r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
    } finally {
      sdk.kill();
      await limited.close();
    }
  });
});

describe('the auth0 Node SDK against the built binary: idm sandbox start --https', () => {
  it('trusts the CA file start printed, through NODE_EXTRA_CA_CERTS alone, and lists the streams', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'idm-sdk-config-'));
    const started = spawn(process.execPath, [BIN, 'sandbox', 'start', '--https', '--json'], { env: cliEnv(configDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    started.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => started.on('exit', resolve));
    try {
      const info = JSON.parse(
        await new Promise<string>((resolve, reject) => {
          createInterface({ input: started.stdout }).once('line', resolve);
          started.once('exit', () => reject(new Error(`exited before printing: ${stderr}`)));
        }),
      );
      recordSecrets([info.clients.admin.clientSecret, info.clients.reader.clientSecret]);
      expect(info.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const target = { url: info.url, clientId: info.clients.admin.clientId, clientSecret: info.clients.admin.clientSecret };
      const line = await probe(info.caFile, target);
      expect({ ok: line.ok, status: line.status, error: line.error }).toEqual({ ok: true, status: 200, error: undefined });
      expect(line.result.items.map((stream: { id: string }) => stream.id)).toEqual([DEMO_IDS.inboxBearer]);
      // The CA is what made it work: without it, the same call is refused in the handshake.
      const refused = await probe(undefined, target);
      expect(refused.ok).toBe(false);
      expect(`${refused.error!.message} ${refused.error!.cause ?? ''}`).toMatch(/certificate|self.signed|unable to verify/i);
      started.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      started.kill('SIGKILL');
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});
