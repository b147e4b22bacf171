// JSON given on the command line (`--data '{...}'`) or read from a file or stdin (`--data-file <path|->`),
// for streams test and provisioning create. Every problem is a usage error naming the flag: nothing
// has been sent yet.
import { readFileSync } from 'node:fs';
import { UsageError } from '../cli/errors.js';
import type { IO } from '../io/terminal.js';

async function readStdin(io: IO): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of `<path>`, or of stdin for `-`. */
export async function readFileOrStdin(flag: string, path: string, io: IO): Promise<string> {
  if (path === '-') return readStdin(io);
  try {
    // Sync: node:fs is loaded already, node:fs/promises would cost start-up for one small read.
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new UsageError(`${flag}: cannot read ${path}: ${why}.`);
  }
}

/** Parses `text` as JSON; a syntax error is a usage error naming where the text came from. */
export function parseJson(source: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = (error as Error).message.replace(/^JSON\.parse: /, '');
    throw new UsageError(`${source} is not valid JSON: ${detail}`, text.trim() === '' ? 'It is empty.' : undefined);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `null`, `array` or the typeof: how a JSON value that has the wrong shape is described. */
export function jsonKind(value: unknown): string {
  if (value === undefined) return 'an empty body'; // a 201/202 without a body (src/api/client.ts parseBody)
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
