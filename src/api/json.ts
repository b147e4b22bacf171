// How deeply an answer nests, checked before anything walks it: the management client's answers and
// the error bodies `idm api --json` prints (a hostile answer could overflow the stack of whatever
// walks it, JSON.stringify included).

/** No answer of the interface nests deeper than a few levels. */
export const MAX_JSON_DEPTH = 64;

/** How deeply `text` nests arrays and objects (a scan that skips strings; no parsing). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}
