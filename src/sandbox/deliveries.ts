// /api/v2/event-streams/{id}/deliveries, /redeliver and /stats, from what the sandbox really
// delivered (./delivery.ts). Shapes and messages as in the recordings (wire-facts.md): deliveries in
// the `{deliveries, next?}` wrapper, failed ones only; redeliver 202 `{}` or 409; statistics in hourly
// or daily buckets of successful and failed attempts.
import { instantOf } from '../core/time.js';
import { EVENT_TYPES, LIMITS } from '../schemas/constants.js';
import { redeliver, redeliverable, tenantName, type DeliveryLogEntry } from './delivery.js';
import { apiError, json, parseJsonBody, type Reply } from './http.js';
import type { ApiContext } from './router.js';
import type { Tenant } from './tenant.js';
import { findStream } from './streams.js';
import { decodeCursor, encodeCursor } from './store.js';

/** Listed: deliveries that have failed, finally or so far (`failed` either way, as on the service). */
const LISTED = new Set(['failed']);
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The longest statistics window (daily buckets: at most 367 of them). */
export const MAX_STATS_WINDOW_DAYS = 366;

const queryError = (name: string, rule: string) => apiError(400, `Query validation error: '${name}' ${rule}.`, 'invalid_query_string');
const badPaging = () => apiError(400, 'Invalid query string paging options', 'invalid_query_string');

/**
 * A query parameter's one value (null when absent). Lists are comma-separated (wire-facts); what the
 * service does with a repeated key is not recorded, so it is refused rather than half read.
 */
function single(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name);
  if (values.length <= 1) return values[0] ?? null;
  if (name === 'take' || name === 'from') throw badPaging();
  throw queryError(name, name === 'event_types' || name === 'statuses' ? 'must be given once (comma-separate a list: a,b)' : 'must be given once');
}

/** A field of a request body that is wrong, as the service words it (wire-facts.md: `Payload validation error`). */
const bodyError = (name: string, rule: string) => apiError(400, `Payload validation error: '${name}' ${rule}.`, 'invalid_body');

/**
 * `date_from` / `date_to` of deliveries (query) and redeliver (body): RFC 3339, `Z`, no fractions
 * (at most 20 characters); a wrong one is the query's error or the body's (`problem`).
 */
function zTime(name: string, value: string | undefined | null, problem = queryError): number | undefined {
  if (value === undefined || value === null) return undefined;
  // instantOf, not Date.parse, which rolls 2026-02-30 over to 2 March and takes 24:00.
  const ms = value.length > 20 || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value) ? undefined : instantOf(value);
  if (ms === undefined) throw problem(name, 'must be a date-time like 2025-07-29T04:00:00Z');
  return ms;
}

/**
 * A stats time: RFC 3339, offsets allowed, one that exists. Not Date.parse: it reads a time without
 * an offset in the sandbox machine's time zone, and rolls 2026-02-30 over to 2 March.
 */
function anyTime(name: string, value: string | null): number | undefined {
  if (value === null) return undefined;
  const ms = /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/.test(value) ? instantOf(value) : undefined;
  if (ms === undefined) throw queryError(name, 'must be an RFC 3339 date-time');
  return ms;
}

function deliveriesOf(ctx: ApiContext, streamId: string): DeliveryLogEntry[] {
  return ctx.tenant.deliveries.filter((entry) => entry.record.event_stream_id === streamId);
}

function matches(entry: DeliveryLogEntry, filter: { statuses?: string[]; eventTypes?: string[]; from?: number; to?: number }): boolean {
  const time = Date.parse(entry.event.time);
  return (
    (filter.statuses === undefined || filter.statuses.includes(entry.record.status)) &&
    (filter.eventTypes === undefined || filter.eventTypes.includes(entry.record.event_type)) &&
    (filter.from === undefined || time >= filter.from) &&
    (filter.to === undefined || time <= filter.to)
  );
}

const list = (value: string | null) => (value === null || value === '' ? undefined : value.split(',').map((item) => item.trim()));

/**
 * The record as the service shows it: with the envelope, whose keys it lists in another order than
 * the test answer's (recorded: id, source, specversion, type, time, data, then the service's own
 * a0tenant and a0stream; no a0purpose here).
 */
const shown = (tenant: Tenant, entry: DeliveryLogEntry) => {
  const { id, source, specversion, type, time, data, ...rest } = entry.event;
  return { ...entry.record, event: { id, source, specversion, type, time, data, a0tenant: tenantName(tenant), a0stream: entry.record.event_stream_id, ...rest } };
};

/**
 * GET /event-streams/{id}/deliveries: failed ones only, oldest first, as every recorded page lists
 * them (reference/recorded-lifecycle.json: the events' times ascend on each page of several).
 */
export function listDeliveries(ctx: ApiContext): Reply {
  const stream = findStream(ctx);
  const q = (name: string) => single(ctx.query, name);
  const takeText = q('take');
  const take = takeText === null ? LIMITS.takeDefault : Number(takeText);
  if (!Number.isInteger(take) || take < LIMITS.takeMin || take > LIMITS.takeMax) throw badPaging();
  const fromText = q('from');
  // The cursor is the place in the delivery log (append-only) after the last delivery shown, not an
  // offset into this list, which changes while a client pages through it: a delivery that fails
  // meanwhile comes in at its end, one redelivered with success leaves it. An offset showed an item
  // again, or skipped as many as had left.
  const start = fromText === null ? 0 : decodeCursor(fromText);
  if (start === undefined) throw badPaging();
  const eventTypes = list(q('event_types'));
  const unknown = eventTypes?.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown) throw queryError('event_types', `has a value that is not an event type: ${unknown}`);
  const filter = { statuses: list(q('statuses')), eventTypes, from: zTime('date_from', q('date_from')), to: zTime('date_to', q('date_to')) };
  const { id } = stream.record;
  const rest = ctx.tenant.deliveries.flatMap((entry, place) =>
    place >= start && entry.record.event_stream_id === id && LISTED.has(entry.record.status) && matches(entry, filter) ? [{ entry, place }] : [],
  );
  const items = rest.slice(0, take);
  // `next` when another page follows; with `take` sent, on every page that has items, the last one
  // too (wire-facts: "it was present whenever take was sent"; recorded pages of 4 and 1 with take=50).
  // It points past the page's last item; the page there is empty and has none (not recorded: an
  // empty page with a cursor would send a client round for ever).
  const more = rest.length > take || (takeText !== null && items.length > 0);
  return json(200, { deliveries: items.map(({ entry }) => shown(ctx.tenant, entry)), ...(more ? { next: encodeCursor(items.at(-1)!.place + 1) } : {}) });
}

function findDelivery(ctx: ApiContext, streamId: string, eventId: string): DeliveryLogEntry {
  if (!/^evt_[A-Za-z0-9]{22}$/.test(eventId)) {
    throw apiError(400, `Path validation error: 'Object didn't pass validation for format event-id: ${eventId}' on property event_id (Unique identifier for the event).`, 'invalid_uri');
  }
  const entry = deliveriesOf(ctx, streamId).find((one) => one.record.id === eventId);
  // The service keeps failed deliveries only: a pending or successful one is not found.
  if (!entry || !LISTED.has(entry.record.status)) throw apiError(404, 'The requested event does not exist.');
  return entry;
}

/** GET /event-streams/{id}/deliveries/{event_id} */
export function getDelivery(ctx: ApiContext): Reply {
  const stream = findStream(ctx);
  return json(200, shown(ctx.tenant, findDelivery(ctx, stream.record.id, ctx.params[1]!)));
}

/** POST /event-streams/{id}/redeliver/{event_id}: 202 `{}`; 409 while attempts of it are to come. */
export function redeliverOne(ctx: ApiContext): Reply {
  const stream = findStream(ctx);
  const entry = findDelivery(ctx, stream.record.id, ctx.params[1]!);
  if (!redeliverable(entry)) throw apiError(409, 'The event is not in a state that allows redelivery.');
  redeliver(ctx.tenant, entry, stream);
  return json(202, {});
}

/** POST /event-streams/{id}/redeliver: every failed delivery the body's filters match (AND). */
export function redeliverMany(ctx: ApiContext): Reply {
  const stream = findStream(ctx);
  const body = ctx.body.trim() === '' ? {} : parseJsonBody(ctx.body, ctx.headers['content-type']);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw apiError(400, 'Payload validation error: the body must be an object.', 'invalid_body');
  const { date_from, date_to, statuses, event_types, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw apiError(400, `Payload validation error: 'Additional properties not allowed: ${extra}'.`, 'invalid_body');
  const strings = (name: string, value: unknown) => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw apiError(400, `Payload validation error: '${name}' must be an array of strings.`, 'invalid_body');
    return value as string[];
  };
  const text = (name: string, value: unknown) => {
    if (value !== undefined && typeof value !== 'string') throw apiError(400, `Payload validation error: '${name}' must be a string.`, 'invalid_body');
    return value as string | undefined;
  };
  const filter = {
    statuses: strings('statuses', statuses),
    eventTypes: strings('event_types', event_types),
    from: zTime('date_from', text('date_from', date_from), bodyError),
    to: zTime('date_to', text('date_to', date_to), bodyError),
  };
  const chosen = deliveriesOf(ctx, stream.record.id).filter((entry) => LISTED.has(entry.record.status) && matches(entry, filter));
  if (chosen.some((entry) => !redeliverable(entry))) throw apiError(409, 'One or more events is not in a state that allows redelivery.');
  for (const entry of chosen) redeliver(ctx.tenant, entry, stream);
  return json(202, {});
}

const SUCCESSFUL = 'platform.event_streams.successful_deliveries';
const FAILED = 'platform.event_streams.failed_deliveries';
const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;

/**
 * GET /event-streams/{id}/stats. As recorded: without a query, 14 days to the next full hour in daily
 * buckets (15 of them, at 00:00Z); a window of a day or less, hourly buckets from its start's hour to
 * its end's hour. Counts are the stream's attempts in each bucket: successful and failed.
 */
export function streamStats(ctx: ApiContext): Reply {
  const stream = findStream(ctx);
  const now = ctx.tenant.now();
  const given = { from: anyTime('date_from', single(ctx.query, 'date_from')), to: anyTime('date_to', single(ctx.query, 'date_to')) };
  const to = given.to ?? (given.from === undefined ? floorTo(now, HOUR) + HOUR : now);
  // date_to alone (the service's answer is not recorded): the default window's 14 days, ending there.
  // An error never names a parameter that was not sent: date_from alone is compared with now.
  const from = given.from ?? (given.to === undefined ? floorTo(now, HOUR) - 14 * DAY : to - 14 * DAY);
  const end = given.to === undefined ? 'now' : 'date_to';
  if (from > to) throw queryError('date_from', `must not be after ${end}`);
  // The sandbox's bound (the service's is not recorded): a window of years would be millions of
  // buckets, an answer of a hundred megabytes built while every other request waits.
  if (to - from > MAX_STATS_WINDOW_DAYS * DAY) throw queryError('date_from', `must be at most ${MAX_STATS_WINDOW_DAYS} days before ${end}`);
  const scale = to - from <= DAY ? HOUR : DAY;
  const window = { from: floorTo(from, HOUR), to: floorTo(to, HOUR) };
  const buckets: number[] = [];
  for (let at = floorTo(window.from, scale); at <= window.to; at += scale) buckets.push(at);
  const successful = buckets.map(() => 0);
  const failed = buckets.map(() => 0);
  for (const entry of deliveriesOf(ctx, stream.record.id)) {
    for (const attempt of entry.record.attempts) {
      const at = Date.parse(attempt.timestamp);
      const index = buckets.findIndex((start) => at >= start && at < start + scale);
      if (index < 0) continue;
      if (attempt.status === 'success') successful[index]!++;
      else if (attempt.status === 'failed') failed[index]!++;
    }
  }
  const iso = (ms: number) => new Date(ms).toISOString();
  const metric = (name: string, data: number[]) => ({ name, window_total: data.reduce((sum, n) => sum + n, 0), type: 'sum', data });
  return json(200, {
    id: stream.record.id,
    name: stream.record.name,
    window: { date_from: iso(window.from), date_to: iso(window.to), bucket_interval: { scale_factor: scale / 1000 } },
    buckets: buckets.map(iso),
    metrics: [metric(SUCCESSFUL, successful), metric(FAILED, failed)],
  });
}
