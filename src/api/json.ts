// How deeply an answer nests, checked before anything walks it recursively: the management
// client's answers and the error bodies `idm api --json` prints (a hostile answer could overflow the
// stack of whatever walks it, JSON.stringify included). JSON.parse itself does not recurse, so the
// check runs on the parsed value: a walk of a page's few thousand values costs far less than
// scanning its text character by character (--all reads a thousand pages).

/** No answer of the interface nests deeper than a few levels. */
export const MAX_JSON_DEPTH = 64;

/** Whether parsed JSON nests arrays and objects more than `max` levels deep (never recursing past max + 1). */
export function nestsDeeper(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) if (nestsDeeper(child, max - 1)) return true;
  return false;
}
