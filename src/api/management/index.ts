// The typed management client: every operation idm knows, by resource. A new operation is one
// method in one of these files, and nothing else in api/.
import type { ApiClient } from '../client.js';
import { connectionsApi } from './connections.js';
import { provisioningApi } from './provisioning.js';
import { rawApi } from './raw.js';
import { streamsApi } from './streams.js';

export type { ApiRecord } from './records.js';
export type { GroupEntry, MappingRow, ProvisioningBody } from './provisioning.js';
export type { RawRequest } from './raw.js';
export type { StatsWindow } from './streams.js';
export type { Page } from '../paginate.js';

export function createManagement(client: ApiClient) {
  return {
    client,
    streams: streamsApi(client),
    provisioning: provisioningApi(client),
    connections: connectionsApi(client),
    raw: rawApi(client),
  };
}

export type Management = ReturnType<typeof createManagement>;
