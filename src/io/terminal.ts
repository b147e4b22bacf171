// Every terminal decision in one place (after the GitHub CLI's IOStreams): which streams are
// terminals, whether colour is on, whether idm may prompt. Commands ask this object; none of them
// looks at process.stdout.isTTY or NO_COLOR itself.
import type { Readable, Writable } from 'node:stream';

export interface Streams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
}

export interface IO extends Streams {
  env: NodeJS.ProcessEnv;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Width of the terminal on stdout: its own, else COLUMNS, else 80 (a forced or unknown terminal). */
  readonly columns: number;
  /** Colour on stdout. */
  readonly color: boolean;
  /** Colour on stderr (messages, hints). */
  readonly colorStderr: boolean;
  /**
   * Prompts are allowed: stdin, stdout and stderr are terminals (prompts are drawn on stderr: with it
   * redirected, idm would wait on a question nobody sees) and --no-input is not set.
   */
  readonly canPrompt: boolean;
  /** Running in CI (CI env var set): one-line progress instead of live updates. */
  readonly isCI: boolean;
  /** Set by the global flags once they are parsed. */
  configure(flags: { color?: boolean; input?: boolean }): void;
  out(text: string): void;
  err(text: string): void;
}

// IDM_FORCE_TTY lets tests and the demo run idm in a pipe while it behaves as at a terminal
// ("stdout", "stdin", or "all"); the pseudo-terminal tests use real terminals instead.
function forcedTTY(env: NodeJS.ProcessEnv, which: 'stdin' | 'stdout' | 'stderr'): boolean {
  const forced = env.IDM_FORCE_TTY ?? '';
  return forced === 'all' || forced.split(',').includes(which);
}

export function colorAllowed(env: NodeJS.ProcessEnv, isTTY: boolean, flag: boolean | undefined): boolean {
  if (flag === false) return false; // --no-color
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

const positive = (n: number | undefined): number | undefined => (n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined);

export function createIO(streams: Streams, env: NodeJS.ProcessEnv = process.env): IO {
  // The streams are read lazily: touching process.stdin builds a stream (and loads net) that most
  // runs never use, and every run pays start-up.
  let stdinIsTTY: boolean | undefined;
  const stdoutIsTTY = Boolean(streams.stdout.isTTY) || forcedTTY(env, 'stdout');
  let stderrIsTTY: boolean | undefined;
  let colorFlag: boolean | undefined;
  let inputFlag = true;
  return {
    get stdin() {
      return streams.stdin;
    },
    get stdout() {
      return streams.stdout;
    },
    get stderr() {
      return streams.stderr;
    },
    env,
    get stdinIsTTY() {
      return (stdinIsTTY ??= Boolean(streams.stdin.isTTY) || forcedTTY(env, 'stdin'));
    },
    stdoutIsTTY,
    get columns() {
      const fromEnv = Number(env.COLUMNS);
      return positive(streams.stdout.columns) ?? positive(fromEnv) ?? 80;
    },
    get stderrIsTTY() {
      return (stderrIsTTY ??= Boolean(streams.stderr.isTTY) || forcedTTY(env, 'stderr'));
    },
    get color() {
      return colorAllowed(env, stdoutIsTTY, colorFlag);
    },
    get colorStderr() {
      return colorAllowed(env, this.stderrIsTTY, colorFlag);
    },
    get canPrompt() {
      return inputFlag && stdoutIsTTY && this.stdinIsTTY && this.stderrIsTTY;
    },
    isCI: Boolean(env.CI) && env.CI !== 'false',
    configure(flags) {
      if (flags.color !== undefined) colorFlag = flags.color;
      if (flags.input !== undefined) inputFlag = flags.input;
    },
    out(text) {
      streams.stdout.write(text);
    },
    err(text) {
      streams.stderr.write(text);
    },
  };
}
