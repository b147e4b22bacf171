// /api/v2/connections/{id}/directory-provisioning: create (201), read, update, delete (204), and the
// strategy's default mapping. Messages as the real service's (wire-facts.md).
import { ProvisioningRequestSchema, type ProvisioningConfig, type ProvisioningRequest } from '../schemas/index.js';
import { apiError, empty, isoNow, json, parseJsonBody, validateBody, type Reply } from './http.js';
import type { ApiContext } from './router.js';
import { defaultMapping } from './samples.js';
import type { Connection } from './tenant.js';

const UNSUPPORTED = 'The connection strategy does not support inbound directory provisioning';
const NOT_CONFIGURED = 'Directory provisioning is not enabled on the specified connection';

function findConnection(ctx: ApiContext): Connection {
  const connection = ctx.tenant.connections.get(ctx.params[0]!);
  if (!connection) throw apiError(404, 'The connection does not exist', 'inexistent_connection');
  return connection;
}

function configured(connection: Connection): ProvisioningConfig {
  if (!connection.provisioning) throw apiError(404, NOT_CONFIGURED);
  return connection.provisioning;
}

/**
 * Creates a connection's configuration: omitted fields get the strategy's default mapping, automatic
 * synchronization off, and group synchronization `off`. Also used by the seed.
 */
export function enableProvisioning(connection: Connection, request: ProvisioningRequest): ProvisioningConfig {
  const mapping = defaultMapping(connection.strategy);
  if (!mapping) throw apiError(400, UNSUPPORTED);
  if (connection.provisioning) throw apiError(409, 'Directory provisioning is already enabled on the specified connection');
  const now = isoNow();
  connection.provisioning = {
    connection_id: connection.id,
    connection_name: connection.name,
    strategy: connection.strategy,
    mapping: request.mapping ?? mapping,
    synchronize_automatically: request.synchronize_automatically ?? false,
    synchronize_groups: request.synchronize_groups ?? 'off',
    created_at: now,
    updated_at: now,
  };
  return connection.provisioning;
}

/** POST */
export function createProvisioning(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  const request = validateBody(ProvisioningRequestSchema, parseJsonBody(ctx.body, ctx.headers['content-type']));
  return json(201, enableProvisioning(connection, request));
}

/** GET */
export function getProvisioning(ctx: ApiContext): Reply {
  return json(200, configured(findConnection(ctx)));
}

/** PATCH: the given fields replace the stored ones. */
export function updateProvisioning(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  const current = configured(connection);
  const request = validateBody(ProvisioningRequestSchema, parseJsonBody(ctx.body, ctx.headers['content-type']));
  connection.provisioning = {
    ...current,
    ...(request.mapping === undefined ? {} : { mapping: request.mapping }),
    ...(request.synchronize_automatically === undefined ? {} : { synchronize_automatically: request.synchronize_automatically }),
    ...(request.synchronize_groups === undefined ? {} : { synchronize_groups: request.synchronize_groups }),
    updated_at: isoNow(),
  };
  return json(200, connection.provisioning);
}

/** DELETE */
export function deleteProvisioning(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  configured(connection);
  delete connection.provisioning;
  return empty(204);
}

/** GET .../default-mapping */
export function getDefaultMapping(ctx: ApiContext): Reply {
  const mapping = defaultMapping(findConnection(ctx).strategy);
  if (!mapping) throw apiError(400, UNSUPPORTED);
  return json(200, { mapping });
}
