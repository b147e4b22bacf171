// Test deliveries. A webhook destination gets a real HTTPS POST of a CloudEvents 1.0 envelope with its
// stored authorization; eventbus and action destinations, which cannot exist on this machine, are
// delivered to a simulated receiver that accepts every event and keeps it (GET /sandbox/deliveries).
// Delivery is synchronous: the 202 answer already says whether it succeeded.
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { TestDelivery } from '../schemas/index.js';
import { newEventId } from './ids.js';
import { isoNow } from './http.js';
import { sampleEventData } from './samples.js';
import type { StoredStream } from './store.js';
import type { Tenant } from './tenant.js';

/** Bounds of a webhook delivery. */
export const DELIVERY = { timeoutMs: 3000, attempts: 2, gapMs: 250 } as const;
export const LOOPBACK_ONLY = 'sandbox delivers only to loopback addresses (127.0.0.1, ::1, localhost)';

export type Attempt = {
  status: 'success' | 'failed';
  timestamp: string;
  /** Seconds, as the real service reports it. */
  duration: number;
  error_message?: string;
  /** HTTP status the receiver answered, when it answered. */
  response_status?: number;
};

export type EventEnvelope = {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  time: string;
  data: unknown;
};

/** What the sandbox keeps of every test delivery (the answer's record, with the envelope always). */
export interface DeliveryLogEntry {
  record: TestDelivery;
  destination: 'webhook' | 'eventbus' | 'action';
  event: EventEnvelope;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
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

function attemptWebhook(tenant: Tenant, endpoint: string, headers: Record<string, string>, body: string): Promise<Attempt> {
  const timestamp = isoNow();
  const started = performance.now();
  const seconds = () => Math.round(performance.now() - started) / 1000;
  const failed = (message: string, responseStatus?: number): Attempt => ({
    status: 'failed',
    timestamp,
    duration: seconds(),
    error_message: message,
    ...(responseStatus === undefined ? {} : { response_status: responseStatus }),
  });
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return Promise.resolve(failed(`invalid webhook endpoint: ${endpoint}`));
  }
  if (!isLoopbackHost(url.hostname)) return Promise.resolve(failed(`${LOOPBACK_ONLY}; refused ${url.host}`));

  return new Promise((resolve) => {
    let done = false;
    const finish = (attempt: Attempt) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'idm-sandbox', ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        // The inbox's own certificate, besides the usual roots: trusted for these deliveries only.
        ca: [...rootCertificates, tenant.inbox.cert],
        agent: false,
        signal: tenant.closing,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            finish({ status: 'success', timestamp, duration: seconds(), response_status: status });
          } else {
            finish(failed(`the endpoint answered HTTP ${status} ${res.statusMessage ?? ''}`.trim(), status));
          }
        });
        res.on('error', (error) => finish(failed(error.message)));
      },
    );
    const timer = setTimeout(() => {
      finish(failed(`no answer within ${DELIVERY.timeoutMs / 1000} s`));
      req.destroy();
    }, DELIVERY.timeoutMs);
    req.on('error', (error) => finish(failed(error.message)));
    req.end(body);
  });
}

async function deliverWebhook(tenant: Tenant, stream: StoredStream, event: EventEnvelope): Promise<Attempt[]> {
  const { destination } = stream.record;
  if (destination.type !== 'webhook') return [];
  const body = JSON.stringify(event);
  const attempts: Attempt[] = [];
  for (let n = 0; n < DELIVERY.attempts; n++) {
    if (n > 0) await new Promise((resolve) => setTimeout(resolve, DELIVERY.gapMs));
    if (tenant.closing.aborted) break;
    const attempt = await attemptWebhook(tenant, destination.configuration.webhook_endpoint, authorizationHeaders(stream), body);
    attempts.push(attempt);
    if (attempt.status === 'success' || attempt.error_message?.startsWith(LOOPBACK_ONLY)) break;
  }
  return attempts;
}

/** POST /event-streams/{id}/test, after validation: delivers and answers the delivery record. */
export async function deliverTestEvent(
  tenant: Tenant,
  stream: StoredStream,
  request: { event_type: string; data?: Record<string, unknown> | undefined },
): Promise<TestDelivery> {
  const id = newEventId();
  const event: EventEnvelope = {
    specversion: '1.0',
    id,
    source: `urn:platform:${new URL(tenant.url).host}`,
    type: request.event_type,
    time: isoNow(),
    // A given `data` is the raw payload; without one, a sample like the real service's.
    data: request.data ?? sampleEventData(request.event_type),
  };
  const type = stream.record.destination.type;
  const attempts: Attempt[] =
    type === 'webhook' ? await deliverWebhook(tenant, stream, event) : [{ status: 'success', timestamp: isoNow(), duration: 0 }];
  const succeeded = attempts.at(-1)?.status === 'success';
  const record: TestDelivery = {
    id,
    event_stream_id: stream.record.id,
    status: succeeded ? 'success' : 'failed',
    event_type: request.event_type,
    attempts,
    // interface.md: the envelope is part of the record only when delivery failed.
    ...(succeeded ? {} : { event }),
  };
  tenant.deliveries.push({ record, destination: type, event });
  return record;
}
