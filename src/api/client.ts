// The management client every command uses: resolves the credentials (flags > environment >
// profile), gets a token through the cache, and sends JSON requests with the bearer header, a
// User-Agent and a timeout. Failures become typed ApiErrors in ./errors.ts; a 401 with a cached
// token drops it and retries once with a new one.
import type { GlobalOptions } from '../cli/deps.js';
import { createTokenProvider, type TokenProvider } from '../auth/tokens.js';
import { resolveCredentials, type Resolved } from '../config/resolve.js';
import type { IO } from '../io/terminal.js';
import { badAnswer, errorFromAnswer, type FailureContext } from './errors.js';
import { createTransport, type HttpRequest, type HttpResponse, type Transport } from './http.js';
import { Redactor } from './redact.js';
import type { ApiClient, ApiResponse, RequestOptions } from './types.js';

declare const IDM_VERSION: string;
export const USER_AGENT = `idm/${typeof IDM_VERSION === 'string' ? IDM_VERSION : '0.0.0-dev'}`;
export const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * How a request may be retried (issue 5 fills in the behaviour; today: one attempt).
 * GET is idempotent: 429, 408, 5xx and network errors may be retried. POST only when it cannot have
 * reached the server (NetworkError.requestSent false), or on 429/503 before processing.
 */
export interface SendPolicy {
  timeoutMs: number;
  idempotent: boolean;
  /** Total time all attempts may wait (--max-wait). */
  maxWaitMs: number;
}

/**
 * Every exchange goes through here, so that the retry policy of issue 5 has one place to live.
 * Today: one attempt; the answer comes back whatever its status.
 */
export async function send(transport: Transport, request: HttpRequest, context: FailureContext, policy: SendPolicy): Promise<HttpResponse> {
  return transport.send(request, context, policy.timeoutMs);
}

export interface ManagementClient extends ApiClient {
  readonly resolved: Resolved;
  readonly tokens: TokenProvider;
}

export interface ClientSettings {
  io: IO;
  globals: GlobalOptions;
  /** Already-resolved credentials (login verifies new ones); default: resolve from profile and env. */
  resolved?: Resolved;
}

export async function createApiClient(settings: ClientSettings): Promise<ManagementClient> {
  const { io, globals } = settings;
  const resolved = settings.resolved ?? resolveCredentials(io.env, globals.profile);
  for (const warning of resolved.warnings) io.err(`Warning: ${warning}\n`);
  const redactor = new Redactor();
  redactor.add(resolved.client?.clientSecret);
  const transport = createTransport({ redactor, debug: globals.debug ? (text) => io.err(text) : undefined });
  const timeoutMs = (globals.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  const maxWaitMs = (globals.maxWait ?? 60) * 1000;
  const tokens = createTokenProvider({
    transport,
    redactor,
    tenant: resolved.tenant,
    dir: resolved.dir,
    timeoutMs,
    client: resolved.client,
    accessToken: resolved.accessToken,
  });
  const baseUrl = `${resolved.tenant.base}/api/v2`;

  async function request<T>(options: RequestOptions): Promise<ApiResponse<T>> {
    const url = new URL(`${baseUrl}${options.path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const context: FailureContext = {
      endpoint: 'management',
      action: options.action ?? `${options.method} ${options.path}`,
      host: resolved.tenant.host,
      scope: options.scope,
      clientId: resolved.client?.clientId,
      tokenSource: tokens.source,
      hints: options.hints,
    };
    const policy: SendPolicy = { timeoutMs, maxWaitMs, idempotent: options.method === 'GET' };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const attempt = async (): Promise<{ response: HttpResponse; token: string }> => {
      const token = await tokens.get();
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': USER_AGENT };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return { response: await send(transport, { method: options.method, url, headers, body }, context, policy), token };
    };

    let { response, token } = await attempt();
    // A refused token (expired early, revoked, rotated keys): drop it, get one new token, retry once.
    if (response.status === 401 && tokens.invalidate(token)) ({ response, token } = await attempt());
    if (response.status === 401) tokens.invalidate(token);
    // A token minted before the client got a new scope would fail until it expires: drop it.
    if (response.status === 403 && /insufficient_scope/.test(response.text)) tokens.forget(token);
    if (response.status < 200 || response.status >= 300) throw errorFromAnswer(response, context);
    return { status: response.status, headers: response.headers, body: parseBody<T>(response, context) };
  }

  return {
    baseUrl,
    resolved,
    tokens,
    request,
    async close() {
      transport.close();
    },
  };
}

/** JSON bodies as received (unknown fields kept); 204 and empty bodies are undefined. */
function parseBody<T>(response: HttpResponse, context: FailureContext): T {
  if (response.text.trim() === '') {
    if (response.status === 204 || response.status === 202 || response.status === 201) return undefined as T;
    throw badAnswer(context, response.status, 'an empty body');
  }
  try {
    return JSON.parse(response.text) as T;
  } catch {
    throw badAnswer(context, response.status, response.text.length > 0 && /^\s*[{[]/.test(response.text) ? 'truncated or invalid JSON' : 'a body that is not JSON');
  }
}
