// Text that commands read from a file or stdin: JSON (`--data-file`, `--mapping-file`), secrets
// (`--client-secret-file`, `--private-key-file`), certificates (`--ca-file`, `--client-cert`). One
// wording for every problem, a usage error naming the flag: nothing has been sent yet. A value that
// may be a secret (a key, or what was meant to be the path of one) is never quoted back. Every read
// stops at the limit of its kind (INPUT_LIMITS): /dev/zero or a wrong file is refused at once, never
// read until memory runs out.
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { parseJsonExact } from '../core/json-numbers.js';
import { jsonSyntaxError } from '../core/json-syntax.js';
import { KB, MB, openToRead, readCappedSync, sizeText as size } from '../core/read.js';
import { looksLikePem } from '../core/secrets.js';
import { expandHome, plural } from '../core/text.js';
import { LIMITS } from '../schemas/constants.js';
import type { IO } from './io.js';

/**
 * The most idm reads of each kind of input, far above any legitimate one. `json`: a request body,
 * no larger than the service accepts. `secret`: a client secret, a webhook's token, password or
 * header value, or a PEM private key (a 16384-bit RSA key is 13 KB). `certificate`: PEM
 * certificates (a CA bundle of every public root is about 220 KB). `seed`: a sandbox seed, which
 * is never sent (thousands of streams).
 */
export const INPUT_LIMITS = { json: LIMITS.requestBodyBytes, secret: 64 * KB, certificate: MB, seed: 64 * MB } as const;
export type InputKind = keyof typeof INPUT_LIMITS;

const TO_UTF8 = 'Save it as UTF-8 (iconv -f latin1 -t utf-8 converts a Latin-1 file)';

/** What each kind is, what to do with an input over its limit, and with one that is not UTF-8. */
const KINDS: Record<InputKind, { what: string; fix: string; notText: string }> = {
  json: { what: 'a JSON body', fix: `The service takes request bodies of up to ${size(INPUT_LIMITS.json)}.`, notText: `${TO_UTF8}.` },
  secret: { what: 'a secret or key', fix: 'Give the file that holds only the secret or key.', notText: `${TO_UTF8}; a key is read as PEM (openssl pkey -inform DER -in key.der -out key.pem).` },
  certificate: { what: 'certificates', fix: 'Give a file of PEM certificates.', notText: 'Give a file of PEM certificates (openssl x509 -inform DER -in cert.der -out cert.pem).' },
  seed: { what: 'a seed', fix: 'See README: Sandbox (seed format).', notText: `${TO_UTF8}.` },
};

/** `source`: stdin, or how the file is named (never by a value that may be a secret). */
function tooLarge(flag: string, source: string, kind: InputKind): UsageError {
  return new UsageError(`${flag}: ${source} holds more than ${size(INPUT_LIMITS[kind])}, the most idm reads for ${KINDS[kind].what}.`, KINDS[kind].fix);
}

/**
 * `bytes` as text: UTF-8, without the byte order mark some editors write first (Notepad,
 * PowerShell's `Out-File`), which JSON.parse refused at line 1, column 1 and a webhook secret kept
 * as its first character. Bytes that are not UTF-8 (a Latin-1 file, a binary one) are a usage error
 * naming the line, never decoded to U+FFFD and sent; in PEM files only the blocks are used, so
 * their other text may be in any encoding. `source`: stdin, or how the file is named.
 */
function decode(flag: string, source: string, bytes: Buffer, kind: InputKind): string {
  if (!isUtf8(bytes) && !looksLikePem(bytes.toString('latin1'))) {
    // A line feed is never part of a multi-byte character: the first line that is not UTF-8 is the one.
    let line = 1;
    for (let start = 0, end = bytes.indexOf(0x0a); end !== -1 && isUtf8(bytes.subarray(start, end)); start = end + 1, end = bytes.indexOf(0x0a, start)) line++;
    throw new UsageError(`${flag}: ${source} is not UTF-8 text (line ${line}).`, KINDS[kind].notText);
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The bytes of `stream` (stdin, a FIFO) until it ends, or undefined as soon as there are more than
 * `limit` (the stream is then destroyed). A stop (Ctrl-C, SIGTERM) ends the wait with its reason.
 */
async function collect(stream: Readable, limit: number, signal: AbortSignal | undefined): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  const stop = () => stream.destroy();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of stream) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      length += bytes.length;
      if (length > limit) return undefined; // leaving the loop destroys the stream
      chunks.push(bytes);
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (signal?.aborted) throw signal.reason;
  return Buffer.concat(chunks, length);
}

/** How often a device with nothing to read yet (a terminal no one types at) is asked again. */
const DEVICE_POLL_MS = 50;

/**
 * A character device (opened non-blocking) as a stream: read on the event loop, a read that would
 * block tried again a moment later, so that a stop (Ctrl-C, SIGTERM) ends the wait. Node can watch
 * a FIFO (a net.Socket) but no other device: a blocking read would hold the process (signals are
 * handled on the event loop), and one in the thread pool would hold it at exit.
 */
function deviceStream(fd: number): Readable {
  const { Readable } = process.getBuiltinModule('node:stream');
  let timer: NodeJS.Timeout | undefined;
  return new Readable({
    read() {
      const chunk = Buffer.allocUnsafe(64 * KB);
      const attempt = () => {
        timer = undefined;
        let read: number;
        try {
          read = readSync(fd, chunk, 0, chunk.length, null);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') timer = setTimeout(attempt, DEVICE_POLL_MS);
          else this.destroy(error as Error);
          return;
        }
        this.push(read === 0 ? null : chunk.subarray(0, read));
      };
      attempt();
    },
    destroy(error, callback) {
      clearTimeout(timer);
      try {
        closeSync(fd);
      } catch {
        // closed already
      }
      callback(error);
    },
  });
}

/**
 * The bytes of the file at `path`, or undefined when it holds more than `limit`: a regular file is
 * measured before it is read, anything else (a device, a FIFO) is read no further than the limit.
 * A FIFO or a character device (a terminal, /dev/tty) may never send: it is read on the event loop,
 * and a stop ends the wait.
 */
async function readCapped(path: string, limit: number, signal: AbortSignal | undefined): Promise<Buffer | undefined> {
  // Opened without waiting, and checked once open: what is read is what was checked.
  const fd = openToRead(path);
  let handedOver = false; // to a stream, which closes it
  try {
    const stats = fstatSync(fd);
    if (stats.isFIFO()) {
      const { Socket } = process.getBuiltinModule('node:net');
      const stream = new Socket({ fd, readable: true, writable: false });
      handedOver = true;
      return collect(stream, limit, signal);
    }
    if (stats.isCharacterDevice()) {
      const stream = deviceStream(fd);
      handedOver = true;
      return collect(stream, limit, signal);
    }
    // A regular file, synchronously: node:fs is loaded already, node:fs/promises would cost
    // start-up for one small read.
    return readCappedSync(fd, limit);
  } finally {
    if (!handedOver) closeSync(fd);
  }
}

/** All of stdin, up to the limit of `kind`; Ctrl-C (or another stop) ends the wait. */
export async function readStdin(flag: string, io: IO, kind: InputKind): Promise<string> {
  const bytes = await collect(io.stdin, INPUT_LIMITS[kind], io.signal);
  if (bytes === undefined) throw tooLarge(flag, 'stdin', kind);
  return decode(flag, 'stdin', bytes, kind);
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

/**
 * A PEM block, more than one line, one long line of base64 (a key's body without its header), or a
 * JSON object (a JWK).
 */
function looksLikeKey(value: string): boolean {
  return looksLikePem(value) || /[\r\n]/.test(value) || /^[A-Za-z0-9+][A-Za-z0-9+/]{63,}={0,2}$/.test(value) || /^\s*\{/.test(value);
}

/**
 * What a value that may be a secret is, without quoting it: its length, and whether it looks like a
 * key (pasted where a path was expected).
 */
export function describeSecretValue(value: string): string {
  return `the value has ${plural(value.length, 'character')}${looksLikeKey(value) ? ' and looks like a key or certificate itself, not a path' : ''}`;
}

/** How messages name the file at `path`: never by a value that may be a secret (see readTextFile). */
function quiet(path: string, kind: InputKind, keyFile: boolean): boolean {
  return (kind === 'secret' && !keyFile) || looksLikeKey(path) || path.length > MAX_QUOTED_PATH;
}

/** How messages name a private key's file at `path`: by its path, unless that may be a key itself. */
export function keyFileName(path: string): string {
  return quiet(path, 'secret', true) ? 'the file' : path;
}

/**
 * A file's path as typed at a prompt, where no shell expands `~`: a leading `~/` (or `~` alone) is
 * the home directory, as it is in a flag's value on the command line; surrounding spaces go.
 */
export function typedPath(value: string, env: NodeJS.ProcessEnv): string {
  return expandHome(value.trim(), env.HOME);
}

/**
 * The text of the file at `path`, at most the limit of `kind`. The message names `flag` and never
 * quotes `path` when it may be a secret: a `secret` kind (it names a secret file: a client secret
 * given in place of its path looks like any word), or a value that looks like a key or is over 256
 * characters, whatever the flag (a key pasted into --ca-file is a key still). A `keyFile` (a private
 * key's PEM file) is quoted otherwise: a key pasted in place of its path is caught by its looks, and
 * the path someone typed at a prompt is on the screen above the message anyway. A PEM block or
 * several lines given for a path is refused before anything is read: that is a key or secret pasted
 * in place of its file, and no file is named so.
 */
export async function readTextFile(flag: string, path: string, kind: InputKind, options: { hint?: string; signal?: AbortSignal; keyFile?: boolean } = {}): Promise<string> {
  // An empty path (an unset variable: --from-file "$FILE") is a missing value, not a file not found.
  if (path.trim() === '') throw new UsageError(`${flag} must be the path of a file.`, options.hint);
  if (looksLikePem(path) || /[\r\n]/.test(path)) {
    throw new UsageError(
      `${flag}: ${describeSecretValue(path)}.`,
      `Put it in a file and give the file's path: a key or secret written as a value ends up in shell history and process lists.`,
    );
  }
  let bytes: Buffer | undefined;
  try {
    bytes = await readCapped(path, INPUT_LIMITS[kind], options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const hidden = quiet(path, kind, options.keyFile === true);
    const where = hidden ? `cannot read the file (${why(error)}). The path is not shown in case it is a secret: ${describeSecretValue(path)}` : `cannot read ${path}: ${why(error)}`;
    // Without the path on screen, the fix is said: a mistyped path, or the secret given in its place.
    throw new UsageError(`${flag}: ${where}.`, options.hint ?? (hidden ? `Check the path: ${flag} takes the path of the file that holds the value, never the value itself.` : undefined));
  }
  const source = quiet(path, kind, options.keyFile === true) ? 'the file' : path;
  if (bytes === undefined) throw tooLarge(flag, source, kind);
  return decode(flag, source, bytes, kind);
}

/**
 * The text of `<path>`, or of stdin for `-`, at most the limit of `kind`. A secret is never read
 * from stdin when stdin is a terminal: typed there it would show on screen (idm's masked prompt is
 * for that), and JSON typed there would wait without a word for Ctrl-D.
 */
export async function readFileOrStdin(flag: string, path: string, io: IO, kind: InputKind, options: { hint?: string } = {}): Promise<string> {
  if (path !== '-') return readTextFile(flag, path, kind, { ...options, signal: io.signal });
  if (io.stdinIsTTY) {
    throw new UsageError(
      `${flag} - reads stdin, which is a terminal here.`,
      options.hint ?? (kind === 'secret' ? `Pipe the value in, or leave out ${flag} to be asked for it at the terminal.` : `Pipe the content in, or give ${flag} a file path.`),
    );
  }
  return readStdin(flag, io, kind);
}

const PEM_MARKERS = { certificate: /-----BEGIN CERTIFICATE-----/, 'private key': /-----BEGIN [A-Z ]*PRIVATE KEY-----/ } as const;

/**
 * The private key block of a PEM text, without what comes before it (a certificate and its key in
 * one file, the certificate first, which a PEM reader takes for the key); the text as it is when
 * it holds no such block.
 */
export function privateKeyBlock(text: string): string {
  return /-----BEGIN ([A-Z ]*PRIVATE KEY)-----[\s\S]*?-----END \1-----/.exec(text)?.[0] ?? text;
}

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
    return parseJsonExact(text); // a number a double cannot hold is sent as written
  } catch {
    if (text.trim() === '') throw new UsageError(`${source} is empty: it must be JSON.`, hint);
    const at = jsonSyntaxError(text);
    const where = at === undefined ? '' : `: at line ${at.line}, column ${at.column}${at.atEnd ? ' (its end)' : ''}, ${at.problem}`;
    throw new UsageError(`${source} is not valid JSON${where}.`, hint ?? JSON_FIX);
  }
}

/** The usual fixes of hand-written JSON. */
const JSON_FIX = 'Strings and property names take double quotes, and no comma comes before } or ].';
