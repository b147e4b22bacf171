// GET /api/v2/connections: the tenant's connections, filtered by strategy (repeatable) and name, in
// the shape of the real service's connection objects. Checkpoint pagination as published:
// `{connections, next?}` when `from` or `take` is sent, and a bare list when neither is.
import { LIMITS } from '../schemas/constants.js';
import { apiError, json, type Reply } from './http.js';
import type { ApiContext } from './router.js';
import { decodeCursor, encodeCursor } from './store.js';
import type { Connection } from './tenant.js';

/** A connection as the service lists it (the fields the sandbox can say something true about). */
export function connectionRecord(connection: Connection): Record<string, unknown> {
  return {
    id: connection.id,
    name: connection.name,
    display_name: connection.name,
    strategy: connection.strategy,
    is_domain_connection: false,
    realms: [connection.name],
    enabled_clients: [],
  };
}

export function listConnections(ctx: ApiContext): Reply {
  const q = ctx.query;
  const strategies = q.getAll('strategy').flatMap((value) => value.split(',')).filter(Boolean);
  const name = q.get('name');
  const paged = q.has('from') || q.has('take');
  const all = [...ctx.tenant.connections.values()].filter((c) => (strategies.length === 0 || strategies.includes(c.strategy)) && (name === null || c.name === name));
  // fields / include_fields: only (or all but) the named fields.
  const fields = q.get('fields')?.split(',').filter(Boolean);
  const include = q.get('include_fields') !== 'false';
  const shape = (record: Record<string, unknown>) =>
    fields ? Object.fromEntries(Object.entries(record).filter(([key]) => fields.includes(key) === include)) : record;
  if (!paged) return json(200, all.map((c) => shape(connectionRecord(c))));
  const take = q.has('take') ? Number(q.get('take')) : LIMITS.takeDefault;
  const after = q.has('from') ? decodeCursor(q.get('from')!) : 0;
  if (!Number.isInteger(take) || take < LIMITS.takeMin || take > LIMITS.takeMax || after === undefined) throw apiError(400, 'Invalid query string paging options', 'invalid_query_string');
  const items = all.slice(after, after + take);
  return json(200, { connections: items.map((c) => shape(connectionRecord(c))), ...(after + take < all.length ? { next: encodeCursor(after + take) } : {}) });
}
