// paginate() asks for the next page before it hands on the current one, so that the server works on
// it while the current page is printed; it never asks beyond a cursor it is going to refuse.
import { describe, expect, it } from 'vitest';
import { type Page, paginate } from '../../src/api/paginate.js';

function server(pages: Record<string, Page<number>>) {
  const asked: Array<string | undefined> = [];
  const fetchPage = async (from: string | undefined) => {
    asked.push(from);
    const page = pages[from ?? 'first'];
    if (!page) throw new Error(`no page ${from}`);
    return page;
  };
  return { asked, fetchPage };
}

describe('paginate: the next page is on its way while this one is handed on', () => {
  it('page N is yielded after page N+1 was asked for, and nothing is asked after the last', async () => {
    const { asked, fetchPage } = server({ first: { raw: 1, items: [1], next: 'b' }, b: { raw: 2, items: [2], next: 'c' }, c: { raw: 3, items: [3] } });
    const seen: Array<{ page: unknown; askedSoFar: Array<string | undefined> }> = [];
    for await (const page of paginate(fetchPage, undefined, 'list things')) seen.push({ page: page.raw, askedSoFar: [...asked] });
    expect(seen).toEqual([
      { page: 1, askedSoFar: [undefined, 'b'] },
      { page: 2, askedSoFar: [undefined, 'b', 'c'] },
      { page: 3, askedSoFar: [undefined, 'b', 'c'] },
    ]);
  });

  it('a repeated cursor: the page that carries it is still handed on, then the error; the cursor is never asked for', async () => {
    const { asked, fetchPage } = server({ first: { raw: 1, items: [1], next: 'b' }, b: { raw: 2, items: [2], next: 'b' } });
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const page of paginate(fetchPage, undefined, 'list things')) seen.push(page.raw);
      })(),
    ).rejects.toThrow('Could not list things: the server returned a cursor twice');
    expect(seen).toEqual([1, 2]);
    expect(asked).toEqual([undefined, 'b']);
  });

  it('a consumer that stops early leaves no unhandled failure behind from the page asked for in advance', async () => {
    const { fetchPage } = server({ first: { raw: 1, items: [1], next: 'missing' } });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      for await (const page of paginate(fetchPage, undefined, 'list things')) if (page.raw === 1) break;
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('the failure of the page asked for in advance comes after the page before it', async () => {
    const { fetchPage } = server({ first: { raw: 1, items: [1], next: 'missing' } });
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const page of paginate(fetchPage, undefined, 'list things')) seen.push(page.raw);
      })(),
    ).rejects.toThrow('no page missing');
    expect(seen).toEqual([1]);
  });
});
