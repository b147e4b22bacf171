// The management client under every command: gets a token through the token source, sends JSON
// requests with the bearer header, a User-Agent and a timeout under the one retry policy
// (./retry.ts), maps failures to typed errors (./errors.ts), and reads answers as received.
// It takes plain settings, never the CLI's flags; ./management/ is the typed client built on it.
import { accessTokenProblem, createTokenSource, type FetchToken, type TokenSource } from '../auth/tokens.js';
import { peekClaims } from '../auth/jwt.js';
import type { Resolved } from '../config/resolve.js';
import { ApiError, InterruptedError, NetworkError, type Warning } from '../core/errors.js';
import { parseJsonExact, stringifyJson } from '../core/json-numbers.js';
import { USER_AGENT } from '../core/version.js';
import { badAnswer, errorFromAnswer, type FailureContext } from './errors.js';
import { createTransport, type HttpResponse, type TlsMaterial } from './http.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../core/json-depth.js';
import { Redactor } from './redact.js';
import { exchange, MAX_ATTEMPTS, retryBudget, send, type SendPolicy, type WaitReporter } from './retry.js';


export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_MAX_WAIT_SECONDS = 60;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiSettings {
  credentials: Resolved;
  /** Per request. */
  timeoutMs: number;
  /** Waiting for rate limits and retries in the whole run. */
  maxWaitMs: number;
  tls?: TlsMaterial;
  /** --debug traces (secrets masked); undefined when off. */
  debug?: (text: string) => void;
  /** Announces and performs waits (a countdown at a terminal); default: silent. */
  onWait?: WaitReporter;
  /** A stop (Ctrl-C, SIGTERM): requests and waits end with its reason. */
  signal?: AbortSignal;
  /** The token cache cannot be used this run (said once). */
  onCacheProblem?: (warning: Warning) => void;
  /** Answers larger than this are a bad answer (default: http.ts MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Called when a request (its retries included) starts, with what it does; the returned function when it ends (a spinner). */
  onActivity?: (action: string) => () => void;
}

export type QueryValue = string | number | boolean | readonly string[] | undefined;

/**
 * One operation of the management interface, as the typed client describes it.
 *
 * `success` is the status the interface documents for it (201 for a create, 204 for a delete...).
 * Any 2xx is still a success: a service or proxy that answers 200 where 201 is documented did what
 * was asked, and failing there would be a failure idm made up (responses are read tolerantly). The
 * documented status changes only the reading: an operation documented as 204 has no body, so an
 * empty answer with another 2xx is read as no body too, never as a bad answer. A different 2xx is
 * said in the --debug trace. Unset (idm api): any 2xx, read as it comes.
 */
export interface Operation {
  method: HttpMethod;
  /** Below the base URL (`https://<domain>/api/v2`), built with api/path.ts apiPath. */
  path: string;
  /** Arrays are sent as repeated parameters. */
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** What the request does, as a verb phrase for messages: "list event streams". */
  action: string;
  /** The scope the operation needs, named when the answer is 403. */
  scope?: string;
  /** The documented success status (or statuses); see above. */
  success?: number | readonly number[];
  /** Advice for particular statuses, e.g. `{ 400: 'Check --from ...' }`. */
  hints?: Partial<Record<number, string>>;
  /**
   * A POST or PATCH that was sent and got no answer (the connection reset, the time ran out), or that
   * the service failed on (500, 502, 504), or whose 2xx answer cannot be read, may have taken effect: how to check, with the command that shows it, before running it again (a second
   * create makes a second stream). Replaces the network error's "try again".
   */
  unanswered?: string;
  /** See retry.ts exchange(): a retried POST answered 409 is read back and compared. */
  readBack?: () => Promise<unknown | undefined>;
  /**
   * Stops this request alone, its retries and waits included (a page asked for in advance that is no
   * longer wanted); ApiSettings.signal stops every request of the run.
   */
  signal?: AbortSignal;
  /**
   * Handed the text of a successful answer before it is parsed: a listing reads the next cursor from
   * its end and asks for that page at once (api/paginate.ts). True when it did: that request is let
   * go to its socket before this answer's parse holds the thread.
   */
  onText?: (text: string) => boolean;
  /**
   * A read whose 403 the caller takes as an answer (streams.getIfReadable): that 403 does not drop
   * the cached token (tokens.scopeRefused), which for a client that lacks the scope by design would
   * cost a new token for the request that follows, in every run.
   */
  forbiddenIsAnswer?: boolean;
}

export interface ApiResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The JSON body as received (unknown fields kept); undefined for an empty 2xx answer. */
  body: unknown;
}

export interface ApiClient {
  /** `https://tenant.example.com/api/v2`. */
  readonly baseUrl: string;
  readonly credentials: Resolved;
  readonly tokens: TokenSource;
  request(operation: Operation): Promise<ApiResponse>;
  /** A 2xx answer that cannot be read as the operation's answer. */
  badAnswer(operation: Operation, status: number, problem: string): ApiError;
  close(): Promise<void>;
}

/** The longest an answered token is taken to live, in seconds (a year; the service says a day). */
const MAX_TOKEN_LIFETIME_S = 366 * 86_400;

export function createApiClient(settings: ApiSettings): ApiClient {
  const { credentials, signal } = settings;
  const redactor = new Redactor();
  redactor.add(credentials.client?.clientSecret);
  redactor.add(credentials.client?.privateKeyPem);
  redactor.add(credentials.accessToken);
  redactor.add(settings.tls?.key);
  const transport = createTransport({ redactor, tls: settings.tls, debug: settings.debug, signal, maxBodyBytes: settings.maxBodyBytes });
  // One budget of waiting for the whole run (token and management requests alike).
  const budget = retryBudget(settings.maxWaitMs);
  const policy = (idempotent: boolean): SendPolicy => ({ timeoutMs: settings.timeoutMs, budget, wait: settings.onWait, signal, idempotent });
  const { tenant } = credentials;
  const baseUrl = `${tenant.base}/api/v2`;

  const fetchToken: FetchToken = async (request) => {
    for (const secret of request.secrets) redactor.add(secret);
    const context: FailureContext = {
      endpoint: 'token',
      action: 'get an access token',
      host: tenant.host,
      clientId: credentials.client?.clientId,
      byCertificate: credentials.client?.authMethod === 'tls_client_auth',
      byAssertion: credentials.client?.authMethod === 'private_key_jwt',
      fixCredentials: credentials.fixCredentials,
      redact: (text) => redactor.text(text),
    };
    // Retried like a GET: asking again for a token changes nothing (but counts against the quota).
    const done = settings.onActivity?.(context.action);
    let response;
    try {
      response = await send(transport, { method: 'POST', url: request.url, headers: request.headers, body: request.body, secretAnswer: true }, context, policy(true));
    } finally {
      done?.();
    }
    if (response.status < 200 || response.status >= 300) throw errorFromAnswer(response, context);
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(response.text) as Record<string, unknown>;
    } catch {
      throw badAnswer(context, response.status, 'a body that is not JSON');
    }
    if (nestsDeeper(body)) throw badAnswer(context, response.status, `JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
    // The tokens were registered for masking by the transport (./http.ts) as the answer arrived.
    const accessToken = body?.access_token;
    if (typeof accessToken !== 'string' || accessToken === '') throw badAnswer(context, response.status, 'no access_token');
    const tokenProblem = accessTokenProblem(accessToken);
    if (tokenProblem) throw badAnswer(context, response.status, tokenProblem);
    // idm sends only bearer tokens: a token of another type must not be used as one (RFC 6749 7.1).
    // Absent is taken as Bearer, tolerantly; the type's name is never quoted (a server's word).
    const tokenType = body!.token_type ?? 'Bearer';
    if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') throw badAnswer(context, response.status, 'a token_type other than Bearer');
    // expires_in is set per API: never assume a day. 0 (or less) says it expires now: it serves this
    // run only (auth/tokens.ts never caches it). Without it, the token's own exp, else one minute.
    // With both, the sooner: the service refuses a token past its exp whatever expires_in said, and
    // a cache that kept it would send refused requests. The exp is measured on the server's clock,
    // never this machine's: from the answer's Date (the time left, for a token issued a while ago and
    // handed back again), and never beyond its lifetime from its own iat; from now without either.
    let expiresIn = typeof body!.expires_in === 'number' && Number.isFinite(body!.expires_in) ? Math.max(0, body!.expires_in) : undefined;
    const claims = peekClaims(accessToken);
    const exp = typeof claims?.exp === 'number' && !Number.isNaN(claims.exp) ? claims.exp : undefined;
    if (exp !== undefined) {
      const iat = typeof claims?.iat === 'number' && Number.isFinite(claims.iat) ? claims.iat : undefined;
      const answeredAt = Date.parse(response.headers.date ?? '') / 1000; // NaN without a readable Date
      const froms = [iat, Number.isFinite(answeredAt) ? answeredAt : undefined].filter((from) => from !== undefined);
      const from = froms.length > 0 ? Math.max(...froms) : Date.now() / 1000;
      expiresIn = Math.min(expiresIn ?? Infinity, Math.max(0, exp - from));
    }
    expiresIn ??= 60;
    // A lifetime beyond any issuer's (1e20 s, a hostile answer) is cached for a year at most: the
    // cache and auth status hold times a Date can represent.
    expiresIn = Math.min(expiresIn, MAX_TOKEN_LIFETIME_S);
    return {
      accessToken,
      tokenType,
      expiresIn,
      scope: typeof body!.scope === 'string' ? body!.scope : undefined,
    };
  };

  const tokens = createTokenSource({
    tenant,
    dir: credentials.dir,
    client: credentials.client,
    accessToken: credentials.accessToken,
    secretFile: credentials.secretFile,
    fetchToken,
    // A process fetching a token is bounded by its attempts and its waits; the others wait that long.
    holdMs: MAX_ATTEMPTS * settings.timeoutMs + settings.maxWaitMs,
    signal,
    onCacheProblem: settings.onCacheProblem,
    // The wait for another process's token comes out of the same budget as every other wait.
    onLockWait: (ms) => (budget.waitedMs = Math.min(budget.maxWaitMs, budget.waitedMs + ms)),
    onLockWaiting: () => settings.debug?.('(waiting for the access token another idm run is fetching: its lock is held)\n'),
  });

  const contextOf = (operation: Operation): FailureContext => ({
    endpoint: 'management',
    action: operation.action,
    host: tenant.host,
    scope: operation.scope,
    clientId: credentials.client?.clientId,
    tokenSource: tokens.source,
    fixCredentials: credentials.fixCredentials,
    hints: operation.hints,
    redact: (text) => redactor.text(text),
  });

  async function request(operation: Operation): Promise<ApiResponse> {
    const done = settings.onActivity?.(operation.action);
    try {
      return await sendOperation(operation);
    } finally {
      done?.();
    }
  }

  // The run's signal or an operation's: made once per operation signal, which every page of a
  // listing shares (a new AbortSignal.any per page leaves a listener and a weak reference behind).
  const combined = new WeakMap<AbortSignal, AbortSignal>();
  const either = (run: AbortSignal, own: AbortSignal): AbortSignal => {
    let stop = combined.get(own);
    if (!stop) combined.set(own, (stop = AbortSignal.any([run, own])));
    return stop;
  };

  async function sendOperation(operation: Operation): Promise<ApiResponse> {
    const url = new URL(`${baseUrl}${operation.path}`);
    // The last guard of api/path.ts: nothing in the path was resolved away.
    if (url.pathname !== `/api/v2${operation.path.split('?')[0]}`) throw new Error(`request path ${operation.path} does not stay a path of the management interface`);
    for (const [key, value] of Object.entries(operation.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
      else url.searchParams.set(key, String(value));
    }
    const context = contextOf(operation);
    // A number of a user's body that a double cannot hold is sent as written (core/json-numbers.ts).
    const body = operation.body === undefined ? undefined : stringifyJson(operation.body);
    // A secret the body carries (a webhook's token) is masked wherever the answer quotes it.
    redactor.addFields(operation.body);
    // GET, PUT and DELETE change nothing more when repeated; POST and PATCH are sent again only when
    // they cannot have reached the server (retry.ts).
    const stop = operation.signal && signal ? either(signal, operation.signal) : (operation.signal ?? signal);
    const sendPolicy = { ...policy(operation.method === 'GET' || operation.method === 'PUT' || operation.method === 'DELETE'), signal: stop };
    const result = await exchange({
      tokens,
      readBack: operation.readBack,
      ...(operation.forbiddenIsAnswer ? { forbiddenIsAnswer: true } : {}),
      attempt: (token) => {
        // A token from the disk cache was never in a token answer of this run: masked from its first use.
        redactor.add(token);
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': USER_AGENT };
        if (body !== undefined) headers['content-type'] = 'application/json';
        return send(transport, { method: operation.method, url, headers, body, signal: stop }, context, sendPolicy).catch((error: unknown) => {
          if (error instanceof NetworkError && error.requestSent && !sendPolicy.idempotent) error.hint = unansweredHint(operation, error);
          // Stopped while the sent POST or PATCH was unanswered: it may have taken effect, as one never answered.
          else if (error instanceof InterruptedError && error.requestSent && !sendPolicy.idempotent) error.hint ??= operation.unanswered ?? UNANSWERED;
          else if (error instanceof ApiError) unreadableSuccess(operation, error); // an answer over the size limit, broken HTTP
          throw error;
        });
      },
    });
    if ('readBack' in result) return { status: 200, headers: {}, body: result.readBack };
    const { response } = result;
    if (response.status < 200 || response.status >= 300) {
      const error = errorFromAnswer(response, context, { attempts: response.attempts ?? 1 });
      // A POST or PATCH the service failed on (500, a gateway's 502 or 504) may have been acted on
      // before it failed, as one never answered: check before running it again (retry.ts sends it once).
      if (!sendPolicy.idempotent && mayHaveActed(response) && operation.hints?.[response.status] === undefined) {
        error.hint = unansweredHint(operation, error);
      }
      throw error;
    }
    const documented = operation.success === undefined ? [] : [operation.success].flat();
    if (documented.length > 0 && !documented.includes(response.status)) {
      settings.debug?.(`(${response.status} where ${documented.join(' or ')} is documented for ${operation.method} ${redactor.text(operation.path.split('?')[0]!)}: read as a success)\n`);
    }
    if (operation.onText?.(response.text)) await new Promise((resolve) => setImmediate(resolve));
    const bodyless = documented.length > 0 && documented.every((status) => status === 204);
    try {
      return { status: response.status, headers: response.headers, body: parseBody(response, context, bodyless) };
    } catch (error) {
      throw error instanceof ApiError ? unreadableSuccess(operation, error) : error;
    }
  }

  return {
    baseUrl,
    credentials,
    tokens,
    request,
    badAnswer: (operation, status, problem) => unreadableSuccess(operation, badAnswer(contextOf(operation), status, problem)),
    async close() {
      transport.close();
    },
  };
}

/** What to do about a POST or PATCH that may have taken effect, when the operation does not say. */
const UNANSWERED = 'It was sent, so it may have taken effect: check before running the command again.';

/**
 * What to do about a POST or PATCH that was sent and never answered, or that the service failed on:
 * check what it did, then run it again. `error`: the network failure or the answer, whose "Tried N
 * times." (retry.ts, api/errors.ts) is kept.
 */
function unansweredHint(operation: Operation, error: NetworkError | ApiError): string {
  const tried = /^Tried \d+ times[^.]*\. /.exec(error.hint ?? '')?.[0] ?? '';
  const check = operation.unanswered ?? UNANSWERED;
  return `${tried}${check}${error.code === 'timeout' ? ' If the service is slow, allow longer with --timeout SECONDS (IDM_TIMEOUT).' : ''}`;
}

/**
 * A 2xx to a POST or PATCH whose answer cannot be read (not JSON, empty, not the record asked for):
 * the service did the work, so "run again" would do it twice (a second stream, another test event).
 * The hint is the operation's check instead; other requests keep the bad answer's own hint.
 */
function unreadableSuccess(operation: Operation, error: ApiError): ApiError {
  const changes = operation.method === 'POST' || operation.method === 'PATCH';
  if (changes && error.code === 'bad_response' && error.status !== undefined && error.status >= 200 && error.status < 300) error.hint = unansweredHint(operation, error);
  return error;
}

/** A failure answered after the service may have acted: a 5xx, but not 501 or a 503 that says when to come back (surely not processed). */
function mayHaveActed(response: HttpResponse): boolean {
  const { status } = response;
  return status >= 500 && status !== 501 && !(status === 503 && response.headers['retry-after'] !== undefined);
}

/**
 * JSON bodies as received (unknown fields kept). An empty body is undefined for a 201, 202 or 204, and
 * for any 2xx of an operation documented as body-less (`bodyless`); elsewhere it is a bad answer.
 */
function parseBody(response: HttpResponse, context: FailureContext, bodyless: boolean): unknown {
  if (response.text.trim() === '') {
    if (bodyless || response.status === 204 || response.status === 202 || response.status === 201) return undefined;
    throw badAnswer(context, response.status, 'an empty body');
  }
  let body: unknown;
  try {
    body = parseJsonExact(response.text); // numbers a double cannot hold kept as written, for --json
  } catch {
    throw badAnswer(context, response.status, response.text.length > 0 && /^\s*[{[]/.test(response.text) ? 'truncated or invalid JSON' : 'a body that is not JSON');
  }
  if (nestsDeeper(body)) throw badAnswer(context, response.status, `JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
  return body;
}
