// The one stand-in for a terminal's or a pipe's streams in tests that run idm in this process: a
// Writable that keeps what was written (TTY or not, a width), and a stdin that holds a given text.
import { PassThrough, Writable } from 'node:stream';

export class Capture extends Writable {
  text = '';
  constructor(
    readonly isTTY = false,
    public columns?: number,
  ) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** A stdin that yields `text` (nothing by default) and ends; a terminal or not. */
export function stdinOf(text = '', isTTY = false): PassThrough & { isTTY: boolean } {
  const stdin = Object.assign(new PassThrough(), { isTTY });
  stdin.end(text);
  return stdin;
}
