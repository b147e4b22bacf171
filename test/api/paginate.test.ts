// The pagination iterator every paginated command follows (src/api/paginate.ts), against scripted
// pages: it follows `next` to the last page and stops a server that would make it run forever (a
// cursor seen before, an empty page that points to another, more than MAX_PAGES pages) with a bad
// answer naming how to read pages one at a time; and readPage reads both page shapes (an object
// holding the list and `next`, or the bare list some endpoints answer).
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient, type Operation } from '../../src/api/client.js';
import { MAX_PAGES, paginate, readPage, type Page, type PageAsk } from '../../src/api/paginate.js';
import { parseDomain } from '../../src/config/domain.js';
import { ApiError } from '../../src/core/errors.js';

/** Pages keyed by the cursor that asks for them ('' for the first); records the cursors asked for. */
function scripted(pages: Record<string, Page<string>>) {
  const asked: Array<string | undefined> = [];
  const fetchPage = async (from: string | undefined) => {
    asked.push(from);
    const page = pages[from ?? ''];
    if (!page) throw new Error(`no page for ${String(from)}`);
    return page;
  };
  return { asked, fetchPage };
}

const page = (items: string[], next?: string): Page<string> => ({ raw: { items, next }, items, ...(next === undefined ? {} : { next }) });

/** Every page the iterator yields, and the error it ends with (if any). */
async function follow(iterator: AsyncGenerator<Page<string>>): Promise<{ items: string[]; error?: ApiError }> {
  const items: string[] = [];
  try {
    for await (const each of iterator) items.push(...each.items);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { items, error };
  }
  return { items };
}

describe('paginate', () => {
  it('follows next to the last page, each page once, in order', async () => {
    const { asked, fetchPage } = scripted({ '': page(['a', 'b'], 'A'), A: page(['c'], 'B'), B: page(['d']) });
    const { items, error } = await follow(paginate(fetchPage, undefined, 'list things'));
    expect(error).toBeUndefined();
    expect(items).toEqual(['a', 'b', 'c', 'd']);
    expect(asked).toEqual([undefined, 'A', 'B']);
  });

  it('starts at the given cursor', async () => {
    const { asked, fetchPage } = scripted({ B: page(['d']) });
    expect((await follow(paginate(fetchPage, 'B', 'list things'))).items).toEqual(['d']);
    expect(asked).toEqual(['B']);
  });

  it('a cursor returned twice (A, B, A): stops after the pages read, asks for nothing more', async () => {
    const { asked, fetchPage } = scripted({ '': page(['a'], 'A'), A: page(['b'], 'B'), B: page(['c'], 'A') });
    const { items, error } = await follow(paginate(fetchPage, undefined, 'list things'));
    expect(items).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual([undefined, 'A', 'B']);
    expect(error?.message).toBe('Could not list things: the server returned a cursor twice, so following it would never end.');
    expect(error?.code).toBe('bad_response');
    expect(error?.exitCode).toBe(1);
    expect(error?.hint).toBe('A fault of the service; the pages can still be read one at a time with --from.');
  });

  it('the cursor it started from, returned again, is a repeat too', async () => {
    const { asked, fetchPage } = scripted({ X: page(['a'], 'X') });
    const { error } = await follow(paginate(fetchPage, 'X', 'list things', '--query from=CURSOR'));
    expect(asked).toEqual(['X']);
    expect(error?.message).toContain('returned a cursor twice');
    expect(error?.hint).toContain('one at a time with --query from=CURSOR');
  });

  it('an empty page that points to another: stopped; an empty last page is fine', async () => {
    const looping = scripted({ '': page(['a'], 'A'), A: page([], 'B'), B: page(['never']) });
    const { items, error } = await follow(paginate(looping.fetchPage, undefined, 'list things'));
    expect(items).toEqual(['a']);
    expect(looping.asked).toEqual([undefined, 'A']);
    expect(error?.message).toBe('Could not list things: the server returned an empty page that points to yet another page.');

    const ending = scripted({ '': page(['a'], 'A'), A: page([]) });
    expect(await follow(paginate(ending.fetchPage, undefined, 'list things'))).toEqual({ items: ['a'] });
  });

  it(`more than ${MAX_PAGES} pages: stopped at the cap, no page asked for beyond it (early or not)`, async () => {
    let asked = 0;
    const endless = async (from: string | undefined, { onText }: PageAsk) => {
      asked++;
      const n = from === undefined ? 0 : Number(from);
      onText(`{"things":["item-${n}"],"next":"${n + 1}"}`); // the text offers the next cursor early
      return page([`item-${n}`], String(n + 1));
    };
    const { items, error } = await follow(paginate(endless, undefined, 'list things'));
    expect(items).toHaveLength(MAX_PAGES);
    expect(asked).toBe(MAX_PAGES);
    expect(error?.message).toBe(`Could not list things: the listing goes on beyond ${MAX_PAGES} pages.`);
  });

  it('a page failing is met when it is read: the pages before it are yielded first', async () => {
    const { fetchPage } = scripted({ '': page(['a'], 'A') }); // no page A: its fetch fails
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const each of paginate(fetchPage, undefined, 'list things')) seen.push(...each.items);
      })(),
    ).rejects.toThrow('no page for A');
    expect(seen).toEqual(['a']);
  });
});

describe('readPage: both shapes of a page', () => {
  const client = createApiClient({
    credentials: { tenant: parseDomain('http://127.0.0.1:9', 'The domain'), source: 'environment', accessToken: 'not-used', dir: '/nonexistent', warnings: [] },
    timeoutMs: 1_000,
    maxWaitMs: 0,
  });
  afterAll(() => client.close());
  const operation: Operation = { method: 'GET', path: '/things', action: 'list things' };
  const read = (body: unknown, options: { bareArray?: boolean; maxItems?: number } = {}) =>
    readPage(client, operation, 200, body, 'things', { maxItems: 100, ...options });

  it('an object holding the list and next: items, the cursor, the answer as received', () => {
    const body = { things: [{ id: 1 }, { id: 2 }], next: 'CURSOR', extra: { kept: true } };
    expect(read(body)).toEqual({ raw: body, items: [{ id: 1 }, { id: 2 }], next: 'CURSOR' });
  });

  it('the last page: next absent, null or empty is no cursor; a number is the cursor it stands for', () => {
    for (const next of [undefined, null, '']) expect(read({ things: [], next })).not.toHaveProperty('next');
    expect(read({ things: ['x'], next: 42 }).next).toBe('42');
  });

  it('a bare list where the endpoint may answer one: the items, no cursor', () => {
    const body = [{ id: 1 }, { id: 2 }];
    expect(read(body, { bareArray: true })).toEqual({ raw: body, items: body });
  });

  it('a bare list where a page object is expected, an object without the list: a bad answer', () => {
    expect(() => read([{ id: 1 }])).toThrow('Could not list things: 127.0.0.1:9 answered 200 with an array instead of a page of things.');
    expect(() => read({ other: [] })).toThrow('answered 200 with no things list');
  });

  it('more items than asked for, or a cursor with control characters: a bad answer', () => {
    expect(() => read({ things: ['a', 'b', 'c'] }, { maxItems: 2 })).toThrow('3 items on a page of at most 2');
    expect(() => read({ things: [], next: 'A\u001b[2J' })).toThrow('a next cursor that holds control characters or is too long');
    expect(() => read({ things: [], next: { cursor: 'A' } })).toThrow('a next cursor that is');
  });
});
