// The directory-provisioning operations of the management interface (../shared/spec/wire-facts.md):
// one method each, knowing its path, scope, success status and how to read the answer tolerantly.
import { isPlainObject } from '../../core/text.js';
import { SCOPES } from '../../schemas/constants.js';
import type { ApiClient } from '../client.js';
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

  return {
    get,

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
            409:
              `Provisioning already exists on ${connectionId}; idm cannot change it yet. Read it with GET /api/v2${provisioningPath(connectionId)}, change it with PATCH ` +
              `on the same path (scopes ${SCOPES.readProvisioning}, ${SCOPES.updateProvisioning}), or use the tenant's dashboard.`,
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
