// Every terminal decision in one place (after the GitHub CLI's IOStreams): which streams are
// terminals, colour and its palette, whether idm may prompt, JSON mode, and the signal that stops a
// run. Commands and the layers under them ask this object; none of them looks at process.stdout,
// NO_COLOR, or argv itself, and chalk (loaded here, only when colour is on) is the only maker of colour.
import type { Readable, Writable } from 'node:stream';
import { type IdmError, InterruptedError, OutputError, StdoutClosedError, type StopSignal } from '../core/errors.js';
import { safeJson } from './safe.js';

export interface Streams {
  stdin: Readable & { isTTY?: boolean; isRaw?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

export type NoticeKind = 'warning' | 'wait' | 'debug' | 'progress';

export interface IO extends Streams {
  readonly env: NodeJS.ProcessEnv;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Width of the terminal on stdout: its own, else COLUMNS, else 80. */
  readonly columns: number;
  /** Width of the terminal on stderr (progress lines must fit it). */
  readonly stderrColumns: number;
  /** Colour on stdout / on stderr (messages, hints, prompts). */
  readonly color: boolean;
  readonly colorStderr: boolean;
  /**
   * Prompts are allowed: stdin, stdout and stderr are terminals, --no-input is not set, and this is
   * not CI (CI set): a job whose runner gives it a terminal must fail on a missing value, not hang.
   */
  readonly canPrompt: boolean;
  /** Why idm cannot ask here, for the message that says so: `--no-input`, `CI is set`, `stdin is not a terminal`. */
  readonly cannotAsk: string;
  /** Running in CI (CI set): one line per change instead of live updates. */
  readonly isCI: boolean;
  /** Live, redrawn lines (countdowns, spinners) may be drawn on stderr. */
  readonly liveStderr: boolean;
  /** --json: stdout carries JSON, and every line on stderr is one JSON object. */
  readonly json: boolean;
  /** Aborted when the run must stop: a signal (SIGINT, SIGTERM, SIGHUP), stdout closed, or a write to it refused. */
  readonly signal: AbortSignal;
  /** Applies the global flags once they are parsed (loads chalk when colour is on). */
  configure(flags: { color?: boolean; input?: boolean; json?: boolean }): Promise<void>;
  palette(stream: 'stdout' | 'stderr'): Palette;
  /** Stops the run: everything waiting on `signal` rejects with `reason`. */
  stop(reason: InterruptedError | StdoutClosedError | OutputError): void;
  /** Throws the reason the run was stopped, if it was. */
  throwIfStopped(): void;
  out(text: string): void;
  /** Text on stderr; whole lines written while a live line shows go above it (it is drawn again after them). */
  err(text: string): void;
  /**
   * The live line on stderr (a spinner, a countdown, a status), drawn over the one before; '' erases
   * it. Only where liveStderr allows it.
   */
  live(text: string): void;
  /** A line for people on stderr, or `{"<kind>": value}` with --json. */
  notice(kind: NoticeKind, value: unknown, text: string): void;
  /** Raw mode off, cursor shown, a half-written progress line cleared (after a signal). */
  restoreTerminal(): void;
  /** Installs handlers that turn SIGINT, SIGTERM and SIGHUP into stop(); returns their removal. */
  handleSignals(process: SignalSource): () => void;
  /**
   * For a server that runs until a signal (sandbox start): from now on a reader of stdout that goes
   * away (`| head -1`, stderr too with `2>&1`) ends what is written there, not the run.
   */
  outliveReaders(): void;
}

export interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

// IDM_FORCE_TTY lets tests and the demo run idm in a pipe while it behaves as at a terminal
// ("stdout", "stdin", "stderr", or "all"); the pseudo-terminal tests use real terminals instead.
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

/** Whether two streams write to one pipe or file (`2>&1`): the same file behind their descriptors. */
function samePipe(a: Streams['stdout'], b: Streams['stderr']): boolean {
  const fdA = (a as { fd?: unknown }).fd;
  const fdB = (b as { fd?: unknown }).fd;
  if (typeof fdA !== 'number' || typeof fdB !== 'number') return false;
  try {
    const { fstatSync } = process.getBuiltinModule('node:fs');
    const [statA, statB] = [fstatSync(fdA), fstatSync(fdB)];
    return statA.dev === statB.dev && statA.ino === statB.ino;
  } catch {
    return false;
  }
}

const positive = (n: number | undefined): number | undefined => (n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined);
const identity = (text: string) => text;
export const PLAIN: Palette = { bold: identity, dim: identity, red: identity, green: identity, yellow: identity };

/**
 * The descriptor of the process's stdout when it is a file or a device other than a terminal
 * (`> out.json`, `> /dev/null`): text is written to it with fs.writeSync as it is, where
 * process.stdout would first copy every write into a Buffer of its own (--all --json writes 50 MB).
 * Pipes, sockets and terminals keep their stream.
 */
function fileDescriptor(): number | undefined {
  try {
    const stats = process.getBuiltinModule('node:fs').fstatSync(1);
    if (stats.isFile()) return 1;
    return stats.isCharacterDevice() && !process.getBuiltinModule('node:tty').isatty(1) ? 1 : undefined;
  } catch {
    return undefined;
  }
}

/** All of `text` to `fd` (a file's write may be partial only as it fails: the rest then says why). */
function writeAll(fd: number, text: string): void {
  const { writeSync } = process.getBuiltinModule('node:fs');
  const written = writeSync(fd, text);
  if (written < Buffer.byteLength(text)) {
    const bytes = Buffer.from(text);
    for (let at = written; at < bytes.length; ) at += writeSync(fd, bytes, at);
  }
}

/** Back to the start of the row, erased: what a live line is drawn after. */
const ERASE_LINE = '\r\x1b[K';


export function createIO(streams: Streams, env: NodeJS.ProcessEnv = process.env): IO {
  // The streams are read lazily: touching process.stdin builds a stream (and loads net) that most
  // runs never use, and every run pays start-up.
  let stdinIsTTY: boolean | undefined;
  // The process's own stdout is asked about by its descriptor: process.stdout is a stream whose making
  // costs about 1 ms, which a run writing to a file or /dev/null never needs (out() writes to those
  // with fs.writeSync).
  const stdoutFd = streams === process ? fileDescriptor() : undefined;
  const stdoutIsTTY = (stdoutFd === undefined && Boolean(streams.stdout.isTTY)) || forcedTTY(env, 'stdout');
  let stderrIsTTY: boolean | undefined;
  let colorFlag: boolean | undefined;
  let inputFlag = true;
  let json = false;
  let palettes: { stdout: Palette; stderr: Palette } | undefined;
  const controller = new AbortController();
  // A reader that went away (EPIPE) ends the run quietly; any other write error is a real failure.
  const readerGone = (error: NodeJS.ErrnoException) => error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
  // Any other refused write (a full disk): the run stops with an OutputError (exit 1), said on
  // stderr, rather than crash. A file's write fails at once: out() throws it to the command.
  // outliveReaders(): a reader gone is writes dropped from then on (stdoutGone), the run goes on.
  let outlive = false;
  let stdoutGone = false;
  const stdoutFailed = (error: NodeJS.ErrnoException): IdmError => {
    if (outlive && readerGone(error)) {
      stdoutGone = true;
      return new StdoutClosedError();
    }
    const reason = readerGone(error) ? new StdoutClosedError() : new OutputError(error);
    io.stop(reason);
    return io.signal.reason as IdmError;
  };
  let watchingStdout = false;
  const watchStdout = () => {
    if (watchingStdout) return;
    watchingStdout = true;
    streams.stdout.on('error', stdoutFailed);
  };
  // A closed stderr: what would go there is dropped, and the run goes on (stdout may still be read,
  // and a truncated result must not end in exit 0). When stderr is the same pipe as stdout
  // (`--debug 2>&1 | head -1`), its reader is stdout's too: the run stops as for a closed stdout.
  // Seen at once: a pipe's write fails synchronously (the 'error' event comes later, after the next
  // request would have been sent).
  // A stderr that refuses writes otherwise (a full disk) is dropped the same way: there is nowhere
  // left to say anything, and the exit code still tells.
  let stderrGone = false;
  const stderrFailed = (error: NodeJS.ErrnoException) => {
    if (stderrGone) return;
    stderrGone = true;
    if (readerGone(error) && !outlive && samePipe(streams.stdout, streams.stderr)) io.stop(new StdoutClosedError());
  };
  let watchingStderr = false;
  const watchStderr = () => {
    if (watchingStderr) return;
    watchingStderr = true;
    streams.stderr.on('error', stderrFailed);
  };
  const width = (stream: Streams['stdout' | 'stderr']) => positive(stream.columns) ?? positive(Number(env.COLUMNS)) ?? 80;
  /** The live line shown now ('' when none). */
  let liveLine = '';
  /** The last text on stderr did not end its line (a question waiting for its answer). */
  let stderrLineOpen = false;
  const writeErr = (text: string) => {
    if (stderrGone) return;
    if (text !== '') stderrLineOpen = !text.endsWith('\n');
    watchStderr();
    streams.stderr.write(text);
    if (streams.stderr.errored) stderrFailed(streams.stderr.errored as NodeJS.ErrnoException);
  };

  const io: IO = {
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
    get stderrIsTTY() {
      return (stderrIsTTY ??= Boolean(streams.stderr.isTTY) || forcedTTY(env, 'stderr'));
    },
    get columns() {
      return width(streams.stdout);
    },
    get stderrColumns() {
      return width(streams.stderr);
    },
    get color() {
      return colorAllowed(env, stdoutIsTTY, colorFlag);
    },
    get colorStderr() {
      return colorAllowed(env, io.stderrIsTTY, colorFlag);
    },
    get canPrompt() {
      return inputFlag && !io.isCI && stdoutIsTTY && io.stdinIsTTY && io.stderrIsTTY;
    },
    get cannotAsk() {
      if (!inputFlag) return '--no-input';
      if (io.isCI) return 'CI is set';
      const not = (['stdin', 'stdout', 'stderr'] as const).filter((name) => !(name === 'stdin' ? io.stdinIsTTY : name === 'stdout' ? stdoutIsTTY : io.stderrIsTTY));
      return not.length === 1 ? `${not[0]} is not a terminal` : `${not.slice(0, -1).join(', ')} and ${not.at(-1)} are not terminals`;
    },
    isCI: Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0',
    get liveStderr() {
      return io.stderrIsTTY && !json && !io.isCI && env.TERM !== 'dumb';
    },
    get json() {
      return json;
    },
    signal: controller.signal,
    async configure(flags) {
      if (flags.json !== undefined) json = flags.json;
      if (flags.input !== undefined) inputFlag = flags.input;
      if (flags.color === undefined) return;
      colorFlag = flags.color;
      palettes = undefined;
      if (io.color || io.colorStderr) {
        const { Chalk } = await import('chalk');
        const make = (on: boolean): Palette => (on ? new Chalk({ level: 1 }) : PLAIN);
        palettes = { stdout: make(io.color), stderr: make(io.colorStderr) };
      }
    },
    palette(stream) {
      return palettes?.[stream] ?? PLAIN;
    },
    stop(reason) {
      if (!controller.signal.aborted) controller.abort(reason);
    },
    throwIfStopped() {
      if (controller.signal.aborted) throw controller.signal.reason;
    },
    out(text) {
      if (stdoutGone) return;
      const stopped = controller.signal.reason;
      if (stopped instanceof StdoutClosedError) return;
      if (stopped instanceof OutputError) throw stopped;
      if (stdoutFd !== undefined) {
        try {
          writeAll(stdoutFd, text);
        } catch (error) {
          const reason = stdoutFailed(error as NodeJS.ErrnoException);
          if (reason instanceof OutputError) throw reason;
        }
        return;
      }
      watchStdout();
      streams.stdout.write(text);
      const failed = streams.stdout.errored;
      if (failed) {
        const reason = stdoutFailed(failed as NodeJS.ErrnoException);
        if (reason instanceof OutputError) throw reason;
      }
    },
    err(text) {
      // Lines written while a live line shows (a --debug trace, a note during a wait) take its place
      // and it is drawn again below them, rather than following its text on its row.
      writeErr(liveLine !== '' && text.endsWith('\n') ? `${ERASE_LINE}${text}${liveLine}` : text);
    },
    live(text) {
      liveLine = text;
      writeErr(`${ERASE_LINE}${text}`);
    },
    notice(kind, value, text) {
      // Values may quote a server (a debug trace, a warning): JSON that is inert on a terminal too.
      io.err(json ? `${safeJson({ [kind]: value })}\n` : text);
    },
    restoreTerminal() {
      const { stdin } = streams;
      // A Ctrl-C typed at a terminal in its usual (cooked) mode was echoed by it: `^C` after the text.
      const echoed = Boolean(streams.stderr.isTTY) && !(stdin.isTTY && stdin.isRaw) && (controller.signal.reason as InterruptedError | undefined)?.signal === 'SIGINT';
      if (stdin.isTTY && stdin.isRaw) stdin.setRawMode?.(false);
      // Clears a progress line and shows the cursor (a prompt or spinner may have hidden it). Not at
      // TERM=dumb: no live line was drawn there, and the terminal would show the escapes as text;
      // what follows starts on a line of its own instead, after that `^C` or a question left open.
      liveLine = '';
      if (!io.stderrIsTTY || json) return;
      if (env.TERM !== 'dumb') writeErr(`${ERASE_LINE}\x1b[?25h`);
      else if (echoed || stderrLineOpen) writeErr('\n');
    },
    handleSignals(source) {
      const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
        const handler = () => {
          io.stop(new InterruptedError(signal));
          // A second Ctrl-C while idm is stopping gets Node's default: the process ends at once. Not
          // removed at once: a prompt's own handler (signal-exit), called after this one for the same
          // signal, kills the process when it finds itself the only listener left.
          setImmediate(() => source.off(signal, handler));
        };
        source.on(signal, handler);
        return [signal, handler] as const;
      });
      return () => handlers.forEach(([signal, handler]) => source.off(signal, handler));
    },
    outliveReaders() {
      outlive = true;
    },
  };
  return io;
}
