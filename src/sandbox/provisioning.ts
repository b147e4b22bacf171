// /api/v2/connections/{id}/directory-provisioning: create (201), read, update, delete (204), the
// strategy's default mapping, the list of every configuration, synchronizations and synchronized
// groups. Messages as the real service's (wire-facts.md).
import { LIMITS } from '../schemas/constants.js';
import { ProvisioningRequestSchema, SynchronizedGroupsRequestSchema, type MappingEntry, type ProvisioningConfig, type ProvisioningRequest } from '../schemas/index.js';
import { apiError, empty, json, parseJsonBody, validateBody, type Reply } from './http.js';
import { randomAlphanumeric } from './ids.js';
import type { ApiContext } from './router.js';
import { defaultMapping } from './samples.js';
import { decodeCursor, encodeCursor } from './store.js';
import { inBackground, isoAt, type Connection, type DirectoryGroup, type Tenant } from './tenant.js';

const UNSUPPORTED = 'The connection strategy does not support inbound directory provisioning';
const NOT_CONFIGURED = 'Directory provisioning configuration not found';
/** One synchronization per connection in this long (wire-facts.md). */
const SYNC_INTERVAL_MS = 30 * 60_000;

/** Mapping rows as the service writes them: `idp` first, then `platform` (recorded answers). */
const recordedRows = (rows: readonly MappingEntry[]): MappingEntry[] => rows.map(({ idp, platform }) => ({ idp, platform }));

/**
 * A configuration as the service answers it, keys in the recorded order (connection_id,
 * connection_name, strategy, mapping, synchronize_automatically, created_at, updated_at,
 * synchronize_groups), then the last synchronization's fields once one has run. Built at answer
 * time, so that a configuration read back from --state-dir answers the same.
 */
function answer(config: ProvisioningConfig): ProvisioningConfig {
  const { last_synchronization_at, last_synchronization_status, last_synchronization_error } = config;
  return {
    connection_id: config.connection_id,
    connection_name: config.connection_name,
    strategy: config.strategy,
    mapping: recordedRows(config.mapping),
    synchronize_automatically: config.synchronize_automatically,
    created_at: config.created_at,
    updated_at: config.updated_at,
    ...(config.synchronize_groups === undefined ? {} : { synchronize_groups: config.synchronize_groups }),
    ...(last_synchronization_at === undefined ? {} : { last_synchronization_at }),
    ...(last_synchronization_status === undefined ? {} : { last_synchronization_status }),
    ...(last_synchronization_error === undefined ? {} : { last_synchronization_error }),
  };
}

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
export function enableProvisioning(tenant: Pick<Tenant, 'now'>, connection: Connection, request: ProvisioningRequest): ProvisioningConfig {
  const mapping = defaultMapping(connection.strategy);
  if (!mapping) throw apiError(400, UNSUPPORTED);
  if (connection.provisioning) throw apiError(409, 'Directory provisioning is already enabled on the specified connection');
  const now = isoAt(tenant);
  connection.provisioning = answer({
    connection_id: connection.id,
    connection_name: connection.name,
    strategy: connection.strategy,
    mapping: request.mapping ?? mapping,
    synchronize_automatically: request.synchronize_automatically ?? false,
    created_at: now,
    updated_at: now,
    synchronize_groups: request.synchronize_groups ?? 'off',
  });
  return connection.provisioning;
}

/** POST */
export function createProvisioning(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  const request = validateBody(ProvisioningRequestSchema, parseJsonBody(ctx.body, ctx.headers['content-type']));
  return json(201, answer(enableProvisioning(ctx.tenant, connection, request)));
}

/** GET */
export function getProvisioning(ctx: ApiContext): Reply {
  return json(200, answer(configured(findConnection(ctx))));
}

/** PATCH: the given fields replace the stored ones. */
export function updateProvisioning(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  const current = configured(connection);
  const request = validateBody(ProvisioningRequestSchema, parseJsonBody(ctx.body, ctx.headers['content-type']));
  connection.provisioning = answer({
    ...current,
    ...(request.mapping === undefined ? {} : { mapping: request.mapping }),
    ...(request.synchronize_automatically === undefined ? {} : { synchronize_automatically: request.synchronize_automatically }),
    ...(request.synchronize_groups === undefined ? {} : { synchronize_groups: request.synchronize_groups }),
    updated_at: isoAt(ctx.tenant),
  });
  return json(200, connection.provisioning);
}

/** DELETE: the configuration goes, and with it its synchronizations (a running one and the 30-minute rule). */
export function deleteProvisioning(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  configured(connection);
  delete connection.provisioning;
  delete connection.synchronizing;
  return empty(204);
}

/**
 * GET .../default-mapping: 400 for a strategy without directory provisioning; like read, 404 until
 * the connection has a configuration (wire-facts.md: "404 Directory provisioning configuration not
 * found (read, change, default mapping, synchronize)").
 */
export function getDefaultMapping(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  const mapping = defaultMapping(connection.strategy);
  if (!mapping) throw apiError(400, UNSUPPORTED);
  configured(connection);
  return json(200, { mapping: recordedRows(mapping) });
}

const badPaging = () => apiError(400, 'Invalid query string paging options', 'invalid_query_string');

/** `take` and `from` (the cursor's number) of a paged list, or the 400. */
function paging(ctx: ApiContext): { take: number; from: number } {
  const take = ctx.query.has('take') ? Number(ctx.query.get('take')) : LIMITS.takeDefault;
  const from = ctx.query.has('from') ? decodeCursor(ctx.query.get('from')!) : 0;
  if (!Number.isInteger(take) || take < LIMITS.takeMin || take > LIMITS.takeMax || from === undefined) throw badPaging();
  return { take, from };
}

/**
 * A connection's synchronized groups as the service lists them: in the order of their ids, whatever
 * order they were sent or added in (recorded: PUT [group2def, group1abc] is listed [group1abc,
 * group2def]; group1abc added to [group2def] comes first).
 */
function byId(groups: readonly DirectoryGroup[]): DirectoryGroup[] {
  return [...groups].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The cursor of the groups list: the id of the last group a page showed, the next page starting after
 * it in id order. Not an offset into the list, which a DELETE shortens while a client pages through it.
 */
const groupCursor = (id: string) => Buffer.from(`g1:${id}`).toString('base64url');
function afterGroup(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const id = /^g1:([^]+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  // Only the exact string this server handed out: base64 decoding forgives stray characters.
  return id !== undefined && groupCursor(id) === cursor ? id : undefined;
}

/**
 * GET /connections-directory-provisionings: every configuration, in the order the connections were
 * made. The cursor is the place, among the tenant's connections (never removed), after the last one
 * shown: not an offset into the list, which a delete shortens while a client pages through it.
 */
export function listProvisionings(ctx: ApiContext): Reply {
  const { take, from } = paging(ctx);
  const rest = [...ctx.tenant.connections.values()].flatMap((connection, place) => (place >= from && connection.provisioning ? [{ config: connection.provisioning, place }] : []));
  const items = rest.slice(0, take);
  return json(200, { directory_provisionings: items.map(({ config }) => answer(config)), ...(rest.length > take ? { next: encodeCursor(items.at(-1)!.place + 1) } : {}) });
}

/**
 * POST .../synchronizations: 201 `{connection_id, synchronization_id, status}`, then a simulated run
 * (Timing.syncDurationMs) that sets the last synchronization's time (when it was asked for, and so
 * began) and status (`completed`, or `failed` with the connection's seeded `syncError`). 400 within
 * 30 minutes of the configuration's `last_synchronization_at` (the time idm reads to say when to ask
 * again; a configuration created anew has none, so a delete ends the rule); 409 while one runs.
 */
export function synchronize(ctx: ApiContext): Reply {
  const { tenant } = ctx;
  const connection = findConnection(ctx);
  const config = configured(connection);
  if (connection.synchronizing) throw apiError(409, 'A synchronization has already been requested or is in progress for the connection');
  const now = tenant.now();
  const last = config.last_synchronization_at === undefined ? NaN : Date.parse(config.last_synchronization_at);
  if (now - last < SYNC_INTERVAL_MS) {
    // wire-facts.md gives the message only: no errorCode (it is optional, "often absent").
    throw apiError(400, 'Connection has been synchronized in the last 30 minutes. Please wait before synchronizing it again.');
  }
  const id = `dsync_${randomAlphanumeric(16)}`;
  connection.synchronizing = id;
  inBackground(tenant, async () => {
    // At least a turn of the event loop, so that a request right after this one finds it running.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, tenant.timing.syncDurationMs);
      tenant.closing.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    // A delete ends it (clears `synchronizing`): a configuration created since never gets its outcome.
    if (connection.synchronizing !== id) return;
    delete connection.synchronizing;
    const current = connection.provisioning; // a PATCH meanwhile replaced the object, not the configuration
    if (!current) return;
    current.last_synchronization_at = new Date(now).toISOString();
    current.last_synchronization_status = connection.syncError === undefined ? 'completed' : 'failed';
    if (connection.syncError === undefined) delete current.last_synchronization_error;
    else current.last_synchronization_error = connection.syncError;
  });
  return json(201, { connection_id: connection.id, synchronization_id: id, status: 'pending' });
}

/** GET .../synchronized-groups: the entries as they were sent, in id order, `q=name:<prefix>*` matching the directory's names. */
export function listSynchronizedGroups(ctx: ApiContext): Reply {
  const connection = findConnection(ctx);
  configured(connection);
  const take = ctx.query.has('take') ? Number(ctx.query.get('take')) : LIMITS.takeDefault;
  const after = ctx.query.has('from') ? afterGroup(ctx.query.get('from')!) : '';
  if (!Number.isInteger(take) || take < LIMITS.takeMin || take > LIMITS.takeMax || after === undefined) throw badPaging();
  const q = ctx.query.get('q');
  let groups = byId(connection.synchronizedGroups);
  if (q !== null) {
    const prefix = /^name:(.*)\*$/.exec(q)?.[1];
    if (prefix === undefined) throw apiError(400, "Query validation error: 'q' must be name:<prefix>*.", 'invalid_query_string');
    const nameOf = (group: DirectoryGroup) => group.name ?? connection.groups.find((known) => known.id === group.id)?.name ?? '';
    groups = groups.filter((group) => nameOf(group).toLowerCase().startsWith(prefix.toLowerCase()));
  }
  const rest = groups.filter((group) => group.id > after);
  const items = rest.slice(0, take);
  return json(200, { groups: items, ...(rest.length > take ? { next: groupCursor(items.at(-1)!.id) } : {}) });
}

/**
 * The `{groups: [...]}` body of PUT, POST and DELETE, checked with the shared schema (the one idm
 * checks --groups-file with) as the service does (400 invalid_body). A bad email is worded as the
 * recorded answer words it.
 */
function groupEntries(ctx: ApiContext): DirectoryGroup[] {
  const body = parseJsonBody(ctx.body, ctx.headers['content-type']);
  const parsed = SynchronizedGroupsRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [, index, field] = issue.path;
    if (field === 'email' && typeof index === 'number' && isPlainObject(body) && Array.isArray(body.groups)) {
      const email = (body.groups[index] as Record<string, unknown>).email;
      throw apiError(400, `Payload validation error: 'Object didn't pass validation for format email: ${String(email)}' on property groups[${index}].email (Google Workspace Directory group email).`, 'invalid_body');
    }
  }
  return validateBody(SynchronizedGroupsRequestSchema, body).groups;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** PUT (replace), POST (add), DELETE (remove) .../synchronized-groups: 204. */
export function changeSynchronizedGroups(ctx: ApiContext, how: 'set' | 'add' | 'remove'): Reply {
  const connection = findConnection(ctx);
  configured(connection);
  const entries = groupEntries(ctx);
  const kept = connection.synchronizedGroups;
  if (how === 'set') connection.synchronizedGroups = entries;
  else if (how === 'remove') connection.synchronizedGroups = kept.filter((group) => !entries.some((entry) => entry.id === group.id));
  else {
    for (const entry of entries) {
      // A group sent again replaces its entry (listed by id all the same).
      const at = kept.findIndex((group) => group.id === entry.id);
      if (at >= 0) kept[at] = entry;
      else kept.push(entry);
    }
  }
  return empty(204);
}
