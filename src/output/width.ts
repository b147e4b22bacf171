// How many terminal columns text takes, and cutting it to a width: what a table needs, fast (a
// table of 10,000 rows measures every cell). Text here has been made safe (no control characters);
// combining marks take no column, East Asian wide and fullwidth characters and emoji take two
// (also the emoji among the older symbols, ✅ ⭐ ⌚, which terminals draw wide).

import { onFirstUse } from '../core/text.js';

const ASCII = /^[\x20-\x7e]*$/;
const zero = onFirstUse(() => /[\p{Mn}\p{Me}\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f]/u);
const emoji = onFirstUse(() => /\p{Extended_Pictographic}/u);
/** Emoji below U+1F000 that terminals show two columns wide (East Asian Width W): ✅ ❌ ⭐ ⌚. */
const wideSymbol = onFirstUse(() => /\p{Emoji_Presentation}/u);

function charWidth(code: number, char: string): number {
  if (zero().test(char)) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  if (code >= 0x231a && code <= 0x2b55 && wideSymbol().test(char)) return 2;
  // A skin tone (🏻-🏿) is not pictographic itself but is wide (East Asian Width W): after a hand
  // (👍🏽) terminals that draw each character in its cells (tmux, xterm, VTE) give it two more.
  if (code >= 0x1f3fb && code <= 0x1f3ff) return 2;
  return code >= 0x1f000 && emoji().test(char) ? 2 : 1;
}

export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0)!, char);
  return width;
}

/**
 * `text` in lines of at most `width` columns, broken at its spaces (runs of spaces count as one); a
 * word wider than `width` is a line of its own, whole. What help paragraphs and a record's long
 * values (event types, scopes) need: a terminal breaks a line in the middle of a word.
 */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const size = displayWidth(word);
    if (line !== '' && used + 1 + size > width) {
      lines.push(line);
      line = word;
      used = size;
    } else {
      line = line === '' ? word : `${line} ${word}`;
      used += (used === 0 ? 0 : 1) + size;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** `text` cut to at most `width` columns, ending in `…` when it was cut. */
export function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  if (ASCII.test(text)) return `${text.slice(0, width - 1)}…`;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0)!, char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/**
 * A URL-like text (`host/path`, also after a word: `webhook host/path`) cut to `width` columns keeping
 * both ends: the host and the end of the path (`hooks.example.com/…/orders`), or, with no room for the
 * whole host, the start of the host and the end of the path (`hooks.ex…/orders`). Streams on one host
 * differ by their paths' ends. A scheme (only before the host: a `://` in the path is the path's)
 * says least and gives way first, a `…` in its place (`http://127.0.0.1:44369` → `…127.0.0.1:44369`).
 * A host alone keeps its start and its port (`…127.0.…:44369`): tenants on one machine differ by
 * their ports.
 */
export function cutKeepingHost(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width < 7) return cut(text, width);
  const scheme = /(^|\s)[a-z][a-z\d+.-]*:\/\//i.exec(text);
  if (scheme) {
    const before = text.slice(0, scheme.index + scheme[1]!.length);
    const rest = text.slice(scheme.index + scheme[0].length);
    const room = width - displayWidth(before) - 1;
    // Too narrow for the start of the host beside its port: the end alone (`…:44369`).
    if (room < Math.max(7, rest.includes('/') ? 0 : (/:\d+$/.exec(rest)?.[0].length ?? 0) + 4)) return `…${lastColumns(text, width - 1)}`;
    return `${before}…${cutKeepingHost(rest, room)}`;
  }
  const slash = text.indexOf('/');
  if (slash < 0) {
    const port = /:\d+$/.exec(text)?.[0] ?? '';
    const room = width - port.length - 1;
    return room >= 3 ? `${firstColumns(text, room)}…${port}` : cut(text, width);
  }
  const host = text.slice(0, slash + 1);
  const room = width - displayWidth(host) - 1;
  if (room >= 6) return `${host}…${lastColumns(text, room)}`;
  const shown = firstColumns(text, Math.ceil((width - 1) / 2));
  return `${shown}…${lastColumns(text, width - 1 - displayWidth(shown))}`;
}

/** The start of `text` that fits in `width` columns, whole characters. */
function firstColumns(text: string, width: number): string {
  return ASCII.test(text) ? text.slice(0, Math.max(0, width)) : columnsFrom(Array.from(text), width, false);
}

/** The end of `text` that fits in `width` columns, whole characters. */
function lastColumns(text: string, width: number): string {
  return ASCII.test(text) ? text.slice(text.length - Math.max(0, width)) : columnsFrom(Array.from(text), width, true);
}

/**
 * Text cut in its middle, keeping its start and (more of) its end: an error's cause is at its end,
 * also when the text is not ASCII (`503 – Service Unavailable`, a wide name), measured in columns.
 */
export function cutMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width < 7) return cut(text, width);
  const start = firstColumns(text, Math.floor((width - 1) / 3));
  return `${start}…${lastColumns(text, width - 1 - displayWidth(start))}`;
}

/**
 * An error message cut to `width` columns keeping its cause, which comes last:
 * `Post "https://127.0.0.1:38802/hook": connect ECONNREFUSED 127.0.0.1:38802` at 20 columns is
 * `Post "…ECONNREFUSED`, not `Post "…7.0.0.1:38802`. A trailing address that the message named
 * already (the URL's host and port) says nothing new and goes first; the end kept then starts at a
 * word (a code such as ECONNREFUSED is whole, or not shown at all), the start taking the columns
 * left; with no room for the start beside the last word, that word alone (`…ECONNREFUSED`). Text
 * whose last word does not fit (one long token) is cut as cutMiddle cuts it.
 */
export function cutCause(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width < 7) return cut(text, width);
  const address = /\s(\S+:\d+)$/.exec(text);
  const said = address && text.slice(0, address.index).includes(address[1]!) ? text.slice(0, address.index).trimEnd() : text;
  if (displayWidth(said) <= width) return said;
  const start = firstColumns(said, Math.floor((width - 1) / 3));
  const end = lastColumns(said, width - 1 - displayWidth(start));
  const before = said.length - end.length - 1;
  // The end from its first whole word (as it is when it starts at one); the columns of the piece
  // left out go to the start.
  const kept = /\s/.test(said[before] ?? ' ') ? end : /^\S*\s+(\S.*)$/s.exec(end)?.[1];
  if (kept !== undefined) return `${firstColumns(said, width - 1 - displayWidth(kept))}…${kept}`;
  // The end is one piece of the last word: that word alone, and as much of the start as fits beside it.
  const lastWord = /\S+$/.exec(said)?.[0] ?? '';
  const wordWidth = displayWidth(lastWord);
  if (lastWord === said || wordWidth > width - 1) return cutMiddle(said, width);
  const room = width - 1 - wordWidth;
  return room >= 3 ? `${firstColumns(said, room)}…${lastWord}` : `…${lastWord}`;
}

/** The whole characters of `chars` that fit in `width` columns, from its start or (`fromEnd`) its end; an end does not start with a mark that belonged to a character left out. */
function columnsFrom(chars: readonly string[], width: number, fromEnd: boolean): string {
  const kept: string[] = [];
  let used = 0;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[fromEnd ? chars.length - 1 - i : i]!;
    const w = charWidth(char.codePointAt(0)!, char);
    if (used + w > width) break;
    kept.push(char);
    used += w;
  }
  if (!fromEnd) return kept.join('');
  while (kept.length > 0 && charWidth(kept.at(-1)!.codePointAt(0)!, kept.at(-1)!) === 0) kept.pop();
  return kept.reverse().join('');
}
