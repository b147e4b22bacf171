// A failed delivery looks failed (issue 15, item 7): at a colour terminal its status is red, in the
// record of `streams test` and `streams deliveries show`, in the attempts table's status cells and in
// the deliveries list; the red wraps the word `failed` and nothing else (no padding, no other cell).
// No colour with NO_COLOR, --no-color, or piped (even with FORCE_COLOR). The attempts table's headers
// are upper-case like every table's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness.js';

const CLOSED = 'est_demoClosedPort00000000';
const INBOX = 'est_demoInboxBearer0000000';
const COLOUR = { IDM_FORCE_TTY: 'stdout', FORCE_COLOR: '1', COLUMNS: '200' };
const RED = /\x1b\[31m(.*?)\x1b\[39m/g;
const ESCAPE = /\x1b\[/;
/** The escapes of bold (labels, headers) taken out: what is left in red, and the text without colour. */
const reds = (stdout: string) => [...stdout.matchAll(RED)].map((match) => match[1]);
const plain = (stdout: string) => stdout.replace(/\x1b\[\d+m/g, '');

let h: Harness;
let eventId: string;
beforeAll(async () => {
  h = await startHarness({ delivery: 'sync' });
  const failed = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created', '--json']);
  expect(failed.code).toBe(3);
  eventId = JSON.parse(failed.stdout).id;
});
afterAll(() => h.close());

describe('a failed delivery at a colour terminal', () => {
  it('streams test: the record\'s Status and each attempt\'s status in red, only those; upper-case headers', async () => {
    const result = await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created'], { env: COLOUR });
    expect(result.code).toBe(3);
    const attempts = plain(result.stdout).match(/^failed {2}\d{4}-/gm) ?? [];
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(reds(result.stdout)).toEqual(Array(1 + attempts.length).fill('failed'));
    expect(result.stdout.match(/failed/g)).toHaveLength(1 + attempts.length); // no `failed` left plain
    expect(plain(result.stdout)).toMatch(/\nStatus {2,}failed\n/);
    expect(plain(result.stdout)).toMatch(/\n\nSTATUS {2}TIME {2,}ERROR {2,}DURATION\n/);
    // Padding stays outside the colour: the attempt rows line up as in plain text.
    expect(result.stdout).toMatch(/\n\x1b\[31mfailed\x1b\[39m {2}\d{4}-/);
  });

  it('streams deliveries show and list: the status in red', async () => {
    const show = await h.idm(['streams', 'deliveries', 'show', CLOSED, eventId], { env: COLOUR });
    expect(show.code).toBe(0);
    const attempts = (plain(show.stdout).match(/^failed {2}\d{4}-/gm) ?? []).length;
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(reds(show.stdout)).toEqual(Array(1 + attempts).fill('failed'));
    expect(plain(show.stdout)).toMatch(/\n\nSTATUS {2}TIME {2,}ERROR {2,}DURATION\n/);

    const list = await h.idm(['streams', 'deliveries', 'list', CLOSED], { env: COLOUR });
    expect(list.code).toBe(0);
    const rows = plain(list.stdout).trimEnd().split('\n').slice(1);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(reds(list.stdout)).toEqual(Array(rows.length).fill('failed'));
    expect(plain(list.stdout)).toMatch(/^EVENT ID {2,}EVENT TYPE {2,}STATUS {2,}ATTEMPTS/);
  });

  it('a delivered event is not red', async () => {
    const result = await h.idm(['streams', 'test', INBOX, '--event-type', 'user.created'], { env: COLOUR });
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toMatch(/\nStatus {2,}success\n/);
    expect(reds(result.stdout)).toEqual([]);
  });

  it('no colour with NO_COLOR, with --no-color, or piped (even with FORCE_COLOR)', async () => {
    const runs = [
      await h.idm(['streams', 'test', CLOSED, '--event-type', 'user.created'], { env: { ...COLOUR, NO_COLOR: '1' } }),
      await h.idm(['streams', 'deliveries', 'show', CLOSED, eventId, '--no-color'], { env: COLOUR }),
      await h.idm(['streams', 'deliveries', 'list', CLOSED], { env: { ...COLOUR, NO_COLOR: '1' } }),
      await h.idm(['streams', 'deliveries', 'list', CLOSED], { env: { FORCE_COLOR: '1' } }),
    ];
    for (const result of runs) {
      expect(result.stdout).toMatch(/failed/);
      expect(result.stdout).not.toMatch(ESCAPE);
    }
  });
});
