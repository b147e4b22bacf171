// Text that commands read from a file or stdin: JSON (`--data-file`, `--mapping-file`), secrets
// (`--client-secret-file`, `--private-key-file`), certificates (`--ca-file`, `--client-cert`). One
// wording for every problem, a usage error naming the flag: nothing has been sent yet. A value that
// may be a secret (a key, or what was meant to be the path of one) is never quoted back.
import { readFileSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { jsonSyntaxError } from '../core/json-syntax.js';
import { looksLikePem } from '../core/secrets.js';
import { plural } from '../core/text.js';
import type { IO } from './io.js';

/** All of stdin; Ctrl-C (or another stop) ends the wait. */
export async function readStdin(io: IO): Promise<string> {
  const chunks: Buffer[] = [];
  const stdin = io.stdin;
  const stop = () => stdin.destroy();
  io.signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  } catch (error) {
    io.throwIfStopped();
    throw error;
  } finally {
    io.signal.removeEventListener('abort', stop);
  }
  io.throwIfStopped();
  return Buffer.concat(chunks).toString('utf8');
}

function why(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'ENAMETOOLONG') return 'the name is too long for a file name';
  return code ?? 'it cannot be read';
}

/** Longer than this, a value given for a path is never quoted back (whatever the flag): a pasted key or token may be. */
const MAX_QUOTED_PATH = 256;

/** A PEM block, more than one line, or one long line of base64 (a key's body without its header). */
function looksLikeKey(value: string): boolean {
  return looksLikePem(value) || /[\r\n]/.test(value) || /^[A-Za-z0-9+][A-Za-z0-9+/]{63,}={0,2}$/.test(value);
}

/**
 * What a value that may be a secret is, without quoting it: its length, and whether it looks like a
 * key (pasted where a path was expected).
 */
export function describeSecretValue(value: string): string {
  return `the value has ${plural(value.length, 'character')}${looksLikeKey(value) ? ' and looks like a key or certificate itself, not a path' : ''}`;
}

/**
 * The text of the file at `path`. The message names `flag` and never quotes `path` when it may be a
 * secret: `secret` (it names a key file), or a value that looks like a key or is over 256 characters,
 * whatever the flag (a key pasted into --ca-file is a key still).
 */
export function readTextFile(flag: string, path: string, options: { hint?: string; secret?: boolean } = {}): string {
  try {
    // Sync: node:fs is loaded already, node:fs/promises would cost start-up for one small read.
    return readFileSync(path, 'utf8');
  } catch (error) {
    const quiet = options.secret || looksLikeKey(path) || path.length > MAX_QUOTED_PATH;
    const where = quiet ? `cannot read the file it names (${why(error)}; ${describeSecretValue(path)})` : `cannot read ${path}: ${why(error)}`;
    throw new UsageError(`${flag}: ${where}.`, options.hint);
  }
}

/**
 * The text of `<path>`, or of stdin for `-`. A secret is never read from stdin when stdin is a
 * terminal: typed there it would show on screen (idm's masked prompt is for that), and JSON typed
 * there would wait without a word for Ctrl-D.
 */
export async function readFileOrStdin(flag: string, path: string, io: IO, options: { secret?: boolean; hint?: string } = {}): Promise<string> {
  if (path !== '-') return readTextFile(flag, path, options);
  if (io.stdinIsTTY) {
    throw new UsageError(
      `${flag} - reads stdin, which is a terminal here.`,
      options.hint ?? (options.secret ? `Pipe the value in, or leave out ${flag} to be asked for it at the terminal.` : `Pipe the content in, or give ${flag} a file path.`),
    );
  }
  return readStdin(io);
}

const PEM_MARKERS = { certificate: /-----BEGIN CERTIFICATE-----/, 'private key': /-----BEGIN [A-Z ]*PRIVATE KEY-----/ } as const;

/** `text` when it holds a PEM block of that kind; `source` names where it came from (a flag and file, stdin). */
export function checkPem(flag: string, source: string, text: string, kind: keyof typeof PEM_MARKERS, hint?: string): string {
  if (!PEM_MARKERS[kind].test(text)) throw new UsageError(`${flag}: ${source} does not hold a PEM ${kind}.`, hint);
  return text;
}

/**
 * Parses `text` as JSON; a syntax error is a usage error naming where the text came from (`source`),
 * the line and column, and what JSON allows there, never any of the text itself: V8's message quotes
 * it, and a file or body may hold a secret. `hint`: the fix, when the caller knows a better one.
 */
export function parseJson(source: string, text: string, hint?: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (text.trim() === '') throw new UsageError(`${source} is empty: it must be JSON.`, hint);
    const at = jsonSyntaxError(text);
    const where = at === undefined ? '' : `: at line ${at.line}, column ${at.column}${at.atEnd ? ' (its end)' : ''}, ${at.problem}`;
    throw new UsageError(`${source} is not valid JSON${where}.`, hint ?? JSON_FIX);
  }
}

/** The usual fixes of hand-written JSON. */
const JSON_FIX = 'Strings and property names take double quotes, and no comma comes before } or ].';
