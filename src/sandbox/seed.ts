// What the tenant holds at start: a seed (JSON, see README: Sandbox) or the built-in demo seed, plus
// `streams: N` generated streams. Seeds are checked with the shared schemas; in webhook endpoints,
// `{inbox}` stands for the inbox's URL and `{closed}` for https://127.0.0.1:<a port nothing listens on>.
import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { EVENT_TYPES } from '../schemas/constants.js';
import {
  describeIssues,
  EventStreamCreateSchema,
  EventStreamIdSchema,
  EventStreamSchema,
  ProvisioningRequestSchema,
  type EventStream,
} from '../schemas/index.js';
import { Reply } from './http.js';
import { newConnectionId, newPartnerEventSource, newStreamId } from './ids.js';
import { algorithmsFor } from './jwt.js';
import { normalizeFingerprint } from './pki.js';
import { enableProvisioning } from './provisioning.js';
import { splitSecret } from './store.js';
import type { Connection, Tenant } from './tenant.js';

const RateLimitSchema = z.strictObject({
  limit: z.number().int().positive(),
  refillPerSecond: z.number().positive(),
});

const SeedStreamSchema = z.strictObject({
  ...EventStreamCreateSchema.shape,
  id: EventStreamIdSchema.optional(),
  created_at: z.iso.datetime().optional(),
  updated_at: z.iso.datetime().optional(),
});

const DirectoryGroupSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().optional(),
  email: z.string().optional(),
  direct_members_count: z.number().int().nonnegative().optional(),
});

const SeedConnectionSchema = z.strictObject({
  id: z.string().regex(/^con_[A-Za-z0-9]{16}$/, 'must be con_ and 16 letters or digits').optional(),
  name: z.string().min(1),
  strategy: z.string().min(1),
  /** Present: the connection already has a directory-provisioning configuration (POST answers 409). */
  provisioning: z.optional(ProvisioningRequestSchema),
  /** The groups of its directory (names for searches of the synchronized groups). */
  groups: z.array(DirectoryGroupSchema).optional(),
  /** Groups synchronized when `synchronize_groups` is `selected`. */
  synchronizedGroups: z.array(DirectoryGroupSchema).optional(),
  /** Every synchronization of this connection fails with this error. */
  syncError: z.string().min(1).optional(),
});

const ClientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _');

/** A public key a client's assertions may be signed for: SPKI PEM, RSA (RS256, RS384, PS256) or EC P-256 (ES256). */
const PublicKeyPemSchema = z.string().refine((pem) => {
  // createPublicKey would take a private key too (and derive its public half): none belongs in a seed.
  if (!pem.includes('-----BEGIN PUBLIC KEY-----') || pem.includes('PRIVATE KEY')) return false;
  try {
    const key = createPublicKey(pem);
    return algorithmsFor(key).length > 0;
  } catch {
    return false;
  }
}, 'must be a PEM public key (-----BEGIN PUBLIC KEY-----), RSA or EC P-256');

/**
 * A seeded client: ids and secrets of its own, so that a test or a script can name them in advance,
 * and public keys of its own for private_key_jwt (beside the RSA key the sandbox makes for it).
 */
const SeedSecretClientSchema = z.strictObject({
  clientId: ClientIdSchema.optional(),
  clientSecret: z.string().regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 printable ASCII characters, no spaces').optional(),
  publicKeys: z.array(PublicKeyPemSchema).optional(),
});

/** The mutual-TLS client: its id, and the SHA-256 fingerprints of certificates of its own (beside the sandbox's). */
const SeedCertificateClientSchema = z.strictObject({
  clientId: ClientIdSchema.optional(),
  certificateFingerprints: z
    .array(z.string().refine((text) => normalizeFingerprint(text) !== undefined, 'must be a SHA-256 fingerprint: 64 hex digits, colons allowed'))
    .optional(),
});

/** The seeded clients: each id names one client (the token endpoint finds a client by its id). */
const SeedClientsSchema = z
  .strictObject({ admin: SeedSecretClientSchema.optional(), reader: SeedSecretClientSchema.optional(), mtls: SeedCertificateClientSchema.optional() })
  .superRefine((clients, context) => {
    const owners = new Map<string, string>();
    for (const name of ['admin', 'reader', 'mtls'] as const) {
      const id = clients[name]?.clientId;
      if (id === undefined) continue;
      const owner = owners.get(id);
      if (owner) context.addIssue({ code: 'custom', path: [name, 'clientId'], message: `is the ${owner} client's id too: each client needs an id of its own` });
      owners.set(id, name);
    }
  });

export const SeedSchema = z.strictObject({
  clients: SeedClientsSchema.optional(),
  streams: z.array(SeedStreamSchema).optional(),
  connections: z.array(SeedConnectionSchema).optional(),
  tokenLifetime: z.number().int().positive().optional(),
  rateLimit: RateLimitSchema.optional(),
  /** The most streams a create leaves the tenant with (the service's limit is not published; default none). */
  maxStreams: z.number().int().positive().optional(),
  /** `sync`: test events are delivered before the answer (the default is `async`, as the service). */
  delivery: z.enum(['async', 'sync']).optional(),
});
export type Seed = z.infer<typeof SeedSchema>;

export class SeedError extends Error {
  override name = 'SeedError';
}

/**
 * The tenant would start with more streams than its `maxStreams` (the option's, else the seed's, else
 * the saved tenant's): over its limit before any create. `seeded` and `generated` count a new
 * tenant's streams, `saved` a saved one's.
 */
export class StreamLimitError extends Error {
  override name = 'StreamLimitError';
  /** How many streams the tenant would start with. */
  readonly count: number;
  constructor(
    readonly maxStreams: number,
    readonly streams: { seeded: number; generated: number } | { saved: number },
  ) {
    const count = 'saved' in streams ? streams.saved : streams.seeded + streams.generated;
    const what = 'saved' in streams ? 'the saved tenant\'s' : `${streams.seeded} seeded, ${streams.generated} generated`;
    super(`maxStreams ${maxStreams} is less than the ${count} streams the tenant would start with (${what})`);
    this.count = count;
  }
}

/** Fixed ids, so that the demo and the docs can name them. */
export const DEMO_IDS = {
  inboxBearer: 'est_demoInboxBearer0000000',
  inboxBasic: 'est_demoInboxBasic00000000',
  inboxHeader: 'est_demoInboxHeader0000000',
  closedPort: 'est_demoClosedPort00000000',
  eventbus: 'est_demoEventbus0000000000',
  action: 'est_demoAction000000000000',
  googleApps: 'con_googleAppsDemo01',
  googleAppsConfigured: 'con_googleAppsTaken1',
  googleAppsFailing: 'con_googleAppsFails1',
  database: 'con_usernamePasswd01',
  saml: 'con_samlEnterprise01',
} as const;

const DEMO_GROUPS = [
  { id: '03ep43zb1xk6ay0', name: 'Engineering', email: 'engineering@example.com', direct_members_count: 12 },
  { id: '03ep43zb2fw2ma9', name: 'Sales', email: 'sales@example.com', direct_members_count: 7 },
  { id: '03ep43zb3kd91ls', name: 'Support', email: 'support@example.com', direct_members_count: 5 },
  { id: '03ep43zb4qq0zfe', name: 'Everyone', email: 'everyone@example.com', direct_members_count: 24 },
];

/** The built-in seed (used without --seed). Its webhook secrets are documented on purpose. */
export const DEFAULT_SEED = {
  streams: [
    {
      id: DEMO_IDS.inboxBearer,
      name: 'demo-inbox-bearer',
      subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }, { event_type: 'user.deleted' }],
      destination: {
        type: 'webhook',
        configuration: { webhook_endpoint: '{inbox}/demo-bearer', webhook_authorization: { method: 'bearer', token: 'sandbox-demo-token' } },
      },
    },
    {
      id: DEMO_IDS.inboxBasic,
      name: 'demo-inbox-basic',
      subscriptions: [{ event_type: 'user.created' }],
      destination: {
        type: 'webhook',
        configuration: {
          webhook_endpoint: '{inbox}/demo-basic',
          webhook_authorization: { method: 'basic', username: 'sandbox', password: 'sandbox-demo-password' },
        },
      },
    },
    {
      id: DEMO_IDS.inboxHeader,
      name: 'demo-inbox-custom-header',
      subscriptions: [{ event_type: 'organization.created' }, { event_type: 'organization.updated' }],
      destination: {
        type: 'webhook',
        configuration: {
          webhook_endpoint: '{inbox}/demo-header',
          webhook_authorization: { method: 'custom_header', header_key: 'x-sandbox-secret', header_value: 'sandbox-demo-header-value' },
        },
      },
    },
    {
      id: DEMO_IDS.closedPort,
      name: 'demo-closed-port',
      subscriptions: [{ event_type: 'user.created' }],
      destination: {
        type: 'webhook',
        configuration: { webhook_endpoint: '{closed}/hook', webhook_authorization: { method: 'bearer', token: 'sandbox-demo-token' } },
      },
    },
    {
      id: DEMO_IDS.eventbus,
      name: 'demo-eventbus',
      subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.deleted' }],
      destination: {
        type: 'eventbus',
        configuration: { cloud_account_id: '123456789012', cloud_region: 'us-east-1', cloud_partner_event_source: 'cloud.partner/platform.com/sandbox/platform.events' },
      },
    },
    {
      id: DEMO_IDS.action,
      name: 'demo-action',
      status: 'disabled',
      subscriptions: [{ event_type: 'group.created' }],
      destination: { type: 'action', configuration: { action_id: '6018e89f-245f-4da3-ac9f-e22fc6d8b0d1' } },
    },
  ],
  connections: [
    { id: DEMO_IDS.googleApps, name: 'google-workspace', strategy: 'google-apps', groups: DEMO_GROUPS },
    {
      id: DEMO_IDS.googleAppsConfigured,
      name: 'google-workspace-configured',
      strategy: 'google-apps',
      provisioning: { synchronize_groups: 'selected' },
      groups: DEMO_GROUPS,
      synchronizedGroups: [DEMO_GROUPS[0]],
    },
    { id: DEMO_IDS.googleAppsFailing, name: 'google-workspace-broken', strategy: 'google-apps', provisioning: {}, syncError: 'The directory refused the credentials: invalid_grant.' },
    { id: DEMO_IDS.database, name: 'Username-Password-Authentication', strategy: 'platform' },
    { id: DEMO_IDS.saml, name: 'enterprise-saml', strategy: 'samlp' },
  ],
} as const;

/**
 * What `{inbox}` and `{closed}` stand for in a parsed seed: URLs as the schemas check them, made the
 * sandbox's own once it knows its ports (applySeed).
 */
const STAND_INS = { inbox: 'https://{inbox}', closed: 'https://{closed}' };

/** Parses a seed (once, before anything is started); throws SeedError naming the field. */
export function parseSeed(raw: unknown): Seed {
  const text = JSON.stringify(raw ?? {})
    .replaceAll('{inbox}', STAND_INS.inbox)
    .replaceAll('{closed}', STAND_INS.closed);
  const result = SeedSchema.safeParse(JSON.parse(text));
  if (!result.success) throw new SeedError(`Invalid seed: ${describeIssues(result.error)}`);
  return result.data;
}

/** Puts the seed's streams and connections in the tenant, `{inbox}` and `{closed}` being `urls`. */
export function applySeed(tenant: Tenant, parsed: Seed, urls: { inbox: string; closed: string }): void {
  const seed: Seed = JSON.parse(JSON.stringify(parsed).replaceAll(STAND_INS.inbox, urls.inbox).replaceAll(STAND_INS.closed, urls.closed));
  const now = new Date(tenant.now()).toISOString();
  const names = new Set<string>();
  (seed.streams ?? []).forEach((input, index) => {
    const { destination, secret } = splitSecret(input.destination);
    // As POST /event-streams makes it; a seed may name its own, as the demo seed does.
    if (destination.type === 'eventbus') destination.configuration.cloud_partner_event_source ??= newPartnerEventSource();
    const created = input.created_at ?? now;
    const record: EventStream = {
      id: input.id ?? newStreamId(),
      name: input.name,
      status: input.status ?? 'enabled',
      subscriptions: input.subscriptions,
      destination,
      created_at: created,
      updated_at: input.updated_at ?? created,
    };
    if (tenant.streams.has(record.id)) throw new SeedError(`Invalid seed: streams.${index}.id: ${record.id} is used twice`);
    // The service keeps stream names unique (POST answers 409 for a taken one).
    if (record.name !== undefined && names.has(record.name)) throw new SeedError(`Invalid seed: streams.${index}.name: ${record.name} is used twice`);
    if (record.name !== undefined) names.add(record.name);
    tenant.streams.add(EventStreamSchema.parse(record), secret);
  });
  (seed.connections ?? []).forEach((input, index) => {
    const id = input.id ?? newConnectionId();
    if (tenant.connections.has(id)) throw new SeedError(`Invalid seed: connections.${index}.id: ${id} is used twice`);
    const connection: Connection = {
      id,
      name: input.name,
      strategy: input.strategy,
      groups: input.groups ?? [],
      synchronizedGroups: input.synchronizedGroups ?? [],
      ...(input.syncError === undefined ? {} : { syncError: input.syncError }),
    };
    tenant.connections.set(id, connection);
    if (input.provisioning) {
      try {
        enableProvisioning(tenant, connection, input.provisioning);
      } catch (error) {
        const message = error instanceof Reply ? (error.body as { message?: string }).message : String(error);
        throw new SeedError(`Invalid seed: connections.${index}.provisioning: ${message}`);
      }
    }
  });
}

/**
 * `count` valid streams made without schema checks (10,000 in a few milliseconds), cycling through
 * the three destination types; their webhooks point at the inbox with a bearer token.
 */
export function generateStreams(tenant: Tenant, count: number): void {
  const now = new Date(tenant.now()).toISOString();
  const width = String(count).length;
  for (let n = 1; n <= count; n++) {
    const kind = n % 3;
    const destination: EventStream['destination'] =
      kind === 1
        ? { type: 'webhook', configuration: { webhook_endpoint: `${tenant.inbox.url}/generated`, webhook_authorization: { method: 'bearer' } } }
        : kind === 2
          ? { type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'eu-west-1', cloud_partner_event_source: newPartnerEventSource() } }
          : { type: 'action', configuration: { action_id: `action-${n}` } };
    tenant.streams.add(
      {
        id: newStreamId(),
        name: `generated-${String(n).padStart(width, '0')}`,
        status: n % 10 === 0 ? 'disabled' : 'enabled',
        subscriptions: [{ event_type: EVENT_TYPES[n % EVENT_TYPES.length]! }],
        destination,
        created_at: now,
        updated_at: now,
      },
      kind === 1 ? 'sandbox-generated-token' : undefined,
    );
  }
}
