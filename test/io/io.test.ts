// The one object for terminal decisions (src/io/io.ts), on captured streams: colour (a terminal only;
// never with NO_COLOR, TERM=dumb or --no-color; FORCE_COLOR forces it either way), whether idm may
// prompt (stdin, stdout and stderr terminals, and input allowed), JSON mode (notices become JSON
// lines on stderr, nothing live is drawn), the width, and a stdout that closes.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OutputError, StdoutClosedError } from '../../src/core/errors.js';
import { colorAllowed, createIO, type IO } from '../../src/io/io.js';
import { Capture, stdinOf } from '../helpers/capture.js';

interface Setup {
  stdin?: boolean;
  stdout?: boolean;
  stderr?: boolean;
  env?: NodeJS.ProcessEnv;
  columns?: number;
}

function io(setup: Setup = {}): { io: IO; stdout: Capture; stderr: Capture } {
  const stdout = new Capture(setup.stdout ?? false, setup.columns);
  const stderr = new Capture(setup.stderr ?? false, setup.columns);
  return { io: createIO({ stdin: stdinOf('', setup.stdin ?? false), stdout, stderr }, setup.env ?? {}), stdout, stderr };
}

const TERMINAL = { stdin: true, stdout: true, stderr: true };
const ESC = '\u001b[';

describe('colour', () => {
  it('at a terminal: on, and the palette makes it (chalk)', async () => {
    const { io: terminal } = io(TERMINAL);
    await terminal.configure({ color: true });
    expect(terminal.color).toBe(true);
    expect(terminal.colorStderr).toBe(true);
    expect(terminal.palette('stdout').bold('x')).toContain(ESC);
    expect(terminal.palette('stderr').red('x')).toContain(ESC);
  });

  it('piped: off, and the palette is plain', async () => {
    const { io: piped } = io();
    await piped.configure({ color: true });
    expect(piped.color).toBe(false);
    expect(piped.palette('stdout').bold('x')).toBe('x');
  });

  it.each([
    ['NO_COLOR=1', { NO_COLOR: '1' }],
    ['TERM=dumb', { TERM: 'dumb' }],
    ['NO_COLOR=1 with FORCE_COLOR=1', { NO_COLOR: '1', FORCE_COLOR: '1' }],
    ['FORCE_COLOR=0', { FORCE_COLOR: '0' }],
  ])('at a terminal with %s: off, the palette plain', async (_name, env) => {
    const { io: terminal } = io({ ...TERMINAL, env });
    await terminal.configure({ color: true });
    expect(terminal.color).toBe(false);
    expect(terminal.colorStderr).toBe(false);
    expect(terminal.palette('stdout').bold('x')).toBe('x');
    expect(terminal.palette('stderr').yellow('x')).toBe('x');
  });

  it('at a terminal with --no-color: off', async () => {
    const { io: terminal } = io(TERMINAL);
    await terminal.configure({ color: false });
    expect(terminal.color).toBe(false);
    expect(terminal.palette('stdout').bold('x')).toBe('x');
  });

  it('an empty NO_COLOR is not set', () => {
    expect(colorAllowed({ NO_COLOR: '' }, true, undefined)).toBe(true);
  });

  it('FORCE_COLOR=1 colours a pipe, but never against --no-color', async () => {
    expect(colorAllowed({ FORCE_COLOR: '1' }, false, undefined)).toBe(true);
    expect(colorAllowed({ FORCE_COLOR: '1' }, false, false)).toBe(false);
  });

  it('each stream by its own terminal: stdout piped, stderr a terminal', async () => {
    const { io: mixed } = io({ stdout: false, stderr: true });
    await mixed.configure({ color: true });
    expect(mixed.color).toBe(false);
    expect(mixed.colorStderr).toBe(true);
    expect(mixed.palette('stdout').bold('x')).toBe('x');
    expect(mixed.palette('stderr').bold('x')).toContain(ESC);
  });
});

describe('prompting', () => {
  it('allowed when stdin, stdout and stderr are terminals and input is allowed', () => {
    expect(io(TERMINAL).io.canPrompt).toBe(true);
  });

  it.each([
    ['stdin piped', { ...TERMINAL, stdin: false }],
    ['stderr redirected', { ...TERMINAL, stderr: false }],
    ['stdout piped', { ...TERMINAL, stdout: false }],
  ])('never with %s', (_name, setup) => {
    expect(io(setup).io.canPrompt).toBe(false);
  });

  it('never with --no-input, even at a terminal', async () => {
    const { io: terminal } = io(TERMINAL);
    await terminal.configure({ input: false });
    expect(terminal.canPrompt).toBe(false);
  });

  it('never in CI (CI set, but not to false or 0), even at a terminal', () => {
    expect(io({ ...TERMINAL, env: { CI: 'true' } }).io.canPrompt).toBe(false);
    expect(io({ ...TERMINAL, env: { CI: 'false' } }).io.canPrompt).toBe(true);
  });

  it('IDM_FORCE_TTY makes piped streams count as terminals (the tests and the demo)', () => {
    const forced = io({ env: { IDM_FORCE_TTY: 'stdin,stdout,stderr' } }).io;
    expect([forced.stdinIsTTY, forced.stdoutIsTTY, forced.stderrIsTTY, forced.canPrompt]).toEqual([true, true, true, true]);
    const stdoutOnly = io({ env: { IDM_FORCE_TTY: 'stdout' } }).io;
    expect([stdoutOnly.stdoutIsTTY, stdoutOnly.canPrompt]).toEqual([true, false]);
  });
});

describe('JSON mode', () => {
  it('a notice is one JSON line on stderr, and stdout stays empty', async () => {
    const { io: json, stdout, stderr } = io(TERMINAL);
    await json.configure({ json: true });
    expect(json.json).toBe(true);
    json.notice('warning', { message: 'careful', hint: 'do this' }, 'Warning: careful\n');
    json.notice('wait', { reason: 'rate_limited', seconds: 3 }, 'Waiting 3 s\n');
    expect(stderr.text.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([
      { warning: { message: 'careful', hint: 'do this' } },
      { wait: { reason: 'rate_limited', seconds: 3 } },
    ]);
    expect(stdout.text).toBe('');
  });

  it('without --json the same notice is its text', () => {
    const { io: plain, stderr } = io(TERMINAL);
    plain.notice('warning', { message: 'careful' }, 'Warning: careful\n');
    expect(stderr.text).toBe('Warning: careful\n');
  });

  it('nothing live is drawn with --json (or in CI, or with TERM=dumb), and restoring the terminal writes nothing', async () => {
    const { io: json, stderr } = io(TERMINAL);
    expect(json.liveStderr).toBe(true);
    await json.configure({ json: true });
    expect(json.liveStderr).toBe(false);
    json.restoreTerminal();
    expect(stderr.text).toBe('');
    expect(io({ ...TERMINAL, env: { CI: 'true' } }).io.liveStderr).toBe(false);
    expect(io({ ...TERMINAL, env: { TERM: 'dumb' } }).io.liveStderr).toBe(false);
  });

  it('at a terminal, restoring it clears the progress line and shows the cursor', () => {
    const { io: terminal, stderr } = io(TERMINAL);
    terminal.restoreTerminal();
    expect(stderr.text).toBe('\r\u001b[K\u001b[?25h');
  });
});

describe('width and stdout', () => {
  it("the terminal's own width, else COLUMNS, else 80", () => {
    expect(io({ stdout: true, columns: 132 }).io.columns).toBe(132);
    expect(io({ env: { COLUMNS: '100' } }).io.columns).toBe(100);
    expect(io({ env: { COLUMNS: 'wide' } }).io.columns).toBe(80);
    expect(io().io.columns).toBe(80);
  });

  it('a reader that went away (EPIPE) stops the run quietly: the signal says so, nothing more is written', async () => {
    let written = '';
    const closed = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const { io: piped } = io();
    const reader = createIO({ stdin: stdinOf(), stdout: closed, stderr: piped.stderr });
    reader.out('first\n');
    // A write that fails at once stops the run at once; one that fails later, when it does.
    if (!reader.signal.aborted) await new Promise<void>((resolve) => reader.signal.addEventListener('abort', () => resolve(), { once: true }));
    expect(reader.signal.reason).toBeInstanceOf(StdoutClosedError);
    reader.out('second\n');
    expect(written).toBe('first\n');
    expect(() => reader.throwIfStopped()).toThrow(StdoutClosedError);
  });

  it('any other refused write (a full disk) stops the run with an OutputError, thrown to the writer, exit 1', () => {
    const full = new Writable({
      write(_chunk: Buffer, _encoding, done) {
        done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      },
    });
    const { io: piped } = io();
    const writer = createIO({ stdin: stdinOf(), stdout: full, stderr: piped.stderr });
    expect(() => writer.out('first\n')).toThrow(OutputError);
    expect(writer.signal.reason).toBeInstanceOf(OutputError);
    expect((writer.signal.reason as OutputError).exitCode).toBe(1);
    expect(() => writer.out('second\n')).toThrow('Could not write the output: the disk is full (ENOSPC); it is incomplete.');
  });
});
