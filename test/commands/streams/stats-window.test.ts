// The default window of idm streams stats, as the service answers it (recorded-lifecycle.json: a GET
// without a query at 04:21Z answered 14 days back from 04:00 to 05:00): it runs to the next full hour,
// not to now, and the help and README say so.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness.js';

const INBOX = 'est_demoInboxBearer0000000';
const NOW = Date.parse('2026-11-25T10:45:00Z');
const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => NOW });
});
afterAll(() => h.close());

describe('idm streams stats without --since and --until', () => {
  it('sends no window; the service counts from the start of the hour 14 days back to the next full hour (10:45 → 11:00)', async () => {
    const result = await h.idm(['streams', 'stats', INBOX, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).window).toMatchObject({ date_from: '2026-11-11T10:00:00.000Z', date_to: '2026-11-25T11:00:00.000Z' });
  });

  it('--help and the README say it runs to the next full hour, not to now', async () => {
    const help = (await h.idm(['streams', 'stats', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('Without --since and --until idm sends no window and the service uses its own: from the start of the hour 14 days back to the next full hour (at 10:45, to 11:00).');
    const section = README.slice(README.indexOf('#### `idm streams stats ID`'));
    const text = section.slice(0, section.indexOf('```')).replace(/\s+/g, ' ');
    expect(text).toContain('from the start of the hour 14 days back to the next full hour: at 10:45 it runs to 11:00');
    expect(text).not.toContain('14 days back to now');
  });
});
