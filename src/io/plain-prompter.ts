// The prompts at TERM=dumb (Emacs's M-x shell, consoles that give a terminal but no cursor control):
// plain questions, one line each, answered by a line, with no escape sequence at all. @inquirer's
// prompts redraw their line on every key (cursor moves, erased lines), which such a terminal shows as
// text. Lines are read with the terminal's own editing (cooked mode, which echoes them); a secret is
// read with echo off (raw mode) and nothing shown for it. A list is numbered and answered by a number.
// Ctrl-C is the IO's stop (SIGINT, exit 130) as at the other prompts; the input ending (Ctrl-D) is a
// cancellation.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CancelledError, InterruptedError } from '../core/errors.js';
import { hasUnsafeCharacters } from '../core/text.js';
import type { IO } from './io.js';
import type { ChoiceOrSeparator, Prompter } from './prompter.js';
import { safeText } from './safe.js';

type Check<V> = ((value: V) => Promise<true | string>) | undefined;

/**
 * What stdin gave beyond the answer read (a pasted block of lines), kept for the next question: per
 * stream, since each command's prompter is its own.
 */
interface Reader {
  pending: string;
  ended: boolean;
  decoder: StringDecoder;
}
const readers = new WeakMap<Readable, Reader>();

/** The next text stdin gives (what was kept first); undefined when it has ended. A stop ends the wait with its reason. */
function nextChunk(stdin: Readable, reader: Reader, signal: AbortSignal): Promise<string | undefined> {
  if (reader.pending !== '') {
    const text = reader.pending;
    reader.pending = '';
    return Promise.resolve(text);
  }
  if (reader.ended) return Promise.resolve(undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const done = () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      stdin.pause();
    };
    const onData = (chunk: Buffer | string) => {
      done();
      resolve(typeof chunk === 'string' ? chunk : reader.decoder.write(chunk));
    };
    const onEnd = () => {
      reader.ended = true;
      done();
      resolve(undefined);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    signal.addEventListener('abort', onAbort, { once: true });
    stdin.resume();
  });
}

/** The length of the escape sequence at `at` (a key such as an arrow: ESC [ A, ESC O P), ESC alone 1. */
function escapeLength(text: string, at: number): number {
  const found = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?/s.exec(text.slice(at, at + 32));
  return found![0].length;
}

const ENDED = () => new CancelledError('Cancelled: the input ended before an answer.');

export function createPlainPrompter(io: IO, checked: <V>(validate: ((value: V) => true | string | Promise<true | string>) | undefined) => Check<V>): Prompter {
  const { stdin } = io;
  let reader = readers.get(stdin);
  if (reader === undefined) readers.set(stdin, (reader = { pending: '', ended: false, decoder: new StringDecoder('utf8') }));
  const state = reader;

  /** One line as typed (without its line end); a stop or the input's end throws. */
  const readLine = async (): Promise<string> => {
    let line = '';
    for (;;) {
      const chunk = await nextChunk(stdin, state, io.signal);
      if (chunk === undefined) throw ENDED();
      const end = chunk.indexOf('\n');
      if (end === -1) {
        line += chunk;
        continue;
      }
      state.pending = chunk.slice(end + 1) + state.pending;
      return (line + chunk.slice(0, end)).replace(/\r$/, '');
    }
  };

  /** A line typed with echo off (raw mode): nothing is shown for it; Backspace and Ctrl-U edit it, Ctrl-C stops. */
  const readHidden = async (): Promise<string> => {
    const raw = stdin.isTTY === true && typeof stdin.setRawMode === 'function';
    if (raw) stdin.setRawMode!(true);
    let line = '';
    try {
      for (;;) {
        const chunk = await nextChunk(stdin, state, io.signal);
        if (chunk === undefined) throw ENDED();
        for (let at = 0; at < chunk.length; at++) {
          const char = chunk[at]!;
          if (char === '\r' || char === '\n') {
            state.pending = chunk.slice(chunk[at + 1] === '\n' && char === '\r' ? at + 2 : at + 1) + state.pending;
            io.err('\n'); // the Enter typed was not echoed either
            return line;
          }
          if (char === '\x03') {
            io.stop(new InterruptedError('SIGINT'));
            throw io.signal.reason;
          }
          if (char === '\x04' && line === '') throw ENDED();
          if (char === '\x7f' || char === '\b') line = [...line].slice(0, -1).join('');
          else if (char === '\x15') line = '';
          else if (char === '\x1b') at += escapeLength(chunk, at) - 1; // a key's sequence (an arrow): no text
          else if (char >= ' ') line += char; // other control keys (Tab, Ctrl-Z) type nothing
        }
      }
    } finally {
      if (raw) stdin.setRawMode!(false);
    }
  };

  /** `promise`, or the stop's reason once the run is stopped (a check reading a FIFO may never end). */
  const untilStopped = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(io.signal.reason);
      if (io.signal.aborted) return onAbort();
      io.signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => io.signal.removeEventListener('abort', onAbort));
    });

  /** Asks `question` until `answer` takes the line typed (a refusal is said, then the question again). */
  const ask = async <T>(question: string, read: () => Promise<string>, answer: (line: string) => Promise<{ value: T } | string>): Promise<T> => {
    io.throwIfStopped();
    try {
      for (;;) {
        io.err(question);
        const verdict = await untilStopped(answer(await read()));
        if (typeof verdict !== 'string') return verdict.value;
        io.err(`> ${verdict}\n`);
        // What was typed ahead (the rest of a paste) was not meant as this question's answer again:
        // the lines after a private key pasted at the secret prompt, each long enough for a secret,
        // were each sent as one. The answer is asked for afresh.
        state.pending = '';
      }
    } catch (error) {
      // The error is said on a line of its own, not after the question (after Ctrl-C, the IO's
      // restoreTerminal sees to that, after the ^C the terminal echoed; not with --json, whose
      // error object must start its line all the same).
      if (!(io.signal.reason instanceof InterruptedError) || io.json) io.err('\n');
      throw error;
    }
  };
  const validated = async (value: string, validate: Check<string>): Promise<{ value: string } | string> => {
    const verdict = validate === undefined ? true : await validate(value);
    return verdict === true ? { value } : verdict;
  };

  /**
   * The choices one a line, those that can be chosen numbered from 1; the others shown with why, and
   * no number. Returns the numbered ones.
   */
  const list = <T>(message: string, choices: ReadonlyArray<ChoiceOrSeparator<T>>) => {
    const numbered: Array<{ value: T; checked?: boolean }> = [];
    const lines = [`? ${safeText(message)}`];
    const width = String(choices.filter((choice) => !('separator' in choice) && !choice.disabled).length).length;
    for (const choice of choices) {
      if ('separator' in choice) {
        lines.push(`  ${safeText(choice.separator)}`);
        continue;
      }
      const name = safeText(choice.name ?? String(choice.value));
      const description = choice.description === undefined ? '' : ` - ${safeText(choice.description)}`;
      if (choice.disabled) {
        lines.push(`  ${' '.repeat(width + 2)}${name}${description} (${typeof choice.disabled === 'string' ? safeText(choice.disabled) : 'cannot be chosen'})`);
        continue;
      }
      numbered.push({ value: choice.value, checked: choice.checked });
      lines.push(`  ${String(numbered.length).padStart(width)}) ${name}${description}`);
    }
    io.err(`${lines.join('\n')}\n`);
    return numbered;
  };
  /** The index of the choice a number names, or why it names none. */
  const pick = (count: number, text: string): number | string => {
    const number = /^\d+$/.test(text) ? Number(text) : NaN;
    return number >= 1 && number <= count ? number - 1 : count === 1 ? 'Enter 1.' : `Enter a number from 1 to ${count}.`;
  };

  return {
    input: (message, options = {}) => {
      const validate = checked(options.validate);
      // As at the other prompts, a default that holds a control character is not offered.
      const offered = options.default === undefined || hasUnsafeCharacters(options.default) ? undefined : options.default;
      const hint = offered === undefined ? '' : ` (${offered})`;
      return ask(`? ${safeText(message)}${hint} `, readLine, (line) => validated(line === '' && offered !== undefined ? offered : line, validate));
    },
    password: (message, options = {}) => {
      const validate = checked(options.validate);
      return ask(`? ${safeText(message)} (not shown as typed) `, readHidden, (line) => validated(line, validate));
    },
    select: async <T>(message: string, choices: ReadonlyArray<ChoiceOrSeparator<T>>, options: { default?: T } = {}) => {
      const numbered = list(message, choices);
      // Enter alone: the default, else the first (where the cursor starts at the other prompts).
      const found = numbered.findIndex((choice) => options.default !== undefined && choice.value === options.default);
      const start = found === -1 ? 0 : found;
      return ask(`Choose 1-${numbered.length} (${start + 1}): `, readLine, async (line) => {
        const text = line.trim();
        const picked = text === '' ? start : pick(numbered.length, text);
        return typeof picked === 'string' ? picked : { value: numbered[picked]!.value };
      });
    },
    checkbox: async <T>(message: string, choices: ReadonlyArray<ChoiceOrSeparator<T>>, options: { required?: boolean } = {}) => {
      const numbered = list(message, choices);
      const marked = numbered.flatMap((choice, index) => (choice.checked ? [index + 1] : []));
      const hint = marked.length > 0 ? ` (${marked.join(' ')})` : '';
      return ask(`Choose one or more of 1-${numbered.length}, separated by spaces${hint}: `, readLine, async (line) => {
        const words = line.split(/[\s,]+/).filter(Boolean);
        const indexes = new Set<number>();
        for (const word of words.length === 0 ? marked.map(String) : words) {
          const picked = pick(numbered.length, word);
          if (typeof picked === 'string') return picked;
          indexes.add(picked);
        }
        if (indexes.size === 0 && options.required) return 'Choose at least one.';
        return { value: [...indexes].sort((a, b) => a - b).map((index) => numbered[index]!.value) };
      });
    },
    // `  12) ` before a name (a choice that cannot be chosen: as many spaces), ` (why)` after it.
    listMargin: (count, disabled) => 4 + String(count).length + (disabled ? 3 : 0),
    confirm: (message, options = {}) => {
      const yes = options.default ?? true;
      return ask(`? ${safeText(message)} (${yes ? 'Y/n' : 'y/N'}) `, readLine, async (line) => {
        const text = line.trim().toLowerCase();
        if (text === '') return { value: yes };
        if (text === 'y' || text === 'yes') return { value: true };
        if (text === 'n' || text === 'no') return { value: false };
        return 'Answer y or n.';
      });
    },
  };
}
