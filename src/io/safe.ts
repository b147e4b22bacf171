// Text that came from a server or a file is hostile until it is made safe here: every character of
// core/text.ts unsafeCharacter becomes a visible escape (`\x1b`, `\u202e`, `\n`), so that a stream
// name can neither drive the terminal (retitle it, clear it, move the cursor) nor forge a line, a
// column or a row for whoever reads the output, by eye or with any line splitter.
import { stringifyJson } from '../core/json-numbers.js';
import { hasUnsafeCharacters, onFirstUse, unsafeCharacter } from '../core/text.js';

const unsafeAll = onFirstUse(() => new RegExp(unsafeCharacter().source, 'gu'));
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/** `text` with every unsafe character shown as its escape; safe text is returned as is. */
export function safeText(text: string): string {
  return hasUnsafeCharacters(text) ? text.replace(unsafeAll(), escape) : text;
}

/**
 * Why free text that idm would send to the service (a name, an action id, a cursor) is refused: it
 * holds a control or invisible character, which the tenant would keep and show to everyone. The
 * character is named escaped, with its place, never the value. Undefined when there is none.
 */
export function unsafeTextProblem(value: string): string | undefined {
  const found = unsafeCharacter().exec(value);
  return found ? `holds a control or invisible character (${safeText(found[0])}, character ${[...value.slice(0, found.index)].length + 1}): give the value without it` : undefined;
}

// What JSON.stringify leaves raw although a terminal may act on it (DEL, C1, format characters such
// as bidi and zero-width ones, U+2028/U+2029): as \u escapes the document is the same JSON value, and inert.
const jsonUnsafe = onFirstUse(() => /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu);
const unitEscapes = (match: string) => [...Array(match.length).keys()].map((i) => `\\u${match.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * JSON text of `value` that is safe on a terminal: the same document, with those characters escaped
 * (and a server's numbers as it wrote them: core/json-numbers.ts). `at`: the value is `at.holder[at.key]`.
 */
export function safeJson(value: unknown, indent?: number, at?: { holder: object; key: string }): string {
  const text = stringifyJson(value, indent, at);
  return text === undefined ? 'null' : safeJsonText(text);
}

// ASCII text without DEL holds none of them. Checked first (as many UTF-8 bytes as characters, and
// no DEL), which is several times faster than the search with Unicode properties: --all prints 50 MB.
const plainAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length && !text.includes('\u007f');

/** Text that JSON.stringify made, with those characters escaped. */
export function safeJsonText(text: string): string {
  return plainAscii(text) ? text : text.replace(jsonUnsafe(), unitEscapes);
}
