// --since and --until of `deliveries list`, `redeliver` and `stats`: one local check that the window
// does not end before it starts, and times that exist and say their offset. Each refusal is exit 2
// with nothing sent (the sandbox received no request at all, not even for a token). Before the audit
// of issue 12 every one of these was sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness.js';

const CLOSED = 'est_demoClosedPort00000000';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
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
