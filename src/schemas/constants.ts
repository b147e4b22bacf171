// The interface's limits and enumerations (../shared/spec/interface.md), without zod, so that flag
// parsing and shell completion can use them without loading the schema module. The zod schemas in
// ./index.ts are built from these same values: each constraint is written down once, here.

export const EVENT_TYPES = [
  'group.created',
  'group.deleted',
  'group.member.added',
  'group.member.deleted',
  'group.role.assigned',
  'group.role.deleted',
  'group.updated',
  'organization.connection.added',
  'organization.connection.removed',
  'organization.connection.updated',
  'organization.created',
  'organization.deleted',
  'organization.group.role.assigned',
  'organization.group.role.deleted',
  'organization.member.added',
  'organization.member.deleted',
  'organization.member.role.assigned',
  'organization.member.role.deleted',
  'organization.updated',
  'user.created',
  'user.deleted',
  'user.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const CLOUD_REGIONS = [
  'af-south-1', 'ap-east-1', 'ap-east-2', 'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3',
  'ap-south-1', 'ap-south-2', 'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-southeast-4',
  'ap-southeast-5', 'ap-southeast-6', 'ap-southeast-7', 'ca-central-1', 'ca-west-1', 'eu-central-1',
  'eu-central-2', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-2', 'eu-west-3',
  'il-central-1', 'me-central-1', 'me-south-1', 'mx-central-1', 'sa-east-1', 'us-gov-east-1',
  'us-gov-west-1', 'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2',
] as const;

export const STREAM_STATUSES = ['enabled', 'disabled'] as const;

/** Strategies whose connections support inbound directory provisioning (wire-facts.md: only this one is known). */
export const PROVISIONING_STRATEGIES = ['google-apps'] as const;
export const SYNC_GROUPS = ['all', 'off', 'selected'] as const;
export type SyncGroups = (typeof SYNC_GROUPS)[number];

/** Delivery statuses: the interface lists only `failed` (the service also answers `pending`, `retrying`: shown as they are). */
export const DELIVERY_STATUSES = ['failed'] as const;

export const LIMITS = {
  takeMin: 1,
  takeMax: 100,
  takeDefault: 50,
  streamIdLength: 26,
  streamNameMin: 1,
  streamNameMax: 128,
  basicUsernameMax: 128,
  eventTypeMax: 33,
  // A delivery status is "at most 6 characters" in interface.md, but `pending`, `retrying` and the
  // sandbox's `success` are longer: no limit is kept for it (see TestDeliverySchema).
  /** interface.md's limit (`disabled`); idm streams list makes its STATUS column this wide. */
  streamStatusMax: 8,
  /**
   * The largest request body the service takes: its proxy answers 413 "Payload content length
   * greater than maximum allowed: 1048576" above it (as the sandbox does). idm reads no larger body.
   */
  requestBodyBytes: 1024 * 1024,
} as const;

export const PATTERNS = {
  webhookEndpoint: /^https:\/\/.*/,
  basicUsername: /^[^:]+$/,
  headerKey: /^[a-zA-Z0-9!#$%&'*+.^_`|~-]+$/,
  cloudAccountId: /^\d{12}$/,
  /** A synchronized group's email (the service checks `format email`; wire-facts.md, a bad group entry). */
  groupEmail: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
} as const;

/** Scopes each operation needs (wire-facts.md), named in 403 messages and hints. */
export const SCOPES = {
  listStreams: 'read:event_streams',
  readStream: 'read:event_streams',
  createStream: 'create:event_streams',
  updateStream: 'update:event_streams',
  deleteStream: 'delete:event_streams',
  testStream: 'update:event_streams',
  /** Also `read:event_streams` for the list (wire-facts.md); the one-delivery read needs this one. */
  readDeliveries: 'read:event_deliveries',
  redeliver: 'update:event_deliveries',
  /** Not published; the stream's own read scope is the likely one (a 403 names the real one). */
  streamStats: 'read:event_streams',
  listConnections: 'read:connections',
  createProvisioning: 'create:directory_provisionings',
  readProvisioning: 'read:directory_provisionings',
  updateProvisioning: 'update:directory_provisionings',
  deleteProvisioning: 'delete:directory_provisionings',
} as const;

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
