// idm streams enable / disable against the sandbox: one PATCH {"status": ...}, the stream printed and
// a note, the effect seen by the service (a disabled stream takes no test event), --json as
// received, validation that sends nothing, and the service's errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../../helpers/harness.js';

const BASIC = 'est_demoInboxBasic00000000';
const ACTION = 'est_demoAction000000000000'; // seeded disabled
const HEADER = 'est_demoInboxHeader0000000';
const UNKNOWN = 'est_0000000000000000000000';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ delivery: 'sync' });
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

const fields = (stdout: string) => new Map(stdout.trimEnd().split('\n').map((line) => line.split('\t') as [string, string]));

describe('idm streams disable / enable', () => {
  it('disable: one PATCH {"status":"disabled"}, the stream printed, a note on stderr', async () => {
    const result = await h.idm(['streams', 'disable', BASIC]);
    expect(result.code).toBe(0);
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`PATCH /api/v2/event-streams/${BASIC}`]);
    expect(h.calls()[0]!.json).toEqual({ status: 'disabled' });
    const f = fields(result.stdout);
    expect(f.get('ID')).toBe(BASIC);
    expect(f.get('Status')).toBe('disabled');
    expect(result.stderr).toBe(`Stream ${BASIC} is disabled.\n`);
  });

  it('the service then refuses test events for it; enable makes it take them again', async () => {
    const refused = await h.idm(['streams', 'test', BASIC, '--event-type', 'user.created']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('disabled');

    h.mark();
    const result = await h.idm(['streams', 'enable', BASIC]);
    expect(result.code).toBe(0);
    expect(h.calls()).toHaveLength(1);
    expect(h.calls()[0]!.json).toEqual({ status: 'enabled' });
    expect(fields(result.stdout).get('Status')).toBe('enabled');
    expect(result.stderr).toBe(`Stream ${BASIC} is enabled.\n`);

    const accepted = await h.idm(['streams', 'test', BASIC, '--event-type', 'user.created']);
    expect(accepted.code).toBe(0);
  });

  it('an answer in another state than asked is said as a warning, not as the note of success', async () => {
    const answer = { id: HEADER, name: 'demo-inbox-header', status: 'enabled', subscriptions: [{ event_type: 'user.created' }] };
    h.sandbox.addFault({ path: `/api/v2/event-streams/${HEADER}`, method: 'PATCH', kind: 'status', status: 200, count: 1, body: JSON.stringify(answer), headers: { 'content-type': 'application/json; charset=utf-8' } });
    const result = await h.idm(['streams', 'disable', HEADER]);
    expect(result.code).toBe(0);
    expect(fields(result.stdout).get('Status')).toBe('enabled');
    expect(result.stderr).toBe(`Warning: The service answered that stream ${HEADER} is enabled, not disabled.\nSee it with 'idm streams show ${HEADER}'.\n`);
    expect(result.stderr).not.toContain(`Stream ${HEADER} is enabled.`);
  });

  it('an answer with an id or status of 100,000 characters: the note and the warning quote them cut (as an error\'s message is), the record and --json whole', async () => {
    const long = `${HEADER}${'x'.repeat(100_000)}`;
    const cut = (text: string) => `${text.slice(0, 1000)}… (${text.length - 1000} more characters)`;
    const answer = (status: string) => JSON.stringify({ id: long, name: 'demo-inbox-header', status, subscriptions: [{ event_type: 'user.created' }] });
    const fault = (status: string) => h.sandbox.addFault({ path: `/api/v2/event-streams/${HEADER}`, method: 'PATCH', kind: 'status', status: 200, count: 1, body: answer(status), headers: { 'content-type': 'application/json; charset=utf-8' } });
    fault('disabled');
    const note = await h.idm(['streams', 'disable', HEADER]);
    expect(note.code).toBe(0);
    expect(fields(note.stdout).get('ID')).toBe(long);
    expect(note.stderr).toBe(`${cut(`Stream ${long} is disabled.`)}\n`);
    fault(`disabled${'y'.repeat(100_000)}`);
    const warned = await h.idm(['streams', 'disable', HEADER]);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toBe(`Warning: ${cut(`The service answered that stream ${long} is disabled${'y'.repeat(100_000)}, not disabled.`)}\nSee it with 'idm streams show ${HEADER}'.\n`);
    fault(`disabled${'y'.repeat(100_000)}`);
    const json = await h.idm(['streams', 'disable', HEADER, '--json']);
    expect(JSON.parse(json.stdout).id).toBe(long);
  });

  it('an answer without id or status (tolerated): the note names the stream asked and the status asked, not "Stream  is ."', async () => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${HEADER}`, method: 'PATCH', kind: 'status', status: 200, count: 1, body: '{"name":"demo-inbox-header"}', headers: { 'content-type': 'application/json' } });
    const result = await h.idm(['streams', 'disable', HEADER]);
    expect(result.code).toBe(0);
    expect(fields(result.stdout).get('Name')).toBe('demo-inbox-header');
    expect(result.stderr).toBe(`Stream ${HEADER} is disabled.\n`);
  });

  it('enable a stream seeded disabled; enabling again is harmless (still one PATCH each)', async () => {
    for (let i = 0; i < 2; i++) {
      h.mark();
      const result = await h.idm(['streams', 'enable', ACTION]);
      expect(result.code).toBe(0);
      expect(h.calls('PATCH')).toHaveLength(1);
      expect(fields(result.stdout).get('Status')).toBe('enabled');
    }
  });

  it('--json: exactly the stream as the service answered (same as a read afterwards), no note', async () => {
    const result = await h.idm(['streams', 'disable', HEADER, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const answered = JSON.parse(result.stdout);
    expect(answered).toMatchObject({ id: HEADER, status: 'disabled' });
    const read = await h.idm(['streams', 'show', HEADER, '--json']);
    expect(JSON.parse(read.stdout)).toEqual(answered);
  });

  it('at a terminal: aligned record, note names the new status', async () => {
    const result = await h.idm(['streams', 'enable', HEADER], { env: TTY_OUT });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\t');
    expect(result.stdout).toMatch(/\nStatus {2,}enabled\n/);
    expect(result.stderr).toBe(`Stream ${HEADER} is enabled.\n`);
  });

  it.each(['enable', 'disable'])('%s with a bad id: exit 2, nothing sent', async (verb) => {
    const result = await h.idm(['streams', verb, 'est_x']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Not a stream id: "est_x"/);
    expect(h.received()).toEqual([]);
  });

  it.each(['enable', 'disable'])('%s with no id: exit 2, nothing sent', async (verb) => {
    const result = await h.idm(['streams', verb]);
    expect(result.code).toBe(2);
    expect(h.received()).toEqual([]);
  });

  it('404: exit 1, names the stream', async () => {
    const result = await h.idm(['streams', 'disable', UNKNOWN]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(UNKNOWN);
    expect(result.stderr).toContain('does not exist');
  });

  it.each(['enable', 'disable'])('%s answered 409: exit 1, the service\'s words, no hint to choose another --name (it sent none)', async (verb) => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${BASIC}`, method: 'PATCH', kind: 'status', status: 409 });
    const result = await h.idm(['streams', verb, BASIC]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^Error: Could not change stream ${BASIC}: .*\\(409 `));
    expect(result.stderr).not.toContain('--name');
  });

  it('the reader client: 403, exit 4, names update:event_streams; the stream is unchanged', async () => {
    const result = await h.idm(['streams', 'disable', BASIC], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('update:event_streams');
    const read = await h.idm(['streams', 'show', BASIC]);
    expect(fields(read.stdout).get('Status')).toBe('enabled');
  });
});
