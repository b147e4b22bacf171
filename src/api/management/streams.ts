// The event-stream operations of the management interface (../shared/spec/wire-facts.md): one
// method each, knowing its path, scope, success status and how to read the answer tolerantly.
import { LIMITS, SCOPES } from '../../schemas/constants.js';
import type { ApiClient, Operation } from '../client.js';
import { paginate, readPage, type Page } from '../paginate.js';
import { apiPath, param } from '../path.js';
import { requestRecord, type ApiRecord } from './records.js';

export interface PageQuery {
  from?: string;
  take?: number;
}

const streamPath = (id: string) => apiPath`/event-streams/${param(id, 'stream id')}`;
const NOT_FOUND = { 404: "Run 'idm streams list' to see the stream ids." };

export function streamsApi(client: ApiClient) {
  const list = async (query: PageQuery): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: '/event-streams',
      query: { from: query.from, take: query.take },
      action: 'list event streams',
      scope: SCOPES.listStreams,
      hints: { 400: query.from ? 'Check --from: it takes the `next` value of a previous page, as printed.' : 'Check --take (1-100).' },
    };
    const { status, body } = await client.request(operation);
    return readPage(client, operation, status, body, 'eventStreams', { maxItems: query.take ?? LIMITS.takeMax });
  };

  return {
    /** One page of streams. */
    list,
    /** Every page from `query.from` on. */
    pages: (query: PageQuery) => paginate((from) => list({ ...query, from }), query.from, 'list every event stream'),

    get: (id: string): Promise<ApiRecord> =>
      requestRecord(client, { method: 'GET', path: streamPath(id), action: `read stream ${id}`, scope: SCOPES.readStream, hints: NOT_FOUND }, 'a stream'),

    /** Sends a test event (202, a delivery record). Never repeated once it may have reached the service. */
    test: (id: string, body: { event_type: string; data?: Record<string, unknown> }): Promise<ApiRecord> =>
      requestRecord(
        client,
        { method: 'POST', path: `${streamPath(id)}/test`, body, action: `send a test event to stream ${id}`, scope: SCOPES.testStream, hints: NOT_FOUND },
        'a delivery record',
      ),
  };
}

export type StreamsApi = ReturnType<typeof streamsApi>;
