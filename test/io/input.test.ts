// JSON that does not parse: idm names the place (line, column) and what JSON expects there, and never
// quotes the text (V8 does: `Unexpected token 'r', "root:*:202"... is not valid JSON`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from '../../src/core/json-syntax.js';
import { UsageError } from '../../src/core/errors.js';
import { parseJson } from '../../src/io/input.js';

function refusal(source: string, text: string, hint?: string): UsageError {
  try {
    parseJson(source, text, hint);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`parsed: ${text}`);
}

describe('parseJson', () => {
  it('names the line and column and what is expected there, never the text', () => {
    const cases: Array<[string, string]> = [
      ['root:*:20201:0:99999:7:::\n', 'at line 1, column 1, a value is expected (a "string", a number, true, false, null, an object or an array)'],
      ['{"token": hunter2-secret-value}', 'at line 1, column 11, a value is expected (a "string", a number, true, false, null, an object or an array)'],
      ['{\n  "a": 1,\n  "b": [1, 2,]\n}', 'at line 3, column 14, a value is expected (a "string", a number, true, false, null, an object or an array)'],
      ['{"a": 1,}', 'at line 1, column 9, a property name in double quotes is expected'],
      ["{'password': 'hunter2'}", 'at line 1, column 2, a property name in double quotes is expected'],
      ['{"a" 1}', "at line 1, column 6, ':' is expected after the property name"],
      ['{"a": 1\n', "at line 2, column 1 (its end), ',' or '}' is expected"],
      ['[1, 2 3]', "at line 1, column 7, ',' or ']' is expected"],
      ['{"secret": "hunter2', 'at line 1, column 20 (its end), a string is not closed (a double quote is expected)'],
      ['{"a": "x\\q"}', 'at line 1, column 10, a backslash starts no escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t, or \\u and four hex digits)'],
      // A \u escape goes wrong at its first character that is not a hex digit, where V8 says.
      ['{"a": "\\u12x"}', 'at line 1, column 12, a backslash starts no escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t, or \\u and four hex digits)'],
      ['{"a": "multi\nrow"}', 'at line 1, column 13, a string holds a control character (write \\n for a line break, \\t for a tab)'],
      ['{"a": 1} {"b": 2}', 'at line 1, column 10, something follows the JSON value'],
      ['[1, -x]', 'at line 1, column 6, a digit is expected after the minus sign'],
      ['[1.]', 'at line 1, column 4, a digit is expected after the decimal point'],
      ['[1e+]', 'at line 1, column 5, a digit is expected in the exponent'],
      ['[01]', "at line 1, column 3, ',' or ']' is expected"],
      ['{"名前": "値", "x": ]', 'at line 1, column 18, a value is expected (a "string", a number, true, false, null, an object or an array)'],
    ];
    for (const [text, where] of cases) {
      const error = refusal('--data-file f.json', text);
      expect(error.message, text).toBe(`--data-file f.json is not valid JSON: ${where}.`);
      expect(error.hint).toBe('Strings and property names take double quotes, and no comma comes before } or ].');
      for (const secret of ['hunter2', 'root', '20201', 'password', 'multi', '名前']) expect(`${error.message}\n${error.hint}`).not.toContain(secret);
    }
  });

  it('an empty text says so; a caller may give its own fix', () => {
    expect(refusal('--mapping-file -', ' \n').message).toBe('--mapping-file - is empty: it must be JSON.');
    expect(refusal('--data', '{nope', 'For example: --data \'{"a":1}\'.').hint).toBe('For example: --data \'{"a":1}\'.');
  });

  it('valid JSON is parsed as JSON.parse does', () => {
    expect(parseJson('--data', ' {"a": [1, -2.5e3, true, null, "x\\u00e9"]}\n')).toEqual({ a: [1, -2500, true, null, 'xé'] });
  });
});

describe('jsonSyntaxError', () => {
  // Text near JSON: valid documents with a character inserted, removed or replaced.
  const nearJson = fc
    .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '"', '\\', '{', '}', '[', ']', ':', 'x', '1', ' ', '\n', '-', '.', 'e', '\u0001'), fc.boolean())
    .map(([json, at, char, replace]) => {
      const i = json.length === 0 ? 0 : at % (json.length + 1);
      return `${json.slice(0, i)}${char}${json.slice(replace ? i + 1 : i)}`;
    });

  it('finds an error exactly when JSON.parse refuses, and where V8 says when it gives a position', () => {
    fc.assert(
      fc.property(fc.oneof(nearJson, fc.string(), fc.json()), (text) => {
        let v8: Error | undefined;
        try {
          JSON.parse(text);
        } catch (error) {
          v8 = error as Error;
        }
        const found = jsonSyntaxError(text);
        expect(found === undefined, text).toBe(v8 === undefined);
        // V8 places an unexpected token inside a misspelt literal (`nul` at its end): idm at its start.
        const position = v8 && !/^Unexpected (token|number|string|end)/.test(v8.message) && /at position (\d+)/.exec(v8.message);
        if (found && position) expect(found.offset, `${text} / ${v8!.message}`).toBe(Number(position[1]));
        if (found) {
          const before = text.slice(0, found.offset).split('\n');
          expect([found.line, found.column]).toEqual([before.length, [...before.at(-1)!].length + 1]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('deep nesting is scanned without a stack to overflow', () => {
    expect(jsonSyntaxError(`${'['.repeat(200_000)}x`)?.offset).toBe(200_000);
  });
});
