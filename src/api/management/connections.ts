// The tenant's connections (`GET /connections`): the one read idm needs, to offer connections whose
// strategy supports directory provisioning. Checkpoint pagination answers `{connections, next?}`
// when `from` or `take` is sent, and a bare list otherwise: both are read.
import { LIMITS, SCOPES } from '../../schemas/constants.js';
import type { ApiClient, Operation } from '../client.js';
import { pageRequestHint, paginate, readPage, type Page, type PageAsk } from '../paginate.js';

export interface ConnectionsQuery {
  strategy?: string[];
  from?: string;
  take?: number;
}

export function connectionsApi(client: ApiClient) {
  /** `forbiddenIsAnswer`: the caller goes on without the list (see Operation). */
  const list = async (query: ConnectionsQuery, ask?: PageAsk & Pick<Operation, 'forbiddenIsAnswer'>): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: '/connections',
      query: { strategy: query.strategy, from: query.from, take: query.take },
      action: 'list connections',
      scope: SCOPES.listConnections,
      success: 200,
      hints: { 400: pageRequestHint(query, [Boolean(query.strategy?.length) && '--strategy']) },
      ...ask,
    };
    const { status, body } = await client.request(operation);
    return readPage(client, operation, status, body, 'connections', { bareArray: true, maxItems: query.take ?? 100_000 });
  };
  return {
    /** The scope each operation needs. */
    scopes: { list: SCOPES.listConnections } as const,
    list,
    /** Every page; `take` is sent, so that the service pages (without it, it answers everything at once). */
    pages: (query: ConnectionsQuery) => paginate((from, ask) => list({ ...query, take: query.take ?? LIMITS.takeMax, from }, ask), query.from, 'list every connection'),
    /** pages, for a caller that goes on without them on a 403 (the wizard asks for the id): that 403 keeps the cached token. */
    pagesUnlessForbidden: (query: ConnectionsQuery) =>
      paginate((from, ask) => list({ ...query, take: query.take ?? LIMITS.takeMax, from }, { ...ask, forbiddenIsAnswer: true }), query.from, 'list every connection'),
  };
}

export type ConnectionsApi = ReturnType<typeof connectionsApi>;
