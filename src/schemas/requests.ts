// The request bodies of ../shared/spec/interface.md, in zod's tree-shakable API (zod/mini): what the
// CLI checks before it sends a body (a test event, a stream created or changed, a provisioning
// configuration) and the sandbox checks when it receives one. zod/mini, because the CLI loads these
// on the path of a command: 22 KB, where the classic API brings all of zod (450 KB, about 25 ms to
// load; README, Performance). The answers' schemas, which only the sandbox and the tests use, are in
// ./index.ts with the classic API.
//
// Problems are worded here once, for every schema of both APIs (zod's configuration is shared):
// `must not be empty`, `is missing`, `unknown field: color`; a schema's own message stays as it is.
import * as z from 'zod/mini';
import { CLOUD_REGIONS, EVENT_TYPES, LIMITS, PATTERNS, STREAM_STATUSES, SYNC_GROUPS } from './constants.js';
import { MAPPING_ROWS_MAX, mappingAttributeProblem, rowMapping } from './mapping.js';

const plural = (n: number | bigint, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;

/** idm's words for zod's problems (zod calls it only where a schema gave no message of its own). */
export function problemInWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${plural(issue.minimum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `needs at least ${plural(issue.minimum, 'item')}`;
      // positive() is `> 0`, not `>= 0`: 'must be at least 0' named a value that is refused.
      return issue.inclusive === false ? `must be greater than ${issue.minimum}` : `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${plural(issue.maximum, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `takes at most ${plural(issue.maximum, 'item')}`;
      return issue.inclusive === false ? `must be less than ${issue.maximum}` : `must be at most ${issue.maximum}`;
    case 'invalid_type':
      if (issue.input === undefined) return 'is missing';
      return issue.expected === 'record' || issue.expected === 'object' ? 'must be an object' : `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((value) => String(value)).join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'}: ${issue.keys.join(', ')}`;
    case 'invalid_format':
      // startsWith() and its kin name a prefix, not a format ('is not a valid starts_with' before).
      if (issue.format === 'starts_with') return `must begin with ${(issue as { prefix?: string }).prefix}`;
      if (issue.format === 'ends_with') return `must end with ${(issue as { suffix?: string }).suffix}`;
      if (issue.format === 'includes') return `must contain ${(issue as { includes?: string }).includes}`;
      return `is not a valid ${issue.format === 'datetime' ? 'date and time (RFC 3339)' : issue.format}`;
    default:
      return undefined;
  }
}
z.config({ customError: problemInWords });

/** One line per problem, each naming the field: `destination.configuration.webhook_endpoint: must begin with https://`. */
export function describeIssues(error: z.core.$ZodError, prefix = ''): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

// Each schema is built on first use (and kept): a command checks one body, and building them all
// when the module loads took 2 ms of every run that loads it. (core/text.ts has the same helper for
// the layers above; schemas/ stands beside core/ and may not import it.)
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

export const eventTypeSchema = onFirstUse(() => z.enum(EVENT_TYPES));
export const cloudRegionSchema = onFirstUse(() => z.enum(CLOUD_REGIONS));
export const streamStatusSchema = onFirstUse(() => z.enum(STREAM_STATUSES));
export const syncGroupsSchema = onFirstUse(() => z.enum(SYNC_GROUPS));

export const subscriptionSchema = onFirstUse(() => z.strictObject({ event_type: z.string().check(z.minLength(1)) }));
export const subscriptionsSchema = onFirstUse(() => z.array(subscriptionSchema()).check(z.minLength(1)));
export const eventStreamNameSchema = onFirstUse(() => z.string().check(z.minLength(LIMITS.streamNameMin), z.maxLength(LIMITS.streamNameMax)));

// An empty value fails the pattern too; `abort` stops there, so that it is said once: "must not be empty".
export const basicUsernameSchema = onFirstUse(() => z.string().check(z.minLength(1, { abort: true }), z.maxLength(LIMITS.basicUsernameMax), z.regex(PATTERNS.basicUsername, 'must not contain a colon')));
export const headerKeySchema = onFirstUse(() => z.string().check(z.minLength(1, { abort: true }), z.regex(PATTERNS.headerKey, 'must be a valid HTTP header name')));
export const webhookEndpointSchema = onFirstUse(() => z.string().check(z.regex(PATTERNS.webhookEndpoint, 'must begin with https://')));
export const cloudAccountIdSchema = onFirstUse(() => z.string().check(z.regex(PATTERNS.cloudAccountId, 'must be exactly 12 digits')));

// Webhook authorization as written on create or update: the record's fields plus the write-only
// secret (password, token, header value), which the service keeps and never returns.
export const webhookAuthorizationInputSchema = onFirstUse(() => z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('basic'), username: basicUsernameSchema(), password: z.string().check(z.minLength(1)) }),
  z.strictObject({ method: z.literal('bearer'), token: z.string().check(z.minLength(1)) }),
  z.strictObject({ method: z.literal('custom_header'), header_key: headerKeySchema(), header_value: z.string().check(z.minLength(1)) }),
]));

const webhookDestinationSchema = <A extends z.core.$ZodType>(authorization: A) =>
  z.strictObject({
    type: z.literal('webhook'),
    configuration: z.strictObject({ webhook_endpoint: webhookEndpointSchema(), webhook_authorization: authorization }),
  });
const eventbusDestinationSchema = onFirstUse(() => z.strictObject({
  type: z.literal('eventbus'),
  configuration: z.strictObject({ cloud_account_id: cloudAccountIdSchema(), cloud_region: cloudRegionSchema(), cloud_partner_event_source: z.optional(z.string()) }),
}));
const actionDestinationSchema = onFirstUse(() => z.strictObject({
  type: z.literal('action'),
  configuration: z.strictObject({ action_id: z.string().check(z.minLength(1)) }),
}));

/** A destination with the webhook authorization `authorization` (as written here; as stored in ./index.ts). */
export function destinationSchema<A extends z.core.$ZodType>(authorization: A) {
  return z.discriminatedUnion('type', [webhookDestinationSchema(authorization), eventbusDestinationSchema(), actionDestinationSchema()]);
}

export const destinationInputSchema = onFirstUse(() => destinationSchema(webhookAuthorizationInputSchema()));

/**
 * `POST /event-streams` (an operation of the real service that interface.md does not show): the
 * destination is the only required key (wire-facts.md, Create). idm's `streams create` asks for a
 * name and event types all the same (README), before it checks a body with this.
 */
export const eventStreamCreateSchema = onFirstUse(() => z.strictObject({
  name: z.optional(eventStreamNameSchema()),
  subscriptions: z.optional(subscriptionsSchema()),
  destination: destinationInputSchema(),
  status: z.optional(streamStatusSchema()),
}));

/**
 * `PATCH /event-streams/{id}`: every field optional, the same constraints, and a destination that is
 * a webhook or an action only: the published change body has no event bus (wire-facts.md).
 */
export const eventStreamUpdateSchema = onFirstUse(() => z.strictObject({
  name: z.optional(eventStreamNameSchema()),
  subscriptions: z.optional(subscriptionsSchema()),
  destination: z.optional(z.discriminatedUnion('type', [webhookDestinationSchema(webhookAuthorizationInputSchema()), actionDestinationSchema()])),
  status: z.optional(streamStatusSchema()),
}));

/** `POST /event-streams/{id}/test` body. */
export const testEventRequestSchema = onFirstUse(() => z.strictObject({
  event_type: eventTypeSchema(),
  data: z.optional(z.record(z.string(), z.unknown())),
}));

const mappingAttribute = (side: 'platform' | 'identity-provider') =>
  z.string().check(
    z.trim(),
    z.superRefine((value, ctx) => {
      const problem = mappingAttributeProblem(value, side);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  );

export const mappingEntrySchema = onFirstUse(() => z.strictObject({
  platform: mappingAttribute('platform'),
  idp: mappingAttribute('identity-provider'),
}));
export type MappingEntry = z.infer<ReturnType<typeof mappingEntrySchema>>;

/** A mapping: at least one entry, and each platform attribute mapped once. */
export const mappingSchema = onFirstUse(() => z.array(mappingEntrySchema()).check(
  z.minLength(1, 'needs at least one entry'),
  z.maxLength(MAPPING_ROWS_MAX, `has more than ${MAPPING_ROWS_MAX} entries`),
  z.superRefine((entries, ctx) => {
    if (entries.length > MAPPING_ROWS_MAX) return;
    entries.forEach((entry, index) => {
      if (rowMapping(entries.slice(0, index), entry.platform) >= 0) {
        ctx.addIssue({ code: 'custom', path: [index, 'platform'], message: `platform attribute "${entry.platform}" is mapped more than once`, input: entry.platform });
      }
    });
  }),
));

/** `POST` and `PATCH /connections/{id}/directory-provisioning` body: every field optional. */
export const provisioningRequestSchema = onFirstUse(() => z.strictObject({
  mapping: z.optional(mappingSchema()),
  synchronize_automatically: z.optional(z.boolean()),
  synchronize_groups: z.optional(syncGroupsSchema()),
}));
export type ProvisioningRequest = z.infer<ReturnType<typeof provisioningRequestSchema>>;

/**
 * One synchronized group as written to `PUT` / `POST` / `DELETE …/synchronized-groups` (wire-facts.md):
 * `{id, name?, email?, direct_members_count?}`, the service refusing a bad one with 400 invalid_body.
 */
export const groupEntrySchema = onFirstUse(() => z.strictObject({
  id: z.string().check(z.minLength(1)),
  name: z.optional(z.string()),
  email: z.optional(z.string().check(z.regex(PATTERNS.groupEmail, 'must be an email address'))),
  direct_members_count: z.optional(z.int({ error: 'must be a whole number' }).check(z.nonnegative('must be 0 or more'))),
}));
export type GroupEntry = z.infer<ReturnType<typeof groupEntrySchema>>;

/** The body of the three changes of the synchronized groups: `{groups: [...]}` (an empty list empties it with PUT). */
export const synchronizedGroupsRequestSchema = onFirstUse(() => z.strictObject({ groups: z.array(groupEntrySchema()) }));
