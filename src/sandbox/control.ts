// Control endpoints on the tenant's port, for scripts and the benchmark that run the sandbox in
// another process. No authentication: the sandbox listens on 127.0.0.1 only. They are neither
// recorded in `requests`, rate limited, nor faulted (so that faults can always be cleared).
import { describeIssues } from '../schemas/index.js';
import { FaultSpecSchema } from './faults.js';
import { allowed, apiError, empty, json, parseJsonBody, type Reply } from './http.js';
import type { Tenant } from './tenant.js';
import type { FaultSpec } from './types.js';

const ENDPOINTS = [
  'GET /sandbox/stats',
  'GET /sandbox/requests',
  'GET /sandbox/inbox',
  'GET /sandbox/deliveries',
  'GET /sandbox/faults',
  'POST /sandbox/faults',
  'DELETE /sandbox/faults',
];

export function stats(tenant: Tenant) {
  return {
    tokensIssued: tenant.tokensIssued,
    streams: tenant.streams.size,
    connections: tenant.connections.size,
    requests: tenant.requests.length,
    inbox: tenant.inbox.records.length,
    deliveries: tenant.deliveries.length,
    faults: tenant.faults.list().length,
  };
}

export function control(tenant: Tenant, method: string, path: string, body: string | undefined, contentType: string | undefined): Reply {
  const route = `${method} ${path.replace(/\/$/, '')}`;
  switch (route) {
    case 'GET /sandbox':
      return json(200, { endpoints: ENDPOINTS });
    case 'GET /sandbox/stats':
      return json(200, stats(tenant));
    case 'GET /sandbox/requests':
      return json(200, tenant.requests);
    case 'GET /sandbox/inbox':
      return json(200, tenant.inbox.records);
    case 'GET /sandbox/deliveries':
      return json(200, tenant.deliveries);
    case 'GET /sandbox/faults':
      return json(200, { faults: tenant.faults.list() });
    case 'DELETE /sandbox/faults':
      tenant.faults.clear();
      return empty(204);
    case 'POST /sandbox/faults': {
      if (body === undefined) return apiError(413, 'Payload Too Large');
      const parsed = parseJsonBody(body, contentType);
      const specs = Array.isArray(parsed) ? parsed : [parsed];
      const checked = specs.map((spec) => FaultSpecSchema.safeParse(spec));
      const bad = checked.find((result) => !result.success);
      if (bad && !bad.success) return apiError(400, `Invalid fault: ${describeIssues(bad.error)}`, 'invalid_body');
      for (const result of checked) if (result.success) tenant.faults.add(result.data as FaultSpec);
      return json(201, { faults: tenant.faults.list() });
    }
    default: {
      // A control path asked with another method: 405 with the methods it takes, as the tenant's routes answer.
      const methods = allowed(['GET /sandbox', ...ENDPOINTS].filter((endpoint) => endpoint.endsWith(` ${route.slice(method.length + 1)}`)).map((endpoint) => endpoint.split(' ')[0]!));
      if (methods.length > 0) return apiError(405, `Method Not Allowed. ${route.slice(method.length + 1)} takes ${methods.join(', ')}`).withHeaders({ Allow: methods.join(', ') });
      return apiError(404, `Not Found. Control endpoints: ${ENDPOINTS.join(', ')}`);
    }
  }
}
