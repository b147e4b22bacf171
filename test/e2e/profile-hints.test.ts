// The commands idm prints for the user to run (hints, the next page) carry the run's profile: with
// `--profile adm` (or IDM_PROFILE=adm), every one ends with `--profile adm`, so that pasted it acts
// on adm's tenant and not on the default profile's. Two sandboxes: the default profile `home` logs
// in to one, `adm` to the other; the built bin/idm.js runs as a real process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBash, runIdm, type RunResult } from '../helpers/cli.js';
import { startHarness, TTY_OUT, type Harness } from '../helpers/harness.js';

const CLOSED = 'est_demoClosedPort00000000'; // a webhook to a closed port: every delivery fails
const DOOMED = 'est_demoInboxHeader0000000'; // deleted by a pasted hint
const CONFIGURED = 'con_googleAppsTaken1';
const UNKNOWN_STREAM = 'est_doesNotExist0000000000';
const UNKNOWN_CONNECTION = 'con_doesNotExist0001';

let adm: Harness; // the tenant of profile adm
let home: Harness; // the tenant of the default profile
let configDir: string;
beforeAll(async () => {
  // Deliveries in the background, retried after 5 ms: a failure is final at once.
  [adm, home] = await Promise.all([startHarness({ delivery: 'async', retryDelaysMs: [5, 5, 5] }), startHarness()]);
  configDir = adm.configDir;
  for (const [name, h] of [['home', home], ['adm', adm]] as const) {
    const secret = join(configDir, `${name}.secret`);
    writeFileSync(secret, h.sandbox.clients.admin.clientSecret);
    const login = await runIdm(['login', '--profile', name, '--domain', h.sandbox.url, '--client-id', h.sandbox.clients.admin.clientId, '--client-secret-file', secret], { configDir });
    expect(login.code, login.stderr).toBe(0);
  }
});
afterAll(async () => {
  await Promise.all([adm?.close(), home?.close()]);
});
beforeEach(async () => {
  await Promise.all([adm.sandbox.idle(), home.sandbox.idle()]);
  adm.mark();
  home.mark();
});

const idm = (args: string[], env: Record<string, string> = {}): Promise<RunResult> => runIdm(args, { configDir, env });

describe('with --profile adm, the commands idm prints end with --profile adm', () => {
  it('the default profile is home, on the other tenant', async () => {
    const status = await idm(['auth', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(home.sandbox.url);
  });

  it('streams delete without --yes: the hint names the profile, nothing is sent; pasted, it deletes on adm only', async () => {
    const result = await idm(['-p', 'adm', 'streams', 'delete', DOOMED]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Run 'idm streams delete ${DOOMED} --yes --profile adm'.`);
    expect(adm.received()).toEqual([]);
    expect(home.received()).toEqual([]);

    const hint = /Run '(idm streams delete [^']*)'\./.exec(result.stderr)![1]!;
    const pasted = await runBash(hint, { cwd: configDir, configDir });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(adm.calls('DELETE').map((call) => call.path)).toEqual([`/api/v2/event-streams/${DOOMED}`]);
    expect(home.received()).toEqual([]);
    expect(home.sandbox.seededStreams().some((stream) => stream.id === DOOMED)).toBe(true);
  });

  it('IDM_PROFILE=adm counts as the choice: provisioning delete without --yes names --profile adm', async () => {
    const result = await idm(['provisioning', 'delete', CONFIGURED], { IDM_PROFILE: 'adm' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Run 'idm provisioning delete ${CONFIGURED} --yes --profile adm'.`);
    expect(adm.received()).toEqual([]);
    expect(home.received()).toEqual([]);
  });

  it('streams test --wait, failed: See it and Send it again', async () => {
    const result = await idm(['-p', 'adm', 'streams', 'test', CLOSED, '--event-type', 'user.created', '--wait']);
    expect(result.code, result.stderr).toBe(3);
    const eventId = /evt_\w{22}/.exec(result.stdout)![0];
    expect(result.stderr).toContain(`See it: idm streams deliveries show ${CLOSED} ${eventId} --profile adm\n`);
    expect(result.stderr).toContain(`Send it again: idm streams redeliver ${CLOSED} ${eventId} --profile adm\n`);
    expect(adm.calls('POST').map((call) => call.path)).toEqual([`/api/v2/event-streams/${CLOSED}/test`]);
    expect(home.received()).toEqual([]);
  });

  it('streams test without --wait: where a failure shows, not "Follow it with --wait" (that sends another event)', async () => {
    const result = await idm(['-p', 'adm', 'streams', 'test', CLOSED, '--event-type', 'user.created']);
    expect(result.code, result.stderr).toBe(0);
    const eventId = /evt_\w{22}/.exec(result.stdout)![0];
    expect(result.stderr).not.toContain('Follow it with --wait');
    expect(result.stderr).toContain(`\nIf it fails: idm streams deliveries show ${CLOSED} ${eventId} --profile adm\n`);
    expect(adm.calls('POST').map((call) => call.path)).toEqual([`/api/v2/event-streams/${CLOSED}/test`]);
    expect(home.received()).toEqual([]);
  });

  it('streams create: Try it', async () => {
    const result = await idm(['-p', 'adm', 'streams', 'create', '--name', 'hinted', '--event-type', 'user.created', '--action', 'a1']);
    expect(result.code, result.stderr).toBe(0);
    const id = /est_\w{22}/.exec(result.stdout)![0];
    expect(result.stderr).toContain(`Try it: idm streams test ${id} --event-type user.created --wait --profile adm\n`);
    expect(adm.calls('POST')).toHaveLength(1);
    expect(home.received()).toEqual([]);
  });

  it('streams create --disabled: how to enable it', async () => {
    const result = await idm(['-p', 'adm', 'streams', 'create', '--name', 'hinted-off', '--event-type', 'user.created', '--action', 'a1', '--disabled']);
    expect(result.code, result.stderr).toBe(0);
    const id = /est_\w{22}/.exec(result.stdout)![0];
    expect(result.stderr).toContain(`It is disabled; to enable it: idm streams enable ${id} --profile adm\n`);
    expect(result.stderr).not.toContain('Try it');
    expect(home.received()).toEqual([]);
  });

  it('redeliver and provisioning sync: Follow it with', async () => {
    const redeliver = await idm(['-p', 'adm', 'streams', 'redeliver', CLOSED, '--status', 'failed', '--yes']);
    expect(redeliver.code, redeliver.stderr).toBe(0);
    expect(redeliver.stderr).toContain(`Follow it with: idm streams deliveries list ${CLOSED} --status failed --profile adm\n`);
    const sync = await idm(['-p', 'adm', 'provisioning', 'sync', CONFIGURED]);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toContain(`Follow it with: idm provisioning show ${CONFIGURED} --profile adm (the last`);
    expect(adm.calls('POST').map((call) => call.path)).toEqual([`/api/v2/event-streams/${CLOSED}/redeliver`, `/api/v2/connections/${CONFIGURED}/directory-provisioning/synchronizations`]);
    expect(home.received()).toEqual([]);
  });

  it("the management client's hints: an unknown stream, an unknown connection", async () => {
    const stream = await idm(['-p', 'adm', 'streams', 'show', UNKNOWN_STREAM]);
    expect(stream.code).toBe(1);
    expect(stream.stderr).toContain("Run 'idm streams list --profile adm' to see the stream ids.");
    const connection = await idm(['-p', 'adm', 'provisioning', 'show', UNKNOWN_CONNECTION]);
    expect(connection.code).toBe(1);
    expect(connection.stderr).toContain("Check the id ('idm connections list --profile adm' shows the tenant's connections).");
    expect(adm.calls('GET').map((call) => call.path)).toEqual([`/api/v2/event-streams/${UNKNOWN_STREAM}`, `/api/v2/connections/${UNKNOWN_CONNECTION}/directory-provisioning`]);
    expect(home.received()).toEqual([]);
  });

  it('the next page, as before (one rule for every hint)', async () => {
    const result = await idm(['-p', 'adm', 'streams', 'list', '--take', '1'], TTY_OUT);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^More streams: idm streams list --from \S+ --take 1 --profile adm\n$/);
  });

  it('a run on the default profile names no profile', async () => {
    const result = await idm(['streams', 'delete', DOOMED]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Run 'idm streams delete ${DOOMED} --yes'.`);
    const stream = await idm(['streams', 'show', UNKNOWN_STREAM]);
    expect(stream.stderr).toContain("Run 'idm streams list' to see the stream ids.");
    expect(stream.stderr).not.toContain('--profile');
  });
});
