// Small pure helpers on text and JSON values that every layer shares.

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `1 row`, `2 rows`. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** Words in a sentence: `a`, `a and b`, `a, b and c` ('' for none). */
export function andList(words: ReadonlyArray<string | number>): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** A message or hint that quotes a huge pasted value is cut, not echoed whole. */
export function clip(text: string, max = 1000): string {
  if (text.length <= max) return text;
  // Never half of a surrogate pair (an emoji at the cut is left out whole: its first half alone would
  // be shown escaped, `\ud83d`), and what is left out counted in characters, not UTF-16 units.
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  const rest = text.slice(end);
  return `${text.slice(0, end)}… (${rest.length - (rest.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0)} more characters)`;
}

/** A value a one-line message quotes back (a bad argument, a path segment): its first 40 characters, as clip cuts. */
export function preview(value: string): string {
  return clip(value, 40);
}

/**
 * A word of a command that idm prints for the user to run, quoted POSIX-style when it is not made of
 * safe characters: `'it'\''s'`. Text from a server (a cursor, an id) can hold `;`, `$(...)` or
 * control characters; quoted, it is one inert argument.
 */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line for the user to run: every word quoted as needed. */
export function shellCommand(words: ReadonlyArray<string | number>): string {
  return words.map((word) => shellQuote(String(word))).join(' ');
}

/** Makes the command line of a hint from its words (Deps.command adds the run's --profile). */
export type CommandLine = (words: ReadonlyArray<string | number>) => string;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `null`, `an array` or the typeof: how a JSON value that has the wrong shape is described. */
export function jsonKind(value: unknown): string {
  if (value === undefined) return 'an empty body';
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Characters that text for a terminal must never carry as they are: \p{Cc} (C0, DEL, C1, which
 * includes U+0085 and U+001C-U+001E), \p{Cf} (bidi controls, zero-width characters, the BOM),
 * \p{Zl} and \p{Zp} (U+2028, U+2029) and \p{Cs} (lone surrogates). io/safe.ts escapes them in
 * output; input checks refuse them in ids and names.
 */
export const unsafeCharacter = onFirstUse(() => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u);

/** Printable ASCII, none of it unsafe: what ids, cursors and most names are made of. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function hasUnsafeCharacters(text: string): boolean {
  // Printable ASCII is answered without the Unicode classes, which a run then never builds.
  return !PRINTABLE_ASCII.test(text) && unsafeCharacter().test(text);
}

/**
 * `make()`, made on the first call and kept. For regular expressions with Unicode property classes:
 * each takes about 0.1 ms to build, which every start would pay for the few runs that use it.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/**
 * `path` with a leading `~/` (or `~` alone) made the home directory `home`, as a shell expands it,
 * where no shell did: a variable set in a Dockerfile's ENV, a systemd unit or a CI file, a path typed
 * at a prompt. Unchanged without a home (or for `~user/`, which idm does not expand).
 */
export function expandHome(path: string, home: string | undefined): string {
  if (!home || !(path === '~' || path.startsWith('~/'))) return path;
  return home.replace(/\/+$/, '') + path.slice(1) || '/';
}
