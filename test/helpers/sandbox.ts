// Starting the sandbox in a test, and talking to it over real HTTP on loopback.
//
//   const sb = useSandbox();                       // started before the file's tests, closed after
//   const token = await getToken(sb(), 'reader');
//   const res = await call(sb(), 'GET', '/api/v2/event-streams?take=5', { token });
import { createPrivateKey, randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_SEED, startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { signJwt } from '../../src/sandbox/jwt.js';
import { recordSecrets } from './sweep.js';
import { TEST_DELIVERY_TIMEOUT_MS } from './timeouts.js';

export type { Sandbox };
export { recordSecrets };

/** Starts one sandbox for the whole test file; call the returned function inside tests. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ deliveryTimeoutMs: TEST_DELIVERY_TIMEOUT_MS, ...options });
    recordSandboxSecrets(sandbox, options.seed);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error('the sandbox is not started yet (use it inside a test)');
    return sandbox;
  };
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text ('' for none). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export async function call(
  sandbox: Pick<Sandbox, 'url'>,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${sandbox.url}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** POST /oauth/token with form parameters (and optional headers); the raw answer. */
export function tokenRequest(sandbox: Pick<Sandbox, 'url'>, params: Record<string, string>, headers: Record<string, string> = {}): Promise<CallResult> {
  return call(sandbox, 'POST', '/oauth/token', {
    body: new URLSearchParams(params).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** An access token for the admin (every scope) or reader (read:event_streams) client (of a sandbox, or of the JSON line of `idm sandbox start --json`). */
export async function getToken(sandbox: Pick<Sandbox, 'url' | 'clients'>, client: 'admin' | 'reader' = 'admin'): Promise<string> {
  const { clientId, clientSecret } = sandbox.clients[client];
  const res = await tokenRequest(sandbox, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    audience: `${sandbox.url}/api/v2/`,
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return res.body.access_token as string;
}

/** A private_key_jwt client assertion signed with the client's registered key; claims overridable. */
export function signAssertion(sandbox: Sandbox, client: 'admin' | 'reader' = 'admin', claims: Record<string, unknown> = {}): string {
  const { clientId, privateKeyPem } = sandbox.clients[client];
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: clientId, sub: clientId, aud: `${sandbox.url}/`, iat: now, exp: now + 60, jti: randomUUID(), ...claims };
  for (const [key, value] of Object.entries(payload)) if (value === undefined) delete (payload as Record<string, unknown>)[key];
  return signJwt(payload, createPrivateKey(privateKeyPem));
}

/** Webhook secrets a seed gives its streams (the demo seed's when `seed` is undefined). */
const SEED_SECRET_KEYS = new Set(['password', 'token', 'header_value']);

/**
 * For the secrets sweep (./secrets-sweep.ts): a sandbox's client secrets and private keys, and the
 * webhook secrets of its seed, none of which idm may ever print.
 */
export function recordSandboxSecrets(sandbox: Sandbox, seed?: unknown): void {
  const values: string[] = [];
  for (const client of Object.values(sandbox.clients)) {
    if ('clientSecret' in client) values.push(client.clientSecret, client.privateKeyPem);
    else values.push(client.keyPem);
  }
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (SEED_SECRET_KEYS.has(key) && typeof value === 'string') values.push(value);
        else walk(value);
      }
    }
  };
  walk(seed ?? DEFAULT_SEED);
  recordSecrets(values);
}

/**
 * GET `path` of the management API (`/event-streams/…`) straight from the sandbox with a token of its
 * own: what the tenant holds, without idm, to compare idm's output with.
 */
export async function direct(sandbox: Pick<Sandbox, 'url' | 'clients'>, path: string, client: 'admin' | 'reader' = 'admin'): Promise<CallResult> {
  return call(sandbox, 'GET', `/api/v2${path}`, { token: await getToken(sandbox, client) });
}
