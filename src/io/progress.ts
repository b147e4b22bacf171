// Progress on stderr: the countdown of a wait (rate limits, retries) and, later, spinners. At a
// terminal a live line that is redrawn and disappears when done, cut to the terminal's width so
// that it never wraps (a wrapped line would leave its first row behind); in CI, a pipe, with
// --json or TERM=dumb, one line (or one JSON object) per event instead.
import { sleep } from '../core/time.js';
import type { IO } from './io.js';
import { safeText } from './safe.js';

const ERASE_LINE = '\r\x1b[K';

/** `text` cut to fit in `columns - 1` characters (the last column would make some terminals wrap). */
export function fitLine(text: string, columns: number): string {
  const room = Math.max(10, columns - 1);
  const chars = [...text];
  return chars.length <= room ? text : `${chars.slice(0, room - 1).join('')}…`;
}

/**
 * Waits `ms` (a stop cuts it short), saying so: `words(leftMs)` is the line, `value` the JSON
 * notice. At a terminal the line counts down every second.
 */
export async function countdown(io: IO, ms: number, words: (leftMs: number) => string, value: unknown): Promise<void> {
  if (!io.liveStderr) {
    io.notice('wait', value, `${safeText(words(ms))}\n`);
    await sleep(ms, io.signal);
    return;
  }
  const until = Date.now() + ms;
  const show = () => io.err(`${ERASE_LINE}${fitLine(safeText(`${words(until - Date.now())} (Ctrl-C to stop)`), io.stderrColumns)}`);
  show();
  const ticker = setInterval(show, 1_000);
  try {
    await sleep(ms, io.signal);
  } finally {
    clearInterval(ticker);
    io.err(ERASE_LINE);
  }
}

export interface StatusLine {
  /** Shows `text` (made safe): redrawn in place at a terminal, a line of its own elsewhere when it changed. */
  set(text: string, value?: unknown): void;
  /** Removes the line (at a terminal). */
  clear(): void;
}

/** A status line on stderr for long work (following a delivery): one line per change in CI and pipes. */
export function statusLine(io: IO): StatusLine {
  let shown = '';
  return {
    set(text, value) {
      const line = safeText(text);
      if (line === shown) return;
      shown = line;
      if (io.liveStderr) io.err(`${ERASE_LINE}${fitLine(line, io.stderrColumns)}`);
      else io.notice('progress', value ?? text, `${line}\n`);
    },
    clear() {
      if (io.liveStderr && shown !== '') io.err(ERASE_LINE);
      shown = '';
    },
  };
}
