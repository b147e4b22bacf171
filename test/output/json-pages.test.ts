// --all --json writes one document as the pages arrive: it must be byte for byte what
// JSON.stringify(merged, null, 2) prints (with the terminal-unsafe characters escaped), whatever
// the pages hold around their list.
import { describe, expect, it } from 'vitest';
import type { IO } from '../../src/io/io.js';
import { safeJson } from '../../src/io/safe.js';
import { jsonPages } from '../../src/output/json-pages.js';

function written(pages: unknown[], key: string): string {
  let text = '';
  const io = { out: (chunk: string) => (text += chunk) } as unknown as IO;
  const document = jsonPages(io, key);
  for (const page of pages) document.add(page);
  document.end();
  return text;
}

describe('jsonPages', () => {
  it('is exactly the merged pages as JSON.stringify indents them, without next', () => {
    const pages = [
      { total: 5, eventStreams: [{ id: 'a', nested: { list: [1, 2], empty: {} } }, { id: 'b' }], next: 'c1', after: ['x'] },
      { total: 5, eventStreams: [], next: 'c2' },
      { total: 5, eventStreams: [{ id: 'c\u202e\u0085', text: 'line\nbreak' }] },
    ];
    const merged = { total: 5, eventStreams: [{ id: 'a', nested: { list: [1, 2], empty: {} } }, { id: 'b' }, { id: 'c\u202e\u0085', text: 'line\nbreak' }], after: ['x'] };
    const text = written(pages, 'eventStreams');
    expect(text).toBe(`${safeJson(merged, 2)}\n`);
    expect(text).toContain('\\u202e'); // escaped, never raw
    expect(JSON.parse(text)).toEqual(merged);
  });

  it('an empty listing is an empty list; a page without the list adds nothing', () => {
    expect(written([{ deliveries: [] }], 'deliveries')).toBe(`${JSON.stringify({ deliveries: [] }, null, 2)}\n`);
    expect(written([], 'deliveries')).toBe(`${JSON.stringify({ deliveries: [] }, null, 2)}\n`);
    expect(written([{ deliveries: [1] }, { other: true }, { deliveries: [2, 3] }], 'deliveries')).toBe(`${JSON.stringify({ deliveries: [1, 2, 3] }, null, 2)}\n`);
  });
});
