// The retry policy end to end, faults: 5xx, resets and stalls from the sandbox on GET and POST, the
// --timeout bound, a test event never sent twice, and provisioning create meeting 409 after its own
// retried attempt. Through the built binary; what the sandbox received is asserted.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runIdm, tempConfigDir } from '../helpers/cli.js';
import { call, getToken } from '../helpers/sandbox.js';
import { gappsId } from '../helpers/harness.js';
import { INBOX, runCold, statuses, useHarness, warmToken } from '../helpers/retry-harness.js';

const h = useHarness();

describe('faults', () => {
  it('GET: two 503s then an answer: exit 0 after three attempts', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 503, count: 2 });
    const result = await h().idm(['streams', 'list', '--take', '1']);
    expect(result.code).toBe(0);
    expect(statuses(h(), '/api/v2/event-streams')).toEqual([503, 503, 200]);
    expect(result.stderr.match(/The service answered 503 at/g)).toHaveLength(2);
  });

  it('GET: an HTML 502 three times: exit 1, the 502 named, tried 3 times', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 502, body: '<html><body>Bad Gateway</body></html>', count: 3 });
    const result = await h().idm(['streams', 'list']);
    expect(result.code).toBe(1);
    expect(statuses(h(), '/api/v2/event-streams')).toEqual([502, 502, 502]);
    expect(result.stderr).toMatch(/Error: Could not list event streams: 127\.0\.0\.1:\d+ answered 502 Bad Gateway with a body that is not JSON\.\nTried 3 times\./);
  });

  it('GET: a connection reset is retried', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'reset' });
    const result = await h().idm(['streams', 'list', '--take', '1']);
    expect(result.code).toBe(0);
    expect(statuses(h(), '/api/v2/event-streams')).toEqual([0, 200]);
    expect(result.stderr).toMatch(/^The connection was reset at .*attempt 2 of 3\.\n$/);
  });

  it('POST test event: a 503 with Retry-After was not processed, so it is sent again, and delivered once', async () => {
    const deliveries = h().sandbox.deliveries().length;
    h().sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', kind: 'status', status: 503, headers: { 'Retry-After': '0' } });
    const result = await h().idm(['streams', 'test', INBOX, '--event-type', 'user.created']);
    expect(result.code).toBe(0);
    expect(statuses(h(), `/api/v2/event-streams/${INBOX}/test`, 'POST')).toEqual([503, 202]);
    expect(h().sandbox.deliveries().length - deliveries).toBe(1);
  });

  it('POST test event: a 503 without Retry-After, a 500, a reset or a stall may have been processed: sent once', async () => {
    await warmToken(h()); // --timeout 1 is for the POST alone
    const deliveries = h().sandbox.deliveries().length;
    for (const fault of [
      { kind: 'status' as const, status: 503 },
      { kind: 'status' as const, status: 500 },
      { kind: 'reset' as const },
      { kind: 'stall' as const },
    ]) {
      h().mark();
      h().sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/test`, method: 'POST', ...fault });
      const result = await h().idm(['streams', 'test', INBOX, '--event-type', 'user.created', '--timeout', '1']);
      expect(result.code).toBe(1);
      // A stalled POST may be recorded by the sandbox (in this process) only after idm gave up on it.
      await vi.waitFor(() => expect(h().calls('POST').length).toBeGreaterThan(0), { timeout: 30_000 });
      expect(h().calls('POST')).toHaveLength(1);
    }
    expect(h().sandbox.deliveries().length).toBe(deliveries);
  });
});

describe('--timeout', () => {
  it('bounds each request when the server accepts and never answers; the message names the host (IDM_TIMEOUT)', async () => {
    await warmToken(h()); // the 0.5 s are for the stalled list alone
    h().sandbox.addFault({ path: '/api/v2/event-streams', kind: 'stall', count: 3 });
    const result = await h().idm(['streams', 'list', '--take', '1'], { env: { IDM_TIMEOUT: '0.5' } });
    expect(result.code).toBe(1);
    // The last stalled request may be recorded by the sandbox (in this process) only after idm gave up on it.
    await vi.waitFor(() => expect(statuses(h(), '/api/v2/event-streams').length).toBeGreaterThanOrEqual(3), { timeout: 30_000 });
    expect(statuses(h(), '/api/v2/event-streams')).toEqual([0, 0, 0]);
    expect(result.stderr).toContain(`Error: Could not list event streams: ${new URL(h().sandbox.url).host} did not answer within 0.5 s.`);
  });

  it('--timeout on a stalled token request, then the answer on the next attempt', async () => {
    h().sandbox.addFault({ path: '/oauth/token', kind: 'stall' });
    // --timeout bounds every request of the run, the token's second attempt and the list too, which
    // answer at once: 3 s, so that only the stalled one meets it, however busy the machine.
    const result = await runCold(h(), ['streams', 'list', '--take', '1', '--timeout', '3']);
    expect(result.code).toBe(0);
    expect(statuses(h(), '/oauth/token', 'POST')).toEqual([0, 200]);
    expect(result.stderr).toMatch(/^No answer in time at .*\(get an access token\): trying again in 1 s, attempt 2 of 3\.\n$/);
  });

  it('a bad --timeout or IDM_MAX_WAIT is a usage error (exit 2), nothing sent', async () => {
    for (const [args, env] of [
      [['--timeout', '0'], {}],
      [['--timeout', 'soon'], {}],
      [[], { IDM_MAX_WAIT: '-1' }],
    ] as const) {
      const result = await h().idm([...args, 'streams', 'list'], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/(--timeout|--max-wait|IDM_MAX_WAIT:) must be a number of seconds/);
    }
    expect(h().received()).toEqual([]);
  });
});

describe('provisioning create after its own retried attempt', () => {
  // The first POST reached the service and created the configuration, but idm got a 503 with
  // Retry-After (a proxy). Simulated by creating it first, then answering the POST with that 503.
  async function createdBehindA503(id: string, body: Record<string, unknown>) {
    const created = await call(h().sandbox, 'POST', `/api/v2/connections/${id}/directory-provisioning`, { token: await getToken(h().sandbox), body });
    expect(created.status).toBe(201);
    h().sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'POST', kind: 'status', status: 503, headers: { 'Retry-After': '0' } });
    h().mark();
  }

  it('409 on the retry, and what exists is what was sent: reported as created (exit 0)', async () => {
    const id = gappsId(1);
    await createdBehindA503(id, { mapping: [{ platform: 'email', idp: 'primaryEmail' }], synchronize_groups: 'all' });
    const result = await h().idm(['provisioning', 'create', id, '--mapping', 'email=primaryEmail', '--sync-groups', 'all', '--json']);
    expect(result.code).toBe(0);
    expect(h().calls().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 503', 'POST 409', 'GET 200']); // POST, its retry, the read
    expect(JSON.parse(result.stdout)).toMatchObject({ connection_id: id, synchronize_groups: 'all', mapping: [{ platform: 'email', idp: 'primaryEmail' }] });
  });

  it('409 on the retry, but the configuration differs from what was sent: the 409 stands (exit 1)', async () => {
    const id = gappsId(2);
    await createdBehindA503(id, { synchronize_groups: 'selected' });
    const result = await h().idm(['provisioning', 'create', id, '--sync-groups', 'all']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('409');
    expect(h().calls().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 503', 'POST 409', 'GET 200']);
  });

  it('a 409 on the first attempt is the plain conflict: no read', async () => {
    const id = gappsId(3);
    await call(h().sandbox, 'POST', `/api/v2/connections/${id}/directory-provisioning`, { token: await getToken(h().sandbox), body: {} });
    h().mark();
    const result = await h().idm(['provisioning', 'create', id]);
    expect(result.code).toBe(1);
    expect(h().calls().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 409']);
  });
});


describe('a POST sent and never answered: its outcome is unknown', () => {
  it('streams create, the connection reset once sent: sent once, exit 1, the hint says to check with the exact listing command, not just "try again"', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'reset' });
    const result = await h().idm(['streams', 'create', '--name', 'unknown-outcome', '--event-type', 'user.created', '--action', 'act_unknownOutcome']);
    expect(result.code).toBe(1);
    expect(statuses(h(), '/api/v2/event-streams', 'POST')).toEqual([0]);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Error: Could not create an event stream: no answer from 127\.0\.0\.1:\d+: the connection was reset \(ECONNRESET\)\.$/);
    expect(lines[1]).toBe("The stream may have been created all the same: check with 'idm streams list' before running this again (a second create makes a second stream).");
    expect(lines).toHaveLength(2);
  });

  it('with --profile, through the built binary: the command to check names the profile', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const { clientId, clientSecret } = h().sandbox.clients.admin;
      const secretFile = join(dir, 'admin.secret');
      writeFileSync(secretFile, clientSecret);
      const login = await runIdm(['login', '--profile', 'stage-eu', '--domain', h().sandbox.url, '--client-id', clientId, '--client-secret-file', secretFile], { configDir: dir });
      expect(login.code, login.stderr).toBe(0);
      h().mark();
      h().sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'reset' });
      const result = await runIdm(['streams', 'create', '--profile', 'stage-eu', '--name', 'unknown-outcome-2', '--event-type', 'user.created', '--action', 'act_unknownOutcome'], { configDir: dir });
      expect(result.code).toBe(1);
      expect(statuses(h(), '/api/v2/event-streams', 'POST')).toEqual([0]);
      expect(result.stderr).toContain("check with 'idm streams list --profile stage-eu' before running this again");
    } finally {
      cleanup();
    }
  });

  it('streams create timed out once sent: the same check, and --timeout for a slow service', async () => {
    await warmToken(h()); // the 0.5 s are for the stalled create alone
    h().sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'stall' });
    const result = await h().idm(['streams', 'create', '--name', 'unknown-outcome-3', '--event-type', 'user.created', '--action', 'act_unknownOutcome', '--timeout', '0.5']);
    expect(result.code).toBe(1);
    // The stalled POST may be recorded by the sandbox (in this process) only after idm gave up on it.
    await vi.waitFor(() => expect(statuses(h(), '/api/v2/event-streams', 'POST').length).toBeGreaterThan(0), { timeout: 30_000 });
    expect(statuses(h(), '/api/v2/event-streams', 'POST')).toEqual([0]);
    expect(result.stderr).toContain(`did not answer within 0.5 s.\nThe stream may have been created all the same: check with 'idm streams list' before running this again (a second create makes a second stream). If the service is slow, allow longer with --timeout SECONDS (IDM_TIMEOUT).\n`);
  });

  it('provisioning create and sync, reset once sent: check with idm provisioning show CONNECTION', async () => {
    const id = gappsId(4);
    h().sandbox.addFault({ path: `/api/v2/connections/${id}/directory-provisioning`, method: 'POST', kind: 'reset' });
    const created = await h().idm(['provisioning', 'create', id, '--mapping', 'email=primaryEmail']);
    expect(created.code).toBe(1);
    expect(created.stderr).toContain(`Provisioning may have been created on ${id} all the same: check with 'idm provisioning show ${id}' before running this again.`);
    h().sandbox.addFault({ path: `/api/v2/connections/con_takenTaken000001/directory-provisioning/synchronizations`, method: 'POST', kind: 'reset' });
    const sync = await h().idm(['provisioning', 'sync', 'con_takenTaken000001']);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toContain("A synchronization may have started all the same: check with 'idm provisioning show con_takenTaken000001' (the last synchronization) before asking again.");
  });

  it('streams redeliver, one event or many, reset or answered 500 once sent: sent once, the check names the deliveries command', async () => {
    const event = 'evt_unknownOutcome00000001';
    h().sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/redeliver/${event}`, method: 'POST', kind: 'reset' });
    const one = await h().idm(['streams', 'redeliver', INBOX, event]);
    expect(one.code).toBe(1);
    expect(statuses(h(), `/api/v2/event-streams/${INBOX}/redeliver/${event}`, 'POST')).toEqual([0]);
    expect(one.stderr.trimEnd().split('\n')[1]).toBe(`Event ${event} may have been redelivered all the same: check with 'idm streams deliveries show ${INBOX} ${event}' (a retrying attempt) before running this again.`);
    h().sandbox.addFault({ path: `/api/v2/event-streams/${INBOX}/redeliver`, method: 'POST', kind: 'status', status: 500 });
    const many = await h().idm(['streams', 'redeliver', INBOX, '--yes', '--json']);
    expect(many.code).toBe(1);
    expect(statuses(h(), `/api/v2/event-streams/${INBOX}/redeliver`, 'POST')).toEqual([500]);
    expect(JSON.parse(many.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({
      status: 500,
      hint: `The deliveries may have been redelivered all the same: check with 'idm streams deliveries list ${INBOX}' (retrying attempts) before running this again.`,
    });
  });

  it('streams create answered 500 or a gateway\'s 504: sent once, the same check; a 503 with Retry-After three times was surely not processed: no check', async () => {
    for (const status of [500, 504]) {
      h().mark();
      h().sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'status', status });
      const result = await h().idm(['streams', 'create', '--name', `unknown-outcome-${status}`, '--event-type', 'user.created', '--action', 'act_unknownOutcome']);
      expect(result.code).toBe(1);
      expect(statuses(h(), '/api/v2/event-streams', 'POST')).toEqual([status]);
      expect(result.stderr.trimEnd().split('\n')[1]).toBe("The stream may have been created all the same: check with 'idm streams list' before running this again (a second create makes a second stream).");
    }
    h().mark();
    h().sandbox.addFault({ path: '/api/v2/event-streams', method: 'POST', kind: 'status', status: 503, headers: { 'Retry-After': '0' }, count: 3 });
    const refused = await h().idm(['streams', 'create', '--name', 'unknown-outcome-503', '--event-type', 'user.created', '--action', 'act_unknownOutcome']);
    expect(refused.code).toBe(1);
    expect(statuses(h(), '/api/v2/event-streams', 'POST')).toEqual([503, 503, 503]);
    expect(refused.stderr).not.toContain('may have been created');
  });

  it('a GET reset three times keeps "try again": reading makes nothing', async () => {
    h().sandbox.addFault({ path: '/api/v2/event-streams', method: 'GET', kind: 'reset', count: 3 });
    const result = await h().idm(['streams', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Check the domain and your network connection, then try again.');
    expect(result.stderr).not.toContain('may have');
  });
});
