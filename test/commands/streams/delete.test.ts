// idm streams delete against the sandbox: without --yes and without a terminal it refuses (usage
// error, nothing sent); with --yes one DELETE and exit 0, the stream gone; --json prints nothing (204);
// validation sends nothing; the service's errors. Asking at a terminal needs a real one (tmux tests).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness.js';

const stream = (id: string, name: string) => ({ id, name, subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: name } } });
const ids = {
  refuse: 'est_delRefuse000000000000a',
  yes: 'est_delYes000000000000000a',
  short: 'est_delShortFlag000000000a',
  json: 'est_delJson00000000000000a',
  twice: 'est_delTwice0000000000000a',
  reader: 'est_delReader00000000000a0',
};
const SEED = { streams: Object.entries(ids).map(([name, id]) => stream(id, `del-${name}`)) };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: SEED });
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

const deletes = () => h.calls('DELETE');
const exists = (id: string) => h.sandbox.seededStreams().some((s) => s.id === id);

describe('idm streams delete: refuses without --yes when it cannot ask (exit 2, nothing sent)', () => {
  it('piped (no terminal)', async () => {
    const result = await h.idm(['streams', 'delete', ids.refuse]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Deleting stream ${ids.refuse} needs --yes when idm cannot ask (stdin, stdout and stderr are not terminals).`);
    expect(result.stderr).toContain(`Run 'idm streams delete ${ids.refuse} --yes'.`);
    expect(h.received()).toEqual([]);
    expect(exists(ids.refuse)).toBe(true);
  });

  it('--no-input at a terminal', async () => {
    const result = await h.idm(['--no-input', 'streams', 'delete', ids.refuse], { env: { IDM_FORCE_TTY: 'all', NO_COLOR: '1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('needs --yes');
    expect(h.received()).toEqual([]);
    expect(exists(ids.refuse)).toBe(true);
  });

  it('with stdout at a terminal but stdin piped (it could not read an answer)', async () => {
    const result = await h.idm(['streams', 'delete', ids.refuse], { env: { IDM_FORCE_TTY: 'stdout,stderr', NO_COLOR: '1' } });
    expect(result.code).toBe(2);
    expect(h.received()).toEqual([]);
  });

  it('with --json: the usage error is one JSON object on stderr', async () => {
    const result = await h.idm(['--json', 'streams', 'delete', ids.refuse]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2, message: expect.stringContaining('needs --yes') } });
    expect(h.received()).toEqual([]);
  });

  it.each([
    ['a bad id', ['streams', 'delete', 'est_nope', '--yes'], /Not a stream id: "est_nope"/],
    ['no id', ['streams', 'delete', '--yes'], /stream-id/],
    ['an unknown flag', ['streams', 'delete', ids.refuse, '--force'], /--force/],
  ])('%s: exit 2, nothing sent', async (_name, args, message) => {
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(h.received()).toEqual([]);
    expect(exists(ids.refuse)).toBe(true);
  });
});

describe('idm streams delete --yes', () => {
  it('one DELETE of the stream, exit 0, "Deleted" on stderr, nothing on stdout; it is gone', async () => {
    const result = await h.idm(['streams', 'delete', ids.yes, '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Deleted stream ${ids.yes}.\n`);
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([`DELETE /api/v2/event-streams/${ids.yes}`]);
    expect(deletes()[0]!.status).toBe(204);
    expect(deletes()[0]!.body).toBe('');
    expect(exists(ids.yes)).toBe(false);
    const show = await h.idm(['streams', 'show', ids.yes]);
    expect(show.code).toBe(1);
  });

  it('-y is --yes', async () => {
    const result = await h.idm(['streams', 'delete', '-y', ids.short]);
    expect(result.code).toBe(0);
    expect(deletes()).toHaveLength(1);
    expect(exists(ids.short)).toBe(false);
  });

  it('--json: nothing on stdout (the service answers 204 with no body), exit 0', async () => {
    const result = await h.idm(['streams', 'delete', ids.json, '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(deletes()).toHaveLength(1);
    expect(exists(ids.json)).toBe(false);
  });

  // wire-facts.md: "Delete answers 204 also for a stream that is already deleted (no 404 on a
  // repeat)". The sandbox, which is to answer as the service does, answers 404 to the repeat, and
  // `delete --yes` of a stream already gone then fails with exit 1.
  it('deleting again a stream already deleted: 204 as the service does, exit 0', async () => {
    const first = await h.idm(['streams', 'delete', ids.twice, '--yes']);
    expect(first.code).toBe(0);
    h.mark();
    const again = await h.idm(['streams', 'delete', ids.twice, '--yes']);
    expect(deletes()).toHaveLength(1);
    expect(deletes()[0]!.status).toBe(204);
    expect(again.code).toBe(0);
  });

  it('a 404 from the service: exit 1, names the stream', async () => {
    h.sandbox.addFault({
      path: `/api/v2/event-streams/${ids.refuse}`,
      method: 'DELETE',
      kind: 'status',
      status: 404,
      body: JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'The requested stream does not exist.' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const result = await h.idm(['streams', 'delete', ids.refuse, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Could not delete stream ${ids.refuse}`);
    expect(result.stderr).toContain('The requested stream does not exist');
    expect(deletes()).toHaveLength(1);
  });

  it('the reader client: 403, exit 4, names delete:event_streams; the stream stays', async () => {
    const result = await h.idm(['streams', 'delete', ids.reader, '--yes'], { client: 'reader' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('delete:event_streams');
    expect(deletes()).toHaveLength(1);
    expect(deletes()[0]!.status).toBe(403);
    expect(exists(ids.reader)).toBe(true);
  });

  it('a 500 that persists: exit 1 after idm\'s retries, every DELETE answered 500, the stream stays', async () => {
    h.sandbox.addFault({ path: `/api/v2/event-streams/${ids.reader}`, method: 'DELETE', kind: 'status', status: 500, count: Infinity });
    const result = await h.idm(['streams', 'delete', ids.reader, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/500/);
    expect(deletes().length).toBeGreaterThanOrEqual(1);
    expect(deletes().every((call) => call.status === 500 && call.path === `/api/v2/event-streams/${ids.reader}`)).toBe(true);
    expect(exists(ids.reader)).toBe(true);
  });
});
