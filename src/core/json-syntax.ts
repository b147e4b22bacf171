// Where JSON that JSON.parse refused goes wrong, in idm's words. V8's own message quotes the text
// (`Unexpected token 'h', "{"token": hunter2}" is not valid JSON`), and the text may be a secret or
// a file that holds one: this scan finds the first place that breaks RFC 8259 and what was expected
// there, and never returns any of the text. Iterative, so that deep nesting cannot overflow a stack.

export interface JsonSyntaxError {
  /** The character offset (UTF-16 code units, as JSON.parse counts) of the first offending character. */
  offset: number;
  /** 1-based, counted in characters (code points) of the line. */
  line: number;
  column: number;
  /** What is wrong there, in words that quote none of the text: `',' or '}' is expected`. */
  problem: string;
  /** The text ended before the JSON value did. */
  atEnd: boolean;
}

const ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;
const LITERALS = ['true', 'false', 'null'];

/** The first syntax error of `text` as JSON, or undefined when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const stack: Array<'}' | ']'> = [];
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const fail = (problem: string): JsonSyntaxError => {
    const before = text.slice(0, i);
    const lineStart = before.lastIndexOf('\n') + 1;
    return { offset: i, line: before.split('\n').length, column: [...before.slice(lineStart)].length + 1, problem, atEnd: i >= text.length };
  };
  /** A string from its opening quote: undefined when it is whole (i after it), else the error. */
  const string = (): JsonSyntaxError | undefined => {
    i++;
    for (;;) {
      if (i >= text.length) return fail('a string is not closed (a double quote is expected)');
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return undefined;
      }
      if (code < 0x20) return fail('a string holds a control character (write \\n for a line break, \\t for a tab)');
      if (code === 0x5c) {
        i++;
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) {
          // In a \u escape, the first character that is not a hex digit is the offending one (as V8 says).
          if (text[i] === 'u') for (i++; /^[0-9a-fA-F]$/.test(text[i] ?? ''); ) i++;
          return fail('a backslash starts no escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t, or \\u and four hex digits)');
        }
        i = ESCAPE.lastIndex;
      } else i++;
    }
  };
  const digit = () => i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39;
  const digits = () => {
    while (digit()) i++;
  };
  /** A number from its first character (`-` or a digit): undefined when it is whole. */
  const number = (): JsonSyntaxError | undefined => {
    if (text[i] === '-') i++;
    if (!digit()) return fail('a digit is expected after the minus sign');
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      if (!digit()) return fail('a digit is expected after the decimal point');
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digit()) return fail('a digit is expected in the exponent');
      digits();
    }
    return undefined;
  };
  /** An object's property name and its colon, from the name's expected start. */
  const key = (): JsonSyntaxError | undefined => {
    space();
    if (text[i] !== '"') return fail('a property name in double quotes is expected');
    const bad = string();
    if (bad) return bad;
    space();
    if (text[i] !== ':') return fail("':' is expected after the property name");
    i++;
    return undefined;
  };

  for (;;) {
    // A value.
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      space();
      if (text[i] === (c === '{' ? '}' : ']')) i++;
      else {
        stack.push(c === '{' ? '}' : ']');
        if (c === '{') {
          const bad = key();
          if (bad) return bad;
        }
        continue;
      }
    } else if (c === '"') {
      const bad = string();
      if (bad) return bad;
    } else if (c === '-' || digit()) {
      const bad = number();
      if (bad) return bad;
    } else {
      const literal = LITERALS.find((word) => text.startsWith(word, i));
      if (literal) i += literal.length;
      else return fail('a value is expected (a "string", a number, true, false, null, an object or an array)');
    }
    // After a value: a comma and the next one, or the end of its object or array, or of the text.
    for (;;) {
      space();
      const close = stack.at(-1);
      if (close === undefined) return i < text.length ? fail('something follows the JSON value') : undefined;
      if (text[i] === close) {
        i++;
        stack.pop();
        continue;
      }
      if (text[i] !== ',') return fail(`',' or '${close}' is expected`);
      i++;
      if (close === '}') {
        const bad = key();
        if (bad) return bad;
      }
      break;
    }
  }
}
