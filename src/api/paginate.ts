// Checkpoint pagination (`from` / `take`, answered with a list and a `next` cursor), for every
// paginated command. The iterator yields page after page and stops a server that would make it run
// forever: a cursor seen before (A, B, A, ...), a page that brings nothing but another cursor, or
// more than MAX_PAGES pages. It holds one short cursor per page, never the items.
import { ApiError } from '../core/errors.js';
import { andList, hasUnsafeCharacters, isPlainObject, jsonKind } from '../core/text.js';
import { LIMITS } from '../schemas/constants.js';
import type { ApiClient, Operation } from './client.js';

/** 1,000,000 items at 100 a page: beyond it a listing is a fault of the server (README). */
export const MAX_PAGES = 10_000;

export interface Page<Item = unknown> {
  /** The answer as received, for --json. */
  raw: unknown;
  items: Item[];
  /** The cursor of the following page; absent on the last one. */
  next?: string;
}

const stopped = (what: string, problem: string, fromFlag: string) =>
  new ApiError(`Could not ${what}: ${problem}.`, {
    code: 'bad_response',
    hint: `A fault of the service; the pages can still be read one at a time with ${fromFlag}.`,
  });

/**
 * The advice on a listing's 400: the cursor when one was given; else the flags whose values the query
 * sent (`sent`: a listing's filters, each named when its value was sent), then --take with the size
 * sent (which --all chooses when --take is not given); none when it sent none (the service's words alone).
 */
export function pageRequestHint(query: { from?: string; take?: number }, sent: ReadonlyArray<string | false> = []): string | undefined {
  if (query.from) return 'Check --from: it takes the `next` value of a previous page, as printed.';
  const flags = [...sent, query.take !== undefined && `--take (${LIMITS.takeMin}-${LIMITS.takeMax}: ${query.take} was sent)`].filter((flag): flag is string => Boolean(flag));
  if (flags.length === 0) return undefined;
  return `Check ${andList(flags)}.`;
}

/** What a page fetcher puts in its operation (api/client.ts Operation): the signal, and onText. */
export type PageAsk = Required<Pick<Operation, 'signal' | 'onText'>>;

/**
 * A `next` cursor as the last member of a page's text (`…,"next":"CURSOR"}`), where compact JSON
 * writers put it; undefined for any other text. A guess: the parsed page decides.
 */
const TRAILING_CURSOR = /"next"\s*:\s*"([^"\\]{1,4096})"\s*\}\s*$/;

/**
 * Pages from `from` on, following `next` until the last page; `fromFlag` names how a user reads one
 * page (`--from`). `fetchPage` puts what it is handed in its operation: a signal that is aborted when
 * the consumer stops (it throws, breaks or returns), so that the page asked for in advance is then
 * abandoned, its retries and waits too; and onText, which sees the answer's text first.
 */
export async function* paginate<P extends Page<unknown>>(
  fetchPage: (from: string | undefined, ask: PageAsk) => Promise<P>,
  from: string | undefined,
  what: string,
  fromFlag = '--from',
): AsyncGenerator<P> {
  const cursors = new Set<string>(from === undefined ? [] : [from]);
  const abandon = new AbortController();
  // The next page is asked for before this one is handed on, so that the server works on it while
  // this one is printed (on another core, --all takes the server's time, not the sum): never more
  // than one page ahead. Sooner still when the cursor can be read from the end of the answer's text:
  // then it is asked for before the answer is parsed (early). The parsed page confirms it; a page
  // that names another cursor has that one asked for, and the early request is never read; a page
  // that is refused (no list, too many items, empty with a cursor) may already have had its
  // successor asked for, once, unread (README, hostile input). A failure is met when its page is
  // awaited; one that is never awaited is no failure; stopping abandons them all.
  let awaited = { cursor: from, count: 1 }; // the page the loop waits for, while it waits
  let waiting = false;
  let early: { cursor: string; page: Promise<P> } | undefined;
  const ask = (cursor: string | undefined): Promise<P> => {
    const onText = (text: string) => waiting && cursor === awaited.cursor && askEarly(text);
    const page = fetchPage(cursor, { signal: abandon.signal, onText });
    page.catch(() => {});
    return page;
  };
  const askEarly = (text: string): boolean => {
    const cursor = TRAILING_CURSOR.exec(text.slice(-4200))?.[1];
    if (cursor === undefined || early !== undefined || awaited.count >= MAX_PAGES) return false;
    if (cursors.has(cursor) || hasUnsafeCharacters(cursor)) return false;
    early = { cursor, page: ask(cursor) };
    return true;
  };
  try {
    let pending = ask(from);
    for (let count = 1; ; count++) {
      waiting = true;
      const page = await pending;
      waiting = false;
      const problem = page.next === undefined ? undefined : loopProblem(page, count);
      if (page.next !== undefined && problem === undefined) {
        cursors.add(page.next);
        awaited = { cursor: page.next, count: count + 1 };
        pending = early?.cursor === page.next ? early.page : ask(page.next);
        early = undefined;
        // The request is written to the socket a few ticks from now: let it go before this page's
        // printing, which runs without a pause, holds the event loop.
        await new Promise((resolve) => setImmediate(resolve));
      }
      yield page;
      if (problem !== undefined) throw stopped(what, problem, fromFlag);
      if (page.next === undefined) return;
    }
  } finally {
    abandon.abort(new Error(`${what}: the pages are no longer read`));
  }

  function loopProblem(page: P, count: number): string | undefined {
    if (cursors.has(page.next!)) return 'the server returned a cursor twice, so following it would never end';
    if (page.items.length === 0) return 'the server returned an empty page that points to yet another page';
    if (count >= MAX_PAGES) return `the listing goes on beyond ${MAX_PAGES} pages`;
    return undefined;
  }
}

/**
 * Reads a page answer: an object whose `key` is a list, or (`bareArray`) the list itself, as some
 * endpoints answer when no `from`/`take` is sent. `next` must be a cursor that idm can print safely
 * in a command for the user (no control characters); anything else in the answer is kept as is.
 */
export function readPage<Item = unknown>(
  client: ApiClient,
  operation: Operation,
  status: number,
  body: unknown,
  key: string,
  options: { bareArray?: boolean; maxItems: number },
): Page<Item> {
  const list = options.bareArray && Array.isArray(body) ? body : isPlainObject(body) ? body[key] : undefined;
  if (!Array.isArray(list)) throw client.badAnswer(operation, status, isPlainObject(body) ? `no ${key} list` : `${jsonKind(body)} instead of a page of ${key}`);
  // A page holds at most what was asked for: more is a server that wants idm to drown.
  if (list.length > options.maxItems) throw client.badAnswer(operation, status, `${list.length} items on a page of at most ${options.maxItems}`);
  if (Array.isArray(body)) return { raw: body, items: body as Item[] };
  const next = readCursor(client, operation, status, (body as Record<string, unknown>).next);
  return next === undefined ? { raw: body, items: list as Item[] } : { raw: body, items: list as Item[], next };
}

/** The `next` of a page: absent (undefined, null, ''), or a cursor idm can print safely (a number is read as the cursor it stands for). */
export function readCursor(client: ApiClient, operation: Operation, status: number, given: unknown): string | undefined {
  if (given === undefined || given === null || given === '') return undefined;
  const next = typeof given === 'number' && Number.isFinite(given) ? String(given) : given;
  if (typeof next !== 'string') throw client.badAnswer(operation, status, `a next cursor that is ${jsonKind(next)}`);
  if (hasUnsafeCharacters(next) || next.length > 4096) throw client.badAnswer(operation, status, 'a next cursor that holds control characters or is too long');
  return next;
}
