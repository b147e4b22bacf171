// JSON as it was written, where JSON.parse gives another value or order. Numbers a double cannot
// hold as written (12345678901234567890, -0, 1e400, 1e-400, 0.10000000000000000001): JSON.parse makes
// them 12345678901234567000, 0, Infinity (written as null) and 0, another value than the service sent
// (--json prints it) or than the user gave (`idm api --data`, `streams test --data`: the body sent).
// Integer-like keys ("7"), which JavaScript objects list before the others whatever the text said.
// The parsed value stays an ordinary one (commands compute with it); the literal is recorded beside
// it, by the object or array that holds it and the key, and an object's order by the object, and
// stringifyJson writes them. Texts that can hold neither (no long digit run, exponent, -0 or key
// of digits after a `:`, `,`, `[` or `{`) are not looked at again: the interface's answers never do.
/** Holder (object or array) -> key (an array's index as a string) -> the number's literal. */
const literals = new WeakMap<object, Map<string, string>>();
/** An object's keys in the order of its text, where JSON.parse put integer-like keys ("7") first. */
const orders = new WeakMap<object, string[]>();
let recorded = 0;

const MAYBE_INEXACT = /[:,[]\s*(?:-0|-?[\d.]{16}|-?[\d.]+[eE])|[{,]\s*"(?:0|[1-9]\d*)"\s*:/;
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
  if (typeof value !== 'object' || value === null || !holdsNumberOrIndexKey(value) || !MAYBE_INEXACT.test(text)) return value;
  // The text is valid JSON: its containers are met in the order of the parsed value's.
  const stack: Array<{ holder: Record<string, unknown>; array: boolean; index: number; keys: Set<string> }> = [];
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
      stack.push({ holder: (container ?? {}) as Record<string, unknown>, array: char === '[', index: 0, keys: new Set() });
      key = undefined;
      i++;
    } else if (char === '}' || char === ']') {
      if (top && !top.array) keepOrder(top.holder, [...top.keys]);
      stack.pop();
      i++;
    } else if (char === ',') {
      if (top?.array) top.index++;
      key = undefined;
      i++;
    } else if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top && !top.array && key === undefined) top.keys.add((key = JSON.parse(text.slice(i, end + 1)) as string));
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

/**
 * Whether parsed JSON holds a number or a key of digits, the only places its text can say more than
 * its value. A page of streams holds neither: this walk (10 us for 100 streams) spares it the text
 * search (40 us compact, 90 us indented), which --all would pay on every page. Deeper than `depth`:
 * assumed to (the text is then walked, without recursion; the client refuses such answers anyway).
 */
function holdsNumberOrIndexKey(value: object, depth = 64): boolean {
  if (depth === 0) return true;
  // Loops without a callback: --all walks a thousand pages, and a closure per object is garbage.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'number' || (typeof child === 'object' && child !== null && holdsNumberOrIndexKey(child, depth - 1))) return true;
    }
    return false;
  }
  let first = true;
  for (const key in value) {
    // JavaScript lists keys of digits first: only the first can be one.
    if (first) {
      const code = key.charCodeAt(0);
      if (code >= 48 && code <= 57) return true;
      first = false;
    }
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === 'number' || (typeof child === 'object' && child !== null && holdsNumberOrIndexKey(child, depth - 1))) return true;
  }
  return false;
}

/** Records the order of an object's keys in its text, when JSON.parse gave them another. */
function keepOrder(holder: object, keys: string[]): void {
  if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) return;
  const own = Object.keys(holder);
  if (own.length !== keys.length || own.every((name, i) => name === keys[i])) return;
  orders.set(holder, keys);
  recorded++;
}

/**
 * An object's keys in the order of its text (Object.keys, unless parseJsonExact recorded another).
 * The object may have changed since (pages merged add a list the first page lacked): its keys now,
 * those of the text in their place and any added after them.
 */
export function keysAsWritten(value: object): string[] {
  const order = orders.get(value);
  if (!order) return Object.keys(value);
  const own = Object.keys(value);
  if (own.length === order.length && order.every((key) => Object.hasOwn(value, key))) return order;
  const written = new Set(order);
  return [...order.filter((key) => Object.hasOwn(value, key)), ...own.filter((key) => !written.has(key))];
}

/** `to`, a copy of some of `from`'s fields (a page without its `next`), keeps their literals and order. */
export function keepExact(from: object, to: object): void {
  const kept = literals.get(from);
  if (kept) for (const [key, literal] of kept) if (Object.hasOwn(to, key)) record(to, key, literal);
  const order = orders.get(from);
  if (order) keepOrder(to, order.filter((key) => Object.hasOwn(to, key)));
}

/** Pushes `items` onto `list`, their literals with them (pages of a list joined). */
export function appendItems(list: unknown[], items: readonly unknown[]): void {
  const kept = literals.get(items);
  const start = list.length;
  for (const item of items) list.push(item);
  if (kept) for (const [index, literal] of kept) record(list, String(start + Number(index)), literal);
}

/**
 * JSON.stringify(value, null, indent), with every number and key order parseJsonExact recorded
 * written as in its text. `at`: the value is `at.holder[at.key]` (a field printed on its own).
 */
export function stringifyJson(value: unknown, indent?: number, at?: { holder: object; key: string }): string | undefined {
  if (recorded === 0) return JSON.stringify(value, null, indent);
  return write(value, at?.holder, at?.key ?? '', indent === undefined ? '' : ' '.repeat(Math.min(10, Math.max(0, indent))), '');
}

/** What JSON.stringify writes for `value` (held by `holder` under `key`), but as parseJsonExact recorded it. */
function write(value: unknown, holder: unknown, key: string, gap: string, pad: string): string | undefined {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') value = (value as { toJSON(key: string): unknown }).toJSON(key);
  if (typeof value === 'number') {
    const literal = typeof holder === 'object' && holder !== null ? literals.get(holder)?.get(key) : undefined;
    return literal ?? JSON.stringify(value);
  }
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = pad + gap;
  const [open, close, comma, colon] = gap === '' ? ['', '', ',', ':'] : [`\n${inner}`, `\n${pad}`, `,\n${inner}`, ': '];
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items: string[] = [];
    for (let index = 0; index < value.length; index++) items.push(write(value[index], value, String(index), gap, inner) ?? 'null');
    return `[${open}${items.join(comma)}${close}]`;
  }
  const members: string[] = [];
  for (const name of keysAsWritten(value)) {
    const text = write((value as Record<string, unknown>)[name], value, name, gap, inner);
    if (text !== undefined) members.push(`${JSON.stringify(name)}${colon}${text}`);
  }
  return members.length === 0 ? '{}' : `{${open}${members.join(comma)}${close}}`;
}
