// Progress on stderr (src/io/progress.ts): the countdown of a wait and the status line, at a
// terminal (redrawn in place, cut to the width, erased when done), in a pipe or CI (one line per
// event), and with --json (one object per event). Time is vitest's fake clock: nothing here waits.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitWords, type WaitNotice } from '../../src/api/retry.js';
import { countdown, fitLine, spinner, SPINNER_DELAY_MS, statusLine } from '../../src/io/progress.js';
import { captureIO } from '../helpers/deps.js';

const notice: WaitNotice = { reason: 'rate_limited', what: 'rate limited (429)', host: 'tenant.example.com', action: 'list event streams', attempt: 2, attempts: 3 };
const value = { reason: 'rate_limited', seconds: 2, attempt: 2, of: 3, host: 'tenant.example.com', action: 'list event streams' };
const wait = (captured: ReturnType<typeof captureIO>, ms: number) => countdown(captured.io, ms, (left) => waitWords(notice, left), value);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the countdown of a wait', () => {
  it('piped or in CI: one line, what and how long', async () => {
    for (const setup of [{ tty: false }, { tty: true, env: { CI: 'true' } }]) {
      const captured = captureIO(setup);
      const done = wait(captured, 20);
      await vi.advanceTimersByTimeAsync(20);
      await done;
      expect(captured.stderr()).toBe('Rate limited (429) at tenant.example.com (list event streams): trying again in 1 s, attempt 2 of 3.\n');
    }
  });

  it('at a terminal: a line that counts down every second and is erased when the wait is over', async () => {
    const captured = captureIO({ tty: true });
    const done = wait(captured, 2_100);
    await vi.advanceTimersByTimeAsync(2_100);
    await done;
    const writes = captured.stderr().split('\r\x1b[K').filter(Boolean);
    expect(writes).toEqual([
      'Rate limited (429) at tenant.example.com (list event streams): trying again in 3 s, attempt 2 of 3. (Ctrl-C to stop)',
      expect.stringContaining('trying again in 2 s'),
      expect.stringContaining('trying again in 1 s'),
    ]);
    expect(captured.stderr().endsWith('\r\x1b[K')).toBe(true);
    expect(captured.stderr()).not.toContain('\n');
  });

  it('at a narrow terminal the line is cut to fit: it never wraps (a wrapped line leaves a row behind)', async () => {
    const captured = captureIO({ tty: true });
    (captured.io.stderr as { columns?: number }).columns = 40;
    const done = wait(captured, 500);
    await vi.advanceTimersByTimeAsync(500);
    await done;
    for (const write of captured.stderr().split('\r\x1b[K').filter(Boolean)) expect([...write].length).toBeLessThanOrEqual(39);
    expect(captured.stderr()).toContain('…');
  });

  it('--json: one JSON object per wait, in a pipe, in CI and at a terminal (no countdown)', async () => {
    for (const setup of [{ tty: false }, { tty: true }, { tty: true, env: { CI: 'true' } }]) {
      const captured = captureIO(setup);
      await captured.io.configure({ json: true });
      const done = wait(captured, 1_100);
      await vi.advanceTimersByTimeAsync(1_100);
      await done;
      expect(captured.stderr()).toBe(`${JSON.stringify({ wait: value })}\n`);
    }
  });

  it('ends at once, with the stop reason, when the run is stopped', async () => {
    const captured = captureIO({ tty: true });
    const done = wait(captured, 60_000);
    const { InterruptedError } = await import('../../src/core/errors.js');
    captured.io.stop(new InterruptedError('SIGINT'));
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(captured.stderr().endsWith('\r\x1b[K')).toBe(true);
  });
});

describe('the status line', () => {
  it('at a terminal: redrawn in place, made safe, erased by clear()', () => {
    const captured = captureIO({ tty: true });
    const line = statusLine(captured.io);
    line.set('Delivery of evt_1: pending');
    line.set('Delivery of evt_1: pending'); // unchanged: not drawn again
    line.set('Delivery of evt_1: failed\u001b[2J');
    line.clear();
    expect(captured.stderr()).toBe('\r\x1b[KDelivery of evt_1: pending\r\x1b[KDelivery of evt_1: failed\\x1b[2J\r\x1b[K');
  });

  it('piped: one line per change; --json: one {"progress": ...} object per change', async () => {
    const piped = captureIO();
    const line = statusLine(piped.io);
    line.set('a');
    line.set('a');
    line.set('b');
    expect(piped.stderr()).toBe('a\nb\n');
    const json = captureIO();
    await json.io.configure({ json: true });
    statusLine(json.io).set('a', { status: 'pending' });
    expect(json.stderr()).toBe('{"progress":{"status":"pending"}}\n');
  });

  it('with a deadline, at a terminal: how long it has waited, redrawn every second until clear(); piped: the limit once per change', async () => {
    let clock = 1_000_000;
    const captured = captureIO({ tty: true });
    const line = statusLine(captured.io, () => clock);
    const deadline = { until: clock + 60_000, ms: 60_000 };
    line.set('Delivery of evt_1: pending', undefined, deadline);
    clock += 1_000;
    await vi.advanceTimersByTimeAsync(1_000);
    clock += 1_500;
    line.set('Delivery of evt_1: failed 1 time so far', undefined, deadline);
    clock += 1_000;
    await vi.advanceTimersByTimeAsync(1_000);
    line.clear();
    await vi.advanceTimersByTimeAsync(5_000); // nothing more once cleared
    expect(captured.stderr().split('\r\x1b[K')).toEqual([
      '',
      'Delivery of evt_1: pending (waited 0 s of 60 s)',
      'Delivery of evt_1: pending (waited 1 s of 60 s)',
      'Delivery of evt_1: failed 1 time so far (waited 2 s of 60 s)',
      'Delivery of evt_1: failed 1 time so far (waited 3 s of 60 s)',
      '',
    ]);

    const piped = captureIO();
    const plain = statusLine(piped.io, () => clock);
    plain.set('Delivery of evt_1: pending', undefined, deadline);
    await vi.advanceTimersByTimeAsync(3_000);
    plain.set('Delivery of evt_1: pending', undefined, deadline);
    plain.clear();
    expect(piped.stderr()).toBe('Delivery of evt_1: pending (waiting up to 60 s)\n');
  });

  it('at a narrow terminal the text is cut, not the time waited', async () => {
    let clock = 1_000_000;
    const captured = captureIO({ tty: true });
    (captured.io.stderr as { columns?: number }).columns = 80;
    const line = statusLine(captured.io, () => clock);
    line.set(`Delivery of evt_1 to ${'x'.repeat(60)}: failed 1 time so far, retries to come`, undefined, { until: clock + 3_000, ms: 3_000 });
    clock += 1_000;
    await vi.advanceTimersByTimeAsync(1_000);
    line.clear();
    const writes = captured.stderr().split('\r\x1b[K').filter(Boolean);
    expect(writes).toEqual([expect.stringMatching(/^Delivery of evt_1 to x+… \(waited 0 s of 3 s\)$/), expect.stringMatching(/… \(waited 1 s of 3 s\)$/)]);
    for (const write of writes) expect([...write].length).toBeLessThanOrEqual(79);
  });

  it('a narrow form, where given, is drawn instead of the text only where the text would be cut; piped lines keep the text', async () => {
    const clock = 1_000_000;
    const deadline = { until: clock + 60_000, ms: 60_000 };
    const draws = async (columns: number) => {
      const captured = captureIO({ tty: true });
      (captured.io.stderr as { columns?: number }).columns = columns;
      const line = statusLine(captured.io, () => clock);
      line.set(`Delivery of evt_${'a'.repeat(22)}: pending`, undefined, deadline, 'Pending');
      line.clear();
      return captured.stderr().split('\r\x1b[K').filter(Boolean);
    };
    expect(await draws(80)).toEqual([`Delivery of evt_${'a'.repeat(22)}: pending (waited 0 s of 60 s)`]);
    expect(await draws(60)).toEqual(['Pending (waited 0 s of 60 s)']);
    expect(await draws(40)).toEqual(['Pending (waited 0 s of 60 s)']);
    const piped = captureIO();
    statusLine(piped.io, () => clock).set('Delivery of evt_1: pending', undefined, deadline, 'Pending');
    expect(piped.stderr()).toBe('Delivery of evt_1: pending (waiting up to 60 s)\n');
  });

  it('yields to a countdown (a rate limit during the wait): not redrawn over it, drawn again when it is over', async () => {
    let clock = 1_000_000;
    const captured = captureIO({ tty: true });
    const line = statusLine(captured.io, () => clock);
    line.set('Delivery of evt_1: pending', undefined, { until: clock + 60_000, ms: 60_000 });
    const mark = captured.stderr().length;
    const waiting = wait(captured, 2_100);
    for (let i = 0; i < 3; i++) {
      clock += 700;
      await vi.advanceTimersByTimeAsync(700);
    }
    await waiting;
    const during = captured.stderr().slice(mark).split('\r\x1b[K').filter(Boolean);
    expect(during.slice(0, -1).every((write) => write.startsWith('Rate limited (429)'))).toBe(true);
    expect(during.at(-1)).toBe('Delivery of evt_1: pending (waited 2 s of 60 s)');
    line.clear();
  });

  it('fitLine cuts to three less than the width (room for the echoed ^C before the last column)', () => {
    expect(fitLine('x'.repeat(100), 20)).toBe(`${'x'.repeat(16)}…`);
    expect(fitLine('short', 20)).toBe('short');
  });
});

describe('the spinner of slow work', () => {
  it('at a terminal: nothing for a third of a second, then a spinner and the label, erased when done', async () => {
    const captured = captureIO({ tty: true });
    const stop = spinner(captured.io, 'List event streams…');
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1);
    expect(captured.stderr()).toBe('');
    await vi.advanceTimersByTimeAsync(250);
    const frames = captured.stderr().split('\r\x1b[K').filter(Boolean);
    expect(frames.length).toBeGreaterThanOrEqual(2);
    for (const frame of frames) expect(frame).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] List event streams…$/);
    expect(new Set(frames).size).toBeGreaterThan(1); // it turns
    stop();
    expect(captured.stderr().endsWith('\r\x1b[K')).toBe(true);
    const after = captured.stderr().length;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(captured.stderr().length).toBe(after); // nothing more once stopped
  });

  it('work quicker than the delay draws nothing at all', async () => {
    const captured = captureIO({ tty: true });
    const stop = spinner(captured.io, 'Get an access token…');
    await vi.advanceTimersByTimeAsync(100);
    stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(captured.stderr()).toBe('');
  });

  it('never in a pipe, in CI, with --json or TERM=dumb', async () => {
    for (const setup of [{ tty: false }, { tty: true, env: { CI: 'true' } }, { tty: true, env: { TERM: 'dumb' } }]) {
      const captured = captureIO(setup);
      const stop = spinner(captured.io, 'List event streams…');
      await vi.advanceTimersByTimeAsync(2_000);
      stop();
      expect(captured.stderr()).toBe('');
    }
    const json = captureIO({ tty: true });
    await json.io.configure({ json: true });
    const stop = spinner(json.io, 'List event streams…');
    await vi.advanceTimersByTimeAsync(2_000);
    stop();
    expect(json.stderr()).toBe('');
  });

  it('yields to a countdown drawn meanwhile, and of nested spinners only the latest draws', async () => {
    const captured = captureIO({ tty: true });
    const outer = spinner(captured.io, 'OUTER');
    const inner = spinner(captured.io, 'INNER');
    await vi.advanceTimersByTimeAsync(600);
    expect(captured.stderr()).toContain('INNER');
    expect(captured.stderr()).not.toContain('OUTER');
    inner();
    const waiting = wait(captured, 1_000);
    const mark = captured.stderr().length;
    await vi.advanceTimersByTimeAsync(1_000);
    await waiting;
    expect(captured.stderr().slice(mark)).not.toContain('OUTER'); // paused during the countdown
    await vi.advanceTimersByTimeAsync(300);
    expect(captured.stderr().slice(mark)).toContain('OUTER'); // and back after it
    outer();
  });
});
