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

/** Which deliveries (all optional, combined with AND); times in the `Z` form without fractions. */
export interface DeliveryFilter {
  statuses?: string[];
  eventTypes?: string[];
  dateFrom?: string;
  dateTo?: string;
}

export interface StatsWindow {
  dateFrom?: string;
  dateTo?: string;
}

const streamPath = (id: string) => apiPath`/event-streams/${param(id, 'stream id')}`;
const eventPath = (id: string, eventId: string) => apiPath`/event-streams/${param(id, 'stream id')}/deliveries/${param(eventId, 'event id')}`;
const NOT_FOUND = { 404: "Run 'idm streams list' to see the stream ids." };
const DELIVERY_NOT_FOUND = { 404: 'Check both ids: the service keeps failed deliveries only (see idm streams deliveries list).' };
const joined = (values: string[] | undefined) => (values && values.length > 0 ? values.join(',') : undefined);

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

  const deliveries = async (id: string, query: PageQuery & DeliveryFilter): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: `${streamPath(id)}/deliveries`,
      query: { statuses: joined(query.statuses), event_types: joined(query.eventTypes), date_from: query.dateFrom, date_to: query.dateTo, from: query.from, take: query.take },
      action: `list the deliveries of stream ${id}`,
      scope: SCOPES.readDeliveries,
      hints: { ...NOT_FOUND, 400: query.from ? 'Check --from: it takes the `next` value of a previous page, as printed.' : 'Check the filters (--status, --event-type, --since, --until) and --take.' },
    };
    const { status, body } = await client.request(operation);
    // The published description says a bare list; the real service wraps it: both are read.
    return readPage(client, operation, status, body, 'deliveries', { bareArray: true, maxItems: query.take ?? LIMITS.takeMax });
  };

  return {
    /** One page of streams. */
    list,
    /** Every page from `query.from` on. */
    pages: (query: PageQuery) => paginate((from) => list({ ...query, from }), query.from, 'list every event stream'),

    get: (id: string): Promise<ApiRecord> =>
      requestRecord(client, { method: 'GET', path: streamPath(id), action: `read stream ${id}`, scope: SCOPES.readStream, hints: NOT_FOUND }, 'a stream'),

    /** 201 with the stream; the write-only secret goes in and never comes back. */
    create: (body: Record<string, unknown>): Promise<ApiRecord> =>
      requestRecord(
        client,
        {
          method: 'POST',
          path: '/event-streams',
          body,
          action: 'create an event stream',
          scope: SCOPES.createStream,
          hints: { 409: 'The name is taken, or the tenant has as many streams as its plan allows: choose another --name, or delete a stream you no longer need.' },
        },
        'a stream',
      ),

    /** 200 with the whole stream; `subscriptions`, when sent, replaces the list. */
    update: (id: string, body: Record<string, unknown>): Promise<ApiRecord> =>
      requestRecord(client, { method: 'PATCH', path: streamPath(id), body, action: `change stream ${id}`, scope: SCOPES.updateStream, hints: NOT_FOUND }, 'a stream'),

    /** 204, also for a stream that is already gone. */
    delete: async (id: string): Promise<void> => {
      await client.request({ method: 'DELETE', path: streamPath(id), action: `delete stream ${id}`, scope: SCOPES.deleteStream, hints: NOT_FOUND });
    },

    /** Sends a test event (202, a delivery record). Never repeated once it may have reached the service. */
    test: (id: string, body: { event_type: string; data?: Record<string, unknown> }): Promise<ApiRecord> =>
      requestRecord(
        client,
        { method: 'POST', path: `${streamPath(id)}/test`, body, action: `send a test event to stream ${id}`, scope: SCOPES.testStream, hints: NOT_FOUND },
        'a delivery record',
      ),

    /** One page of (failed) deliveries. */
    deliveries,
    deliveryPages: (id: string, query: PageQuery & DeliveryFilter) => paginate((from) => deliveries(id, { ...query, from }), query.from, `list every delivery of stream ${id}`),

    delivery: (id: string, eventId: string): Promise<ApiRecord> =>
      requestRecord(client, { method: 'GET', path: eventPath(id, eventId), action: `read delivery ${eventId} of stream ${id}`, scope: SCOPES.readDeliveries, hints: DELIVERY_NOT_FOUND }, 'a delivery'),

    /** Redelivers one event (202 `{}`). */
    redeliverOne: async (id: string, eventId: string): Promise<ApiRecord | undefined> =>
      (
        await client.request({
          method: 'POST',
          path: apiPath`/event-streams/${param(id, 'stream id')}/redeliver/${param(eventId, 'event id')}`,
          action: `redeliver event ${eventId} of stream ${id}`,
          scope: SCOPES.redeliver,
          hints: { ...DELIVERY_NOT_FOUND, 409: 'Only a delivery that has failed and is not being retried can be delivered again; see idm streams deliveries show.' },
        })
      ).body as ApiRecord | undefined,

    /** Redelivers every delivery the filter matches (202 `{}`). */
    redeliver: async (id: string, filter: DeliveryFilter): Promise<ApiRecord | undefined> =>
      (
        await client.request({
          method: 'POST',
          path: `${streamPath(id)}/redeliver`,
          body: {
            ...(filter.dateFrom ? { date_from: filter.dateFrom } : {}),
            ...(filter.dateTo ? { date_to: filter.dateTo } : {}),
            ...(filter.statuses?.length ? { statuses: filter.statuses } : {}),
            ...(filter.eventTypes?.length ? { event_types: filter.eventTypes } : {}),
          },
          action: `redeliver the deliveries of stream ${id}`,
          scope: SCOPES.redeliver,
          hints: { ...NOT_FOUND, 409: 'One or more of the matching deliveries is still in progress; narrow the filter, or wait and run again.' },
        })
      ).body as ApiRecord | undefined,

    /** Delivery counts of the stream over a window (`{window, buckets, metrics}`). */
    stats: (id: string, window: StatsWindow): Promise<ApiRecord> =>
      requestRecord(
        client,
        {
          method: 'GET',
          path: `${streamPath(id)}/stats`,
          query: { date_from: window.dateFrom, date_to: window.dateTo },
          action: `read the statistics of stream ${id}`,
          scope: SCOPES.streamStats,
          hints: { ...NOT_FOUND, 400: 'Check --since and --until (RFC 3339 times or 30m, 6h, 7d).' },
        },
        'statistics',
      ),
  };
}

export type StreamsApi = ReturnType<typeof streamsApi>;
