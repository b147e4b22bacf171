import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters } from '../../src/core/text.js';
import { safeJson, safeJsonText } from '../../src/io/safe.js';

describe('safeJson', () => {
  it('returns printable ASCII JSON as JSON.stringify made it', () => {
    const value = { id: 'est_1', list: [1, 'two', null], nested: { text: 'tab\there "quoted" \\ back' } };
    expect(safeJson(value, 2)).toBe(JSON.stringify(value, null, 2));
  });

  it.each([
    ['DEL, the one ASCII character a terminal may act on', '\u007f', '\\u007f'],
    ['a C1 control', 'a\u009bb', 'a\\u009bb'],
    ['a bidi override', '\u202e', '\\u202e'],
    ['a zero-width space', '\u200b', '\\u200b'],
    ['a line separator', '\u2028', '\\u2028'],
  ])('escapes %s, and the document stays the same value', (_what, raw, escaped) => {
    const text = safeJson({ name: raw }, 2);
    expect(text).toContain(escaped);
    expect(text).not.toContain(raw);
    expect(JSON.parse(text)).toEqual({ name: raw });
  });

  it('keeps other non-ASCII text as it is', () => {
    expect(safeJsonText('"Zoë 東京 🙂"')).toBe('"Zoë 東京 🙂"');
  });
});

describe('hasUnsafeCharacters', () => {
  it('answers every code point as the Unicode classes do, the printable ASCII shortcut included', () => {
    const classes = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
    const wrong: number[] = [];
    for (let code = 0; code <= 0x10ffff; code += code < 0x30000 ? 1 : 0x101) {
      const char = String.fromCodePoint(code);
      if (hasUnsafeCharacters(`id_${char}`) !== classes.test(char)) wrong.push(code);
    }
    expect(wrong).toEqual([]);
    expect(hasUnsafeCharacters('est_0123456789abcdefghijkl')).toBe(false);
    expect(hasUnsafeCharacters('')).toBe(false);
    expect(hasUnsafeCharacters('a\u007fb')).toBe(true);
    expect(hasUnsafeCharacters('tab\there')).toBe(true);
  });
});
