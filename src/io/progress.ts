// Progress on stderr: the countdown of a wait (rate limits, retries), a status line for long work,
// and a spinner for anything slower than a third of a second. At a terminal a live line that is
// redrawn and disappears when done, cut to the terminal's width so that it never wraps (a wrapped
// line would leave its first row behind); in CI, a pipe, with --json or TERM=dumb, one line (or one
// JSON object) per event instead, and no spinner at all. One live line at a time: a spinner yields
// to a countdown or a status line drawn meanwhile, and of nested spinners only the latest draws.
import { secondsText, sleep } from '../core/time.js';
import type { IO } from './io.js';
import { safeText } from './safe.js';

/** How long work may take before a spinner shows (a shorter one would only flicker). */
export const SPINNER_DELAY_MS = 333;
const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPINNER_TICK_MS = 100;

/**
 * Per IO: how many countdowns and status lines are drawn now (`others`), how many of them are
 * countdowns, the spinner that may draw, and the status line to draw again when a countdown is over.
 */
const live = new WeakMap<IO, { others: number; countdowns: number; spinner?: symbol; status?: () => void }>();
const liveState = (io: IO) => live.get(io) ?? live.set(io, { others: 0, countdowns: 0 }).get(io)!;

/**
 * `text` cut to fit in `columns - 3` characters: the last column would make some terminals wrap, and
 * the `^C` the terminal echoes after the line when Ctrl-C stops the wait must fit on its row too (it
 * would wrap, and the erase before the message would clear only the row it wrapped to).
 */
export function fitLine(text: string, columns: number): string {
  const room = Math.max(10, columns - 3);
  const chars = [...text];
  return chars.length <= room ? text : `${chars.slice(0, room - 1).join('')}…`;
}

/**
 * Waits `ms` (a stop cuts it short: the run's, or `signal`), saying so: `words(leftMs)` is the line,
 * `value` the JSON notice. At a terminal the line counts down every second.
 */
export async function countdown(io: IO, ms: number, words: (leftMs: number) => string, value: unknown, signal: AbortSignal = io.signal): Promise<void> {
  if (!io.liveStderr) {
    io.notice('wait', value, `${safeText(words(ms))}\n`);
    await sleep(ms, signal);
    return;
  }
  const until = Date.now() + ms;
  const show = () => io.live(`${fitLine(safeText(`${words(until - Date.now())} (Ctrl-C to stop)`), io.stderrColumns)}`);
  const state = liveState(io);
  state.others++;
  state.countdowns++;
  show();
  const ticker = setInterval(show, 1_000);
  try {
    await sleep(ms, signal);
  } finally {
    clearInterval(ticker);
    state.others--;
    state.countdowns--;
    io.live('');
    // A status line the countdown stood in for comes back.
    if (state.countdowns === 0) state.status?.();
  }
}

/**
 * A spinner and `label` on stderr while work goes on, from SPINNER_DELAY_MS on; the returned
 * function ends it (the line is erased). Only at a terminal (never in CI, a pipe, with --json or
 * TERM=dumb). The latest spinner is the one drawn; it pauses while a countdown or status line shows.
 */
export function spinner(io: IO, label: string): () => void {
  if (!io.liveStderr) return () => {};
  const state = liveState(io);
  const self = Symbol(label);
  const outer = state.spinner;
  state.spinner = self;
  let frame = 0;
  let drawn = false;
  const draw = () => {
    if (state.spinner !== self || state.others > 0) return;
    drawn = true;
    io.live(`${fitLine(safeText(`${SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length]} ${label}`), io.stderrColumns)}`);
  };
  let ticker: ReturnType<typeof setInterval> | undefined;
  const start = setTimeout(() => {
    draw();
    ticker = setInterval(draw, SPINNER_TICK_MS);
  }, SPINNER_DELAY_MS);
  return () => {
    clearTimeout(start);
    clearInterval(ticker);
    if (state.spinner === self) state.spinner = outer;
    if (drawn && state.others === 0) io.live('');
  };
}

/** The wait a status line reports on: it ends at `until` (a time in ms, as `now` gives), `ms` after it began. */
export interface StatusDeadline {
  until: number;
  ms: number;
}

export interface StatusLine {
  /**
   * Shows `text` (made safe): redrawn in place at a terminal, a line of its own elsewhere when it
   * changed. With a `deadline`, the line says how long the wait may last; at a terminal it also
   * says, redrawn every second, how long it has lasted.
   */
  /** `narrow`: the line at a terminal too narrow for `text` whole (the words that matter, without what the screen shows already). */
  set(text: string, value?: unknown, deadline?: StatusDeadline, narrow?: string): void;
  /** Removes the line (at a terminal). */
  clear(): void;
}

/**
 * A status line on stderr for long work (following a delivery): one line per change in CI and
 * pipes. `now`: the clock of the deadlines given to set().
 */
export function statusLine(io: IO, now: () => number = Date.now): StatusLine {
  let shown = '';
  let short: string | undefined;
  let deadline: StatusDeadline | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const seconds = (ms: number) => `${Math.max(0, Math.floor(ms / 1000))} s`;
  const state = liveState(io);
  const draw = () => {
    // A countdown (a rate limit's wait) has the one live line; this line is drawn again after it.
    if (state.countdowns > 0) return;
    const waited = deadline ? ` (waited ${seconds(now() - (deadline.until - deadline.ms))} of ${secondsText(deadline.ms)})` : '';
    // The time waited stays whole: the text before it is what a narrow terminal cuts (its short form
    // first, where the text would be cut).
    const room = io.stderrColumns - [...waited].length;
    const text = short !== undefined && fitLine(shown, room) !== shown ? short : shown;
    io.live(`${room >= 20 ? `${fitLine(text, room)}${waited}` : fitLine(text + waited, io.stderrColumns)}`);
  };
  const stopTicking = () => {
    clearInterval(ticker);
    ticker = undefined;
  };
  return {
    set(text, value, wait, narrow) {
      const line = safeText(text);
      if (line === shown && wait?.until === deadline?.until && wait?.ms === deadline?.ms) return;
      if (shown === '') state.others++;
      shown = line;
      short = narrow === undefined ? undefined : safeText(narrow);
      deadline = wait;
      if (!io.liveStderr) {
        const limit = wait ? ` (waiting up to ${secondsText(wait.ms)})` : '';
        io.notice('progress', value ?? text + limit, `${line}${limit}\n`);
        return;
      }
      state.status = draw;
      draw();
      stopTicking();
      // unref: the line never keeps a run alive, even one that ends without clear().
      if (deadline) ticker = setInterval(draw, 1_000).unref();
    },
    clear() {
      if (shown === '') return;
      stopTicking();
      state.others--;
      if (state.status === draw) state.status = undefined;
      if (io.liveStderr) io.live('');
      shown = '';
      short = undefined;
      deadline = undefined;
    },
  };
}
