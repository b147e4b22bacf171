// paginate() asks for the next page before it hands on the current one (or, when the answer's text
// ends with the cursor, before it parses it), so that the server works on it while the current page
// is printed; never more than one page ahead, never for a cursor seen before or one it could not
// print, and a consumer that stops abandons the page asked for in advance (no request left retrying).
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { createManagement } from '../../src/api/management/index.js';
import { type Page, type PageAsk, paginate } from '../../src/api/paginate.js';
import { parseDomain } from '../../src/config/domain.js';
import { sleep } from '../../src/core/time.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { getToken } from '../helpers/sandbox.js';

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

describe('the next cursor read from the end of the answer: the page after it is asked for before this one is parsed', () => {
  // A server whose answers are texts: onText sees each before the page it stands for is made.
  function textServer(texts: Record<string, { text: string; page: Page<number> }>) {
    const asked: Array<string | undefined> = [];
    const early: boolean[] = [];
    const fetchPage = async (from: string | undefined, { onText }: PageAsk): Promise<Page<number>> => {
      asked.push(from);
      const answer = texts[from ?? 'first'];
      if (!answer) throw new Error(`no page ${from}`);
      // The answer comes back later: on a timer, so after paginate's own turn of the event loop
      // (it lets the request go, hands on the page before, and waits again).
      await new Promise((resolve) => setTimeout(resolve, 1));
      early.push(onText(answer.text));
      return answer.page;
    };
    return { asked, early, fetchPage };
  }

  it('the cursor at the end of the text is asked for before the page that carries it is handed on, and once', async () => {
    const { asked, early, fetchPage } = textServer({
      first: { text: '{"things":[1],"next":"b"}', page: { raw: 1, items: [1], next: 'b' } },
      b: { text: '{"things":[2],\n "next" : "c" }\n', page: { raw: 2, items: [2], next: 'c' } },
      c: { text: '{"things":[3]}', page: { raw: 3, items: [3] } },
    });
    const seen: Array<{ page: unknown; askedBefore: Array<string | undefined> }> = [];
    let askedWhenAnswered: Array<string | undefined> = [];
    const watched = async (from: string | undefined, ask: PageAsk) => {
      const page = await fetchPage(from, ask);
      if (from === undefined) askedWhenAnswered = [...asked];
      return page;
    };
    for await (const page of paginate(watched, undefined, 'list things')) seen.push({ page: page.raw, askedBefore: [...asked] });
    expect(askedWhenAnswered).toEqual([undefined, 'b']); // b was asked for as the first answer's text came in
    expect(asked).toEqual([undefined, 'b', 'c']);
    expect(early).toEqual([true, true, false]);
    expect(seen.map(({ page }) => page)).toEqual([1, 2, 3]);
  });

  it('an answer that comes while the consumer still holds the page before: nothing more is asked for (one page ahead at most)', async () => {
    const { asked, early, fetchPage } = textServer({
      first: { text: '{"things":[1],"next":"b"}', page: { raw: 1, items: [1], next: 'b' } },
      b: { text: '{"things":[2],"next":"c"}', page: { raw: 2, items: [2], next: 'c' } },
      c: { text: '{"things":[3]}', page: { raw: 3, items: [3] } },
    });
    for await (const page of paginate(fetchPage, undefined, 'list things')) {
      // b's answer comes while page 1 is being printed, then the consumer stops.
      while (early.length < 2) await new Promise((resolve) => setImmediate(resolve));
      expect(page.raw).toBe(1);
      break;
    }
    expect(asked).toEqual([undefined, 'b']);
    expect(early).toEqual([true, false]);
  });

  it('a text whose end names another cursor than its page: the page decides, and the early request is never read', async () => {
    const { asked, fetchPage } = textServer({
      first: { text: '{"things":[1],"next":"wrong"}', page: { raw: 1, items: [1], next: 'b' } },
      wrong: { text: '{"things":[9],"next":"further"}', page: { raw: 9, items: [9], next: 'further' } },
      b: { text: '{"things":[2]}', page: { raw: 2, items: [2] } },
    });
    const seen: unknown[] = [];
    for await (const page of paginate(fetchPage, undefined, 'list things')) seen.push(page.raw);
    expect(seen).toEqual([1, 2]);
    // `wrong` was asked for early; its own answer asks for nothing more (it is not the page awaited).
    expect(asked).toEqual([undefined, 'wrong', 'b']);
  });

  it.each([
    ['a cursor seen before', '{"things":[1],"next":"first"}'],
    ['a cursor with a control character', '{"things":[1],"next":"b\u001b"}'],
    ['a cursor that is not a plain string', '{"things":[1],"next":"b\\u0041"}'],
    ['a number', '{"things":[1],"next":5}'],
    ['next not last', '{"next":"b","things":[1]}'],
  ])('%s at the end of the text: nothing is asked for early', async (_what, text) => {
    const { asked, early, fetchPage } = textServer({
      first: { text, page: { raw: 1, items: [1] } },
    });
    for await (const _page of paginate(fetchPage, 'first', 'list things'));
    expect(asked).toEqual(['first']);
    expect(early).toEqual([false]);
  });

  it('against the sandbox: every page is asked for once, in order, and the pages are the listing', async () => {
    const sandbox = await startSandbox({ streams: 250 });
    try {
      const client = createApiClient({
        credentials: { tenant: parseDomain(sandbox.url, 'The domain'), source: 'environment', accessToken: await getToken(sandbox), dir: '/nonexistent', warnings: [] },
        timeoutMs: 30_000,
        maxWaitMs: 60_000,
      });
      try {
        const before = sandbox.requests.length;
        const ids: unknown[] = [];
        for await (const page of createManagement(client).streams.pages({ take: 100 })) ids.push(...page.items.map((item) => (item as { id: unknown }).id));
        const pageRequests = sandbox.requests.slice(before).filter((request) => request.path === '/api/v2/event-streams');
        const froms = pageRequests.map((request) => new URL(request.url, sandbox.url).searchParams.get('from'));
        expect(ids.length).toBeGreaterThanOrEqual(250);
        expect(new Set(ids).size).toBe(ids.length);
        expect(froms).toHaveLength(Math.ceil(ids.length / 100));
        expect(froms[0]).toBeNull();
        expect(new Set(froms).size).toBe(froms.length);
      } finally {
        await client.close();
      }
    } finally {
      await sandbox.close();
    }
  });
});

describe('a consumer that stops: the page asked for in advance is abandoned', () => {
  it.each([
    ['breaks', async (pages: AsyncIterable<Page<number>>) => {
      for await (const _page of pages) break;
    }],
    ['throws', async (pages: AsyncIterable<Page<number>>) => {
      await expect((async () => {
        for await (const _page of pages) throw new Error('printing failed');
      })()).rejects.toThrow('printing failed');
    }],
  ])('the consumer %s: the signal handed to that fetch is aborted; never while the pages are read', async (_name, consume) => {
    const signals: AbortSignal[] = [];
    const fetchPage = async (from: string | undefined, { signal }: PageAsk): Promise<Page<number>> => {
      signals.push(signal);
      return from === undefined ? { raw: 1, items: [1], next: 'b' } : new Promise(() => {}); // page b never comes
    };
    await consume(paginate(fetchPage, undefined, 'list things'));
    expect(signals).toHaveLength(2);
    expect(signals[1]!.aborted).toBe(true);

    const read: AbortSignal[] = [];
    const all = async (from: string | undefined, { signal }: PageAsk): Promise<Page<number>> => {
      read.push(signal);
      expect(signal.aborted).toBe(false);
      return from === undefined ? { raw: 1, items: [1], next: 'b' } : { raw: 2, items: [2] };
    };
    for await (const _page of paginate(all, undefined, 'list things')) expect(read.every((signal) => !signal.aborted)).toBe(true);
  });

  it('against the sandbox: the next page answers 503 and idm waits to retry it; a consumer that stops ends that wait, and the page is asked for once', async () => {
    let sandbox: Sandbox | undefined;
    let faulted = false;
    // Once the first page is answered, every later request of the listing is a 503.
    sandbox = await startSandbox({
      onRequest: (request) => {
        if (faulted || request.path !== '/api/v2/event-streams') return;
        faulted = true;
        sandbox!.addFault({ path: '/api/v2/event-streams', kind: 'status', status: 503, count: Infinity });
      },
    });
    try {
      let waiting!: () => void;
      const retryWaits = new Promise<void>((resolve) => (waiting = resolve));
      let active = 0;
      let quiet: (() => void) | undefined;
      const client = createApiClient({
        credentials: { tenant: parseDomain(sandbox.url, 'The domain'), source: 'environment', accessToken: await getToken(sandbox), dir: '/nonexistent', warnings: [] },
        timeoutMs: 30_000,
        maxWaitMs: 60_000,
        // The wait of the retry policy, as idm waits it: a stop ends it.
        onWait: (ms, _notice, signal) => {
          waiting();
          return sleep(ms, signal);
        },
        onActivity: () => {
          active++;
          return () => {
            active--;
            if (active === 0) quiet?.();
          };
        },
      });
      try {
        const pages = createManagement(client).streams.pages({ take: 1 });
        for await (const page of pages) {
          expect(page.items).toHaveLength(1);
          await retryWaits; // the next page was answered 503, and idm waits to ask again
          break;
        }
        // Every request has ended (its retries and waits too): none is left running.
        if (active > 0) await new Promise<void>((resolve) => (quiet = resolve));
        const asked = sandbox.requests.filter((request) => request.path === '/api/v2/event-streams');
        expect(asked.map((request) => request.status)).toEqual([200, 503]);
      } finally {
        await client.close();
      }
    } finally {
      await sandbox.close();
    }
  });
});
