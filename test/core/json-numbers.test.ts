// core/json-numbers.ts: numbers that a double cannot hold, and integer-like keys, are printed as
// written; every other text is parsed and printed exactly as JSON.parse and JSON.stringify do.
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

  it('a number inside a string stays in the string', () => {
    expect(stringifyJson(parseJsonExact('{"a":1e400,"b":"x\\":-0,12345678901234567890"}'))).toBe('{"a":1e400,"b":"x\\":-0,12345678901234567890"}');
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

describe('key order', () => {
  it('integer-like keys keep their place in the text, nested and at the top', () => {
    const text = '{"b":1,"2":{"z":0,"10":1,"1":2},"a":[{"x":1,"0":2}],"1":3,"b":4}';
    expect(roundTrip(text)).toBe('{"b":4,"2":{"z":0,"10":1,"1":2},"a":[{"x":1,"0":2}],"1":3}');
    expect(roundTrip('{"1":1,"2":2,"x":3}')).toBe('{"1":1,"2":2,"x":3}');
  });
});
