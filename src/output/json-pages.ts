// `--all --json`: one JSON document equal to the first page with the lists of every page joined
// (and no `next`), written as the pages arrive, so that memory stays flat however many there are.
// The text is exactly what JSON.stringify(merged, null, 2) would print.
import { keysAsWritten, stringifyJson } from '../core/json-numbers.js';
import { isPlainObject } from '../core/text.js';
import type { IO } from '../io/io.js';
import { safeJson, safeJsonText } from '../io/safe.js';

export interface JsonPages {
  /** One page as received; its `key` list is appended to the document. */
  add(page: unknown): void;
  /** Closes the document (after the last page). */
  end(): void;
}

/** Indents every line but the first by `pad` (a value nested in the document). */
const nested = (page: object, name: string, value: unknown, pad: string) => safeJson(value, 2, { holder: page, key: name }).replace(/\n/g, `\n${pad}`);

export function jsonPages(io: IO, key: string): JsonPages {
  let first: object | undefined; // the first page, whose other fields are kept
  let after: Array<[string, unknown]> | undefined; // the first page's fields after the list
  let items = 0;
  return {
    add(page) {
      const list = isPlainObject(page) && Array.isArray(page[key]) ? (page[key] as unknown[]) : [];
      let text = '';
      if (after === undefined) {
        first = isPlainObject(page) ? page : {};
        const fields = keysAsWritten(first)
          .filter((name) => name !== 'next')
          .map((name): [string, unknown] => [name, (first as Record<string, unknown>)[name]]);
        const at = fields.findIndex(([name]) => name === key);
        const before = at < 0 ? fields : fields.slice(0, at);
        after = at < 0 ? [] : fields.slice(at + 1);
        text += '{\n';
        for (const [name, value] of before) text += `  ${safeJson(name)}: ${nested(first, name, value, '  ')},\n`;
        text += `  ${safeJson(key)}: [`;
      }
      if (list.length > 0) {
        // One JSON.stringify per page, not per item: inside `{ key: [...] }` the items are already
        // indented as the merged document has them; only the wrapper's own text is cut off.
        const wrapped = stringifyJson({ [key]: list }, 2)!;
        const opening = `{\n  ${JSON.stringify(key)}: [\n`.length;
        text += `${items === 0 ? '\n' : ',\n'}${safeJsonText(wrapped.slice(opening, wrapped.length - '\n  ]\n}'.length))}`;
        items += list.length;
      }
      io.out(text);
    },
    end() {
      if (after === undefined) this.add({ [key]: [] });
      let text = items === 0 ? ']' : '\n  ]';
      for (const [name, value] of after!) text += `,\n  ${safeJson(name)}: ${nested(first!, name, value, '  ')}`;
      io.out(`${text}\n}\n`);
    },
  };
}
