// Drives the built idm in a real pseudo-terminal, for any test of prompts: a tmux server on a private socket per session, a
// wide window, keys sent with send-keys, the screen read with capture-pane and polled until the
// expected text appears (with a deadline, never a fixed sleep). The exit code is written to a file by
// the shell that ran idm; the pane then stays open (cat) until the test kills the server.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, cliEnv } from './cli.js';

/**
 * How long a screen or an exit is waited for: generous (a busy machine starts a process slowly), since
 * the wait ends as soon as the screen shows what is expected; reaching it is a failure, not a timing.
 */
export const WAIT_MS = 60_000;

/** The pane's title once idm has ended and tmux has drawn all it wrote (then the exit code). */
const EXITED_TITLE = 'idm-test-exited-';

/** The tmux channel on which a recorded terminal's script waits until the recording has started. */
const RECORDING = 'idm-recording';

/** The tmux channel on which a `jobControl` terminal's shell waits to continue idm once it is stopped. */
const CONTINUE = 'idm-continue';

/** What a `jobControl` terminal's shell says once idm has stopped (Ctrl-Z), before it waits to continue it. */
export const STOPPED = 'idm-test-stopped';

export const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;

let counter = 0;

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export class Terminal {
  private readonly socket: string;
  private readonly dir: string;
  private readonly exitFile: string;
  private readonly rawFile: string;

  private constructor(socket: string, dir: string) {
    this.socket = socket;
    this.dir = dir;
    this.exitFile = join(dir, 'exit');
    this.rawFile = join(dir, 'raw');
  }

  /**
   * Starts `idm <args>` in a new terminal (200x50 unless `columns` or `rows`) with a hermetic
   * environment plus `env`; without colour (NO_COLOR) unless `color`.
   */
  /**
   * `term`: the TERM idm sees (tmux gives its own otherwise). `record`: every byte idm writes to the
   * terminal is kept, as written, for raw() (idm starts once the recording has).
   */
  /**
   * `jobControl`: idm runs as a job of a shell with job control (bash, set -m), so that Ctrl-Z stops it
   * as at a user's shell (a job of the script's shell without it is in an orphaned process group, where
   * a stop is discarded); once it is stopped the shell says STOPPED, and continues it as `fg` does
   * when the test calls continueJob().
   */
  static start(args: readonly string[], options: { configDir: string; env: Record<string, string>; columns?: number; rows?: number; color?: boolean; term?: string; record?: boolean; jobControl?: boolean }): Terminal {
    const dir = mkdtempSync(join(tmpdir(), 'idm-tty-'));
    const terminal = new Terminal(`idm-test-${process.pid}-${++counter}`, dir);
    const env = cliEnv(options.configDir, { ...options.env, ...(options.color ? {} : { NO_COLOR: '1' }) });
    const exports = Object.entries(env)
      .filter(([key]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && key !== 'TERM' && !key.startsWith('TMUX'))
      .map(([key, value]) => `export ${key}=${shellQuote(value ?? '')}`);
    // tmux hands the session its own environment (this process's): unset what the hermetic one
    // leaves out. CI first and always, whatever this process has: CI=true (as in CI) turns idm's live
    // progress lines off, which a terminal test must see; a test that wants CI sets it in `env`.
    const unsets = Object.keys(process.env)
      .filter((key) => !(key in env) && key !== 'CI' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !key.startsWith('TMUX'))
      .map((key) => `unset ${key}`);
    const script = join(dir, 'run.sh');
    writeFileSync(
      script,
      [
        'unset CI',
        // A Ctrl-C that the terminal turns into SIGINT (idm reading in cooked mode, not at a prompt)
        // goes to the shell as well: caught (a trap is not inherited), it waits for idm's exit code.
        "trap 'true' INT",
        ...unsets,
        ...exports,
        ...(options.term === undefined ? [] : [`export TERM=${shellQuote(options.term)}`]),
        ...(options.record ? [`tmux -L ${shellQuote(terminal.socket)} wait-for ${RECORDING}`] : []),
        ...(options.jobControl ? ['set -m'] : []),
        `${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}`,
        'code=$?',
        // Stopped (128 + SIGTSTP): said, then continued in the foreground once the test asks.
        ...(options.jobControl ? [`while [ "$code" = 148 ]; do echo ${STOPPED}; tmux -L ${shellQuote(terminal.socket)} wait-for ${CONTINUE}; fg > /dev/null; code=$?; done`] : []),
        // The pane's title set after all that idm wrote (OSC 2, read by exited()): tmux reads the
        // terminal's output in order, so once the title shows, the screen has all of idm's output.
        `printf '\\033]2;${EXITED_TITLE}%s\\033\\\\' "$code"`,
        `echo "EXIT:$code" > ${shellQuote(terminal.exitFile)}`,
        'exec cat > /dev/null',
        '',
      ].join('\n'),
    );
    terminal.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'idm', '-x', String(options.columns ?? 200), '-y', String(options.rows ?? 50), `${options.jobControl ? 'bash' : 'sh'} ${shellQuote(script)}`);
    terminal.tmux('set-option', '-t', 'idm', 'history-limit', '5000');
    if (options.record) {
      terminal.tmux('pipe-pane', '-o', '-t', 'idm', `cat >> ${shellQuote(terminal.rawFile)}`);
      terminal.tmux('wait-for', '-S', RECORDING); // kept by tmux until the script waits for it
    }
    return terminal;
  }

  /** A `jobControl` terminal's stopped idm continued in the foreground (its shell's fg). */
  continueJob(): void {
    this.tmux('wait-for', '-S', CONTINUE);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Everything the terminal showed, scrollback included, wrapped lines joined. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', 'idm', '-S', '-5000');
  }

  /**
   * All that idm wrote to the terminal, byte for byte (escape sequences included), once it has
   * exited: read when the recording holds the title the shell sets after idm (the recording is
   * written by a process of tmux's, which may be behind the screen). Only with `record`.
   */
  async raw(timeoutMs = WAIT_MS): Promise<string> {
    const marker = `\x1b]2;${EXITED_TITLE}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = existsSync(this.rawFile) ? readFileSync(this.rawFile, 'utf8') : '';
      const end = text.indexOf(marker);
      if (end !== -1) return text.slice(0, end);
      if (Date.now() > deadline) throw new Error(`idm's output did not end. Recorded:\n${JSON.stringify(text)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The window title the program running set (OSC 0 or 2); tmux starts it as the host name. */
  title(): string {
    return this.tmux('display-message', '-p', '-t', 'idm', '#{pane_title}').trim();
  }

  /** The terminal's device (`/dev/pts/N`), which idm's stdin, stdout and stderr are. */
  tty(): string {
    return this.tmux('display-message', '-p', '-t', 'idm', '#{pane_tty}').trim();
  }

  /** The pid of idm, while it runs (the child of the pane's shell). */
  idmPid(): number | undefined {
    const shell = this.tmux('display-message', '-p', '-t', 'idm', '#{pane_pid}').trim();
    try {
      const [pid] = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/);
      return pid ? Number(pid) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether the terminal shows its cursor (a prompt hides it while a list shows). */
  cursorShown(): boolean {
    return this.tmux('display-message', '-p', '-t', 'idm', '#{cursor_flag}').trim() === '1';
  }

  /** The terminal's rows as they are: a line that wrapped is two rows here. */
  rows(): string[] {
    return this.tmux('capture-pane', '-p', '-t', 'idm', '-S', '-5000').replace(/\n+$/, '').split('\n');
  }

  /** The rows the terminal shows now (no scrollback). */
  visible(): string {
    return this.tmux('capture-pane', '-p', '-t', 'idm');
  }

  /** Makes the terminal `columns` x `rows`, as a user dragging its window does (idm gets SIGWINCH). */
  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-t', 'idm', '-x', String(columns), '-y', String(rows));
  }

  /** The screen with its colours and styles, as escape sequences. */
  styledScreen(): string {
    return this.tmux('capture-pane', '-p', '-e', '-J', '-t', 'idm', '-S', '-5000');
  }

  /** Named keys: Enter, Down, Up, C-c, C-u. */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'idm', ...keys);
  }

  /** Literal text. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'idm', '-l', '--', text);
  }

  /**
   * Waits until `text` appears at least `count` times on the screen (a prompt asked again shows its
   * question once more), and returns the screen.
   */
  async waitFor(text: string | RegExp, count = 1, timeoutMs = WAIT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const pattern = typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g') : new RegExp(text.source, 'g');
    for (;;) {
      // Exited first: then the screen read after it holds all that idm wrote.
      const exited = this.exited() !== undefined;
      const screen = this.screen();
      if ((screen.match(pattern) ?? []).length >= count) return screen;
      if (exited || Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${String(text)} (x${count}). The screen:\n${screen}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * idm's exit code once it has ended and the terminal shows all it wrote (the shell sets the pane's
   * title after idm, then writes the code to a file: a screen read after this is complete).
   */
  exited(): number | undefined {
    let code: number | undefined;
    try {
      const match = /EXIT:(\d+)/.exec(readFileSync(this.exitFile, 'utf8'));
      code = match ? Number(match[1]) : undefined;
    } catch {
      return undefined;
    }
    return code !== undefined && this.title() === `${EXITED_TITLE}${code}` ? code : undefined;
  }

  /** The exit code of idm, once it has ended. */
  async exitCode(timeoutMs = WAIT_MS): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const code = this.exited();
      if (code !== undefined) return code;
      if (Date.now() > deadline) throw new Error(`idm did not exit. The screen:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
