// Time: waiting that a stop (Ctrl-C, SIGTERM, a closed stdout) cuts short, and instants in the form
// the service takes and shows.

/** The last instant a Date can hold (ECMAScript: 8.64e15 ms after 1970, in year 275760). */
export const LAST_DATE_MS = 8.64e15;

/**
 * An instant (ms) in the form the service takes (`date_from`, `--since`) and idm shows times in:
 * UTC, `Z`, whole seconds (`2026-11-24T09:00:00Z`). `up`: to the next second instead of the last.
 */
export function utcSeconds(ms: number, up = false): string {
  return new Date((up ? Math.ceil(ms / 1000) : Math.floor(ms / 1000)) * 1000).toISOString().replace('.000Z', 'Z');
}

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)(?:[Tt ](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?([Zz]|([+-])(\d\d):(\d\d)))?$/;

/**
 * The instant (ms) an RFC 3339 time names, when every part of it exists (no 30 February, no 24:00,
 * no +25:00), or undefined. Taken: `Z` or an offset (a time without one is refused: whose clock?),
 * `t`, `z` or a space, a time without seconds, a date alone (midnight UTC). --since and --until
 * read their times with it; the sandbox, after its own stricter check of the form, too.
 */
export function instantOf(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) => (part === undefined ? undefined : Number(part))) as number[];
  if (m[4] !== undefined && m[8] === undefined) return undefined; // a time without Z or an offset: whose clock?
  const offset = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (Number(m[10] ?? 0) > 23 || Number(m[11] ?? 0) > 59 || hour > 23 || minute > 59 || second > 59) return undefined;
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999 (0050-01-01 was 1950).
  const back = new Date(0);
  back.setUTCFullYear(year!, month! - 1, day!);
  back.setUTCHours(hour, minute, second);
  // A date rolls over (2026-02-30 becomes 2 March): the date typed must be the date read.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month! - 1 || back.getUTCDate() !== day) return undefined;
  return back.getTime() + Number(m[7] ?? 0) * 1000 - offset * 60_000;
}

/** A duration for people, in seconds as flags such as --wait-timeout take them: `0.3 s`, `60 s` (to the ms). */
export function secondsText(ms: number): string {
  return `${Math.round(ms) / 1000} s`;
}

/** Resolves after `ms`, or rejects with the stop reason as soon as `signal` is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `promise`, or the stop reason as soon as `signal` is aborted (the work itself is not cancelled). */
export function untilStopped<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
