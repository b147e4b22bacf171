// The management client every command uses: resolves the credentials (flags > environment >
// profile), gets a token through the cache, and sends JSON requests with the bearer header, a
// User-Agent and a timeout. Failures become typed ApiErrors in ./errors.ts; a 401 on a token from
// the cache drops it and retries once with a new one.
import type { GlobalOptions } from '../cli/deps.js';
import { createTokenProvider, type TokenProvider } from '../auth/tokens.js';
import { resolveCredentials, type Resolved } from '../config/resolve.js';
import type { IO } from '../io/terminal.js';
import { badAnswer, errorFromAnswer, type FailureContext } from './errors.js';
import { UsageError } from '../cli/errors.js';
import { checkPem, readTextFile } from '../cli/input.js';
import { createTransport, type HttpResponse, type TransportOptions } from './http.js';
import { announcingWait, retryBudget, send, type SendPolicy } from './retry.js';
import { notice, warn } from './notices.js';
import { Redactor } from './redact.js';
import type { ApiClient, ApiResponse, RequestOptions } from './types.js';
import { USER_AGENT } from '../cli/version.js';

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_MAX_WAIT_SECONDS = 60;

// The retry policy lives in ./retry.ts (shared with the token provider); send() is the one seam.
export { send, type SendPolicy } from './retry.js';

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
  for (const warning of resolved.warnings) warn(io, globals.json, warning);
  const redactor = new Redactor();
  redactor.add(resolved.client?.clientSecret);
  const tls = await tlsSettings(globals, redactor);
  const transport = createTransport({ redactor, tls, debug: globals.debug ? (text) => notice(io, globals.json, 'debug', text.trimEnd(), text) : undefined });
  const timeoutMs = (globals.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  // One budget of waiting for the whole run (token and management requests alike).
  const budget = retryBudget((globals.maxWait ?? DEFAULT_MAX_WAIT_SECONDS) * 1000);
  const wait = announcingWait(io, globals.json);
  const tokens = createTokenProvider({
    transport,
    redactor,
    tenant: resolved.tenant,
    dir: resolved.dir,
    policy: { timeoutMs, idempotent: true, budget, wait },
    client: resolved.client,
    accessToken: resolved.accessToken,
    fixCredentials: resolved.fixCredentials,
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
      fixCredentials: resolved.fixCredentials,
      hints: options.hints,
      redact: (text) => redactor.text(text),
    };
    const policy: SendPolicy = { timeoutMs, budget, wait, idempotent: options.method === 'GET' };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const attempt = async (): Promise<{ response: HttpResponse; token: string }> => {
      const token = await tokens.get();
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': USER_AGENT };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return { response: await send(transport, { method: options.method, url, headers, body }, context, policy), token };
    };

    let { response, token } = await attempt();
    // A refused cached token (expired early, revoked, rotated keys): dropped, one new token, one retry.
    if (response.status === 401 && tokens.invalidate(token)) {
      ({ response, token } = await attempt());
      if (response.status === 401) tokens.invalidate(token);
    }
    // A token minted before the client got a new scope lacks it until it expires: see scopeRefused.
    if (response.status === 403 && /insufficient_scope/.test(response.text)) tokens.scopeRefused(token);
    if (response.status < 200 || response.status >= 300) throw errorFromAnswer(response, context, { attempts: response.attempts ?? 1 });
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

/**
 * --ca-file, --client-cert and --client-key (or IDM_CA_FILE, IDM_CLIENT_CERT, IDM_CLIENT_KEY), read and
 * checked whenever given (they apply to HTTPS tenants). The CA is added to Node's own roots (NODE_EXTRA_CA_CERTS works too); certificate
 * verification is never turned off. The key is a secret: only ever a path, never printed.
 */
async function tlsSettings(globals: GlobalOptions, redactor: Redactor): Promise<TransportOptions['tls']> {
  const { caFile, clientCert, clientKey } = globals;
  if (caFile === undefined && clientCert === undefined && clientKey === undefined) return undefined;
  if ((clientCert === undefined) !== (clientKey === undefined)) {
    throw new UsageError(
      `${clientCert === undefined ? '--client-key' : '--client-cert'} needs ${clientCert === undefined ? '--client-cert' : '--client-key'} too.`,
      'Mutual TLS takes both: the certificate (--client-cert, IDM_CLIENT_CERT) and its private key (--client-key, IDM_CLIENT_KEY).',
    );
  }
  const read = (flag: string, variable: string, path: string, kind: 'certificate' | 'private key'): string => {
    const hint = `Give the path of a PEM ${kind} file.`;
    return checkPem(`${flag} (${variable})`, path, readTextFile(`${flag} (${variable})`, path, hint), kind, hint);
  };
  const settings: NonNullable<TransportOptions['tls']> = {};
  if (caFile !== undefined) {
    const { rootCertificates } = await import('node:tls');
    settings.ca = [...rootCertificates, read('--ca-file', 'IDM_CA_FILE', caFile, 'certificate')];
  }
  if (clientCert !== undefined && clientKey !== undefined) {
    settings.cert = read('--client-cert', 'IDM_CLIENT_CERT', clientCert, 'certificate');
    settings.key = read('--client-key', 'IDM_CLIENT_KEY', clientKey, 'private key');
    redactor.add(settings.key);
  }
  return settings;
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
