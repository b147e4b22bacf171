// Paths of the management interface, built so that no value ever changes which endpoint is called:
// each parameter is one whole segment (never `.` or `..`, never empty, no control characters, not
// absurdly long) and is percent-encoded, so that `new URL()` has nothing to resolve. Commands check
// ids against their documented shapes first (schemas/ids.ts); this is the last guard.
import { UsageError } from '../core/errors.js';
import { hasUnsafeCharacters } from '../core/text.js';

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
