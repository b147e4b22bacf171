// The typed management client: every operation idm knows, by resource. A new operation is one
// method in one of these files, and nothing else in api/.
import { shellCommand, type CommandLine } from '../../core/text.js';
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

/** `command` makes the command lines that hints name (Deps.command: with the run's --profile). */
export function createManagement(client: ApiClient, command: CommandLine = shellCommand) {
  return {
    client,
    streams: streamsApi(client, command),
    provisioning: provisioningApi(client, command),
    connections: connectionsApi(client),
    raw: rawApi(client),
  };
}

export type Management = ReturnType<typeof createManagement>;
