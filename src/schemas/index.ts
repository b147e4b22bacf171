// zod schemas of every resource in ../shared/spec/interface.md; limits and enumerations come from
// ./constants.ts. The request bodies, which the CLI checks before sending and the sandbox when it
// receives them, are in ./requests.ts (zod/mini, light enough for a command's path) and re-exported
// here. The answers (stream records, list pages, delivery records, provisioning configurations,
// default mappings, error bodies, tokens) are the interface's shapes, strict where its records are
// (additionalProperties false): the sandbox builds its records with them, and
// test/sandbox/schemas.test.ts holds every kind of sandbox answer to them. The CLI does not parse
// answers with them: it reads answers by hand, tolerantly (unknown fields kept, unknown values shown
// as they are), which also keeps zod off its start-up.
import { z } from 'zod';
import { CLOUD_REGIONS, LIMITS, PATTERNS, STREAM_STATUSES } from './constants.js';
import { ID_SHAPES } from './ids.js';
import {
  basicUsernameSchema,
  cloudAccountIdSchema,
  cloudRegionSchema,
  destinationInputSchema,
  destinationSchema,
  eventStreamCreateSchema,
  eventStreamNameSchema,
  eventStreamUpdateSchema,
  eventTypeSchema,
  groupEntrySchema,
  headerKeySchema,
  mappingEntrySchema,
  mappingSchema,
  provisioningRequestSchema,
  streamStatusSchema,
  subscriptionSchema,
  subscriptionsSchema,
  synchronizedGroupsRequestSchema,
  syncGroupsSchema,
  testEventRequestSchema,
  webhookAuthorizationInputSchema,
  webhookEndpointSchema,
} from './requests.js';

export * from './requests.js';

// The request schemas, built now: the sandbox and the tests use them all (a command builds only the
// one it checks a body with, from ./requests.ts).
export const EventTypeSchema = eventTypeSchema();
export const CloudRegionSchema = cloudRegionSchema();
export const StreamStatusSchema = streamStatusSchema();
export const SyncGroupsSchema = syncGroupsSchema();
export const SubscriptionSchema = subscriptionSchema();
export const SubscriptionsSchema = subscriptionsSchema();
export const EventStreamNameSchema = eventStreamNameSchema();
export const BasicUsernameSchema = basicUsernameSchema();
export const HeaderKeySchema = headerKeySchema();
export const WebhookEndpointSchema = webhookEndpointSchema();
export const CloudAccountIdSchema = cloudAccountIdSchema();
export const WebhookAuthorizationInputSchema = webhookAuthorizationInputSchema();
export const DestinationInputSchema = destinationInputSchema();
export const EventStreamCreateSchema = eventStreamCreateSchema();
export const EventStreamUpdateSchema = eventStreamUpdateSchema();
export const TestEventRequestSchema = testEventRequestSchema();
export const MappingEntrySchema = mappingEntrySchema();
export const MappingSchema = mappingSchema();
export const ProvisioningRequestSchema = provisioningRequestSchema();
export const GroupEntrySchema = groupEntrySchema();
export const SynchronizedGroupsRequestSchema = synchronizedGroupsRequestSchema();

const dateTime = z.iso.datetime({ offset: true });

/** A stream id: the one rule of its shape is ID_SHAPES.stream (./ids.ts), which the CLI checks its input with. */
export const EventStreamIdSchema = z.string().regex(ID_SHAPES.stream.pattern, `must be ${ID_SHAPES.stream.words}`);

// Webhook authorization as stored and returned: the secret is never part of the record.
export const WebhookAuthorizationSchema = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('basic'), username: BasicUsernameSchema }),
  z.strictObject({ method: z.literal('bearer') }),
  z.strictObject({ method: z.literal('custom_header'), header_key: HeaderKeySchema }),
]);

export const DestinationSchema = destinationSchema(WebhookAuthorizationSchema);

/**
 * An event stream record exactly as the interface defines it. Which fields are required is not shown;
 * a stream created without a name or subscriptions (the service takes that, wire-facts.md) has none.
 */
export const EventStreamSchema = z.strictObject({
  id: EventStreamIdSchema,
  name: z.optional(EventStreamNameSchema),
  status: StreamStatusSchema,
  subscriptions: z.optional(SubscriptionsSchema),
  destination: DestinationSchema,
  created_at: dateTime,
  updated_at: dateTime,
});

/**
 * What EventStreamSchema refuses in `value`, checked by hand (undefined when it accepts it): the
 * sandbox reads up to 100,000 saved streams at start, and the schema takes a quarter of a second for
 * them. The same rules, kept side by side: test/schemas/stream-check.test.ts holds the two to the same
 * answer for valid records, each field made wrong in turn, and unknown fields.
 */
export function eventStreamProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'is not an object';
  const extra = unknownField(value, STREAM_FIELDS);
  if (extra) return extra;
  if (typeof value.id !== 'string' || !ID_SHAPES.stream.pattern.test(value.id)) return `id must be ${ID_SHAPES.stream.words}`;
  if (value.name !== undefined && !isText(value.name, LIMITS.streamNameMin, LIMITS.streamNameMax)) return `name must be ${LIMITS.streamNameMin} to ${LIMITS.streamNameMax} characters`;
  if (!(STREAM_STATUSES as readonly unknown[]).includes(value.status)) return `status must be ${STREAM_STATUSES.join(' or ')}`;
  const { subscriptions } = value;
  if (subscriptions !== undefined && (!Array.isArray(subscriptions) || subscriptions.length === 0 || !subscriptions.every((one) => isPlainObject(one) && !unknownField(one, SUBSCRIPTION_FIELDS) && isText(one.event_type, 1)))) {
    return 'subscriptions must be a list of at least one {event_type}';
  }
  const problem = destinationProblem(value.destination);
  if (problem) return `destination${problem}`;
  for (const key of ['created_at', 'updated_at'] as const) if (typeof value[key] !== 'string' || !DATE_TIME.test(value[key])) return `${key} must be an ISO 8601 time`;
  return undefined;
}

const STREAM_FIELDS = new Set(Object.keys(EventStreamSchema.shape));
const SUBSCRIPTION_FIELDS = new Set(['event_type']);
const DESTINATION_FIELDS = new Set(['type', 'configuration']);
const CONFIGURATION_FIELDS: Record<string, ReadonlySet<string>> = {
  webhook: new Set(['webhook_endpoint', 'webhook_authorization']),
  eventbus: new Set(['cloud_account_id', 'cloud_region', 'cloud_partner_event_source']),
  action: new Set(['action_id']),
};
const AUTHORIZATION_FIELDS: Record<string, ReadonlySet<string>> = {
  basic: new Set(['method', 'username']),
  bearer: new Set(['method']),
  custom_header: new Set(['method', 'header_key']),
};
/** What created_at and updated_at are checked with (z.iso.datetime's pattern). */
const DATE_TIME = EventStreamSchema.shape.created_at.def.pattern!;

/** A JSON object, as zod's object schemas take it (not null, not an array). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownField(object: Record<string, unknown>, fields: ReadonlySet<string>): string | undefined {
  const extra = Object.keys(object).find((key) => !fields.has(key));
  return extra === undefined ? undefined : `${extra} is not a field`;
}

function isText(value: unknown, min: number, max = Infinity): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

/** What DestinationSchema refuses (a path below destination and the rule), or undefined. */
function destinationProblem(destination: unknown): string | undefined {
  if (!isPlainObject(destination) || unknownField(destination, DESTINATION_FIELDS)) return ' must be a webhook, eventbus or action destination';
  const { type, configuration: c } = destination;
  if (typeof type !== 'string' || !Object.hasOwn(CONFIGURATION_FIELDS, type)) return '.type must be webhook, eventbus or action';
  if (!isPlainObject(c)) return '.configuration must be an object';
  const extra = unknownField(c, CONFIGURATION_FIELDS[type]!);
  if (extra) return `.configuration.${extra}`;
  switch (type) {
    case 'webhook': {
      if (typeof c.webhook_endpoint !== 'string' || !PATTERNS.webhookEndpoint.test(c.webhook_endpoint)) return '.configuration.webhook_endpoint must begin with https://';
      return authorizationProblem(c.webhook_authorization);
    }
    case 'eventbus': {
      if (typeof c.cloud_account_id !== 'string' || !PATTERNS.cloudAccountId.test(c.cloud_account_id)) return '.configuration.cloud_account_id must be exactly 12 digits';
      if (!(CLOUD_REGIONS as readonly unknown[]).includes(c.cloud_region)) return '.configuration.cloud_region must be a region';
      if (c.cloud_partner_event_source !== undefined && typeof c.cloud_partner_event_source !== 'string') return '.configuration.cloud_partner_event_source must be a string';
      return undefined;
    }
    default: // action
      return isText(c.action_id, 1) ? undefined : '.configuration.action_id must be a string';
  }
}

/** What WebhookAuthorizationSchema refuses, or undefined. */
function authorizationProblem(authorization: unknown): string | undefined {
  const where = '.configuration.webhook_authorization';
  if (!isPlainObject(authorization)) return `${where} must be an object`;
  const { method, username, header_key: headerKey } = authorization;
  if (typeof method !== 'string' || !Object.hasOwn(AUTHORIZATION_FIELDS, method)) return `${where}.method must be basic, bearer or custom_header`;
  const extra = unknownField(authorization, AUTHORIZATION_FIELDS[method]!);
  if (extra) return `${where}.${extra}`;
  if (method === 'basic') return isText(username, 1, LIMITS.basicUsernameMax) && PATTERNS.basicUsername.test(username) ? undefined : `${where}.username must be 1 to ${LIMITS.basicUsernameMax} characters without a colon`;
  if (method === 'custom_header') return isText(headerKey, 1) && PATTERNS.headerKey.test(headerKey) ? undefined : `${where}.header_key must be a valid HTTP header name`;
  return undefined;
}

/** `GET /event-streams` query. */
export const ListStreamsQuerySchema = z.strictObject({
  from: z.string().min(1).optional(),
  take: z.coerce.number().int().min(LIMITS.takeMin).max(LIMITS.takeMax).optional(),
});

/** `GET /event-streams` answer as the interface defines it (additional properties allowed). */
export const ListStreamsResponseSchema = z.looseObject({
  eventStreams: z.array(EventStreamSchema),
  next: z.string().optional(),
});

export const DeliveryAttemptSchema = z.looseObject({
  status: z.string(),
  timestamp: dateTime,
  error_message: z.string().optional(),
  duration: z.number().optional(),
});

export const EventEnvelopeSchema = z.looseObject({
  id: z.string(),
  source: z.string(),
  specversion: z.string(),
  type: z.string(),
  time: dateTime,
  data: z.unknown().optional(),
});

/**
 * The delivery record of a test event. interface.md lists only `failed` and allows at most 6
 * characters; the real service also answers `pending` and `retrying` (7 and 8, wire-facts.md) and the
 * sandbox answers `success` (7) for a delivery it made, so the status is any string here.
 */
export const TestDeliverySchema = z.looseObject({
  id: z.string(),
  event_stream_id: EventStreamIdSchema,
  status: z.string(),
  event_type: z.string().max(LIMITS.eventTypeMax),
  attempts: z.array(DeliveryAttemptSchema),
  event: EventEnvelopeSchema.optional(),
});

/** A directory-provisioning configuration exactly as the interface defines it. */
export const ProvisioningConfigSchema = z.strictObject({
  connection_id: z.string(),
  connection_name: z.string(),
  strategy: z.string(),
  mapping: z.array(MappingEntrySchema).min(1),
  synchronize_automatically: z.boolean(),
  synchronize_groups: z.optional(SyncGroupsSchema),
  created_at: dateTime,
  updated_at: dateTime,
  last_synchronization_at: dateTime.optional(),
  last_synchronization_status: z.string().optional(),
  last_synchronization_error: z.string().optional(),
});

export const DefaultMappingResponseSchema = z.looseObject({ mapping: z.array(MappingEntrySchema) });

/** Error body of the management interface (wire-facts.md). */
export const ApiErrorBodySchema = z.looseObject({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  errorCode: z.string().optional(),
});

/** Error body of the token endpoint. */
export const TokenErrorBodySchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});

export const TokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
  scope: z.string().optional(),
});

export type EventStream = z.infer<typeof EventStreamSchema>;
export type TestDelivery = z.infer<typeof TestDeliverySchema>;
export type ProvisioningConfig = z.infer<typeof ProvisioningConfigSchema>;
