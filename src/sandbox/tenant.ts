// The state of one sandbox tenant, shared by its handlers.
import type { KeyObject } from 'node:crypto';
import type { ProvisioningConfig } from '../schemas/index.js';
import type { DeliveryLogEntry } from './delivery.js';
import type { Faults } from './faults.js';
import type { Inbox } from './inbox.js';
import type { TokenBucket } from './ratelimit.js';
import type { StreamStore } from './store.js';
import type { RecordedRequest, SandboxClient } from './types.js';

export interface RegisteredClient extends SandboxClient {
  publicKey: KeyObject;
}

export interface Connection {
  id: string;
  name: string;
  strategy: string;
  provisioning?: ProvisioningConfig;
}

export interface Tenant {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  url: string;
  /** `${url}/` : the `iss` of access tokens and the `aud` of client assertions. */
  issuer: string;
  /** `${url}/api/v2/` */
  audience: string;
  clients: Map<string, RegisteredClient>;
  signing: { privateKey: KeyObject; publicKey: KeyObject; kid: string };
  tokenLifetime: number;
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
}
