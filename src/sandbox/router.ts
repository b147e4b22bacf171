// The management interface's routes: each with the scope its operation needs (SCOPES, wire-facts.md).
// Order of checks, as on the real service: route, bearer token (401), scope (403), then the handler's
// own path, body and existence checks (400, 404, 409).
import { SCOPES } from '../schemas/constants.js';
import { allowed, apiError, type Reply } from './http.js';
import { listConnections } from './connections.js';
import {
  changeSynchronizedGroups,
  createProvisioning,
  deleteProvisioning,
  getDefaultMapping,
  getProvisioning,
  listProvisionings,
  listSynchronizedGroups,
  synchronize,
  updateProvisioning,
} from './provisioning.js';
import { getDelivery, listDeliveries, redeliverMany, redeliverOne, streamStats } from './deliveries.js';
import { createStream, deleteStream, getStream, listStreams, testStream, updateStream } from './streams.js';
import type { Tenant } from './tenant.js';
import { authorize } from './tokens.js';

export interface ApiContext {
  tenant: Tenant;
  /** Decoded path parameters, in order. */
  params: string[];
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
}

interface Route {
  method: string;
  pattern: RegExp;
  /** Any of these scopes. */
  scope: string | readonly string[];
  handler: (ctx: ApiContext) => Reply | Promise<Reply>;
}

const SEGMENT = '([^/]+)';
const PROVISIONING = `^/connections/${SEGMENT}/directory-provisioning`;

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/event-streams$/, scope: SCOPES.listStreams, handler: listStreams },
  { method: 'POST', pattern: /^\/event-streams$/, scope: SCOPES.createStream, handler: createStream },
  { method: 'GET', pattern: new RegExp(`^/event-streams/${SEGMENT}$`), scope: SCOPES.readStream, handler: getStream },
  { method: 'PATCH', pattern: new RegExp(`^/event-streams/${SEGMENT}$`), scope: SCOPES.updateStream, handler: updateStream },
  { method: 'DELETE', pattern: new RegExp(`^/event-streams/${SEGMENT}$`), scope: SCOPES.deleteStream, handler: deleteStream },
  { method: 'POST', pattern: new RegExp(`^/event-streams/${SEGMENT}/test$`), scope: SCOPES.testStream, handler: testStream },
  { method: 'GET', pattern: new RegExp(`^/event-streams/${SEGMENT}/deliveries$`), scope: [SCOPES.readStream, SCOPES.readDeliveries], handler: listDeliveries },
  { method: 'GET', pattern: new RegExp(`^/event-streams/${SEGMENT}/deliveries/${SEGMENT}$`), scope: SCOPES.readDeliveries, handler: getDelivery },
  { method: 'POST', pattern: new RegExp(`^/event-streams/${SEGMENT}/redeliver$`), scope: SCOPES.redeliver, handler: redeliverMany },
  { method: 'POST', pattern: new RegExp(`^/event-streams/${SEGMENT}/redeliver/${SEGMENT}$`), scope: SCOPES.redeliver, handler: redeliverOne },
  { method: 'GET', pattern: new RegExp(`^/event-streams/${SEGMENT}/stats$`), scope: SCOPES.streamStats, handler: streamStats },
  { method: 'POST', pattern: new RegExp(`${PROVISIONING}$`), scope: SCOPES.createProvisioning, handler: createProvisioning },
  { method: 'GET', pattern: new RegExp(`${PROVISIONING}$`), scope: SCOPES.readProvisioning, handler: getProvisioning },
  { method: 'PATCH', pattern: new RegExp(`${PROVISIONING}$`), scope: SCOPES.updateProvisioning, handler: updateProvisioning },
  { method: 'DELETE', pattern: new RegExp(`${PROVISIONING}$`), scope: SCOPES.deleteProvisioning, handler: deleteProvisioning },
  { method: 'GET', pattern: new RegExp(`${PROVISIONING}/default-mapping$`), scope: SCOPES.readProvisioning, handler: getDefaultMapping },
  { method: 'POST', pattern: new RegExp(`${PROVISIONING}/synchronizations$`), scope: SCOPES.createProvisioning, handler: synchronize },
  { method: 'GET', pattern: new RegExp(`${PROVISIONING}/synchronized-groups$`), scope: SCOPES.readProvisioning, handler: listSynchronizedGroups },
  { method: 'PUT', pattern: new RegExp(`${PROVISIONING}/synchronized-groups$`), scope: SCOPES.updateProvisioning, handler: (ctx) => changeSynchronizedGroups(ctx, 'set') },
  { method: 'POST', pattern: new RegExp(`${PROVISIONING}/synchronized-groups$`), scope: SCOPES.updateProvisioning, handler: (ctx) => changeSynchronizedGroups(ctx, 'add') },
  { method: 'DELETE', pattern: new RegExp(`${PROVISIONING}/synchronized-groups$`), scope: SCOPES.updateProvisioning, handler: (ctx) => changeSynchronizedGroups(ctx, 'remove') },
  { method: 'GET', pattern: /^\/connections-directory-provisionings$/, scope: SCOPES.readProvisioning, handler: listProvisionings },
  { method: 'GET', pattern: /^\/connections$/, scope: SCOPES.listConnections, handler: listConnections },
];

/** Handles a request below /api/v2; `path` is the rest (e.g. `/event-streams`). Throws error Replies. */
export async function routeApi(tenant: Tenant, method: string, path: string, request: Omit<ApiContext, 'tenant' | 'params'>): Promise<Reply> {
  let pathMatched = false;
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    authorize(tenant, request.headers.authorization, route.scope);
    let params: string[];
    try {
      params = match.slice(1).map((segment) => decodeURIComponent(segment));
    } catch {
      throw apiError(400, 'Path validation error: the path is not valid URI encoding', 'invalid_uri');
    }
    return route.handler({ tenant, params, ...request });
  }
  if (pathMatched) {
    const methods = allowed(ROUTES.filter((route) => route.pattern.test(path)).map((route) => route.method));
    throw apiError(405, 'Method Not Allowed').withHeaders({ Allow: methods.join(', ') });
  }
  throw apiError(404, 'Not Found');
}
