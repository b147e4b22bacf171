// The sandbox's logs (the tenant's request log, the inbox's records) keep the latest entries within a
// count and a size, so that a sandbox serving a CI pipeline for hours keeps flat memory and its
// control endpoints can always answer: each entry may hold a 1 MiB body, and one answer of 500 MiB or
// more cannot be written at all (`Invalid string length`). See README: Control endpoints.

/** The latest LOG_SIZE to LOG_SIZE + LOG_SLACK entries: the oldest are dropped a thousand at a time. */
export const LOG_SIZE = 10_000;
const LOG_SLACK = 1_000;
/** And at most this many characters (bodies, URLs, headers), the oldest whole entries dropped first. */
export const LOG_CHARS = 64 * 1024 * 1024;

const entryChars = new WeakMap<object, number>();
const listChars = new WeakMap<object[], number>();

/** Appends `entry` (about `chars` characters once written as JSON), dropping the oldest past the bounds. */
export function pushBounded<T extends object>(list: T[], entry: T, chars: number): void {
  list.push(entry);
  entryChars.set(entry, chars);
  const sizeOf = (item: T) => entryChars.get(item) ?? 0;
  // Counted afresh when the list was emptied from outside (sandbox.requests is the caller's too).
  let total = (list.length === 1 ? 0 : (listChars.get(list) ?? 0)) + chars;
  let drop = list.length >= LOG_SIZE + LOG_SLACK ? LOG_SLACK : 0;
  for (let i = 0; i < drop; i++) total -= sizeOf(list[i]!);
  while (total > LOG_CHARS && drop < list.length - 1) total -= sizeOf(list[drop++]!);
  if (drop > 0) list.splice(0, drop);
  listChars.set(list, total);
}

/** Characters of a recorded request's headers, as JSON near enough. */
export function headerChars(headers: Record<string, string>): number {
  let chars = 0;
  for (const [name, value] of Object.entries(headers)) chars += name.length + value.length + 6;
  return chars;
}
