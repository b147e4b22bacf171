// Fault injection: the next N requests (optionally matching a path prefix and a method) get a
// status, a connection reset, a stall, or added latency. Set at start, with addFault(), or with
// POST /sandbox/faults; the control endpoints themselves are never faulted.
import { z } from 'zod';
import type { FaultSpec } from './types.js';
import { apiError, json, Reply, reason, tokenError } from './http.js';

export const FaultSpecSchema = z.strictObject({
  path: z.string().startsWith('/').optional(),
  method: z.string().min(1).optional(),
  // JSON has no Infinity: "Infinity" (or Infinity from code) means every matching request.
  count: z.union([z.number().int().positive(), z.literal(Infinity), z.literal('Infinity').transform(() => Infinity)]).optional(),
  kind: z.enum(['status', 'reset', 'stall', 'latency']),
  // Not 1xx: an informational status is no answer (a client waits on for the real one).
  status: z.number().int().min(200).max(599).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
  ms: z.number().int().min(0).max(600_000).optional(),
}).superRefine((spec, ctx) => {
  if (spec.kind === 'status' && spec.status === undefined) ctx.addIssue({ code: 'custom', path: ['status'], message: 'is required for kind "status"' });
  if (spec.kind === 'latency' && spec.ms === undefined) ctx.addIssue({ code: 'custom', path: ['ms'], message: 'is required for kind "latency"' });
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    const problem = headerProblem(name, value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['headers', name], message: problem });
  }
});

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible characters, spaces and tabs inside, none around (what Node writes into a header). */
const FIELD_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;
/** The sandbox frames every answer itself: a fault that set these would send a body its header contradicts. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer']);

/**
 * Why a fault's header cannot be sent, checked when the fault is armed: before, a name or value Node
 * refuses to write was accepted and then answered every matching request with a 500 "Sandbox failure",
 * and a Content-Length or Transfer-Encoding of its own framed the body wrongly for the client.
 */
function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return 'is not a valid header name';
  if (FRAMING.has(name.toLowerCase())) return 'is set by the sandbox itself (it frames every answer)';
  if (!FIELD_VALUE.test(value)) return 'must be printable ASCII, without line breaks or spaces around it';
  return undefined;
}

interface ActiveFault {
  spec: FaultSpec;
  remaining: number;
}

export interface FaultMatch {
  /** Milliseconds to wait before going on (the sum of matching latency faults). */
  latency: number;
  /** A status, reset or stall to apply after the latency. */
  fault?: FaultSpec;
}

export class Faults {
  private active: ActiveFault[] = [];

  add(spec: FaultSpec): FaultSpec {
    const parsed = FaultSpecSchema.parse(spec) as FaultSpec;
    this.active.push({ spec: parsed, remaining: parsed.count ?? 1 });
    return parsed;
  }

  clear(): void {
    this.active = [];
  }

  /** Faults still armed, with the requests each has left (JSON has no Infinity: "Infinity"). */
  list(): Array<Record<string, unknown>> {
    const show = (n: number | undefined) => (n === Infinity ? 'Infinity' : n);
    return this.active.map(({ spec, remaining }) => ({ ...spec, count: show(spec.count ?? 1), remaining: show(remaining) }));
  }

  /** Consumes the faults that apply to this request. */
  take(method: string, path: string): FaultMatch {
    const match: FaultMatch = { latency: 0 };
    for (const entry of this.active) {
      const { spec } = entry;
      if (entry.remaining <= 0) continue;
      if (spec.path !== undefined && !path.startsWith(spec.path)) continue;
      if (spec.method !== undefined && spec.method.toUpperCase() !== method.toUpperCase()) continue;
      if (spec.kind === 'latency') {
        match.latency += spec.ms ?? 0;
      } else if (match.fault) {
        continue; // one terminal fault per request; the next one waits for the next request
      } else {
        match.fault = spec;
      }
      entry.remaining -= 1;
    }
    this.active = this.active.filter((entry) => entry.remaining > 0);
    return match;
  }
}

/**
 * The answer of a `status` fault: the given raw body, or the real service's body for that status
 * (wire-facts.md; the token endpoint: 401 `invalid_client`, 403 `access_denied` naming the audience
 * `tenantUrl`/api/v2/, 5xx `server_error`, others `invalid_request`).
 */
export function faultReply(spec: FaultSpec, path: string, tenantUrl: string): Reply {
  const status = spec.status ?? 500;
  const headers = { ...spec.headers };
  if (spec.body !== undefined) return new Reply(status, spec.body, headers, true);
  const isToken = path.startsWith('/oauth/');
  if (status === 429) {
    // A rate-limited answer carries the headers a client needs to wait: one second unless told.
    const reset = String(Math.ceil(Date.now() / 1000) + 1);
    const defaults: Record<string, string> = { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset };
    if (isToken) defaults['Retry-After'] = '1';
    const merged = { ...defaults, ...headers };
    return isToken
      ? tokenError(429, 'too_many_requests', 'Global limit has been reached', merged)
      : apiError(429, 'Global limit has been reached', 'too_many_requests', merged);
  }
  // A success or redirect carries no error, on either endpoint: an empty object (none for 204 and 304).
  if (status < 400) return json(status, {}, headers);
  if (isToken) {
    if (status === 401) return tokenError(401, 'invalid_client', 'Client authentication failed', headers);
    if (status === 403) {
      const audience = `${tenantUrl}/api/v2/`;
      return tokenError(403, 'access_denied', `Client is not authorized to access "${audience}". You need to create a "client-grant" associated to this API.`, headers);
    }
    return tokenError(status, status >= 500 ? 'server_error' : 'invalid_request', reason(status), headers);
  }
  return apiError(status, reason(status), undefined, headers);
}
