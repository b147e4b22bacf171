// Time: waiting that a stop (Ctrl-C, SIGTERM, a closed stdout) cuts short, and instants in the form
// the service takes and shows.

/**
 * An instant (ms) in the form the service takes (`date_from`, `--since`) and idm shows times in:
 * UTC, `Z`, whole seconds (`2026-11-24T09:00:00Z`). `up`: to the next second instead of the last.
 */
export function utcSeconds(ms: number, up = false): string {
  return new Date((up ? Math.ceil(ms / 1000) : Math.floor(ms / 1000)) * 1000).toISOString().replace('.000Z', 'Z');
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
