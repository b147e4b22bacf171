// Flag-value parsers shared by the builders. Each throws commander's InvalidArgumentError, which
// main() reports as a usage error (exit 2) naming the flag.
import { InvalidArgumentError, type Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { preview } from '../core/text.js';
import { instantOf, utcSeconds } from '../core/time.js';
import { PROFILE_NAME } from '../config/paths.js';
import { unsafeTextProblem } from '../io/safe.js';
import { DELIVERY_STATUSES, EVENT_TYPES, isEventType } from '../schemas/constants.js';
import { article, ID_SHAPES, idProblem, type IdKind } from '../schemas/ids.js';
import { didYouMean, notOneOf, suggest } from './suggest.js';

export function parseIntegerInRange(flag: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${flag} must be a whole number from ${min} to ${max}.`);
    const n = Number(value.trim());
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} must be from ${min} to ${max}, not ${value.trim()}.`);
    return n;
  };
}

export function parsePositiveSeconds(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n) || n <= 0 || n > 86_400) {
      throw new InvalidArgumentError(`${flag} must be a number of seconds greater than 0 (at most 86400).`);
    }
    return n;
  };
}

/**
 * One of `choices`, for a flag whose parser does more (once()) or whose list is too long for --help;
 * else declare them with commander's .choices(), which --help and the completion scripts read.
 */
export function parseChoice<T extends string>(flag: string, choices: readonly T[]) {
  return (value: string): T => {
    if ((choices as readonly string[]).includes(value)) return value as T;
    // The words main() gives a refusal of commander's .choices().
    throw new InvalidArgumentError(notOneOf(flag, choices, value));
  };
}

/**
 * A flag that takes one value: given twice with different values it is a usage error, not "the last
 * one wins" (a script that says both is wrong about something). `secret`: the values (the paths of
 * a key or secret file, or a key pasted in their place) are not quoted. `shown`: for a value parsed
 * into an object or a list, its words (`50/10`), by which two values are compared and quoted.
 */
export function once<T>(flag: string, parse: (value: string) => T = (value) => value as T, options: { secret?: boolean; shown?: (value: T) => string } = {}) {
  const shown = options.shown ?? String;
  return (value: string, previous: T | undefined): T => {
    const parsed = parse(value);
    const differ = previous !== undefined && (options.shown ? shown(previous) !== shown(parsed) : previous !== parsed);
    // Each value quoted as a preview: a pasted cursor or name must not push the point out of view.
    if (differ) throw new InvalidArgumentError(`${flag} is given twice${options.secret ? '' : ` (${preview(shown(previous!))} and ${preview(shown(parsed))})`}: give it once.`);
    return parsed;
  };
}

/** --NAME and --no-NAME both given: a contradiction (commander would keep the last), refused before the command runs. */
export function refuseBothSwitches(command: Command, name: string): Command {
  const seen = new Set<string>();
  command.on(`option:${name}`, () => seen.add('on'));
  command.on(`option:no-${name}`, () => seen.add('off'));
  return command.hook('preAction', () => {
    if (seen.size === 2) throw new UsageError(`--${name} and --no-${name} contradict each other: give one.`);
  });
}

/** A file (or directory) path: not empty. Whether it can be read is checked where it is used. */
export function parsePath(flag: string, what: 'file' | 'directory' = 'file') {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${flag} must be the path of a ${what}.`);
    return value;
  };
}

/** An id argument or flag of a documented shape (schemas/ids.ts): checked before anything is sent. */
export function parseId(kind: IdKind, flag?: string) {
  return (value: string): string => {
    const id = value.trim();
    const problem = idProblem(kind, id);
    // The name first and a short preview: a pasted screenful must not push the point out of view.
    if (problem) throw new InvalidArgumentError(`${flag ? `${flag}: ` : ''}not ${article(ID_SHAPES[kind].name)} ${ID_SHAPES[kind].name}: "${preview(value)}". ${problem}`);
    return id;
  };
}

/**
 * A profile name, from `what` (`--profile`, or the `<name>` argument of `idm profiles use`): profile
 * names become file names (config/paths.ts PROFILE_NAME).
 */
export function profileNameParser(what: string) {
  return (value: string): string => {
    if (!PROFILE_NAME.test(value)) {
      throw new InvalidArgumentError(`${what} "${preview(value)}" is not a valid profile name: letters, digits, dot, dash and underscore, at most 64, starting with a letter or digit.`);
    }
    return value;
  };
}

/** --profile (and IDM_PROFILE). */
export const parseProfileName = profileNameParser('--profile');

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A point in time for `--since` / `--until`: an RFC 3339 time with `Z` or an offset
 * (`2026-11-24T09:00:00Z`, `2026-11-24T10:00:00+01:00`), a date alone (`2026-11-24`, midnight UTC),
 * or a duration back from now (`30m`, `6h`, `7d`). A time without `Z` or an offset, or a date that
 * does not exist, is refused. Returned in UTC with `Z`, to the second (`2026-11-24T09:00:00Z`); a
 * time typed with a fraction of a second keeps it (`2026-11-24T09:00:05.581Z`), so that the order of
 * --since and --until is judged on the times given (checkTimeWindow). sentTime() makes it what the
 * service takes, no fractions: a fraction goes to the second before a start and to the second after
 * an `end` (--until), so that the window sent holds the one given, and an event's exact time
 * (`…:05.581Z`, as listed) given to either flag keeps that event in it.
 */
export function parseTime(flag: string, now: () => number = Date.now, end = false) {
  // The clock is read once: the same duration given twice is the same time (once() compares them).
  let at: number | undefined;
  return (value: string): string => {
    const text = value.trim();
    const relative = /^(\d{1,6})\s*([smhdw])$/.exec(text);
    const ms = relative ? (at ??= now()) - Number(relative[1]) * UNITS[relative[2]!]! : instantOf(text);
    if (ms === undefined || !Number.isFinite(ms)) {
      throw new InvalidArgumentError(
        `${flag} must be an RFC 3339 time with Z or an offset (2026-11-24T09:00:00Z), a date (2026-11-24, midnight UTC) or a duration back from now (30m, 6h, 7d), not "${value}".`,
      );
    }
    // The service takes RFC 3339's four-digit years: a duration reaching back before year 0 (999999d)
    // or an offset past 9999-12-31 would be sent as `-000711-…` or `+010000-…`, and refused there.
    const time = utcSeconds(ms, end);
    if (!/^\d{4}-/.test(time)) throw new InvalidArgumentError(`${flag} is outside the years 0000 to 9999 (${time}); give a time RFC 3339 can write.`);
    // A duration is to the second; a fraction typed is kept until the time is sent.
    return relative || ms % 1000 === 0 ? time : new Date(ms).toISOString();
  };
}

/**
 * A time of --since or --until (parseTime's) as the service takes it: UTC, `Z`, no fractions (20
 * characters); a fraction goes to the second before a start, to the second after an `end`.
 */
export function sentTime(time: string | undefined, end = false): string | undefined {
  const ms = time === undefined ? NaN : Date.parse(time);
  return Number.isFinite(ms) ? utcSeconds(ms, end) : time;
}

/** What the service takes for `--until` when it is not given (`streams stats`): the time, and in words. */
export interface DefaultBound {
  time: string;
  words: string;
}

/**
 * --since after --until: a window with nothing in it, refused before anything is sent (exit 2). A
 * --since given alone is compared with `untilDefault`, the end the service takes without --until
 * (none: nothing to compare). A --until alone is not judged: where the service starts a window that
 * has only an end is not documented. The hint quotes the times compared, never a fixed example.
 */
export function checkTimeWindow(since: string | undefined, until: string | undefined, untilDefault?: DefaultBound): void {
  const to = until ?? untilDefault?.time;
  if (since === undefined || to === undefined || Date.parse(since) <= Date.parse(to)) return;
  if (until !== undefined) {
    throw new UsageError(`--since (${since}) is after --until (${until}).`, `Give the earlier time to --since: --since ${until} --until ${since}.`);
  }
  throw new UsageError(`--since (${since}) is after --until, which is ${untilDefault!.words} (${to}) when not given.`, `Give --since a time before ${to}: RFC 3339, or back from now (30m, 6h, 7d).`);
}

/**
 * A --since after `now` (the time, rounded up to the second): failed deliveries are in the past, so
 * no delivery can match, whatever --until says. Refused before anything is sent (exit 2): `deliveries
 * list` would say there are none, and `redeliver` that it asked the service, for nothing.
 */
export function checkSinceNotFuture(since: string | undefined, now: string): void {
  if (since === undefined || Date.parse(since) <= Date.parse(now)) return;
  throw new UsageError(`--since (${since}) is in the future (now is ${now}): no delivery can match it yet.`, 'Give --since a time before now: RFC 3339, or back from now (30m, 6h, 7d).');
}

/**
 * A free-text value that is sent to the service (a name, a cursor, a filter, an action id): control
 * and invisible characters are refused, as in ids, group ids and mapping attributes (the tenant would
 * keep them, and show them to everyone). The message names the character, escaped, never the value.
 */
export function checkText(flag: string) {
  return (value: string): string => {
    const problem = unsafeTextProblem(value);
    if (problem) throw new InvalidArgumentError(`${flag} ${problem}.`);
    return value;
  };
}

/**
 * A repeatable flag whose values may also be comma-separated: `--x a --x b,c` is [a, b, c]; each item
 * is free text (checkText). An item given twice is kept once, where it came first: a list of event
 * types, strategies or statuses says nothing more with a repeat, and the service would get it twice.
 */
export function collectList(flag: string, check: (item: string) => string = (item) => item) {
  const text = checkText(flag);
  const parse = repeatable((value: string, previous: string[] | undefined): string[] => {
    const items = value.split(',').map((item) => item.trim()).filter(Boolean);
    if (items.length === 0) throw new InvalidArgumentError(`${flag} must not be empty.`);
    return [...new Set([...(previous ?? []), ...items.map((item) => check(text(item)))])];
  });
  COMMA_LISTS.add(parse);
  return parse;
}

/** The parsers of collectList: their flags take comma-separated values (completion completes after a comma). */
const COMMA_LISTS = new WeakSet<object>();

/** Whether a flag's parser (commander's option.parseArg) takes comma-separated values (collectList). */
export function isCommaList(parse: unknown): boolean {
  return typeof parse === 'function' && COMMA_LISTS.has(parse);
}

/** The parsers of the flags that may be given more than once (every other flag is given once). */
const REPEATABLE = new WeakSet<object>();

/** Marks the parser of a flag that may be given more than once: completion offers it again after it is given. */
export function repeatable<T extends (value: string, previous: never) => unknown>(parse: T): T {
  REPEATABLE.add(parse);
  return parse;
}

/** Whether a flag's parser (commander's option.parseArg) is one of a repeatable flag. */
export function isRepeatable(parse: unknown): boolean {
  return typeof parse === 'function' && REPEATABLE.has(parse);
}

/**
 * A value of an event-type flag that is not one: `--event-type "user.create" is not an event type.
 * Did you mean user.created?`. As for every flag of fixed values (notOneOf), the value is quoted only
 * when it is a near miss of one: anything else typed there may be a token.
 */
export function notAnEventType(flag: string, value: string): string {
  const near = didYouMean(value, EVENT_TYPES);
  return near ? `${flag} "${value}" is not an event type.${near}` : `${flag} is not one of the ${EVENT_TYPES.length} event types (idm streams test --help lists them).`;
}

/**
 * A delivery status of a filter. The interface lists `failed` only, and a service may know others, so
 * any other value is sent as it is; but a near miss of `failed` (`faild`, `Failed`, `fail`) is a
 * usage error with the suggestion: sent, it would match nothing, and "No failed deliveries." would
 * hide the ones there are.
 */
export function checkDeliveryStatus(flag: string) {
  return (value: string): string => {
    if ((DELIVERY_STATUSES as readonly string[]).includes(value) || suggest(value, DELIVERY_STATUSES).length === 0) return value;
    throw new InvalidArgumentError(`${flag} "${value}" is not a delivery status.${didYouMean(value, DELIVERY_STATUSES)}`);
  };
}

/** One event type of the interface's list, or a usage error with "did you mean". */
export function checkEventType(flag: string) {
  return (value: string): string => {
    if (isEventType(value)) return value;
    const message = notAnEventType(flag, value);
    throw new InvalidArgumentError(message.endsWith('?') ? `${message} Run 'idm streams test --help' for the list.` : message);
  };
}
