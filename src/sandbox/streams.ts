// /api/v2/event-streams: list (opaque cursors), create, read, update, delete, and the test event.
import { LIMITS } from '../schemas/constants.js';
import {
  EventStreamCreateSchema,
  EventStreamUpdateSchema,
  ListStreamsQuerySchema,
  TestEventRequestSchema,
  type EventStream,
} from '../schemas/index.js';
import { deliverTestEvent } from './delivery.js';
import { apiError, empty, json, parseJsonBody, validateBody, type Reply } from './http.js';
import { isoAt } from './tenant.js';
import { newPartnerEventSource, newStreamId } from './ids.js';
import { decodeCursor, encodeCursor, splitSecret, type StoredStream } from './store.js';
import type { ApiContext } from './router.js';

const badPaging = () => apiError(400, 'Invalid query string paging options', 'invalid_query_string');

/** The service's one 409 for a stream name in use and for too many streams (wire-facts, Create). */
const conflict = () => apiError(409, 'You have reached the maximum number of event streams for your account OR Event stream name already in use.');

/**
 * A name another stream has. The sandbox refuses a rename to such a name the same way (not recorded;
 * a name the stream has already is recorded as taken, 200).
 */
function refuseTakenName(ctx: ApiContext, name: string | undefined, exceptId?: string): void {
  if (name !== undefined && ctx.tenant.streams.nameInUse(name, exceptId)) throw conflict();
}

/** The tenant's maximum number of streams (`maxStreams`; the service's is not published): a create beyond it. */
function refuseOverLimit(ctx: ApiContext): void {
  const { maxStreams } = ctx.tenant;
  if (maxStreams !== undefined && ctx.tenant.streams.size >= maxStreams) throw conflict();
}

/**
 * The real 400 for a malformed stream id in the path. The service checks only the length here
 * (wire-facts: "not 26 characters"): an id of the right length but another shape is looked up, and
 * not found (404). The shape of an id is EventStreamIdSchema (schemas/index.ts), which records follow.
 */
function streamIdParam(raw: string): string {
  if (raw.length !== LIMITS.streamIdLength) {
    throw apiError(
      400,
      `Path validation error: 'Object didn't pass validation for format event-stream-id: ${raw}' on property id (Unique identifier for the event stream).`,
      'invalid_uri',
    );
  }
  return raw;
}

type EventbusConfiguration = Extract<EventStream['destination'], { type: 'eventbus' }>['configuration'];
const recordedEventbusOrder = ({ cloud_region, cloud_account_id, ...rest }: EventbusConfiguration): EventbusConfiguration => ({ cloud_region, cloud_account_id, ...rest });

/**
 * A stream as the service answers it, keys in the recorded order (id, status, name, subscriptions,
 * created_at, updated_at, destination; an event bus's cloud_region before cloud_account_id). Built at
 * answer time, so that created, seeded and saved streams answer alike.
 */
function answer(record: EventStream): EventStream {
  const { destination } = record;
  return {
    id: record.id,
    status: record.status,
    ...(record.name === undefined ? {} : { name: record.name }),
    ...(record.subscriptions === undefined ? {} : { subscriptions: record.subscriptions }),
    created_at: record.created_at,
    updated_at: record.updated_at,
    destination:
      destination.type === 'eventbus'
        ? { type: destination.type, configuration: recordedEventbusOrder(destination.configuration) }
        : destination,
  };
}

export function findStream(ctx: ApiContext): StoredStream {
  const stored = ctx.tenant.streams.get(streamIdParam(ctx.params[0]!));
  if (!stored) throw apiError(404, 'The requested stream does not exist.');
  return stored;
}

/** GET /event-streams */
export function listStreams(ctx: ApiContext): Reply {
  const query: Record<string, string> = {};
  for (const [name, value] of ctx.query) {
    if (Object.hasOwn(query, name)) throw badPaging();
    query[name] = value;
  }
  const parsed = ListStreamsQuerySchema.safeParse(query);
  if (!parsed.success) throw badPaging();
  const take = parsed.data.take ?? LIMITS.takeDefault;
  const after = parsed.data.from === undefined ? 0 : decodeCursor(parsed.data.from);
  if (after === undefined) throw badPaging();
  const { items, more } = ctx.tenant.streams.page(after, take);
  const body: { eventStreams: EventStream[]; next?: string } = { eventStreams: items.map((item) => answer(item.record)) };
  // `next` is absent on the last page: not null, not empty (wire-facts.md).
  if (more) body.next = encodeCursor(items.at(-1)!.seq);
  return json(200, body);
}

/** POST /event-streams */
export function createStream(ctx: ApiContext): Reply {
  const input = validateBody(EventStreamCreateSchema, parseJsonBody(ctx.body, ctx.headers['content-type']));
  refuseTakenName(ctx, input.name);
  refuseOverLimit(ctx);
  const { destination, secret } = splitSecret(input.destination);
  // The service adds the source to its answer (wire-facts: Create); it is the service's to name.
  if (destination.type === 'eventbus') destination.configuration = { ...destination.configuration, cloud_partner_event_source: newPartnerEventSource() };
  const now = isoAt(ctx.tenant);
  // Without a name or subscriptions the record has none: interface.md requires neither in a record,
  // and both are "at least 1" where present (the service's answer to this is not recorded).
  const record: EventStream = {
    id: newStreamId(),
    ...(input.name === undefined ? {} : { name: input.name }),
    status: input.status ?? 'enabled',
    ...(input.subscriptions === undefined ? {} : { subscriptions: input.subscriptions }),
    destination,
    created_at: now,
    updated_at: now,
  };
  ctx.tenant.streams.add(record, secret);
  return json(201, answer(record));
}

/** GET /event-streams/{id} */
export function getStream(ctx: ApiContext): Reply {
  return json(200, answer(findStream(ctx).record));
}

/** PATCH /event-streams/{id}: the given fields replace the stored ones (a destination with its secret). */
export function updateStream(ctx: ApiContext): Reply {
  const stored = findStream(ctx);
  const input = validateBody(EventStreamUpdateSchema, parseJsonBody(ctx.body, ctx.headers['content-type']));
  refuseTakenName(ctx, input.name, stored.record.id);
  const record: EventStream = { ...stored.record, updated_at: isoAt(ctx.tenant) };
  if (input.name !== undefined) record.name = input.name;
  if (input.status !== undefined) record.status = input.status;
  if (input.subscriptions !== undefined) record.subscriptions = input.subscriptions;
  if (input.destination !== undefined) {
    // The published change body has a webhook or an action, never an event bus: an event-bus stream keeps its destination.
    if (stored.record.destination.type === 'eventbus') throw apiError(400, "Payload validation error: 'An event-bus destination cannot be changed' on property destination.", 'invalid_body');
    const { destination, secret } = splitSecret(input.destination);
    record.destination = destination;
    if (secret === undefined) delete stored.secret;
    else stored.secret = secret;
  }
  stored.record = record;
  return json(200, answer(record));
}

/** DELETE /event-streams/{id}: 204 also for a stream already deleted, as the service answers (wire-facts.md). */
export function deleteStream(ctx: ApiContext): Reply {
  ctx.tenant.streams.delete(streamIdParam(ctx.params[0]!));
  return empty(204);
}

/**
 * POST /event-streams/{id}/test: 202 with the delivery record (README: Sandbox, "Deliveries"). A
 * disabled stream takes no test event: 400, the sandbox's choice where the service is not recorded.
 */
export async function testStream(ctx: ApiContext): Promise<Reply> {
  const stored = findStream(ctx);
  const input = validateBody(TestEventRequestSchema, parseJsonBody(ctx.body, ctx.headers['content-type']));
  if (stored.record.status === 'disabled') throw apiError(400, 'Test events cannot be sent to a disabled event stream.', 'invalid_body');
  return json(202, await deliverTestEvent(ctx.tenant, stored, input));
}
