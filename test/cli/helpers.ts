// Test doubles for run functions: an IO whose streams are captured strings (TTY on or off), and a
// Deps built on it exactly as main() builds its own.
import { PassThrough, Writable } from 'node:stream';
import { createDeps, type Deps, type GlobalOptions } from '../../src/cli/deps.js';
import { createIO, type IO } from '../../src/io/terminal.js';
import type { Prompter } from '../../src/io/prompter.js';

export interface Captured {
  io: IO;
  stdout(): string;
  stderr(): string;
}

class Capture extends Writable {
  text = '';
  isTTY: boolean;
  columns = 200;
  constructor(isTTY: boolean) {
    super();
    this.isTTY = isTTY;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export function captureIO(options: { tty?: boolean; env?: NodeJS.ProcessEnv; stdin?: string } = {}): Captured {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = options.tty ?? false;
  stdin.end(options.stdin ?? '');
  const stdout = new Capture(options.tty ?? false);
  const stderr = new Capture(options.tty ?? false);
  const io = createIO({ stdin, stdout, stderr }, { ...(options.env ?? {}) });
  return { io, stdout: () => stdout.text, stderr: () => stderr.text };
}

export function testDeps(
  captured: Captured,
  globals: Partial<GlobalOptions> = {},
  prompter?: Prompter,
): Deps & { exitCode?: number } {
  const all: GlobalOptions = { json: false, color: false, input: true, debug: false, ...globals };
  captured.io.configure({ color: all.color, input: all.input });
  const deps = createDeps(captured.io, () => all);
  if (prompter) deps.prompter = async () => prompter;
  return deps;
}
