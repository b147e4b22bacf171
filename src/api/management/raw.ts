// `idm api`: any management call, with the client's token, retries and error mapping. The path is
// checked by api/path.ts rawPath; the scope is unknown here, so a 403 names the server's own words.
// With `all`, checkpoint-paginated answers are followed through `next` by the one pagination
// iterator (its loop detection and page cap) and merged into one answer.
import { appendItems, keepExact } from '../../core/json-numbers.js';
import { isPlainObject, jsonKind } from '../../core/text.js';
import type { ApiClient, ApiResponse, HttpMethod, Operation } from '../client.js';
import { paginate, readCursor, type Page, type PageAsk } from '../paginate.js';

export const RAW_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

export interface RawRequest {
  method: HttpMethod;
  /** Below /api/v2, from api/path.ts rawPath. */
  path: string;
  /** Query parameters in order; a key given twice is sent twice. */
  query: ReadonlyArray<readonly [string, string]>;
  /** A JSON value, sent as JSON; undefined: no body. */
  body?: unknown;
}

const HINTS = { 404: 'Check the path: it is below /api/v2 (such as /event-streams/ID).' };

function operation(request: RawRequest, from?: string, ask?: PageAsk): Operation {
  // Without a prototype: a key is the user's word (`constructor`, `__proto__`, `toString`), never Object's.
  const query: Record<string, string[]> = Object.create(null);
  for (const [key, value] of request.query) {
    if (from !== undefined && key === 'from') continue; // the cursor of the page replaces it
    (query[key] ??= []).push(value);
  }
  if (from !== undefined) query.from = [from];
  return { method: request.method, path: request.path, query, body: request.body, action: `${request.method} /api/v2${request.path}`, hints: HINTS, ...ask };
}

/** A page of a raw answer, with the status it came with (a page that cannot be merged is named by it). */
interface RawPage extends Page {
  status: number;
}

/**
 * A page of a raw answer: an object's lists are its array fields (`next` is the cursor), a bare
 * array is a list, anything else (an empty answer, a record without `next`) the one page. Only
 * `raw` is merged: `items` says whether the page brought anything (an empty page that points on is
 * a loop to paginate), without copying its lists.
 */
function readRawPage(client: ApiClient, op: Operation, { status, body }: ApiResponse): RawPage {
  if (Array.isArray(body)) return { raw: body, items: body, status };
  if (!isPlainObject(body)) return { raw: body, items: [], status };
  const holdsItems = Object.entries(body).some(([key, value]) => key !== 'next' && Array.isArray(value) && value.length > 0);
  const next = readCursor(client, op, status, body.next);
  return { raw: body, items: holdsItems ? [body] : [], status, ...(next === undefined ? {} : { next }) };
}

/**
 * `page` joined to what came before: lists under the same key concatenated (a bare array to a bare
 * array), the first page's other fields kept, `next` dropped.
 */
function mergePage(client: ApiClient, op: Operation, merged: unknown, page: unknown, status: number): unknown {
  if (Array.isArray(merged) && Array.isArray(page)) {
    appendItems(merged, page);
    return merged;
  }
  if (!isPlainObject(merged) || !isPlainObject(page)) throw client.badAnswer(op, status, `a following page that is ${jsonKind(page)} where the first was ${jsonKind(merged)}`);
  for (const [key, value] of Object.entries(page)) {
    if (key === 'next' || !Array.isArray(value)) continue;
    const had = merged[key];
    if (had === undefined) merged[key] = value;
    else if (Array.isArray(had)) appendItems(had, value);
  }
  return merged;
}

export function rawApi(client: ApiClient) {
  return {
    /** One call: the answer as received (a 2xx; any other status is thrown as an ApiError carrying the body). */
    call: (request: RawRequest): Promise<ApiResponse> => client.request(operation(request)),

    /** GET every page from the request's own `from` on, merged into one answer (held in memory). */
    async all(request: RawRequest): Promise<unknown> {
      const from = request.query.filter(([key]) => key === 'from').at(-1)?.[1];
      const fetchPage = async (cursor: string | undefined, ask: PageAsk): Promise<RawPage> => {
        const op = operation(request, cursor, ask);
        return readRawPage(client, op, await client.request(op));
      };
      let merged: unknown;
      let first = true;
      for await (const page of paginate(fetchPage, from, `follow the pages of GET /api/v2${request.path}`, '--query from=CURSOR')) {
        merged = first ? (isPlainObject(page.raw) ? withoutNext(page.raw) : page.raw) : mergePage(client, operation(request), merged, page.raw, page.status);
        first = false;
      }
      return merged;
    },
  };
}

function withoutNext(page: Record<string, unknown>): Record<string, unknown> {
  const { next: _next, ...rest } = page;
  keepExact(page, rest);
  return rest;
}

export type RawApi = ReturnType<typeof rawApi>;
