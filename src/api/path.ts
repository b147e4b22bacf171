// Paths of the management interface, built so that no value ever changes which endpoint is called:
// each parameter is one whole segment (never `.` or `..`, never empty, no control characters, not
// absurdly long) and is percent-encoded, so that `new URL()` has nothing to resolve. Commands check
// ids against their documented shapes first (schemas/ids.ts); this is the last guard.
import { UsageError } from '../core/errors.js';
import { hasUnsafeCharacters, preview } from '../core/text.js';

const MAX_SEGMENT = 256;

/** Why `value` cannot be a path segment, or undefined. */
export function segmentProblem(value: string): string | undefined {
  if (value === '') return 'is empty';
  if (value === '.' || value === '..') return `cannot be "${value}"`;
  if (value.length > MAX_SEGMENT) return `is longer than ${MAX_SEGMENT} characters`;
  if (hasUnsafeCharacters(value)) return 'holds control or invisible characters';
  return undefined;
}

/** `/a/b/c` from literal parts and parameters; a bad parameter is a usage error naming `what`. */
export function apiPath(strings: TemplateStringsArray, ...params: Array<{ value: string; what: string }>): string {
  let path = strings[0]!;
  params.forEach(({ value, what }, index) => {
    const problem = segmentProblem(value);
    if (problem) throw new UsageError(`The ${what} ${problem}.`);
    path += encodeURIComponent(value) + strings[index + 1]!;
  });
  return path;
}

/** A parameter of apiPath: `apiPath\`/event-streams/${param(id, 'stream id')}\``. */
export function param(value: string, what: string): { value: string; what: string } {
  return { value, what };
}

const RAW_PATH_HINT = 'Give a path below /api/v2, such as /event-streams or /connections/ID/directory-provisioning.';

/**
 * For a management URL given as PATH (copied from --debug or from documentation): the path to give
 * instead, below /api/v2. The query is named, never quoted: it may carry a token.
 */
function urlPathHint(input: string): string {
  let url: URL;
  try {
    url = new URL(input.startsWith('//') ? `https:${input}` : input);
  } catch {
    return RAW_PATH_HINT;
  }
  const path = /^\/api\/v2(\/[^/].*)$/.exec(url.pathname)?.[1];
  if (path === undefined || path.length > MAX_SEGMENT || hasUnsafeCharacters(path)) return RAW_PATH_HINT;
  return `Give its path alone, ${path}${url.search ? ', and its query with --query KEY=VALUE' : ''}.`;
}

/**
 * The PATH of `idm api`, below /api/v2 (`/event-streams/est_…`; the leading `/` optional, a leading
 * `/api/v2` dropped), checked like every path idm builds. Refused as usage errors: a URL or another
 * host, a query or fragment (they go in --query), backslashes, empty segments, and segments that
 * are `.` or `..`, hold control characters or an encoded `/` or `\`, also once percent-decoded.
 * Each segment is sent percent-encoded as decoded here, so the path sent is the path checked.
 */
export function rawPath(input: string): string {
  const refuse = (why: string, hint = RAW_PATH_HINT) => new UsageError(`PATH ${why}.`, hint);
  if (input === '') throw refuse('is empty');
  if (hasUnsafeCharacters(input)) throw refuse('holds control or invisible characters');
  if (/^[a-z][a-z0-9+.-]*:/i.test(input) || input.startsWith('//')) throw refuse("is a URL: idm api calls only the profile's tenant", urlPathHint(input));
  if (input.includes('\\')) throw refuse('holds a backslash');
  if (/[?#]/.test(input)) throw refuse('holds a query or a fragment', 'Give query parameters with --query KEY=VALUE (repeatable).');
  let path = input.startsWith('/') ? input : `/${input}`;
  if (path === '/api/v2' || path.startsWith('/api/v2/')) path = path.slice('/api/v2'.length);
  if (path === '' || path === '/') throw refuse('names no endpoint');
  const segments = path.slice(1).split('/').map((segment) => {
    const shown = preview(segment);
    if (segment === '') throw refuse('has an empty segment (// or a trailing /)');
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      throw refuse(`has a segment that is not valid percent-encoding: ${shown}`);
    }
    if (value === '.' || value === '..') throw refuse(`has a dot segment (${shown}): idm does not resolve . or .. in a path`);
    if (/[/\\]/.test(value)) throw refuse(`has a segment with an encoded / or \\ (${shown})`);
    const problem = segmentProblem(value);
    if (problem) throw refuse(`has a segment that ${problem}`);
    return encodeURIComponent(value);
  });
  return `/${segments.join('/')}`;
}
