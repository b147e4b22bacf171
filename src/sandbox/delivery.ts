// Test deliveries, as the real service makes them (wire-facts.md, "The event-stream lifecycle"):
// asynchronous by default, the 202 answer `pending` with no attempt yet, then attempts in the
// background. A connection error, a timeout or a 5xx is tried 4 times in all, at +1 s, +2 s and
// +4 s (Timing.retryDelaysMs); a 4xx from the receiver is not retried. A webhook destination gets a
// real HTTPS POST of a CloudEvents 1.0 envelope with its stored authorization; eventbus and action
// destinations, which cannot exist on this machine, go to a simulated receiver that accepts every
// event. With Timing.delivery `sync`, the event is delivered before the answer, which then says how
// it went: as many attempts as the service makes, 250 ms apart instead of its schedule, so that a
// `failed` answer is as final as the service's (idm's `streams test --wait` reads it so).
import { request, type RequestOptions } from 'node:https';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { isLoopbackHost } from '../core/net.js';
import { newEventId } from './ids.js';
import { sampleEventData } from './samples.js';
import type { StoredStream } from './store.js';
import { inBackground, isoAt, type Tenant } from './tenant.js';

/** Bounds of one webhook attempt, and of the synchronous mode. */
export const DELIVERY = { timeoutMs: 3000, syncGapMs: 250 } as const;
export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;
export const LOOPBACK_ONLY = 'sandbox delivers only to loopback addresses (127.0.0.1, ::1, localhost)';

export type Attempt = {
  /** `retrying` marks a redelivery asked for; the others are the outcome of an attempt. */
  status: 'success' | 'failed' | 'retrying';
  error_message?: string;
  timestamp: string;
  /** Seconds, as the real service reports it. */
  duration?: number;
};

export type EventEnvelope = {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  time: string;
  data: unknown;
};

/**
 * A delivery's state: `pending` before its first attempt, then `failed` or `success`. As on the real
 * service (wire-facts.md), a delivery whose retries are still to come is `failed` all the same: only
 * its attempts tell (a connection error is tried 4 times; a `retrying` attempt starts a redelivery).
 */
export type DeliveryStatus = 'pending' | 'failed' | 'success';

export interface DeliveryRecord {
  id: string;
  event_stream_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: Attempt[];
  event?: EventEnvelope;
}

/** What the sandbox keeps of every test delivery: its record (attempts growing), the envelope always. */
export interface DeliveryLogEntry {
  record: DeliveryRecord;
  destination: 'webhook' | 'eventbus' | 'action';
  event: EventEnvelope;
}

function authorizationHeaders(stream: StoredStream): Record<string, string> {
  const { destination } = stream.record;
  if (destination.type !== 'webhook' || stream.secret === undefined) return {};
  const auth = destination.configuration.webhook_authorization;
  switch (auth.method) {
    case 'basic':
      return { Authorization: `Basic ${Buffer.from(`${auth.username}:${stream.secret}`).toString('base64')}` };
    case 'bearer':
      return { Authorization: `Bearer ${stream.secret}` };
    case 'custom_header':
      return { [auth.header_key]: stream.secret };
  }
}

/** One POST to the webhook; its outcome as an attempt (and whether it may be tried again). */
// The usual roots and the inbox's own certificate, trusted for deliveries only. Made once per inbox
// certificate: building a context parses some 140 root certificates, about 20 ms that every test
// event paid before the sandbox could answer it.
const deliveryContexts = new WeakMap<object, SecureContext>();
function deliveryContext(tenant: Tenant): SecureContext {
  let context = deliveryContexts.get(tenant.inbox);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, tenant.inbox.cert] });
    deliveryContexts.set(tenant.inbox, context);
  }
  return context;
}

function attemptWebhook(tenant: Tenant, endpoint: string, headers: Record<string, string>, body: string): Promise<Attempt & { retryable: boolean }> {
  const timestamp = isoAt(tenant);
  const started = performance.now();
  // Milliseconds, as the service's recorded attempts are (wire-facts.md says seconds, but its
  // recording has attempts 1, 2 and 4 s apart whose durations are about 20: reference/recorded-lifecycle.json).
  const milliseconds = () => Math.round((performance.now() - started) * 1000) / 1000;
  // The receiver's status is only in the message (`404 - …`): the service's attempts carry no other
  // field. Keys in the recorded order: status, error_message, timestamp, duration.
  const failed = (message: string, retryable: boolean) => ({
    status: 'failed' as const,
    error_message: message,
    timestamp,
    duration: milliseconds(),
    retryable,
  });
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return Promise.resolve(failed(`invalid webhook endpoint: ${endpoint}`, false));
  }
  if (!isLoopbackHost(url.hostname)) return Promise.resolve(failed(`${LOOPBACK_ONLY}; refused ${url.host}`, false));

  return new Promise((resolve) => {
    let done = false;
    const finish = (attempt: Attempt & { retryable: boolean }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    // secureContext reaches tls.connect, though @types/node leaves it out of https.RequestOptions.
    // rejectUnauthorized is said, not left to Node's default, which NODE_TLS_REJECT_UNAUTHORIZED=0
    // turns off: the service verifies a webhook's certificate whatever the sandbox's environment.
    const options: RequestOptions & { secureContext: SecureContext } = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'idm-sandbox', ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      secureContext: deliveryContext(tenant),
      rejectUnauthorized: true,
      agent: false,
      signal: tenant.closing,
    };
    let req: ReturnType<typeof request>;
    try {
      req = request(url, options, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text = (text + chunk).slice(0, 200)));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) finish({ status: 'success', timestamp, duration: milliseconds(), retryable: false });
          // As the real service words it: `404 - {"error":"..."}`. Only a 5xx is tried again.
          else finish(failed(`${status} - ${text.trim() || (res.statusMessage ?? '')}`.trim(), status >= 500));
        });
        res.on('error', (error) => finish(failed(`Post "${endpoint}": ${error.message}`, true)));
      });
    } catch (error) {
      // A header Node will not send (a secret with a line break: `Invalid character in header
      // content ["Authorization"]`) throws here: the attempt fails, as every later one would, so it
      // is not retried (the delivery stayed `pending` for ever, its attempts lost). No timer yet.
      resolve(failed(`Post "${endpoint}": ${(error as Error).message}`, false));
      return;
    }
    const timer = setTimeout(() => {
      finish(failed(`Post "${endpoint}": no answer within ${tenant.timing.deliveryTimeoutMs / 1000} s`, true));
      req.destroy();
    }, tenant.timing.deliveryTimeoutMs);
    req.on('error', (error) => finish(failed(`Post "${endpoint}": ${error.message}`, true)));
    req.end(body);
  });
}

/** One attempt at the stream's destination (a simulated receiver for eventbus and action). */
async function attemptOnce(tenant: Tenant, stream: StoredStream, event: EventEnvelope): Promise<Attempt & { retryable: boolean }> {
  const { destination } = stream.record;
  if (destination.type !== 'webhook') return { status: 'success', timestamp: isoAt(tenant), duration: 0, retryable: false };
  const { retryable, ...attempt } = await attemptWebhook(tenant, destination.configuration.webhook_endpoint, authorizationHeaders(stream), JSON.stringify(event));
  return { ...attempt, retryable };
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Deliveries with attempts still to come (first attempts, retries, a redelivery): not redeliverable. */
const underWay = new WeakSet<DeliveryLogEntry>();

/** The attempts of a delivery on the real schedule, recorded as they happen, in the background. */
function deliverInBackground(tenant: Tenant, entry: DeliveryLogEntry, stream: StoredStream): void {
  underWay.add(entry);
  inBackground(tenant, async () => {
    try {
      const delays = tenant.timing.retryDelaysMs;
      for (let n = 0; n <= delays.length; n++) {
        if (n > 0) await wait(delays[n - 1]!, tenant.closing);
        if (tenant.closing.aborted) return;
        const { retryable, ...attempt } = await attemptOnce(tenant, stream, entry.event);
        entry.record.attempts.push(attempt);
        entry.record.status = attempt.status === 'success' ? 'success' : 'failed';
        if (attempt.status === 'success' || !retryable) return;
      }
    } finally {
      underWay.delete(entry);
    }
  });
}

/**
 * The name of the tenant that the service's envelopes carry in `a0tenant` (recorded: the tenant's
 * name, the first part of the host its `source` names): here the host itself, as `source` names it.
 */
export const tenantName = (tenant: Tenant): string => new URL(tenant.url).host;

/**
 * The envelope as the test answer shows it: after the CloudEvents keys, the service's own
 * `a0purpose` (`test`), `a0stream` and `a0tenant`, which every recorded test answer carries
 * (reference/recorded-lifecycle.json), so that a client meets them here as it will on the service.
 */
function answeredEnvelope(tenant: Tenant, entry: DeliveryLogEntry): EventEnvelope & { a0purpose: 'test'; a0stream: string; a0tenant: string } {
  return { ...entry.event, a0purpose: 'test', a0stream: entry.record.event_stream_id, a0tenant: tenantName(tenant) };
}

/** POST /event-streams/{id}/test, after validation: the record of the 202 answer. */
export async function deliverTestEvent(
  tenant: Tenant,
  stream: StoredStream,
  input: { event_type: string; data?: Record<string, unknown> | undefined },
): Promise<DeliveryRecord> {
  const id = newEventId();
  const event: EventEnvelope = {
    specversion: '1.0',
    id,
    source: `urn:platform:${new URL(tenant.url).host}`,
    type: input.event_type,
    time: isoAt(tenant),
    // A given `data` is the raw payload; without one, a sample like the real service's.
    data: input.data ?? sampleEventData(input.event_type),
  };
  const entry: DeliveryLogEntry = {
    record: { id, event_stream_id: stream.record.id, event_type: input.event_type, status: 'pending', attempts: [], event },
    destination: stream.record.destination.type,
    event,
  };
  tenant.deliveries.push(entry);
  if (tenant.timing.delivery === 'sync') return deliverNow(tenant, entry, stream);
  deliverInBackground(tenant, entry, stream);
  // As the real service answers: `pending`, no attempt yet, the envelope included.
  return { ...entry.record, attempts: [], event: answeredEnvelope(tenant, entry) };
}

/**
 * The synchronous mode: the attempts of the real schedule (one, and one per retry delay), 250 ms
 * apart, before answering; the envelope only when it failed.
 */
async function deliverNow(tenant: Tenant, entry: DeliveryLogEntry, stream: StoredStream): Promise<DeliveryRecord> {
  for (let n = 0; n <= tenant.timing.retryDelaysMs.length; n++) {
    if (n > 0) await wait(DELIVERY.syncGapMs, tenant.closing);
    if (tenant.closing.aborted) break;
    const { retryable, ...attempt } = await attemptOnce(tenant, stream, entry.event);
    entry.record.attempts.push(attempt);
    if (attempt.status === 'success' || !retryable) break;
  }
  const succeeded = entry.record.attempts.at(-1)?.status === 'success';
  entry.record.status = succeeded ? 'success' : 'failed';
  const { event, ...record } = entry.record;
  return succeeded ? record : { ...record, event: answeredEnvelope(tenant, entry) };
}

/** Whether a delivery may be redelivered: it failed, and no attempt of it is to come. */
export function redeliverable(entry: DeliveryLogEntry): boolean {
  return entry.record.status === 'failed' && !underWay.has(entry);
}

/** Redelivers: a `retrying` attempt appended (the record stays `failed`), then attempts on the real schedule. */
export function redeliver(tenant: Tenant, entry: DeliveryLogEntry, stream: StoredStream): void {
  entry.record.attempts.push({ status: 'retrying', timestamp: isoAt(tenant) });
  deliverInBackground(tenant, entry, stream);
}
