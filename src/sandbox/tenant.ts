// The state of one sandbox tenant, shared by its handlers.
import type { KeyObject } from 'node:crypto';
import type { ProvisioningConfig } from '../schemas/index.js';
import type { DeliveryLogEntry } from './delivery.js';
import type { Faults } from './faults.js';
import type { Inbox } from './inbox.js';
import type { TokenBucket } from './ratelimit.js';
import type { StreamStore } from './store.js';
import type { RecordedRequest } from './types.js';

/**
 * A client as the token endpoint knows it. A secret client (admin, reader) authenticates with its
 * secret or an assertion signed with its key; the mtls client only with a certificate whose
 * fingerprint is registered.
 */
export interface RegisteredClient {
  name: string;
  clientId: string;
  scopes: string[];
  clientSecret?: string;
  /** For private_key_jwt assertions: its own RSA key's, and any a seed registered (RSA or EC P-256). */
  publicKeys?: KeyObject[];
  /** SHA-256 fingerprints (fingerprintOf) of the certificates that authenticate it. */
  certificateFingerprints?: string[];
}

/** Mutual-TLS client authentication: a handshake of the sandbox's own, or an edge's headers (`edgeKey` is its cname-api-key). */
export type MutualTls = { mode: 'handshake' } | { mode: 'edge'; edgeKey: string };

/** A group of the connection's directory, as the synchronized-groups endpoints describe one. */
export interface DirectoryGroup {
  id: string;
  name?: string;
  email?: string;
  direct_members_count?: number;
}

export interface Connection {
  id: string;
  name: string;
  strategy: string;
  provisioning?: ProvisioningConfig;
  /** The groups of its directory (seed), for names in searches. */
  groups: DirectoryGroup[];
  /** The groups synchronized when `synchronize_groups` is `selected`, as they were sent. */
  synchronizedGroups: DirectoryGroup[];
  /** Set: every synchronization of this connection fails with this error (seed `syncError`). */
  syncError?: string;
  /** The synchronization running now (the 30-minute rule counts from the configuration's last_synchronization_at). */
  synchronizing?: string;
}

/** How test deliveries and synchronizations take time: a switch for tests, the real schedule by default. */
export interface Timing {
  /** `async` (default): 202 `pending`, delivered in the background; `sync`: delivered before answering. */
  delivery: 'async' | 'sync';
  /** Waits before the 2nd, 3rd and 4th attempt after a connection error (real: 1, 2, 4 s). */
  retryDelaysMs: readonly number[];
  /** How long one webhook attempt waits for the receiver's answer before it fails as a timeout (real: 3 s). */
  deliveryTimeoutMs: number;
  /** How long a simulated synchronization runs. */
  syncDurationMs: number;
}

export interface Tenant {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  url: string;
  /** `${url}/` : the `iss` of access tokens and the `aud` of client assertions. */
  issuer: string;
  /** `${url}/api/v2/` */
  audience: string;
  clients: Map<string, RegisteredClient>;
  mtls?: MutualTls;
  signing: { privateKey: KeyObject; publicKey: KeyObject; kid: string };
  tokenLifetime: number;
  /** A create that would make more streams than this answers 409 (undefined: no limit). */
  maxStreams?: number;
  tokensIssued: number;
  /** Client-assertion `jti`s seen, with their `exp`, so that none is accepted twice. */
  usedAssertionIds: Map<string, number>;
  streams: StreamStore;
  connections: Map<string, Connection>;
  deliveries: DeliveryLogEntry[];
  inbox: Inbox;
  faults: Faults;
  buckets: { api: TokenBucket; token: TokenBucket };
  requests: RecordedRequest[];
  /** Aborted by close(), so that no delivery outlives the sandbox. */
  closing: AbortSignal;
  /** The tenant's clock (tests may set it): timestamps, statistics windows, the 30-minute rule. */
  now(): number;
  timing: Timing;
  /** Work running in the background (deliveries, synchronizations): Sandbox.idle() waits for it. */
  background: Set<Promise<unknown>>;
  /** Called after the tenant's data changed (a write request, background work done): --state-dir saves it. */
  changed(): void;
}

/** The tenant's time as the service writes it: ISO 8601 with milliseconds and Z. */
export function isoAt(tenant: Pick<Tenant, 'now'>): string {
  return new Date(tenant.now()).toISOString();
}

/** Runs `work` in the background, tracked so that Sandbox.idle() can wait for it. */
export function inBackground(tenant: Tenant, work: () => Promise<unknown>): void {
  const running = work()
    .catch(() => undefined)
    .finally(() => {
      tenant.background.delete(running);
      tenant.changed();
    });
  tenant.background.add(running);
}
