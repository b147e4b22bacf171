// The retry policy: the one place that decides whether an exchange is tried again, after how long,
// and when idm gives up. Every request (management and token endpoint) goes through send(), and
// every management request through exchange().
//
// - Rate limited (429, or "Global limit has been reached" whatever the status): any method, since the
//   server refused before doing anything. Wait until X-RateLimit-Reset / Retry-After, plus jitter.
// - GET (and the token request, which changes nothing): also 5xx, 408 and network failures, with
//   capped exponential backoff and full jitter (a Retry-After on the answer is honoured).
// - POST, PATCH, PUT, DELETE: otherwise only when the request cannot have reached the server (the
//   connection was refused, the name did not resolve, a proxy's 408, 429 or 5xx to the CONNECT), or a
//   503 with Retry-After (the service saying it did not take the request). A test event is never sent
//   twice. A proxy's Retry-After is waited out as the service's is.
// - At most 3 attempts per request, and at most --max-wait seconds of waiting in a whole run (one
//   budget shared by every request, so that `--all` over many pages stays bounded too). A wait that
//   would go beyond it is not started: idm fails at once with the reset time.
// - A 401 to a token from the cache, or to one that expired on its way: the token is dropped and the
//   request (any method: a 401 is refused before any work) sent once more with a new one (exchange()).
// - A 409 to a POST that was sent more than once: the first attempt may have done the work before its
//   answer was lost; when the request says how to read back what exists, what exists is compared with
//   what was sent, and a match is the success (exchange()).
import { sleep } from '../core/time.js';
import { capitalize } from '../core/text.js';
import type { TokenSource } from '../auth/tokens.js';
import { askedWaitHint, errorFromAnswer, isRateLimited, NetworkError, serverWaitMs, type FailureContext } from './errors.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';

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

/** Waits `ms` and says so (a countdown at a terminal); rejects as soon as `signal` (the request's stop) is aborted. */
export type WaitReporter = (ms: number, notice: WaitNotice, signal: AbortSignal | undefined) => Promise<void>;

/** The words of a wait, for people: one sentence, `left` milliseconds to go. */
export function waitWords(notice: WaitNotice, leftMs: number): string {
  const seconds = Math.max(1, Math.ceil(leftMs / 1000));
  return `${capitalize(notice.what)} at ${notice.host} (${notice.action}): trying again in ${seconds} s, attempt ${notice.attempt} of ${notice.attempts}.`;
}

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
  /** Announces the wait and sleeps; default: sleep silently (until `signal`). */
  wait?: WaitReporter;
  /** Ends the request, its retries and its waits (the run's stop, or the request's own). */
  signal?: AbortSignal;
  /** Seams for unit tests. */
  random?: () => number;
  now?: () => number;
}

interface Decision {
  waitMs: number;
  reason: string;
  what: string;
  /**
   * The part of `waitMs` that is not cut to what is left of --max-wait: the time the server asked for
   * (Retry-After, X-RateLimit-Reset), or a rate limit's own wait; asking sooner only meets the same
   * answer. The jitter idm adds to it, and a fault's backoff, are cut.
   */
  firmMs?: number;
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
    if (error.code === 'tls') return undefined; // a certificate refused once is refused again
    if (error.code === 'proxy') return undefined; // so is a proxy's 407 or 403
    if (!idempotent && error.requestSent) return undefined;
    const reason = error.code === 'timeout' ? 'timeout' : 'network';
    // A proxy's 429 or 503 that says when to come back: asking sooner only meets the same answer.
    const asked = error.retryAfter === undefined ? undefined : serverWaitMs({ 'retry-after': error.retryAfter }, now);
    if (asked !== undefined) return { waitMs: asked + random() * BACKOFF_BASE_MS, reason, what: error.what, firmMs: asked };
    return { waitMs: backoffMs(attempt, random), reason, what: error.what };
  }
  const { response } = outcome;
  const { status } = response;
  const asked = serverWaitMs(response.headers, now);
  if (isRateLimited(response)) {
    const waitMs = asked === undefined ? Math.max(1_000, backoffMs(attempt + 1, () => 1)) : asked;
    return { waitMs: waitMs + random() * RATE_LIMIT_JITTER_MS, reason: 'rate_limited', what: `rate limited (${status})`, firmMs: waitMs };
  }
  const retryable = status === 408 || (status >= 500 && status <= 599);
  if (!retryable) return undefined;
  // Not idempotent: only a 503 that says when to come back was surely not processed.
  if (!idempotent && !(status === 503 && asked !== undefined)) return undefined;
  const waitMs = asked === undefined ? backoffMs(attempt, random) : asked + random() * BACKOFF_BASE_MS;
  return { waitMs, reason: `http_${status}`, what: `the service answered ${status}`, ...(asked === undefined ? {} : { firmMs: asked }) };
}

/**
 * One exchange under the retry policy. Resolves with the answer (any status that is not retried, or
 * the last one); rejects with the mapped ApiError when idm gives up on a rate limit or a fault.
 */
export async function send(transport: Transport, request: HttpRequest, context: FailureContext, policy: SendPolicy): Promise<HttpResponse> {
  const random = policy.random ?? Math.random;
  const now = policy.now ?? Date.now;
  const wait = policy.wait ?? ((ms: number, _notice: WaitNotice, signal: AbortSignal | undefined) => sleep(ms, signal));
  const { budget } = policy;
  for (let attempt = 1; ; attempt++) {
    let outcome: { response: HttpResponse } | { error: NetworkError };
    try {
      outcome = { response: await transport.send(request, context, policy.timeoutMs) };
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      outcome = { error };
    }
    const at = now();
    const decision = retryDecision(outcome, attempt, policy.idempotent, random, at);
    if (decision) {
      const remaining = budget.maxWaitMs - budget.waitedMs;
      // A fault's backoff, and the jitter, are shortened to what is left; a rate limit's wait, or the
      // one a server asked for (Retry-After), is not: asking sooner only meets the same answer.
      const waitMs = Math.max(decision.firmMs ?? 0, Math.min(decision.waitMs, remaining));
      if (attempt < MAX_ATTEMPTS && remaining > 0 && waitMs <= remaining) {
        await wait(waitMs, { reason: decision.reason, what: decision.what, host: context.host, action: context.action, attempt: attempt + 1, attempts: MAX_ATTEMPTS }, policy.signal);
        budget.waitedMs += waitMs;
        continue;
      }
      const beyondMaxWait =
        attempt < MAX_ATTEMPTS ? { leftSeconds: Math.max(0, Math.floor(remaining / 1000)), maxSeconds: budget.maxWaitMs / 1000 } : undefined;
      if ('error' in outcome) throw annotate(outcome.error, attempt, beyondMaxWait, at);
      throw errorFromAnswer(outcome.response, context, { attempts: attempt, beyondMaxWait }, at);
    }
    if ('error' in outcome) throw outcome.error;
    return { ...outcome.response, attempts: attempt };
  }
}

/** A network failure idm stopped retrying: say how often it tried, and a proxy's wait it did not wait out. */
function annotate(error: NetworkError, attempts: number, beyondMaxWait: { leftSeconds: number; maxSeconds: number } | undefined, now: number): NetworkError {
  if (attempts > 1 || beyondMaxWait) {
    const tried = attempts > 1 ? `Tried ${attempts} times${beyondMaxWait ? ` within --max-wait (${beyondMaxWait.maxSeconds} s)` : ''}. ` : '';
    // Said as errorFromAnswer says the service's (nothing left, --max-wait 0 or spent, is not "longer").
    const asked = beyondMaxWait && error.retryAfter !== undefined ? serverWaitMs({ 'retry-after': error.retryAfter }, now) : undefined;
    const wait = asked === undefined || !beyondMaxWait ? '' : `${askedWaitHint('The proxy', Math.ceil(asked / 1000), beyondMaxWait)} `;
    error.hint = `${tried}${wait}${error.hint ?? ''}`.trim();
  }
  return error;
}

export interface ExchangeOptions {
  tokens: TokenSource;
  /** One request with this bearer token, under send()'s policy. */
  attempt(token: string): Promise<HttpResponse>;
  /** Non-idempotent requests that can be read back: what exists now, when it equals what was sent. */
  readBack?: () => Promise<unknown | undefined>;
  /** A 403 the caller takes as an answer: not a sign that the cached token predates a grant. */
  forbiddenIsAnswer?: boolean;
}

export type ExchangeResult = { response: HttpResponse } | { readBack: unknown };

/** A management request: send(), plus the 401 refresh and the 409 read-back of a retried POST. */
export async function exchange(options: ExchangeOptions): Promise<ExchangeResult> {
  const { tokens } = options;
  let token = await tokens.get();
  let response = await options.attempt(token);
  // A refused token that was cached or is no longer fresh (expired on its way, revoked, rotated keys):
  // dropped, a new token, one retry.
  if (response.status === 401 && (await tokens.invalidate(token))) {
    token = await tokens.get();
    response = await options.attempt(token);
    if (response.status === 401) await tokens.invalidate(token);
  }
  // A token minted before the client got a new scope lacks it until it expires: see scopeRefused.
  if (response.status === 403 && !options.forbiddenIsAnswer && /insufficient_scope/.test(response.text)) await tokens.scopeRefused(token);
  if (response.status === 409 && (response.attempts ?? 1) > 1 && options.readBack) {
    const existing = await options.readBack();
    if (existing !== undefined) return { readBack: existing };
  }
  return { response };
}
