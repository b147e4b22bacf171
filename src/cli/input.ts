// Text that commands read from a file or stdin: JSON (`--data-file`, `--mapping-file`), secrets
// (`--client-secret-file`, `--private-key-file`), certificates (`--ca-file`, `--client-cert`). One
// wording for every problem, a usage error naming the flag: nothing has been sent yet.
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import type { IO } from '../io/terminal.js';

export async function readStdin(io: IO): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of the file at `path`. */
export function readTextFile(flag: string, path: string, hint?: string): string {
  try {
    // Sync: node:fs is loaded already, node:fs/promises would cost start-up for one small read.
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new UsageError(`${flag}: cannot read ${path}: ${why}.`, hint);
  }
}

/**
 * The text of `<path>`, or of stdin for `-`. A secret is never read from stdin when stdin is a
 * terminal: typed there it would show on screen (idm's masked prompt is for that).
 */
export async function readFileOrStdin(flag: string, path: string, io: IO, options: { secret?: boolean } = {}): Promise<string> {
  if (path !== '-') return readTextFile(flag, path);
  if (options.secret && io.stdinIsTTY) {
    throw new UsageError(`${flag} - reads stdin, which is a terminal here.`, `Pipe the value in, or leave out ${flag} to be asked for it at the terminal.`);
  }
  return readStdin(io);
}

const PEM_MARKERS = { certificate: /-----BEGIN CERTIFICATE-----/, 'private key': /-----BEGIN [A-Z ]*PRIVATE KEY-----/ } as const;

/** `text` when it holds a PEM block of that kind; `source` names where it came from (a path, stdin). */
export function checkPem(flag: string, source: string, text: string, kind: keyof typeof PEM_MARKERS, hint?: string): string {
  if (!PEM_MARKERS[kind].test(text)) throw new UsageError(`${flag}: ${source} does not hold a PEM ${kind}.`, hint);
  return text;
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
