// Every failure of an HTTP exchange becomes an ApiError here, and only here: the management
// interface's `{statusCode, error, message, errorCode}`, the token endpoint's `{error,
// error_description}`, bodies that are not JSON at all, and network errors. Each message says what
// failed, the server's own words and status, and what to do; the exit code follows the documented table.
import { ApiError, NetworkError, RateLimitError } from '../core/errors.js';
import { ExitCode, type ExitCodeValue } from '../core/exit-codes.js';
import { parseJsonExact } from '../core/json-numbers.js';
import { LAST_DATE_MS, utcSeconds } from '../core/time.js';
import { nestsDeeper } from '../core/json-depth.js';
import { isLoopbackHost } from '../core/net.js';

export { ApiError, NetworkError, RateLimitError } from '../core/errors.js';

export interface FailureContext {
  endpoint: 'management' | 'token';
  /** What idm was doing, as a verb phrase: "list event streams", "get an access token". */
  action: string;
  /** Host (and port) of the tenant, named in network errors. */
  host: string;
  /** The scope the operation needs, named when the answer is 403. */
  scope?: string;
  clientId?: string;
  /** The token endpoint: whether the client proved itself with a certificate (mutual TLS) rather than a secret or key. */
  byCertificate?: boolean;
  /** The token endpoint: whether the client proved itself with a signed assertion (private_key_jwt), whose times the server reads by its clock. */
  byAssertion?: boolean;
  /** Where the bearer token came from: a 401 means something different for each. */
  tokenSource?: 'client' | 'environment';
  /**
   * What to do when the credentials are refused, as the end of a sentence: "run: idm login --profile
   * prod" (the exact command, never with a secret) or "correct IDM_CLIENT_ID and IDM_CLIENT_SECRET".
   */
  fixCredentials?: string;
  /** A command's own advice for particular statuses (e.g. 400: how to page). */
  hints?: Partial<Record<number, string>>;
  /** Masks the secrets idm knows of (Redactor.text): a server may quote one in its error message. */
  redact?: (text: string) => string;
}

export interface ErrorAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Milliseconds the server asked us to wait: Retry-After (seconds) and X-RateLimit-Reset (Unix seconds), the later of the two. */
export function serverWaitMs(headers: Record<string, string>, now: number): number | undefined {
  const waits: number[] = [];
  const retryAfter = headers['retry-after']?.trim();
  if (retryAfter && /^\d+(\.\d+)?$/.test(retryAfter)) waits.push(Number(retryAfter) * 1000);
  else if (retryAfter && Number.isFinite(Date.parse(retryAfter))) waits.push(Date.parse(retryAfter) - now);
  // A repeated header arrives joined with ", ": the last one wins. Seconds; tolerate milliseconds.
  const resetText = headers['x-ratelimit-reset']?.split(',').at(-1)?.trim();
  const reset = Number(resetText);
  if (resetText && Number.isFinite(reset) && reset > 0) {
    const resetMs = reset > 1e12 ? reset : reset * 1000;
    // Against the server's own clock (its Date header) when ours is off by more than a second or two,
    // so that a skewed local clock does not make idm wait for minutes, or not at all. Date has whole
    // seconds: close clocks are better compared with the local one.
    const serverNow = Date.parse(headers.date ?? '');
    const skewed = Number.isFinite(serverNow) && Math.abs(serverNow - now) > 2_000;
    waits.push(resetMs - (skewed ? serverNow : now));
  }
  // A wait beyond what a date can hold (Retry-After: 99999999999999999999, or beyond a double) ends
  // at the last instant one holds: the reset is still a time to show, never an invalid date.
  return waits.length ? Math.min(Math.max(0, ...waits), LAST_DATE_MS - now) : undefined;
}

/** When the limit resets: the same reading of the headers as the retry policy's wait. */
export function rateLimitReset(headers: Record<string, string>, now = Date.now()): Date | undefined {
  const wait = serverWaitMs(headers, now);
  // Whole seconds, as the service counts them.
  return wait === undefined ? undefined : new Date(Math.ceil((now + wait) / 1000) * 1000);
}

const GLOBAL_LIMIT = /global limit has been reached/i;

/** A rate-limit answer, whatever its status: 429, or the token endpoint's 500 "Global limit has been reached". */
export function isRateLimited(answer: ErrorAnswer): boolean {
  return answer.status === 429 || (answer.status >= 400 && GLOBAL_LIMIT.test(answer.text.slice(0, 2000)));
}

interface ServerWords {
  message?: string;
  code?: string;
  json: boolean;
  /** The answer's JSON value, when it was JSON (`idm api --json` prints it). */
  body?: unknown;
}

function serverWords(answer: ErrorAnswer): ServerWords {
  let body: unknown;
  try {
    body = answer.text.trim() === '' ? undefined : parseJsonExact(answer.text);
  } catch {
    return { json: false };
  }
  // Kept for `idm api --json` only when nothing walking it can overflow the stack.
  const kept = nestsDeeper(body) ? undefined : body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { json: body !== undefined, body: kept };
  const b = body as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  // Management shape: message + errorCode (error is the reason phrase). Token shape: error + error_description.
  const message = str(b.message) ?? str(b.error_description) ?? str(b.error);
  const code = str(b.errorCode) ?? (str(b.message) === undefined ? str(b.error) : undefined);
  return { message, code, json: true, body: kept };
}

/**
 * `value` (freshly parsed, no deeper than MAX_JSON_DEPTH) with `redact` applied to every string in
 * it, in place: keys, numbers as written and key order are kept.
 */
function redactStrings(value: unknown, redact: ((text: string) => string) | undefined): unknown {
  if (!redact) return value;
  if (typeof value === 'string') return redact(value);
  if (value && typeof value === 'object') {
    const holder = value as Record<string, unknown>;
    for (const key of Object.keys(holder)) if (typeof holder[key] === 'string' || (holder[key] && typeof holder[key] === 'object')) holder[key] = redactStrings(holder[key], redact);
  }
  return value;
}

function snake(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

function exitCodeFor(status: number, context: FailureContext): ExitCodeValue {
  if (status === 401 || status === 403) return ExitCode.Auth;
  // The token endpoint refusing the client (invalid_request, invalid_client, ...) is an auth failure.
  if (context.endpoint === 'token' && status >= 400 && status < 500) return ExitCode.Auth;
  return ExitCode.Failure;
}

/**
 * A client assertion is valid for a minute from its `iat`, read by the server's clock: past this
 * difference between the local clock and the server's (its Date header), a refused assertion is
 * more likely the clock's fault than the key's.
 */
const ASSERTION_SKEW_MS = 30_000;

/** How far this machine's clock is from the server's, in words ("3 min behind"), when past ASSERTION_SKEW_MS. */
function clockSkew(headers: Record<string, string>, now = Date.now()): string | undefined {
  const server = Date.parse(headers.date ?? '');
  if (!Number.isFinite(server) || Math.abs(server - now) <= ASSERTION_SKEW_MS) return undefined;
  const seconds = Math.round(Math.abs(server - now) / 1000);
  const amount = seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds / 3600)} h`;
  return `${amount} ${server > now ? 'behind' : 'ahead of'}`;
}

function hintFor(status: number, words: ServerWords, context: FailureContext, scope: string | undefined, headers: Record<string, string>): string | undefined {
  const own = context.hints?.[status];
  if (own) return own;
  const fix = context.fixCredentials ?? "run 'idm login' again.";
  if (context.endpoint === 'token') {
    const skew = context.byAssertion && (words.code === 'invalid_client' || status === 401) ? clockSkew(headers) : undefined;
    if (skew) {
      return `This machine's clock is ${skew} the clock of ${context.host} (its Date header), and the client assertion is valid for a minute from its time: set the clock (NTP), then run again. If the clock is right, check the client id and its private key, then ${fix}`;
    }
    if ((words.code === 'invalid_client' || status === 401) && context.byCertificate) {
      return `Check that the tenant accepts mutual TLS for ${client(context)} (on the real service: its custom domain's edge) and that this certificate is registered for it, then ${fix}`;
    }
    if (words.code === 'invalid_client' || status === 401) return `Check the client id and its secret or private key, then ${fix}`;
    if (words.code === 'access_denied') {
      return `Authorize ${client(context)} for the Management API (a client grant) in the dashboard: Applications > APIs > Management API > Machine to Machine Applications.`;
    }
    if (words.code === 'unauthorized_client') return `Enable the Client Credentials grant type for ${client(context)} in the dashboard (the application's advanced settings).`;
    if (status >= 500) return 'The token endpoint failed; try again in a moment.';
    return `Check the domain and the client's settings, then ${fix}`;
  }
  if (status === 401) {
    return context.tokenSource === 'environment'
      ? 'The token in IDM_ACCESS_TOKEN was refused: get a new one, or unset it to use client credentials.'
      : `Check that ${client(context)} may call this tenant's Management API, then ${fix}`;
  }
  if (status === 403 && scope) {
    return `${words.code === 'insufficient_scope' ? '' : `This needs the scope ${scope}. `}Grant the scope ${scope} to ${client(context)} in the dashboard (Applications > APIs > Management API > Machine to Machine Applications: the client grant), then run idm again.`;
  }
  if (status === 404) return 'Check the identifier.';
  if (status >= 500) return 'The service failed; try again in a moment.';
  return undefined;
}

/** How a request fared under the retry policy, for the message of the answer idm gave up on. */
export interface RetryInfo {
  attempts: number;
  /** Set when idm gave up because the wait would have gone beyond --max-wait: what was left of it, and its whole. */
  beyondMaxWait?: { leftSeconds: number; maxSeconds: number };
}

/**
 * A wait the server asked for (seconds; undefined when it named none) against what is left of
 * --max-wait: why idm did not wait, and what to do. With nothing left and no wait asked
 * (Retry-After: 0), "longer than 0 s" would be untrue: it says the budget is used up.
 */
function beyondMaxWait(seconds: number | undefined, budget: NonNullable<RetryInfo['beyondMaxWait']>): { usedUp: boolean; why: string; again: string } {
  const usedUp = seconds !== undefined && seconds <= budget.leftSeconds;
  return {
    usedUp,
    why: usedUp ? `nothing is left of --max-wait (${budget.maxSeconds} s)` : `longer than what is left of --max-wait (${budget.leftSeconds} s of ${budget.maxSeconds} s)`,
    again: `run again${usedUp ? '' : ' after that'}, or allow a longer wait with --max-wait SECONDS.`,
  };
}

/** The hint for a wait `who` asked for (Retry-After, `seconds`) that idm did not start: it would go beyond --max-wait. */
export function askedWaitHint(who: string, seconds: number, budget: NonNullable<RetryInfo['beyondMaxWait']>): string {
  const over = beyondMaxWait(seconds, budget);
  return `${who} asked to be tried again in ${seconds} s (Retry-After), ${over.usedUp ? 'but ' : ''}${over.why}; ${over.again}`;
}

/** `now`: the clock the retry policy read the answer's wait with (an HTTP-date Retry-After, a reset), so the hint says the same wait. */
export function errorFromAnswer(answer: ErrorAnswer, context: FailureContext, retry?: RetryInfo, now = Date.now()): ApiError {
  const { status } = answer;
  const tried = retry && retry.attempts > 1 ? `Tried ${retry.attempts} times. ` : '';
  const words = serverWords(answer);
  // A server may quote a secret idm sent in any string it answers, not only its message.
  if (context.redact) {
    if (words.message !== undefined) words.message = context.redact(words.message);
    if (words.code !== undefined) words.code = context.redact(words.code);
  }
  const code = words.code ?? snake(REASONS[status] ?? `http ${status}`);
  // The server's sentence without its full stop: idm's own sentence goes on after it ("… (404 not_found).").
  const serverMessage = words.message?.replace(/\s*\.+$/, '');
  const said = serverMessage ?? (words.json ? 'no message' : answer.text.trim() === '' ? 'an empty body' : 'a body that is not JSON');
  const statusText = `${status}${code ? ` ${code}` : ''}`;
  // The answer to the request made, which `idm api --json` prints as its data: never the token
  // endpoint's, which is no answer to the call the user asked for. A secret idm sent that it quotes
  // (a webhook's token in a 400's message) is masked there as in the message.
  const body = context.endpoint === 'management' ? redactStrings(words.body, context.redact) : undefined;

  if (isRateLimited(answer)) {
    const resetAt = rateLimitReset(answer.headers, now);
    // The wait as the server gave it (Retry-After: 120 is 120 s), not from resetAt, which is rounded up to a whole second.
    const waitMs = serverWaitMs(answer.headers, now);
    const wait = waitMs === undefined ? undefined : Math.ceil(waitMs / 1000);
    const still = retry && retry.attempts > 1 ? `, still after ${retry.attempts} attempts` : '';
    const over = retry?.beyondMaxWait && beyondMaxWait(wait, retry.beyondMaxWait);
    const beyond = over === undefined ? '' : over.usedUp ? `, but ${over.why}` : `; waiting for it would take ${over.why}`;
    const again = over ? over.again : 'run again after that.';
    return new RateLimitError(`Rate limited by ${context.host} while trying to ${context.action} (${statusText}: ${said})${still}.`, {
      attempts: retry?.attempts,
      exitCode: ExitCode.RateLimited,
      status,
      code: words.code ?? 'too_many_requests',
      hint: resetAt ? `The limit resets at ${utcSeconds(resetAt.getTime())} (in ${wait} s)${beyond}; ${again}` : `Wait a moment and run again${beyond ? ', or allow a longer wait with --max-wait SECONDS' : ''}.`,
      details: resetAt ? { resetAt: resetAt.toISOString() } : {},
      resetAt,
      body,
      serverMessage,
    });
  }

  if (status >= 300 && status < 400) {
    const location = answer.headers.location === undefined ? undefined : (context.redact?.(answer.headers.location) ?? answer.headers.location);
    return new ApiError(`Could not ${context.endpoint === 'token' ? 'get an access token' : context.action}: ${context.host} answered ${status}, a redirect${location ? ` to ${location}` : ''}.`, {
      exitCode: ExitCode.Failure,
      status,
      code: 'redirect',
      hint: "idm does not follow redirects: give the tenant's own domain (check the profile or IDM_DOMAIN).",
    });
  }

  // The scope a 403 is about: the server's own "expected any of: x" when present, else the operation's.
  const expected = words.message ? /expected (?:any of|all of)?:?\s*([a-z_]+:[a-z_]+(?:\s*,\s*[a-z_]+:[a-z_]+)*)/i.exec(words.message)?.[1] : undefined;
  const lacksScope = status === 403 && (words.code === 'insufficient_scope' || expected !== undefined);
  // Any 403 on an operation names the scope it needs: the server's list, else the operation's own.
  const scope = status === 403 ? (expected?.replace(/\s+/g, '') ?? context.scope) : undefined;
  const what = context.endpoint === 'token' ? 'get an access token' : context.action;
  let message: string;
  if (lacksScope && scope) message = `Not allowed to ${what}: ${client(context)} lacks the scope ${scope} (${statusText}: ${said}).`;
  else if (!words.json) message = `Could not ${what}: ${context.host} answered ${status}${REASONS[status] ? ` ${REASONS[status]}` : ''} with ${said}.`;
  else message = `Could not ${what}: ${said} (${statusText}).`;

  // A fault whose Retry-After would go beyond --max-wait (retry.ts): that wait is said, not "in a moment".
  const asked = retry?.beyondMaxWait ? serverWaitMs(answer.headers, now) : undefined;
  const hint =
    asked !== undefined && retry?.beyondMaxWait
      ? askedWaitHint(context.endpoint === 'token' ? 'The token endpoint' : 'The service', Math.ceil(asked / 1000), retry.beyondMaxWait)
      : hintFor(status, words, context, scope, answer.headers);
  return new ApiError(message, {
    attempts: retry?.attempts,
    exitCode: exitCodeFor(status, context),
    status,
    code,
    hint: tried ? `${tried}${hint ?? ''}`.trim() : hint,
    details: scope ? { scope } : {},
    body,
    serverMessage,
  });
}

/**
 * A 403: the token lacks the operation's scope (or is otherwise not allowed to do it). Commands that
 * can go on without the answer ask this, and name the scope from the typed client (`scopes`).
 */
export function isForbidden(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403;
}

/** A 404: what the operation names (a stream, a delivery, a configuration) is not there. */
export function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 404;
}

/**
 * `provisioning sync` refused because the connection was synchronized less than 30 minutes ago: the
 * service's 400 "Connection has been synchronized in the last 30 minutes" (wire-facts.md). The
 * command adds when to ask again.
 */
export function isSyncTooSoon(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && /last 30 minutes/i.test(error.serverMessage ?? '');
}

function client(context: FailureContext): string {
  return context.clientId ? `client ${context.clientId}` : 'the client';
}

/** An answer idm cannot read (not JSON, empty, wrong shape; any status once its body cannot be decoded). */
export function badAnswer(context: FailureContext, status: number, problem: string): ApiError {
  return new ApiError(`Could not ${context.action}: ${context.host} answered ${status} with ${problem}.`, {
    exitCode: ExitCode.Failure,
    status,
    code: 'bad_response',
    hint: 'The service or a proxy in between sent something unexpected; run again with --debug to see it.',
  });
}

const NETWORK_CAUSES: Record<string, { what: string; sent: boolean }> = {
  ECONNREFUSED: { what: 'the connection was refused', sent: false },
  ENOTFOUND: { what: 'the host name was not found (DNS)', sent: false },
  EAI_AGAIN: { what: 'the host name could not be resolved (DNS)', sent: false },
  EHOSTUNREACH: { what: 'the host is unreachable', sent: false },
  ENETUNREACH: { what: 'the network is unreachable', sent: false },
  ECONNRESET: { what: 'the connection was reset', sent: true },
  EPIPE: { what: 'the connection was closed while sending', sent: true },
  ETIMEDOUT: { what: 'the connection timed out', sent: false },
  UND_ERR_SOCKET: { what: 'the connection was closed', sent: true },
};

/** OpenSSL's words for a TLS 1.2 server's alert about idm's client certificate (none, or one it does not trust). */
const TLS12_CLIENT_ALERT = /sslv3 alert (handshake failure|bad certificate|certificate unknown)|tlsv1 alert (unknown ca|access denied)/i;

/**
 * OpenSSL's reasons for a handshake without a TLS version both sides accept. (A bare "handshake
 * failure" alert is not one: a TLS 1.2 server that wants a client certificate sends it too.)
 */
const HANDSHAKE_MISMATCH = /(tlsv1 alert protocol version|unsupported protocol|no protocols available)/i;

/**
 * A request that got no answer: refused, reset, DNS, TLS, or timed out (`timeoutSeconds`). One that
 * went directly with ALL_PROXY set (http.ts: `ignoredProxy`) says idm did not read it.
 */
export function errorFromNetwork(error: unknown, context: FailureContext, timeoutSeconds?: number): NetworkError {
  const mapped = networkFailure(error, context, timeoutSeconds);
  const { ignoredProxy } = error as { ignoredProxy?: { variable: string; socks: boolean } };
  if (ignoredProxy && (mapped.code === 'network' || mapped.code === 'timeout')) {
    const said = ignoredProxy.socks
      ? `${ignoredProxy.variable} is set, but idm does not read it, and a SOCKS proxy is not supported: it connected directly; give an HTTP proxy in HTTPS_PROXY to go through one.`
      : `${ignoredProxy.variable} is set, but idm does not read it: it connected directly; set HTTPS_PROXY to the same proxy to go through it.`;
    mapped.hint = `${mapped.hint ?? ''} ${said}`.trim();
  }
  return mapped;
}

function networkFailure(error: unknown, context: FailureContext, timeoutSeconds?: number): NetworkError {
  const err = error as NodeJS.ErrnoException & { requestSent?: boolean; clientCertRefused?: boolean; reason?: string };
  const { proxy } = error as { proxy?: ProxyNamed };
  if (timeoutSeconds !== undefined && proxy) {
    return new NetworkError(`Could not ${context.action}: the proxy ${proxy.name} (${proxy.variable}) did not answer within ${timeoutSeconds} s (asked to connect to ${context.host}).`, {
      exitCode: ExitCode.Failure,
      code: 'timeout',
      hint: `Check ${proxy.variable} (the proxy's host and port) and NO_PROXY; or allow longer with --timeout SECONDS (IDM_TIMEOUT).`,
      requestSent: false,
      what: 'no answer from the proxy in time',
      cause: error,
    });
  }
  // Out of time in a tunnel the proxy had opened, before the request got through it (its connection
  // not up, most often: a tunnel that carries nothing): the proxy is as likely the cause as the tenant.
  const { viaProxy } = error as { viaProxy?: ProxyNamed };
  if (timeoutSeconds !== undefined && viaProxy && err?.requestSent === false) {
    return new NetworkError(`Could not ${context.action}: ${context.host} did not answer within ${timeoutSeconds} s through the proxy ${viaProxy.name} (${viaProxy.variable}): the request did not get through the tunnel it had opened.`, {
      exitCode: ExitCode.Failure,
      code: 'timeout',
      hint: `Check that the proxy lets you reach ${context.host} (${viaProxy.variable}), then try again; or allow longer with --timeout SECONDS (IDM_TIMEOUT).`,
      requestSent: false,
      what: `no answer in time in the tunnel of the proxy ${viaProxy.name}`,
      cause: error,
    });
  }
  if (timeoutSeconds !== undefined) {
    return new NetworkError(`Could not ${context.action}: ${context.host} did not answer within ${timeoutSeconds} s.`, {
      exitCode: ExitCode.Failure,
      code: 'timeout',
      hint: 'Try again, or allow longer with --timeout SECONDS (IDM_TIMEOUT).',
      // Out of time before the connection was up (http.ts): the request cannot have reached the server.
      requestSent: err?.requestSent !== false,
      what: 'no answer in time',
      cause: error,
    });
  }
  const codeName = err?.code ?? '';
  // The proxy refused the tunnel (or the request), or could not be reached: the tenant never was.
  if (proxy) return proxyFailure(error, context, proxy, codeName);
  // The server's TLS alert about idm's own certificate (none given, or one it does not trust), or a
  // close right after the handshake of a connection that presented one (http.ts).
  // Under TLS 1.2 the alert comes as EPROTO with OpenSSL's words (a server that wants a client
  // certificate answers 'handshake failure' when none was sent).
  const alert = codeName === 'EPROTO' ? TLS12_CLIENT_ALERT.exec(err?.message ?? '')?.[0].toLowerCase() : undefined;
  if (/ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|ACCESS_DENIED)/.test(codeName) || err?.clientCertRefused || alert) {
    const why = err?.clientCertRefused ? 'it closed the connection right after the TLS handshake, before answering' : (alert ?? codeName);
    // A bare handshake failure may have another cause (no cipher in common): said as the likely one.
    const guess = alert?.endsWith('handshake failure');
    return new NetworkError(`Could not ${context.action}: ${context.host} refused the TLS connection: ${guess ? 'most likely, ' : ''}it wants a client certificate it trusts (mutual TLS) (${why}).`, {
      exitCode: ExitCode.Failure,
      code: 'tls',
      hint: 'Give the client certificate and its key with --client-cert PATH and --client-key PATH (IDM_CLIENT_CERT, IDM_CLIENT_KEY).',
      requestSent: false,
      what: 'the TLS connection was refused',
      cause: error,
    });
  }
  // https:// (or no scheme, which means https) to a port that speaks plain HTTP, such as the sandbox's:
  // OpenSSL reads the server's HTTP answer as a TLS record. Asking again changes nothing.
  if (codeName === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long|http request/i.test(`${err?.reason ?? ''} ${err?.message ?? ''}`)) {
    const plain = `http://${context.host}`;
    // Through a proxy's tunnel, the plain text may be the proxy's own (a page it sends in the tunnel it opened).
    if (viaProxy) {
      return new NetworkError(`Could not ${context.action}: the TLS handshake with ${context.host} through the proxy ${viaProxy.name} (${viaProxy.variable}) was answered in plain text.`, {
        exitCode: ExitCode.Failure,
        code: 'tls',
        hint: `Check the domain and its port (the tenant's address is served over HTTPS); if they are right, the answer is the proxy's, sent in the tunnel it had opened: check ${viaProxy.variable} and whether the proxy lets you reach ${context.host}.`,
        requestSent: false,
        what: 'the TLS handshake was answered in plain text',
        cause: error,
      });
    }
    return new NetworkError(`Could not ${context.action}: ${context.host} does not speak HTTPS on that port (the TLS handshake was answered in plain text).`, {
      exitCode: ExitCode.Failure,
      code: 'tls',
      hint: isLoopbackHost(context.host.replace(/:\d+$/, ''))
        ? `If it serves plain HTTP (idm sandbox start without --https), give the domain as ${plain} (http:// is accepted for loopback hosts only).`
        : "Check the domain and its port: the tenant's address is served over HTTPS.",
      requestSent: false,
      what: 'the server does not speak HTTPS',
      cause: error,
    });
  }
  // A TLS handshake that failed on the version (a server that speaks TLS 1.1 or older): OpenSSL's
  // words (EPROTO) read as a network failure and were asked again, though asking again changes nothing.
  const handshake = HANDSHAKE_MISMATCH.exec(`${err?.reason ?? ''} ${err?.message ?? ''}`)?.[0];
  if (handshake) {
    return new NetworkError(`Could not ${context.action}: the TLS handshake with ${context.host} failed: it offers no TLS version idm accepts (${handshake.toLowerCase()}).`, {
      exitCode: ExitCode.Failure,
      code: 'tls',
      hint: `idm speaks TLS 1.2 and 1.3 only: check the domain and its port (the tenant's address serves them)${viaProxy ? `; through the proxy ${viaProxy.name} (${viaProxy.variable}), if it inspects TLS, the handshake is with the proxy` : ''}.`,
      requestSent: false,
      what: 'the TLS handshake failed (no TLS version in common)',
      cause: error,
    });
  }
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/i.test(codeName) || /certificate/i.test(err?.message ?? '')) {
    return certificateError(error, context, codeName);
  }
  // Node's HTTP parser (HPE_INVALID_CONSTANT, HPE_INVALID_CONTENT_LENGTH...): the server was reached and
  // answered, but not in HTTP (another protocol on that port, a body longer than its Content-Length).
  if (codeName.startsWith('HPE_')) {
    return new NetworkError(`Could not ${context.action}: ${context.host} answered with something that is not valid HTTP (${codeName}).`, {
      exitCode: ExitCode.Failure,
      code: 'network',
      hint: "Check the domain and its port (the tenant's own address); the service or a proxy in between sent something unexpected: run again with --debug to see the request.",
      requestSent: err?.requestSent ?? true,
      what: 'an answer that is not valid HTTP',
      cause: error,
    });
  }
  const known = NETWORK_CAUSES[codeName];
  // Refused, DNS, unreachable: nothing can have reached the server, whatever the socket said.
  const requestSent = known?.sent === false ? false : (err?.requestSent ?? known?.sent ?? true);
  // A connection that was reset or closed once the request went out did reach the host.
  const where = requestSent && known?.sent ? `no answer from ${context.host}` : `could not reach ${context.host}`;
  // Refused on this machine: no network in between, and most often a sandbox stopped since the login
  // (or started again: on another port, unless --port).
  const stopped = codeName === 'ECONNREFUSED' && isLoopbackHost(context.host.replace(/:\d+$/, ''));
  // Through a tunnel, closed before the request got through (its TLS handshake not done, most often):
  // the proxy opened the tunnel (it answered the CONNECT 200), then it closed. A keep-alive tunnel the
  // proxy closed while idle reads so too.
  if (viaProxy && !requestSent && (codeName === 'ECONNRESET' || codeName === 'EPIPE')) {
    const bare = context.host.replace(/:\d+$/, '');
    return new NetworkError(`Could not ${context.action}: could not reach ${context.host} through the proxy ${viaProxy.name} (${viaProxy.variable}): ${known!.what} (${codeName}).`, {
      exitCode: ExitCode.Failure,
      code: 'network',
      hint: `The proxy opened a tunnel to ${context.host}, then the tunnel closed before the request got through: check that the proxy lets you reach ${context.host} (${viaProxy.variable}), then try again; or, if ${bare} is reached without the proxy, add it to NO_PROXY.`,
      requestSent: false,
      what: `${known!.what} in the tunnel of the proxy ${viaProxy.name}`,
      cause: error,
    });
  }
  return new NetworkError(`Could not ${context.action}: ${where}: ${known?.what ?? err?.message ?? String(error)}${codeName ? ` (${codeName})` : ''}.`, {
    exitCode: ExitCode.Failure,
    code: 'network',
    hint: stopped
      ? /:\d+$/.test(context.host)
        ? `Nothing listens on ${context.host}: if it is an idm sandbox, start it again and use the address it prints (a new port, unless --port): log in to it, or set IDM_DOMAIN to it.`
        : `Nothing listens on ${context.host} at the scheme's default port: give an idm sandbox's address with its port, as it prints it (http://127.0.0.1:4010).`
      : 'Check the domain and your network connection, then try again.',
    requestSent,
    what: known?.what ?? 'a network failure',
    cause: error,
  });
}

/** How a proxy is named in messages (api/proxy.ts): host:port and its variable, never its credentials. */
interface ProxyNamed {
  name: string;
  variable: string;
  authorization?: string;
  /** An https:// proxy: idm speaks TLS to it. */
  tls?: boolean;
}

/**
 * A proxy that answered the CONNECT (or a request for a plain-HTTP tenant) with a refusal, 407 for
 * credentials, whose TLS failed (an https:// one), that answered what is not HTTP, or that could not
 * be reached. A 4xx is not asked again (code `proxy`), nor is a TLS failure (code `tls`); a 5xx (the
 * proxy could not reach the tenant), its 408 and 429 (transient, as curl's --retry counts them), a
 * close or a proxy out of reach are network failures, retried (after its Retry-After, when it gave one).
 */
function proxyFailure(error: unknown, context: FailureContext, proxy: ProxyNamed, codeName: string): NetworkError {
  const err = error as NodeJS.ErrnoException & { proxyStatus?: number; proxyAuthenticate?: string; proxyRetryAfter?: string };
  const named = `the proxy ${proxy.name} (${proxy.variable})`;
  const direct = `if ${context.host.replace(/:\d+$/, '')} is reached without the proxy, add it to NO_PROXY`;
  const status = err.proxyStatus;
  if (status !== undefined) {
    const reason = REASONS[status] ?? (status === 407 ? 'Proxy Authentication Required' : undefined);
    const statusText = `${status}${reason ? ` ${reason}` : ''}`;
    // The schemes a 407 offers: idm sends Basic only, which no user name or password helps when none is Basic.
    const schemes = status === 407 ? challengeSchemes(err.proxyAuthenticate) : [];
    const notBasic = schemes.length > 0 && !schemes.some((scheme) => scheme.toLowerCase() === 'basic');
    const later = 'Try again later';
    const [message, hint] =
      status === 407
        ? notBasic
          ? [
              `${named} asks for ${schemes.join(' or ')} authentication, which idm does not support: it sends Basic only, with the user and password of the proxy URL (${statusText}).`,
              `Have the proxy accept Basic, or run a local proxy that authenticates to it for you (such as cntlm or px) and give that one in ${proxy.variable}; or, ${direct}.`,
            ]
          : proxy.authorization
            ? [`${named} refused its credentials (${statusText}).`, `Check the user name and password in ${proxy.variable} (http://USER:PASSWORD@HOST:PORT, with reserved characters percent-encoded); or, ${direct}.`]
            : [`${named} asks for credentials (${statusText}).`, `Give them in ${proxy.variable} as http://USER:PASSWORD@HOST:PORT; or, ${direct}.`]
        : status === 429
          ? [`${named} is limiting requests (${statusText}).`, `${later}; or, ${direct}.`]
          : status === 408
            ? [`${named} gave up waiting for the CONNECT to ${context.host} (${statusText}).`, `${later}; or, ${direct}.`]
            : status >= 500
              ? [`${named} could not connect to ${context.host} (${statusText}).`, `Check the domain (can the proxy reach ${context.host}?) and try again later; or, ${direct}.`]
              : [`${named} refused to connect to ${context.host} (${statusText}).`, `Check ${proxy.variable} (is it the proxy for this network?) and that the proxy lets you reach ${context.host}; or, ${direct}.`];
    // Transient (as curl's --retry counts them), and the tenant never saw the request: asked again.
    const transient = status >= 500 || status === 408 || status === 429;
    const retryAfter = transient && err.proxyRetryAfter !== undefined ? err.proxyRetryAfter.trim().slice(0, 64) : undefined;
    return new NetworkError(`Could not ${context.action}: ${message}`, {
      // Still limited after the retries: exit 5, as for the service's own 429, so that a script that
      // backs off on a rate limit backs off here too.
      exitCode: status === 429 ? ExitCode.RateLimited : ExitCode.Failure,
      code: transient ? 'network' : 'proxy',
      hint,
      requestSent: false,
      what: `the proxy ${proxy.name} answered ${status}`,
      cause: error,
      ...(retryAfter ? { retryAfter } : {}),
    });
  }
  // An https:// proxy URL for a proxy that speaks plain HTTP on that port (most do, even for https://
  // tenants): OpenSSL reads its HTTP answer as a TLS record. Asking again changes nothing.
  if (proxy.tls && (codeName === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long|http request/i.test(`${(err as { reason?: string }).reason ?? ''} ${err?.message ?? ''}`))) {
    return new NetworkError(`Could not ${context.action}: ${named} does not speak TLS on that port (the TLS handshake was answered in plain text).`, {
      exitCode: ExitCode.Failure,
      code: 'tls',
      hint: `Give it as http://HOST:PORT in ${proxy.variable}: a proxy is most often reached over plain HTTP, https:// tenants too (their TLS goes through its tunnel); https:// is for a proxy that itself speaks TLS.`,
      requestSent: false,
      what: 'the proxy does not speak TLS',
      cause: error,
    });
  }
  // An https:// proxy that wants a client certificate: idm presents its own to the tenant only.
  // Under TLS 1.2 as EPROTO with OpenSSL's words, as for a tenant (errorFromNetwork).
  const alert = codeName === 'EPROTO' ? TLS12_CLIENT_ALERT.exec(err.message ?? '')?.[0].toLowerCase() : undefined;
  if (/ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|ACCESS_DENIED)/.test(codeName) || alert) {
    return new NetworkError(`Could not ${context.action}: ${named} refused the TLS connection: ${alert?.endsWith('handshake failure') ? 'most likely, ' : ''}it wants a client certificate (${alert ?? codeName}).`, {
      exitCode: ExitCode.Failure,
      code: 'tls',
      hint: `idm presents a client certificate (--client-cert) to the tenant only, never to a proxy: give a proxy that does not ask for one in ${proxy.variable}, or run a local proxy that presents it for you; or, ${direct}.`,
      requestSent: false,
      what: 'the proxy refused the TLS connection',
      cause: error,
    });
  }
  // An https:// proxy whose certificate fails verification: the fix for its cause, as for a tenant's.
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/i.test(codeName)) return certificateError(error, context, codeName, proxy);
  // The proxy took the connection, then closed it or answered in something that is not HTTP: most
  // often no HTTP proxy listens there (one that speaks TLS, a SOCKS proxy), which reaching it again will not change.
  if ((err as { proxyReached?: boolean }).proxyReached && (codeName === 'ECONNRESET' || codeName === 'EPIPE' || codeName.startsWith('HPE_'))) {
    const notHttp = codeName.startsWith('HPE_');
    const did = notHttp ? 'answered the CONNECT with something that is not HTTP' : 'closed the connection without answering the CONNECT';
    return new NetworkError(`Could not ${context.action}: ${named} ${did} (${codeName}).`, {
      exitCode: ExitCode.Failure,
      code: 'network',
      hint: proxy.tls
        ? `Check ${proxy.variable}: is ${proxy.name} an HTTP proxy (reached over TLS)? A SOCKS proxy is not supported.`
        : `Check ${proxy.variable}: is ${proxy.name} an HTTP proxy? One that speaks TLS is given as https://HOST:PORT; a SOCKS proxy is not supported.`,
      requestSent: false,
      what: `the proxy ${proxy.name} ${notHttp ? 'answered with something that is not HTTP' : 'closed the connection without answering'}`,
      cause: error,
    });
  }
  const known = NETWORK_CAUSES[codeName];
  const what = known?.what ?? (err?.message || 'a network failure');
  return new NetworkError(`Could not ${context.action}: could not reach ${named}: ${what}${codeName ? ` (${codeName})` : ''}.`, {
    exitCode: ExitCode.Failure,
    code: 'network',
    hint: `Check ${proxy.variable} (the proxy's host and port) and NO_PROXY, then try again.`,
    requestSent: false,
    what: `the proxy ${proxy.name} could not be reached (${what})`,
    cause: error,
  });
}

/**
 * The authentication schemes of a Proxy-Authenticate value (RFC 9110 11.6.1: challenges separated by
 * commas, each a scheme then a token68 or auth-params, which may hold quoted commas): a proxy's words,
 * so only scheme tokens are kept, at most 4 of 40 characters.
 */
function challengeSchemes(value: string | undefined): string[] {
  const schemes: string[] = [];
  // The commas outside quoted strings separate challenges and auth-params alike; a part that begins
  // with a token followed by a space or nothing (not by '=') starts a challenge.
  for (const part of (value ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""').split(',')) {
    const scheme = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]{1,40})(?=\s|$)(?!\s*=)/.exec(part)?.[1];
    if (scheme && !schemes.some((seen) => seen.toLowerCase() === scheme.toLowerCase())) schemes.push(scheme);
  }
  return schemes.slice(0, 4);
}

/**
 * A server certificate that failed verification, with the fix for its cause: a name it is not for
 * (check the domain), a date it is not valid at (renewal, or this machine's clock), or an authority
 * idm does not trust (--ca-file; when one was given, it is not the one that signed it). With
 * `proxy`: the certificate of that https:// proxy itself (its name is in its variable).
 */
function certificateError(error: unknown, context: FailureContext, codeName: string, proxy?: ProxyNamed): NetworkError {
  const err = error as NodeJS.ErrnoException & { caGiven?: boolean; cert?: { subjectaltname?: string }; viaProxy?: ProxyNamed };
  const verified = (what: string, hint: string) =>
    new NetworkError(`Could not ${context.action}: the TLS certificate of ${proxy ? `the proxy ${proxy.name} (${proxy.variable})` : context.host} ${what} (${codeName || err.message}).`, {
      exitCode: ExitCode.Failure,
      code: 'tls',
      hint,
      requestSent: false,
      what: proxy ? 'the proxy certificate could not be verified' : 'the TLS certificate could not be verified',
      cause: error,
    });
  const never = 'verification is never turned off.';
  const owner = proxy ? 'proxy' : 'tenant';
  if (codeName === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    // Read only once the certificate's chain was verified: names a trusted authority signed.
    const names = err.cert?.subjectaltname?.replace(/\b(DNS|IP Address):/g, '').replace(/[^\x20-\x7e]/g, '').slice(0, 200);
    return verified(
      `is not for that name${names ? ` (it is for ${names})` : ''}`,
      `${proxy ? `Check ${proxy.variable}` : 'Check the domain'}: give the ${owner} by a name its certificate holds; --ca-file does not change this, and ${never}`,
    );
  }
  if (codeName === 'CERT_HAS_EXPIRED' || codeName === 'CERT_NOT_YET_VALID') {
    const expired = codeName === 'CERT_HAS_EXPIRED';
    return verified(
      expired ? 'has expired' : 'is not valid yet',
      `${expired ? `Whoever runs the ${owner} must renew it` : 'It may have just been issued'}; if it should be valid, check this machine's clock (date). --ca-file does not change this, and ${never}`,
    );
  }
  // Through a proxy that inspects TLS, the certificate is one the proxy made, signed by its own
  // authority (not so for the proxy's own certificate).
  const via = err.viaProxy && !proxy ? `the proxy ${err.viaProxy.name} (${err.viaProxy.variable})` : undefined;
  if (err.caGiven) {
    return verified(
      'could not be verified',
      `The certificate authority idm was given (--ca-file, IDM_CA_FILE or the profile's CA file) did not sign it: give the certificate of the authority that did${via ? ` (that of ${via}, if it inspects TLS)` : ''}; ${never}`,
    );
  }
  if (via) {
    return verified(
      'could not be verified',
      `If ${via} inspects TLS, it signs the certificates it presents with its own certificate authority: give that authority's certificate with --ca-file PATH (IDM_CA_FILE, or NODE_EXTRA_CA_CERTS), as for a tenant that uses a private one; ${never}`,
    );
  }
  return verified(
    'could not be verified',
    `If the ${owner} uses a private certificate authority, give its certificate with --ca-file PATH (IDM_CA_FILE, or NODE_EXTRA_CA_CERTS); ${never}`,
  );
}
