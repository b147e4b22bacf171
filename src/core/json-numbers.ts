// Numbers of JSON text that a double cannot hold as written (12345678901234567890, -0, 1e400,
// 1e-400, 0.10000000000000000001), kept as written: JSON.parse would make them 12345678901234567000,
// 0, Infinity (written as null) and 0, another value than the service sent (--json prints it) or
// than the user gave (`idm api --data`, `streams test --data`: the body sent).
// The parsed value keeps its ordinary numbers (commands compute with them); the literal is recorded
// beside it, by the object or array that holds it and the key, and printed in its place by
// stringifyJson. Texts that cannot hold such a number (no long digit run, no exponent, no -0 after a
// `:`, `,` or `[`) are not looked at again: the answers of the interface never do.
import { randomBytes } from 'node:crypto';

/** Holder (object or array) -> key (an array's index as a string) -> the number's literal. */
const literals = new WeakMap<object, Map<string, string>>();
let recorded = 0;

const MAYBE_INEXACT = /[:,[]\s*(?:-0|-?[\d.]{16}|-?[\d.]+[eE])/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** `-12.50e3` as `-125e2`: sign, significant digits without leading or trailing zeros, exponent. */
function normalized(literal: string): string | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole! + fraction).replace(/^0+/, '');
  if (digits === '') return `${sign}0`;
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  return `${sign}${digits}e${BigInt(exponent) - BigInt(fraction.length) + BigInt(trailing)}`;
}

/** Whether JSON.stringify of the parsed number writes another value than `literal`. */
function inexact(literal: string, value: number): boolean {
  return normalized(JSON.stringify(value)) !== normalized(literal);
}

function record(holder: object, key: string, literal: string): void {
  const value = (holder as Record<string, unknown>)[key];
  const kept = literals.get(holder);
  // Only where the parsed value is this number (a key given twice keeps the last, as JSON.parse).
  if (typeof value === 'number' && Object.is(value, Number(literal)) && inexact(literal, value)) {
    if (kept) kept.set(key, literal);
    else literals.set(holder, new Map([[key, literal]]));
    recorded++;
  } else kept?.delete(key);
}

/**
 * JSON.parse of a server's answer or a user's body, with the literal of every number a double cannot
 * hold recorded for stringifyJson. Throws as JSON.parse does. Walks the text without recursion (any depth).
 */
export function parseJsonExact(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || !MAYBE_INEXACT.test(text)) return value;
  // The text is valid JSON: its containers are met in the order of the parsed value's.
  const stack: Array<{ holder: Record<string, unknown>; array: boolean; key: string; index: number }> = [];
  let key: string | undefined; // the object key just read, before its value
  const valueAt = (): unknown => {
    const top = stack.at(-1);
    if (!top) return value;
    return top.holder[top.array ? String(top.index) : key!];
  };
  for (let i = 0; i < text.length; ) {
    const char = text[i]!;
    const top = stack.at(-1);
    if (char === '{' || char === '[') {
      const container = valueAt();
      stack.push({ holder: (container ?? {}) as Record<string, unknown>, array: char === '[', key: '', index: 0 });
      key = undefined;
      i++;
    } else if (char === '}' || char === ']') {
      stack.pop();
      i++;
    } else if (char === ',') {
      if (top?.array) top.index++;
      key = undefined;
      i++;
    } else if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top && !top.array && key === undefined) key = JSON.parse(text.slice(i, end + 1)) as string;
      i = end + 1;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(text)![0];
      if (top) record(top.holder, top.array ? String(top.index) : key!, literal);
      i += literal.length;
    } else i++;
  }
  return value;
}

/** The value's literal in `holder` under `key`, when its number could not be held as written. */
function literalAt(holder: unknown, key: string, value: unknown): string | undefined {
  if (typeof value !== 'number' || typeof holder !== 'object' || holder === null) return undefined;
  return literals.get(holder)?.get(key);
}

/** `to` keeps the literals `from` holds for `keys` (a page's fields copied into a merged answer). */
export function keepLiterals(from: object, to: object, keys: Iterable<string> = Object.keys(from)): void {
  const kept = literals.get(from);
  if (!kept) return;
  for (const key of keys) {
    const literal = kept.get(key);
    if (literal !== undefined) record(to, key, literal);
  }
}

/** Pushes `items` onto `list`, their literals with them (pages of a list joined). */
export function appendItems(list: unknown[], items: readonly unknown[]): void {
  const kept = literals.get(items);
  const start = list.length;
  for (const item of items) list.push(item);
  if (kept) for (const [index, literal] of kept) record(list, String(start + Number(index)), literal);
}

let nonce: string | undefined;

/**
 * JSON.stringify(value, null, indent), with every number parseJsonExact recorded written as it was
 * in its text. `at`: the value is `at.holder[at.key]` (a field printed on its own).
 */
export function stringifyJson(value: unknown, indent?: number, at?: { holder: object; key: string }): string | undefined {
  if (recorded === 0) return JSON.stringify(value, null, indent);
  nonce ??= `\u0000idm-number-${randomBytes(12).toString('hex')}:`;
  const kept: string[] = [];
  let root = true; // the first call is for the value itself, held by JSON.stringify's own wrapper
  const text = JSON.stringify(
    value,
    function (this: unknown, key: string, item: unknown) {
      const literal = root ? (at ? literalAt(at.holder, at.key, item) : undefined) : literalAt(this, key, item);
      root = false;
      if (literal === undefined) return item;
      kept.push(literal);
      return `${nonce}${kept.length - 1}`;
    },
    indent,
  );
  if (text === undefined || kept.length === 0) return text;
  const placeholder = new RegExp(`"${JSON.stringify(nonce).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');
  return text.replace(placeholder, (_, index: string) => kept[Number(index)]!);
}
