// --since and --until of `deliveries list`, `redeliver` and `stats`: one local check that the window
// does not end before it starts, and times that exist and say their offset. Each refusal is exit 2
// with nothing sent (the sandbox received no request at all, not even for a token). Before the audit
// of issue 12 every one of these was sent. `stats` also checks a bound given alone against the
// service's default for the other (run with one clock for idm and the sandbox: no real time).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveriesListRun } from '../../../src/commands/streams/deliveries/list.js';
import { redeliverRun } from '../../../src/commands/streams/redeliver.js';
import { statsRun } from '../../../src/commands/streams/stats.js';
import { credentialsEnv } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/deps.js';
import { startHarness, type Harness } from '../../helpers/harness.js';

const CLOSED = 'est_demoClosedPort00000000';
// Not on the hour: the service's default --since is the start of the hour 14 days back.
const NOW = Date.parse('2026-11-25T10:20:30Z');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => NOW });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

describe('a reversed or impossible window is refused locally (exit 2, nothing sent)', () => {
  it.each([
    ['deliveries list --since 7d --until 30d', ['streams', 'deliveries', 'list', CLOSED, '--since', '7d', '--until', '30d'], /--since \(\S+Z\) is after --until \(\S+Z\)\./],
    ['redeliver --since 1h --until 2h', ['streams', 'redeliver', CLOSED, '--since', '1h', '--until', '2h'], /--since \(\S+Z\) is after --until \(\S+Z\)\./],
    ['stats --since 1h --until 3h', ['streams', 'stats', CLOSED, '--since', '1h', '--until', '3h'], /--since \(\S+Z\) is after --until \(\S+Z\)\./],
    ['stats with RFC 3339 times the wrong way round', ['streams', 'stats', CLOSED, '--since', '2026-01-02T00:00:00Z', '--until', '2026-01-01T00:00:00Z'], /--since \(2026-01-02T00:00:00Z\) is after --until \(2026-01-01T00:00:00Z\)\./],
    ['deliveries list --since 2026-02-30 (it became 2 March)', ['streams', 'deliveries', 'list', CLOSED, '--since', '2026-02-30'], /--since must be an RFC 3339 time with Z or an offset/],
    ['redeliver --until 2026-11-25T10:00 (read as local time)', ['streams', 'redeliver', CLOSED, '--until', '2026-11-25T10:00'], /--until must be an RFC 3339 time with Z or an offset/],
    ['stats --since 2026-11-25T10:00:00 (no offset)', ['streams', 'stats', CLOSED, '--since', '2026-11-25T10:00:00'], /--since must be an RFC 3339 time with Z or an offset/],
    // RFC 3339 years have four digits: these were sent as -000711-… and +010000-…, and refused by the service (exit 1).
    ['stats --since 999999d (before year 0)', ['streams', 'stats', CLOSED, '--since', '999999d'], /--since is outside the years 0000 to 9999 \(-0\d{5}-/],
    ['deliveries list --until past 9999-12-31 by its offset', ['streams', 'deliveries', 'list', CLOSED, '--until', '9999-12-31T23:59:59-01:00'], /--until is outside the years 0000 to 9999 \(\+010000-01-01T00:59:59Z\)/],
    ['redeliver --since 999999w', ['streams', 'redeliver', CLOSED, '--since', '999999w'], /--since is outside the years 0000 to 9999/],
    // Reversed within one second: once judged on the seconds sent (…:00Z to …:01Z), it passed, and redeliver asked for that second.
    ['redeliver reversed within one second', ['streams', 'redeliver', CLOSED, '--since', '2026-11-24T09:00:00.7Z', '--until', '2026-11-24T09:00:00.3Z'], /--since \(2026-11-24T09:00:00\.700Z\) is after --until \(2026-11-24T09:00:00\.300Z\)\./],
    ['deliveries list reversed within one second', ['streams', 'deliveries', 'list', CLOSED, '--since', '2026-11-24T09:00:00.7Z', '--until', '2026-11-24T09:00:00.3Z'], /--since \(2026-11-24T09:00:00\.700Z\) is after --until/],
    ['stats reversed within one second', ['streams', 'stats', CLOSED, '--since', '2026-11-24T09:00:00.7Z', '--until', '2026-11-24T09:00:00.3Z'], /--since \(2026-11-24T09:00:00\.700Z\) is after --until/],
  ])('%s', async (_name, args, message) => {
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(h.received()).toEqual([]);
  });

  it('an equal --since and --until is a window: sent', async () => {
    const result = await h.idm(['streams', 'stats', CLOSED, '--since', '2026-01-01T00:00:00Z', '--until', '2026-01-01T00:00:00+00:00']);
    expect(result.code).toBe(0);
    const [call] = h.calls('GET');
    expect(Object.fromEntries(new URL(call!.url, 'http://x').searchParams)).toEqual({ date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-01T00:00:00Z' });
  });
});

describe('the years 0000 to 0099 are taken, as the README says (0000 to 9999)', () => {
  it('deliveries list --since 0050-01-01 --until 0099-12-31T23:59:59Z: sent as typed (not refused as not RFC 3339)', async () => {
    const result = await h.idm(['streams', 'deliveries', 'list', CLOSED, '--since', '0050-01-01', '--until', '0099-12-31T23:59:59Z']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [call] = h.calls('GET');
    expect(Object.fromEntries(new URL(call!.url, 'http://x').searchParams)).toEqual({ date_from: '0050-01-01T00:00:00Z', date_to: '0099-12-31T23:59:59Z' });
  });
});

describe("an event's exact time, as listed, given to --since or --until: the event is in the window sent", () => {
  // The sandbox's clock at a fraction of a second: the event's time is 10:20:30.581Z. --until used to
  // go to the second before (10:20:30Z), which left out the very event whose time was given.
  const AT = '2026-11-25T10:20:30.581Z';
  let at: Harness;
  beforeAll(async () => {
    at = await startHarness({ now: () => Date.parse(AT), delivery: 'sync' });
    expect((await at.idm(['streams', 'test', CLOSED, '--event-type', 'user.created'])).code).toBe(3);
  });
  afterAll(() => at.close());
  beforeEach(() => at.mark());
  const listed = async (flags: string[]) => {
    const result = await at.idm(['streams', 'deliveries', 'list', CLOSED, '--json', ...flags]);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { deliveries: Array<{ event: { time: string } }> }).deliveries.map((d) => d.event.time);
  };
  const sent = () => Object.fromEntries(new URL(at.calls('GET')[0]!.url, 'http://x').searchParams);

  it('--until: to the second after (10:20:31Z), the event listed', async () => {
    expect(await listed(['--until', AT])).toEqual([AT]);
    expect(sent()).toEqual({ date_to: '2026-11-25T10:20:31Z' });
  });

  it('--since: to the second before (10:20:30Z), the event listed', async () => {
    expect(await listed(['--since', AT])).toEqual([AT]);
    expect(sent()).toEqual({ date_from: '2026-11-25T10:20:30Z' });
  });

  it('both: a window of a second that holds it', async () => {
    expect(await listed(['--since', AT, '--until', AT])).toEqual([AT]);
  });

  it('redeliver --until: the body says the second after', async () => {
    const result = await at.idm(['streams', 'redeliver', CLOSED, '--until', AT]);
    expect(result.code, result.stderr).toBe(0);
    expect(at.calls('POST')[0]!.json).toEqual({ date_to: '2026-11-25T10:20:31Z' });
    expect(result.stderr).toContain(`--until 2026-11-25T10:20:31Z`);
  });
});

describe('the hint names the times given, the right way round', () => {
  it.each([
    ['stats --since 3h --until 5h', ['streams', 'stats', CLOSED, '--since', '3h', '--until', '5h']],
    ['stats with dates', ['streams', 'stats', CLOSED, '--since', '2026-11-20', '--until', '2026-11-10']],
    ['deliveries list --since 1h --until 2h', ['streams', 'deliveries', 'list', CLOSED, '--since', '1h', '--until', '2h']],
  ])('%s', async (_name, args) => {
    const result = await h.idm(args);
    expect(result.code).toBe(2);
    const [, since, until] = /--since \((\S+Z)\) is after --until \((\S+Z)\)\./.exec(result.stderr) ?? [];
    expect(result.stderr).toContain(`Give the earlier time to --since: --since ${until} --until ${since}.`);
    expect(result.stderr).not.toContain('7d is further back than 1d');
    expect(h.received()).toEqual([]);
  });
});

describe('stats: --since given alone is checked against the default end (now)', () => {
  /** statsRun as main() runs it, with idm's clock at NOW (the sandbox's too). */
  const stats = (flags: { since?: string; until?: string }) =>
    runCommand((deps) => statsRun({ streamId: CLOSED, ...flags }, deps, () => NOW), { env: { IDM_CONFIG_DIR: h.configDir, ...credentialsEnv(h.sandbox) } });
  const sent = () => h.calls('GET').map((call) => Object.fromEntries(new URL(call.url, 'http://x').searchParams));

  it('--since after now (--until not given): exit 2, nothing sent', async () => {
    const { error } = await stats({ since: '2027-01-01T00:00:00Z' });
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toBe('--since (2027-01-01T00:00:00Z) is after --until, which is now (2026-11-25T10:20:30Z) when not given.');
    expect(error?.hint).toMatch(/^Give --since a time before 2026-11-25T10:20:30Z/);
    expect(h.received()).toEqual([]);
  });

  it('--until alone is sent as given, however far back: where the service starts such a window is not documented', async () => {
    for (const until of ['2020-01-01T00:00:00Z', '2026-11-11T09:59:59Z']) {
      h.mark();
      const { error } = await stats({ until });
      // The service judges it (the sandbox, modelling a 14-day default start, answers 400): never exit 2.
      expect(error?.exitCode).not.toBe(2);
      expect(sent()).toEqual([{ date_to: until }]);
    }
  });

  it('what the service accepts is sent: --since now, --until at or after the start of the default window', async () => {
    for (const flags of [{ since: '2026-11-25T10:20:30Z' }, { until: '2026-11-11T10:00:00Z' }, { until: '2026-11-11T10:10:00Z' }]) {
      h.mark();
      const { error } = await stats(flags);
      expect(error).toBeUndefined();
      expect(sent()).toEqual([{ ...(flags.since ? { date_from: flags.since } : {}), ...(flags.until ? { date_to: flags.until } : {}) }]);
    }
  });

  it('through the command line: --since far ahead is refused, nothing sent', async () => {
    const result = await h.idm(['streams', 'stats', CLOSED, '--since', '2100-01-01']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: --since \(2100-01-01T00:00:00Z\) is after --until, which is now \(\S+Z\) when not given\./);
    expect(h.received()).toEqual([]);
  });
});

describe('deliveries list, redeliver and stats: a --since in the future matches no delivery, with or without --until (exit 2, nothing sent)', () => {
  const env = () => ({ env: { IDM_CONFIG_DIR: h.configDir, ...credentialsEnv(h.sandbox) } });
  const list = (flags: { since?: string; until?: string }) => runCommand((deps) => deliveriesListRun({ streamId: CLOSED, all: false, ...flags }, deps, () => NOW), env());
  const redeliver = (flags: { since?: string; until?: string }) => runCommand((deps) => redeliverRun({ streamId: CLOSED, ...flags }, deps, () => NOW), env());

  it.each([
    ['deliveries list --since after now', () => list({ since: '2026-11-25T10:20:32Z' })],
    ['deliveries list --since and --until both after now', () => list({ since: '2026-12-01T00:00:00Z', until: '2026-12-02T00:00:00Z' })],
    ['redeliver --since after now (it said it had asked the service)', () => redeliver({ since: '2026-11-25T10:20:32Z' })],
    ['redeliver --since and --until both after now', () => redeliver({ since: '2026-12-01T00:00:00Z', until: '2026-12-02T00:00:00Z' })],
    ['stats --since and --until both after now (a chart of nothing)', () => runCommand((deps) => statsRun({ streamId: CLOSED, since: '2026-12-01T00:00:00Z', until: '2026-12-02T00:00:00Z' }, deps, () => NOW), env())],
  ])('%s', async (_name, run) => {
    const { error } = await run();
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toMatch(/^--since \(\S+Z\) is in the future \(now is 2026-11-25T10:20:30Z\): no delivery can match it yet\.$/);
    expect(error?.hint).toBe('Give --since a time before now: RFC 3339, or back from now (30m, 6h, 7d).');
    expect(h.received()).toEqual([]);
  });

  it('--since now, or before it, is sent', async () => {
    for (const run of [() => list({ since: '2026-11-25T10:20:30Z' }), () => redeliver({ since: '2026-11-25T10:20:30Z', until: '2026-12-01T00:00:00Z' })]) {
      h.mark();
      const { error } = await run();
      expect(error).toBeUndefined();
      expect(h.calls().filter((call) => call.path.includes('/event-streams/'))).toHaveLength(1);
    }
  });

  it('through the command line: redeliver --since far ahead is refused, nothing sent', async () => {
    const result = await h.idm(['streams', 'redeliver', CLOSED, '--since', '2100-01-01']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: --since \(2100-01-01T00:00:00Z\) is in the future \(now is \S+Z\): no delivery can match it yet\./);
    expect(h.received()).toEqual([]);
  });
});
