// zod schemas of every resource and request in ../shared/spec/interface.md; limits and enumerations
// come from ./constants.ts. Who uses what:
// - Requests: the CLI checks what it is about to send with them before any request (test event,
//   provisioning body, mapping rows in the wizard), and the sandbox checks what it receives with the
//   same schemas (and builds its seed and records with them).
// - Answers (stream records, list pages, delivery records, provisioning configurations, default
//   mappings, error bodies, tokens): the interface's shapes, strict where the interface's records are
//   (additionalProperties false). The CLI does not parse answers with them: it reads answers by hand,
//   tolerantly (unknown fields kept, unknown values shown as they are), which also keeps zod off its
//   start-up. test/sandbox/schemas.test.ts holds every kind of sandbox answer to them.
import { z } from 'zod';
import {
  CLOUD_REGIONS,
  EVENT_TYPES,
  LIMITS,
  PATTERNS,
  STREAM_STATUSES,
  SYNC_GROUPS,
} from './constants.js';
import { MAPPING_ROWS_MAX, mappingAttributeProblem, rowMapping } from './mapping.js';

const dateTime = z.iso.datetime({ offset: true });

export const EventTypeSchema = z.enum(EVENT_TYPES);
export const CloudRegionSchema = z.enum(CLOUD_REGIONS);
export const StreamStatusSchema = z.enum(STREAM_STATUSES);
export const SyncGroupsSchema = z.enum(SYNC_GROUPS);

export const EventStreamIdSchema = z
  .string()
  .length(LIMITS.streamIdLength, `must be exactly ${LIMITS.streamIdLength} characters`);

export const SubscriptionSchema = z.strictObject({ event_type: z.string().min(1) });

// Webhook authorization as stored and returned: the secret is never part of the record.
export const BasicUsernameSchema = z
  .string()
  .min(1)
  .max(LIMITS.basicUsernameMax)
  .regex(PATTERNS.basicUsername, 'must not contain a colon');
export const HeaderKeySchema = z
  .string()
  .min(1)
  .regex(PATTERNS.headerKey, 'must be a valid HTTP header name');

export const WebhookAuthorizationSchema = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('basic'), username: BasicUsernameSchema }),
  z.strictObject({ method: z.literal('bearer') }),
  z.strictObject({ method: z.literal('custom_header'), header_key: HeaderKeySchema }),
]);

// Webhook authorization as written on create or update: the record's fields plus the write-only
// secret (password, token, header value), which the service keeps and never returns.
export const WebhookAuthorizationInputSchema = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('basic'), username: BasicUsernameSchema, password: z.string().min(1) }),
  z.strictObject({ method: z.literal('bearer'), token: z.string().min(1) }),
  z.strictObject({ method: z.literal('custom_header'), header_key: HeaderKeySchema, header_value: z.string().min(1) }),
]);

export const WebhookEndpointSchema = z
  .string()
  .regex(PATTERNS.webhookEndpoint, 'must begin with https://');
export const CloudAccountIdSchema = z.string().regex(PATTERNS.cloudAccountId, 'must be exactly 12 digits');

function destinationSchemas<A extends z.ZodType>(authorization: A) {
  return z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('webhook'),
      configuration: z.strictObject({
        webhook_endpoint: WebhookEndpointSchema,
        webhook_authorization: authorization,
      }),
    }),
    z.strictObject({
      type: z.literal('eventbus'),
      configuration: z.strictObject({
        cloud_account_id: CloudAccountIdSchema,
        cloud_region: CloudRegionSchema,
        cloud_partner_event_source: z.string().optional(),
      }),
    }),
    z.strictObject({
      type: z.literal('action'),
      configuration: z.strictObject({ action_id: z.string().min(1) }),
    }),
  ]);
}

export const DestinationSchema = destinationSchemas(WebhookAuthorizationSchema);
export const DestinationInputSchema = destinationSchemas(WebhookAuthorizationInputSchema);

export const EventStreamNameSchema = z.string().min(LIMITS.streamNameMin).max(LIMITS.streamNameMax);
export const SubscriptionsSchema = z.array(SubscriptionSchema).min(1);

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

/** `POST /event-streams` (an operation of the real service that interface.md does not show). */
export const EventStreamCreateSchema = z.strictObject({
  name: EventStreamNameSchema,
  subscriptions: SubscriptionsSchema,
  destination: DestinationInputSchema,
  status: StreamStatusSchema.optional(),
});

/** `PATCH /event-streams/{id}`: every field optional, the same constraints. */
export const EventStreamUpdateSchema = EventStreamCreateSchema.partial();

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

/** `POST /event-streams/{id}/test` body. */
export const TestEventRequestSchema = z.strictObject({
  event_type: EventTypeSchema,
  data: z.record(z.string(), z.unknown()).optional(),
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

const mappingAttribute = (side: 'platform' | 'identity-provider') =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = mappingAttributeProblem(value, side);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

export const MappingEntrySchema = z.strictObject({
  platform: mappingAttribute('platform'),
  idp: mappingAttribute('identity-provider'),
});
export type MappingEntry = z.infer<typeof MappingEntrySchema>;

/** A mapping: at least one entry, and each platform attribute mapped once. */
export const MappingSchema = z
  .array(MappingEntrySchema)
  .min(1, 'needs at least one entry')
  .max(MAPPING_ROWS_MAX, `has more than ${MAPPING_ROWS_MAX} entries`)
  .superRefine((entries, ctx) => {
    if (entries.length > MAPPING_ROWS_MAX) return;
    entries.forEach((entry, index) => {
      if (rowMapping(entries.slice(0, index), entry.platform) >= 0) {
        ctx.addIssue({ code: 'custom', path: [index, 'platform'], message: `platform attribute "${entry.platform}" is mapped more than once` });
      }
    });
  });

/** `POST` and `PATCH /connections/{id}/directory-provisioning` body: every field optional. */
export const ProvisioningRequestSchema = z.strictObject({
  mapping: MappingSchema.optional(),
  synchronize_automatically: z.boolean().optional(),
  synchronize_groups: SyncGroupsSchema.optional(),
});
export type ProvisioningRequest = z.infer<typeof ProvisioningRequestSchema>;

/** A directory-provisioning configuration exactly as the interface defines it. */
export const ProvisioningConfigSchema = z.strictObject({
  connection_id: z.string(),
  connection_name: z.string(),
  strategy: z.string(),
  mapping: z.array(MappingEntrySchema).min(1),
  synchronize_automatically: z.boolean(),
  synchronize_groups: SyncGroupsSchema.optional(),
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

/** One line per problem, each naming the field: `destination.configuration.webhook_endpoint: must begin with https://`. */
export function describeIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      const message = inWords(issue);
      return path ? `${path}: ${message}` : message;
    })
    .join('; ');
}

/** zod's own wording ("Too small: expected string to have >=1 characters") in idm's; a schema's own message as it is. */
function inWords(issue: z.core.$ZodIssue): string {
  const own = !/^(Too small|Too big|Invalid input|Invalid option|Unrecognized key)/.test(issue.message);
  if (own) return issue.message;
  const plural = (n: number | bigint, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${plural(issue.minimum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `needs at least ${plural(issue.minimum, 'item')}`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${plural(issue.maximum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `takes at most ${plural(issue.maximum, 'item')}`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_type':
      // zod does not keep the input in the issue; its message names what it received.
      if (/received undefined$/.test(issue.message)) return 'is missing';
      return issue.expected === 'record' || issue.expected === 'object' ? 'must be an object' : `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((value) => String(value)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'}: ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}
