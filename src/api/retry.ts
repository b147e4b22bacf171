// The retry policy: the one place that decides whether an exchange is tried again, after how long,
// and when idm gives up. Every request (management and token endpoint) goes through send().
//
// - Rate limited (429, or "Global limit has been reached" whatever the status): any method, since the
//   server refused before doing anything. Wait until X-RateLimit-Reset / Retry-After, plus jitter.
// - GET (and the token request, which changes nothing): also 5xx, 408 and network failures, with
//   capped exponential backoff and full jitter (a Retry-After on the answer is honoured).
// - POST: otherwise only when the request cannot have reached the server: the connection was refused
//   or the name did not resolve (NetworkError.requestSent false), or a 503 with Retry-After (the
//   service saying it did not take the request). A test event is never sent twice.
// - At most 3 attempts per request, and at most --max-wait seconds of waiting in a whole run (one
//   budget shared by every request, so that `--all` over many pages stays bounded too). A wait that
//   would go beyond it is not started: idm fails at once with the reset time.
import { errorFromAnswer, isRateLimited, NetworkError, serverWaitMs, type FailureContext } from './errors.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';
import type { IO } from '../io/terminal.js';
import { notice } from './notices.js';

export const MAX_ATTEMPTS = 3;
/** Backoff for faults: the first retry waits up to BASE, then twice that, never more than CAP. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
/** Added to a rate-limit wait so that parallel runs do not all come back in the same instant. */
const RATE_LIMIT_JITTER_MS = 1_000;

/** What a wait is about, for the note on stderr. */
export interface WaitNotice {
  /** `rate_limited`, `http_503`, `network`, `timeout`... */
  reason: string;
  /** Human words: "rate limited (429)", "the connection was reset". */
  what: string;
  host: string;
  action: string;
  /** The attempt that follows the wait (2 or 3) and the most there will be. */
  attempt: number;
  attempts: number;
}

export type WaitFn = (ms: number, notice: WaitNotice) => Promise<void>;

/** Waiting allowed in a whole run (--max-wait); shared by every request of the run. */
export interface RetryBudget {
  maxWaitMs: number;
  waitedMs: number;
}

export function retryBudget(maxWaitMs: number): RetryBudget {
  return { maxWaitMs, waitedMs: 0 };
}

export interface SendPolicy {
  timeoutMs: number;
  /** GET and the token request: repeating them changes nothing on the server. */
  idempotent: boolean;
  budget: RetryBudget;
  /** Announces the wait on stderr and sleeps; default: sleep silently (tests pass their own). */
  wait?: WaitFn;
  /** Seams for unit tests. */
  random?: () => number;
  now?: () => number;
}

interface Decision {
  waitMs: number;
  reason: string;
  what: string;
  rateLimited: boolean;
}
function backoffMs(attempt: number, random: () => number): number {
  return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

/** Whether (and after how long) this outcome of attempt number `attempt` may be tried again. */
export function retryDecision(
  outcome: { response: HttpResponse } | { error: NetworkError },
  attempt: number,
  idempotent: boolean,
  random: () => number,
  now: number,
): Decision | undefined {
  if ('error' in outcome) {
    const { error } = outcome;
    if (error.code === 'tls') return undefined; // a certificate that failed verification fails again
    if (!idempotent && error.requestSent) return undefined;
    const what = error.code === 'timeout' ? 'no answer in time' : networkWords(error);
    return { waitMs: backoffMs(attempt, random), reason: error.code === 'timeout' ? 'timeout' : 'network', what, rateLimited: false };
  }
  const { response } = outcome;
  const { status } = response;
  const asked = serverWaitMs(response.headers, now);
  if (isRateLimited(response)) {
    const waitMs = asked === undefined ? Math.max(1_000, backoffMs(attempt + 1, () => 1)) : asked;
    return { waitMs: waitMs + random() * RATE_LIMIT_JITTER_MS, reason: 'rate_limited', what: `rate limited (${status})`, rateLimited: true };
  }
  const retryable = status === 408 || (status >= 500 && status <= 599);
  if (!retryable) return undefined;
  // Not idempotent: only a 503 that says when to come back was surely not processed.
  if (!idempotent && !(status === 503 && asked !== undefined)) return undefined;
  const waitMs = asked === undefined ? backoffMs(attempt, random) : asked + random() * BACKOFF_BASE_MS;
  return { waitMs, reason: `http_${status}`, what: `the service answered ${status}`, rateLimited: false };
}

function networkWords(error: NetworkError): string {
  // "Could not X: could not reach H: the connection was refused (ECONNREFUSED)." -> "the connection was refused"
  const match = /could not reach [^:]+(?::\d+)?: ([^(.]+)/.exec(error.message);
  return match?.[1]?.trim() ?? 'a network failure';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One exchange under the retry policy. Resolves with the answer (any status that is not retried, or
 * the last one); rejects with the mapped ApiError when idm gives up on a rate limit or a fault.
 */
export async function send(transport: Transport, request: HttpRequest, context: FailureContext, policy: SendPolicy): Promise<HttpResponse> {
  const random = policy.random ?? Math.random;
  const now = policy.now ?? Date.now;
  const wait = policy.wait ?? ((ms: number) => sleep(ms));
  const { budget } = policy;
  for (let attempt = 1; ; attempt++) {
    let outcome: { response: HttpResponse } | { error: NetworkError };
    try {
      outcome = { response: await transport.send(request, context, policy.timeoutMs) };
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      outcome = { error };
    }
    const decision = retryDecision(outcome, attempt, policy.idempotent, random, now());
    if (decision) {
      const remaining = budget.maxWaitMs - budget.waitedMs;
      // A fault's backoff is shortened to what is left; a rate limit's wait is not negotiable.
      const waitMs = decision.rateLimited ? decision.waitMs : Math.min(decision.waitMs, remaining);
      if (attempt < MAX_ATTEMPTS && waitMs <= remaining && (decision.rateLimited || remaining > 0)) {
        await wait(waitMs, { reason: decision.reason, what: decision.what, host: context.host, action: context.action, attempt: attempt + 1, attempts: MAX_ATTEMPTS });
        budget.waitedMs += waitMs;
        continue;
      }
      const beyondMaxWait = attempt < MAX_ATTEMPTS; // gave up for the budget, not the attempts
      if ('error' in outcome) throw annotate(outcome.error, attempt, beyondMaxWait, budget);
      throw errorFromAnswer(outcome.response, context, { attempts: attempt, beyondMaxWaitSeconds: beyondMaxWait ? budget.maxWaitMs / 1000 : undefined });
    }
    if ('error' in outcome) throw outcome.error;
    return { ...outcome.response, attempts: attempt };
  }
}

/** A network failure idm stopped retrying: say how often it tried. */
function annotate(error: NetworkError, attempts: number, beyondMaxWait: boolean, budget: RetryBudget): NetworkError {
  if (attempts > 1 || beyondMaxWait) {
    const tried = attempts > 1 ? `Tried ${attempts} times${beyondMaxWait ? ` within --max-wait (${budget.maxWaitMs / 1000} s)` : ''}. ` : '';
    (error as { hint: string | undefined }).hint = `${tried}${error.hint ?? ''}`.trim();
  }
  return error;
}

/**
 * The wait, said on stderr: with --json one JSON object per wait (src/api/notices.ts); otherwise at a
 * terminal a line that counts down and disappears when the wait is over, in CI or a pipe one line.
 */
export function announcingWait(io: IO, json: boolean): WaitFn {
  return async (ms, wait) => {
    const seconds = (left: number) => Math.max(1, Math.ceil(left / 1000));
    const words = (left: number) =>
      `${capitalize(wait.what)} at ${wait.host} (${wait.action}): trying again in ${seconds(left)} s, attempt ${wait.attempt} of ${wait.attempts}.`;
    if (json || !io.stderrIsTTY || io.isCI || io.env.TERM === 'dumb') {
      const value = { reason: wait.reason, seconds: seconds(ms), attempt: wait.attempt, of: wait.attempts, host: wait.host, action: wait.action };
      notice(io, json, 'wait', value, `${words(ms)}\n`);
      await sleep(ms);
      return;
    }
    const until = Date.now() + ms;
    const show = () => io.err(`\r\x1b[K${words(until - Date.now())} (Ctrl-C to stop)`);
    show();
    const ticker = setInterval(show, 1_000);
    try {
      await sleep(ms);
    } finally {
      clearInterval(ticker);
      io.err('\r\x1b[K');
    }
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
