// core/json-numbers.ts: a server's numbers that a double cannot hold are printed as written; every
// other text is parsed and printed exactly as JSON.parse and JSON.stringify do.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, stringifyJson } from '../../src/core/json-numbers.js';

const roundTrip = (text: string, indent?: number) => stringifyJson(parseJsonExact(text), indent);

describe('parseJsonExact and stringifyJson', () => {
  it('keep what a double cannot hold, and only that', () => {
    expect(roundTrip('{"a":12345678901234567890,"b":-0,"c":1e400,"d":1e-400,"e":1.0,"f":1E2,"g":9007199254740992}')).toBe(
      '{"a":12345678901234567890,"b":-0,"c":1e400,"d":1e-400,"e":1,"f":100,"g":9007199254740992}',
    );
    expect(roundTrip('[-0.0, [1e999], {"k": [0.10000000000000000001]}]')).toBe('[-0.0,[1e999],{"k":[0.10000000000000000001]}]');
  });

  it('are not fooled by strings, escaped quotes, keys that look like numbers, or a key given twice', () => {
    const text = '{"s\\":-0":"x\\"\\\\","1e400":[ "a:12345678901234567890" , 12345678901234567890 ],"d":1e400,"d":5,"e":7,"e":-0}';
    expect(roundTrip(text)).toBe('{"s\\":-0":"x\\"\\\\","1e400":["a:12345678901234567890",12345678901234567890],"d":5,"e":-0}');
  });

  it('a server string that looks like the placeholder stays a string', () => {
    const value = parseJsonExact('{"a":1e400,"b":"\\u0000idm-number-0:0"}');
    expect(stringifyJson(value)).toBe('{"a":1e400,"b":"\\u0000idm-number-0:0"}');
  });

  it('any other JSON: the same value as JSON.parse, the same text as JSON.stringify', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (json, indent) => {
        const text = JSON.stringify(json);
        expect(parseJsonExact(text)).toStrictEqual(JSON.parse(text));
        expect(roundTrip(text, indent)).toBe(JSON.stringify(JSON.parse(text), null, indent));
      }),
    );
  });
});
