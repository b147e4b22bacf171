// idm provisioning sync against the sandbox, with time driven by the sandbox's clock and its
// synchronization-duration switch (never by waiting): a synchronization asked for (201), its outcome
// in show, the 30-minute rule (400 with when to ask again; allowed again at 30 minutes), a second
// request while one runs (409), the service's 404 and 403, and local validation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const MIN = 60_000;
const conn = (n: number) => `con_syncing${String(n).padStart(9, '0')}`;
const FAILS = 'con_syncFailing00001';
const FRESH = 'con_syncFresh0000001';
const seed = {
  connections: [
    ...Array.from({ length: 12 }, (_, i) => ({ id: conn(i + 1), name: `sync-${i + 1}`, strategy: 'google-apps', provisioning: {} })),
    { id: FAILS, name: 'sync-failing', strategy: 'google-apps', provisioning: {}, syncError: 'The directory refused the credentials: invalid_grant.' },
    { id: FRESH, name: 'sync-fresh', strategy: 'google-apps' },
  ],
};
const path = (id: string) => `/api/v2/connections/${id}/directory-provisioning/synchronizations`;

/** Synchronizations finish as soon as the sandbox runs its background work (await idle()). */
let h: Harness;
let clock = T0;
/** While set, every reading of h's clock moves it a minute on: a run ends later than it was asked for. */
let ticking = false;
/** Synchronizations that run for an hour (of real time): a second request finds one running. */
let slow: Harness;
let slowClock = T0;
let next = 0;
const fresh = () => conn(++next);

beforeAll(async () => {
  [h, slow] = await Promise.all([
    startHarness({ seed, syncDurationMs: 0, now: () => (ticking ? (clock += MIN) : clock) }),
    startHarness({ seed, syncDurationMs: 3_600_000, now: () => slowClock }),
  ]);
});
afterAll(() => Promise.all([h.close(), slow.close()]));
beforeEach(() => {
  h.mark();
  slow.mark();
});

describe('idm provisioning sync', () => {
  it('sends one POST without a body and prints the synchronization (piped: label<TAB>value)', async () => {
    const id = fresh();
    const result = await h.idm(['provisioning', 'sync', id]);
    expect(result.code).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`POST ${path(id)}`]);
    expect(h.calls()[0]!.body).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`Connection\t${id}`);
    expect(lines[1]).toMatch(/^Synchronization\tdsync_[A-Za-z0-9]{16}$/);
    expect(lines[2]).toBe('Status\tpending');
    expect(result.stderr).toBe(`Follow it with: idm provisioning show ${id} (the last synchronization's time, status and error).\n`);
  });

  it('--json prints the answer as received: connection_id, synchronization_id, status; no note', async () => {
    const id = fresh();
    const result = await h.idm(['provisioning', 'sync', id, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const answer = JSON.parse(result.stdout);
    expect(Object.keys(answer)).toEqual(['connection_id', 'synchronization_id', 'status']);
    expect(answer).toMatchObject({ connection_id: id, status: 'pending' });
    expect(answer.synchronization_id).toMatch(/^dsync_/);
  });

  it('once it ran, show has its time (the sandbox clock) and status completed', async () => {
    const id = fresh();
    clock = T0 + 7 * MIN;
    expect((await h.idm(['provisioning', 'sync', id])).code).toBe(0);
    await h.sandbox.idle();
    const shown = await h.idm(['provisioning', 'show', id]);
    expect(shown.stdout.split('\n')).toEqual(expect.arrayContaining(['Last synchronization\t2030-01-01T00:07:00.000Z', 'Last synchronization status\tcompleted']));
    expect(shown.stdout).not.toContain('Last synchronization error');
  });

  it('a synchronization that fails: sync succeeds (201), show has status failed and the error', async () => {
    clock = T0;
    const result = await h.idm(['provisioning', 'sync', FAILS]);
    expect(result.code).toBe(0);
    await h.sandbox.idle();
    const shown = await h.idm(['provisioning', 'show', FAILS]);
    expect(shown.stdout.split('\n')).toEqual(
      expect.arrayContaining(['Last synchronization status\tfailed', 'Last synchronization error\tThe directory refused the credentials: invalid_grant.']),
    );
  });
});

describe('idm provisioning sync: the 30-minute rule (sandbox clock)', () => {
  it('refused at 29:59 after the last one (exit 1, the service message, when to ask again); allowed at 30:00', async () => {
    const id = fresh();
    clock = T0;
    expect((await h.idm(['provisioning', 'sync', id])).code).toBe(0);
    await h.sandbox.idle();

    clock = T0 + 30 * MIN - 1000;
    h.mark();
    const refused = await h.idm(['provisioning', 'sync', id]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('Connection has been synchronized in the last 30 minutes. Please wait before synchronizing it again (400 bad_request).');
    expect(refused.stderr).toMatch(/400/);
    // From the configuration's time only: the local clock (years before the sandbox's) has no say.
    expect(refused.stderr).toContain('The last one ran at 2030-01-01T00:00:00Z: ask again after 2030-01-01T00:30:00Z. Automatic synchronization runs every 30 minutes.');
    // the POST, then the read of the configuration for the hint
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`POST ${path(id)}`, `GET /api/v2/connections/${id}/directory-provisioning`]);

    clock = T0 + 30 * MIN;
    h.mark();
    const allowed = await h.idm(['provisioning', 'sync', id]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^Status\tpending$/m);
    expect(h.calls('POST')).toHaveLength(1);
  });

  it("the 30 minutes count from the configuration's last_synchronization_at, the time idm names: refused just before, allowed at it", async () => {
    const id = fresh();
    clock = T0;
    ticking = true;
    try {
      expect((await h.idm(['provisioning', 'sync', id])).code).toBe(0);
      await h.sandbox.idle();
    } finally {
      ticking = false;
    }
    const last = Date.parse(JSON.parse((await h.idm(['provisioning', 'show', id, '--json'])).stdout).last_synchronization_at);
    const again = new Date(last + 30 * MIN).toISOString().replace('.000Z', 'Z');

    clock = last + 30 * MIN - 1000;
    h.mark();
    const refused = await h.idm(['provisioning', 'sync', id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`ask again after ${again}.`);
    expect(h.calls('POST')).toHaveLength(1);

    clock = last + 30 * MIN;
    expect((await h.idm(['provisioning', 'sync', id])).code).toBe(0);
    await h.sandbox.idle();
  });

  it('a last synchronization at a fraction of a second: the time named to ask again is one at which it is allowed', async () => {
    // The time named was rounded down (00:30:00Z for a run at 00:00:00.700): asked again then, the
    // service still counted less than 30 minutes and refused it again.
    const id = fresh();
    clock = T0 + 700;
    expect((await h.idm(['provisioning', 'sync', id])).code).toBe(0);
    await h.sandbox.idle();
    clock = T0 + 10 * MIN;
    const refused = await h.idm(['provisioning', 'sync', id]);
    expect(refused.code).toBe(1);
    const named = /ask again after (\S+Z)\./.exec(refused.stderr)?.[1];
    clock = Date.parse(named!);
    const allowed = await h.idm(['provisioning', 'sync', id]);
    expect(allowed.stderr).toBe(`Follow it with: idm provisioning show ${id} (the last synchronization's time, status and error).\n`);
    expect(allowed.code).toBe(0);
    await h.sandbox.idle();
    expect(named).toBe('2030-01-01T00:30:01Z');
  });

  it('a last synchronization time without a zone is not read on the local clock: the hint names no time', async () => {
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const message = 'Connection has been synchronized in the last 30 minutes. Please wait before synchronizing it again.';
    h.sandbox.addFault({ path: path(FRESH), method: 'POST', kind: 'status', status: 400, count: 1, headers: json, body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message }) });
    h.sandbox.addFault({
      path: `/api/v2/connections/${FRESH}/directory-provisioning`,
      method: 'GET',
      kind: 'status',
      status: 200,
      count: 1,
      headers: json,
      body: JSON.stringify({ connection_id: FRESH, mapping: [], synchronize_automatically: false, last_synchronization_at: '2030-01-01T00:00:00', last_synchronization_status: 'completed' }),
    });
    try {
      const refused = await h.idm(['provisioning', 'sync', FRESH]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('A connection can be synchronized once every 30 minutes; ask again later. Automatic synchronization runs every 30 minutes.');
      expect(refused.stderr).not.toContain('ask again after');
    } finally {
      h.sandbox.clearFaults();
    }
  });

  it('with --json, the refusal is one JSON object with status 400 and the hint', async () => {
    const id = fresh();
    clock = T0;
    expect((await h.idm(['provisioning', 'sync', id])).code).toBe(0);
    await h.sandbox.idle();
    clock = T0 + 10 * MIN;
    const refused = await h.idm(['--json', 'provisioning', 'sync', id]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    const error = JSON.parse(refused.stderr).error;
    expect(error).toMatchObject({ status: 400, exitCode: 1 });
    expect(error.hint).toContain('ask again after 2030-01-01T00:30:00Z');
  });
});

describe('idm provisioning sync: the rule belongs to the configuration', () => {
  it('after delete and create, the new configuration has no last synchronization and may be synchronized at once', async () => {
    const id = fresh();
    clock = T0;
    expect((await h.idm(['provisioning', 'sync', id])).code).toBe(0);
    await h.sandbox.idle();
    clock = T0 + 5 * MIN;
    expect((await h.idm(['provisioning', 'delete', id, '--yes'])).code).toBe(0);
    expect((await h.idm(['provisioning', 'create', id, '--no-input'])).code).toBe(0);
    expect(JSON.parse((await h.idm(['provisioning', 'show', id, '--json'])).stdout)).not.toHaveProperty('last_synchronization_at');
    h.mark();
    const again = await h.idm(['provisioning', 'sync', id]);
    expect(again.stderr).not.toContain('30 minutes');
    expect(again.code).toBe(0);
    expect(h.calls('POST').map((call) => call.path)).toEqual([path(id)]);
    await h.sandbox.idle();
  });

  it('a run asked for before a delete never writes its outcome on the configuration created after it', async () => {
    const id = fresh();
    slowClock = T0;
    expect((await slow.idm(['provisioning', 'sync', id])).code).toBe(0);
    expect((await slow.idm(['provisioning', 'delete', id, '--yes'])).code).toBe(0);
    expect((await slow.idm(['provisioning', 'create', id, '--no-input'])).code).toBe(0);
    // Not "in progress": that synchronization went with the configuration it was asked for.
    const again = await slow.idm(['--json', 'provisioning', 'sync', id]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
  });
});

describe('idm provisioning sync: while one runs (409)', () => {
  it('a second request gets 409: exit 1, the service message, and to wait for it', async () => {
    const id = fresh();
    const first = await slow.idm(['provisioning', 'sync', id]);
    expect(first.code).toBe(0);
    slow.mark();
    const second = await slow.idm(['provisioning', 'sync', id]);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain('A synchronization has already been requested or is in progress for the connection');
    expect(second.stderr).toMatch(/409/);
    expect(second.stderr).toContain('Wait for it to finish');
    expect(slow.calls('POST')).toHaveLength(1); // a 409 is not sent again
  });

  it('still 409 after the 30 minutes have passed on the clock, as long as it runs', async () => {
    const id = fresh();
    slowClock = T0;
    expect((await slow.idm(['provisioning', 'sync', id])).code).toBe(0);
    slowClock = T0 + 45 * MIN;
    const again = await slow.idm(['--json', 'provisioning', 'sync', id]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ error: { status: 409, exitCode: 1 } });
  });
});

describe('idm provisioning sync: errors of the service', () => {
  it('404 for a connection without provisioning: says to create it first (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'sync', FRESH]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Directory provisioning configuration not found');
    expect(result.stderr).toContain(`idm provisioning create ${FRESH}`);
  });

  it('404 for a connection that does not exist (exit 1)', async () => {
    const result = await h.idm(['provisioning', 'sync', 'con_doesNotExist0001']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The connection does not exist');
  });

  it('403: names the missing scope create:directory_provisionings (exit 4)', async () => {
    const result = await h.idm(['provisioning', 'sync', conn(8)], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('create:directory_provisionings');
  });
});

describe('idm provisioning sync: local validation sends nothing (exit 2)', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a missing connection id', [], /Missing <connection-id>/],
    ['a malformed connection id', ['con_123'], /Not a connection id: "con_123"/],
    ['an unknown flag', [conn(8), '--wait'], /Unknown flag --wait/],
    ['two connection ids', [conn(8), conn(7)], /Too many arguments/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const result = await h.idm(['provisioning', 'sync', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(h.received()).toEqual([]);
    });
  }
});
