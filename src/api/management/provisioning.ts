// The directory-provisioning operations of the management interface (../shared/spec/wire-facts.md):
// one method each, knowing its path, scope, success status and how to read the answer tolerantly.
import { isPlainObject } from '../../core/text.js';
import { LIMITS, SCOPES } from '../../schemas/constants.js';
import type { ApiClient, Operation } from '../client.js';
import { paginate, readPage, type Page } from '../paginate.js';
import { apiPath, param } from '../path.js';
import { requestRecord, type ApiRecord } from './records.js';

export interface MappingRow {
  platform: string;
  idp: string;
}

/** The body of a create or change: every field optional (the service fills in the rest). */
export interface ProvisioningBody {
  mapping?: MappingRow[];
  synchronize_automatically?: boolean;
  synchronize_groups?: string;
}

const provisioningPath = (connectionId: string) => apiPath`/connections/${param(connectionId, 'connection id')}/directory-provisioning`;
const CHECK_CONNECTION = "Check the connection id (con_ and 16 letters or digits) in the tenant's dashboard.";

/** The rows of a mapping answer that are rows (a string on both sides); anything else is left out. */
export function mappingRows(value: unknown): MappingRow[] {
  return (Array.isArray(value) ? value : []).flatMap((row) =>
    isPlainObject(row) && typeof row.platform === 'string' && typeof row.idp === 'string' ? [{ platform: row.platform, idp: row.idp }] : [],
  );
}

/** Whether an existing configuration holds what `sent` asked for (unsent settings: the service's defaults). */
export function holdsSettings(existing: ApiRecord, sent: ProvisioningBody): boolean {
  const pairs = (rows: MappingRow[]) => JSON.stringify(rows.map((row) => [row.platform, row.idp]).sort());
  if (sent.mapping !== undefined && pairs(mappingRows(existing.mapping)) !== pairs(sent.mapping)) return false;
  if ((existing.synchronize_automatically ?? false) !== (sent.synchronize_automatically ?? false)) return false;
  return (existing.synchronize_groups ?? 'off') === (sent.synchronize_groups ?? 'off');
}

export interface GroupsQuery {
  /** Groups whose name starts with this (sent as `q=name:<prefix>*`). */
  search?: string;
  from?: string;
  take?: number;
}

/** A synchronized group as sent: its id, and what else the directory says of it. */
export interface GroupEntry {
  id: string;
  name?: string;
  email?: string;
  direct_members_count?: number;
}

const NOT_CONFIGURED = (connectionId: string) => `Check the connection id; create provisioning first with 'idm provisioning create ${connectionId}'.`;

export function provisioningApi(client: ApiClient) {
  const get = (connectionId: string): Promise<ApiRecord> =>
    requestRecord(
      client,
      {
        method: 'GET',
        path: provisioningPath(connectionId),
        action: `read the directory provisioning of connection ${connectionId}`,
        scope: SCOPES.readProvisioning,
        hints: { 404: CHECK_CONNECTION },
      },
      'a provisioning configuration',
    );

  const list = async (query: { from?: string; take?: number }): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: '/connections-directory-provisionings',
      query: { from: query.from, take: query.take },
      action: 'list directory provisioning configurations',
      scope: SCOPES.readProvisioning,
      hints: { 400: query.from ? 'Check --from: it takes the `next` value of a previous page, as printed.' : 'Check --take (1-100).' },
    };
    const { status, body } = await client.request(operation);
    return readPage(client, operation, status, body, 'directory_provisionings', { maxItems: query.take ?? LIMITS.takeMax });
  };

  const groups = async (connectionId: string, query: GroupsQuery): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: `${provisioningPath(connectionId)}/synchronized-groups`,
      query: { q: query.search === undefined ? undefined : `name:${query.search}*`, from: query.from, take: query.take },
      action: `list the synchronized groups of connection ${connectionId}`,
      scope: SCOPES.readProvisioning,
      hints: { 404: NOT_CONFIGURED(connectionId) },
    };
    const { status, body } = await client.request(operation);
    return readPage(client, operation, status, body, 'groups', { maxItems: query.take ?? LIMITS.takeMax });
  };

  const changeGroups = (method: 'PUT' | 'POST' | 'DELETE', verb: string) => async (connectionId: string, entries: GroupEntry[]): Promise<void> => {
    await client.request({
      method,
      path: `${provisioningPath(connectionId)}/synchronized-groups`,
      body: { groups: entries },
      action: `${verb} the synchronized groups of connection ${connectionId}`,
      scope: SCOPES.updateProvisioning,
      hints: { 404: NOT_CONFIGURED(connectionId), 400: 'Check the group ids (idm provisioning groups list shows them).' },
    });
  };

  return {
    get,

    /** One page of every connection's configuration. */
    list,
    pages: (query: { from?: string; take?: number }) => paginate((from) => list({ ...query, from }), query.from, 'list every directory provisioning configuration'),

    /** 200 with the whole configuration; `mapping`, when sent, replaces the whole mapping. */
    update: (connectionId: string, body: ProvisioningBody): Promise<ApiRecord> =>
      requestRecord(
        client,
        {
          method: 'PATCH',
          path: provisioningPath(connectionId),
          body,
          action: `change the directory provisioning of connection ${connectionId}`,
          scope: SCOPES.updateProvisioning,
          hints: { 404: NOT_CONFIGURED(connectionId) },
        },
        'a provisioning configuration',
      ),

    /** 204. */
    delete: async (connectionId: string): Promise<void> => {
      await client.request({
        method: 'DELETE',
        path: provisioningPath(connectionId),
        action: `delete the directory provisioning of connection ${connectionId}`,
        scope: SCOPES.deleteProvisioning,
        hints: { 404: NOT_CONFIGURED(connectionId) },
      });
    },

    /** Asks for a synchronization now: 201 `{connection_id, synchronization_id, status}`. */
    synchronize: (connectionId: string): Promise<ApiRecord> =>
      requestRecord(
        client,
        {
          method: 'POST',
          path: `${provisioningPath(connectionId)}/synchronizations`,
          action: `synchronize connection ${connectionId}`,
          scope: SCOPES.createProvisioning,
          hints: { 404: NOT_CONFIGURED(connectionId), 409: 'Wait for it to finish: idm provisioning show shows the last synchronization.' },
        },
        'a synchronization',
      ),

    /** One page of the groups synchronized when `synchronize_groups` is `selected`. */
    groups,
    groupPages: (connectionId: string, query: GroupsQuery) => paginate((from) => groups(connectionId, { ...query, from }), query.from, `list every synchronized group of connection ${connectionId}`),
    /** Replaces the list (PUT), adds to it (POST), removes from it (DELETE): 204 each. */
    setGroups: changeGroups('PUT', 'set'),
    addGroups: changeGroups('POST', 'add to'),
    removeGroups: changeGroups('DELETE', 'remove from'),

    /**
     * Creates the configuration (201). A 409 to a POST that idm had to send again may be its own first
     * attempt, answered with an error after the service had created it: if what exists is what was
     * sent, that is the success (api/retry.ts exchange).
     */
    create: (connectionId: string, body: ProvisioningBody): Promise<ApiRecord> =>
      requestRecord(
        client,
        {
          method: 'POST',
          path: provisioningPath(connectionId),
          body,
          action: `create directory provisioning for connection ${connectionId}`,
          scope: SCOPES.createProvisioning,
          hints: {
            404: CHECK_CONNECTION,
            409: `Provisioning already exists on ${connectionId}: see it with 'idm provisioning show ${connectionId}', change it with 'idm provisioning update ${connectionId}'.`,
          },
          readBack: async () => {
            const existing = await get(connectionId);
            return holdsSettings(existing, body) ? existing : undefined;
          },
        },
        'a provisioning configuration',
      ),

    /** The strategy's default mapping: `{mapping: [...]}`, as received, and its rows. */
    defaultMapping: async (connectionId: string): Promise<{ raw: ApiRecord; rows: MappingRow[] }> => {
      const raw = await requestRecord(
        client,
        {
          method: 'GET',
          path: `${provisioningPath(connectionId)}/default-mapping`,
          action: `read the default mapping of connection ${connectionId}`,
          scope: SCOPES.readProvisioning,
          hints: { 404: CHECK_CONNECTION },
        },
        'a default mapping',
      );
      return { raw, rows: mappingRows(raw.mapping) };
    },
  };
}

export type ProvisioningApi = ReturnType<typeof provisioningApi>;
