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
import { LIMITS } from './constants.js';
import { ID_SHAPES } from './ids.js';
import {
  BasicUsernameSchema,
  destinationSchema,
  EventStreamNameSchema,
  HeaderKeySchema,
  MappingEntrySchema,
  StreamStatusSchema,
  SubscriptionsSchema,
  SyncGroupsSchema,
} from './requests.js';

export * from './requests.js';

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

/** An event stream record exactly as the interface defines it. */
export const EventStreamSchema = z.strictObject({
  id: EventStreamIdSchema,
  name: EventStreamNameSchema,
  status: StreamStatusSchema,
  subscriptions: SubscriptionsSchema,
  destination: DestinationSchema,
  created_at: dateTime,
  updated_at: dateTime,
});

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
