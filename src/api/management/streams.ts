// The event-stream operations of the management interface (../shared/spec/wire-facts.md): one
// method each, knowing its path, scope, success status and how to read the answer tolerantly.
import { isPlainObject, jsonKind, shellCommand, type CommandLine } from '../../core/text.js';
import { LIMITS, SCOPES } from '../../schemas/constants.js';
import { idProblem } from '../../schemas/ids.js';
import type { ApiClient, Operation } from '../client.js';
import { ApiError, isForbidden, isNotFound } from '../errors.js';
import { pageRequestHint, paginate, readPage, type Page, type PageAsk } from '../paginate.js';
import { apiPath, param } from '../path.js';
import { requestRecord, unlessAbsent, unlessForbidden, type ApiRecord } from './records.js';

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

export interface TestEventBody {
  event_type: string;
  data?: Record<string, unknown>;
}

/** The window of a statistics read (`date_from`, `date_to`); times in the `Z` form without fractions. */
export interface StatsWindow {
  dateFrom?: string;
  dateTo?: string;
}

const streamPath = (id: string) => apiPath`/event-streams/${param(id, 'stream id')}`;
const eventPath = (id: string, eventId: string) => apiPath`/event-streams/${param(id, 'stream id')}/deliveries/${param(eventId, 'event id')}`;
/** The scope of each operation (wire-facts.md): a 403 names it, and so do commands that explain what a token lacks. */
const SCOPE = {
  list: SCOPES.listStreams,
  read: SCOPES.readStream,
  create: SCOPES.createStream,
  update: SCOPES.updateStream,
  delete: SCOPES.deleteStream,
  test: SCOPES.testStream,
  deliveries: SCOPES.readDeliveries,
  redeliver: SCOPES.redeliver,
  stats: SCOPES.streamStats,
} as const;

const joined = (values: string[] | undefined) => (values && values.length > 0 ? values.join(',') : undefined);

/** The filters a deliveries query sent, as their flags (pageRequestHint). */
const filtersSent = (query: DeliveryFilter) => [
  joined(query.statuses) !== undefined && '--status',
  joined(query.eventTypes) !== undefined && '--event-type',
  query.dateFrom !== undefined && '--since',
  query.dateTo !== undefined && '--until',
];

/** A deliveries filter as the flags of `idm streams deliveries list` (the times as sent). */
const filterWords = (filter: DeliveryFilter): string[] =>
  [
    ['--status', joined(filter.statuses)],
    ['--event-type', joined(filter.eventTypes)],
    ['--since', filter.dateFrom],
    ['--until', filter.dateTo],
  ].flatMap(([flag, value]) => (value === undefined ? [] : [flag!, value]));

/** `command` makes the command lines its hints name (Deps.command: with the run's --profile). */
export function streamsApi(client: ApiClient, command: CommandLine = shellCommand) {
  const streamNotFound = { 404: `Run '${command(['idm', 'streams', 'list'])}' to see the stream ids.` };
  // Also what a delivery redelivered with success meets: the service keeps failed deliveries only.
  const deliveryNotFound = (id: string) => ({
    404: `The service keeps failed deliveries only: one delivered since (a redelivery that succeeded) is no longer there. Otherwise check both ids ('${command(['idm', 'streams', 'deliveries', 'list', id])}' lists the failed ones).`,
  });
  /** `forbiddenIsAnswer`: the caller goes on without the list (see Operation). */
  const list = async (query: PageQuery, ask?: PageAsk & Pick<Operation, 'forbiddenIsAnswer'>): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: '/event-streams',
      query: { from: query.from, take: query.take },
      action: 'list event streams',
      scope: SCOPE.list,
      success: 200,
      hints: { 400: pageRequestHint(query) },
      ...ask,
    };
    const { status, body } = await client.request(operation);
    return readPage(client, operation, status, body, 'eventStreams', { maxItems: query.take ?? LIMITS.takeMax });
  };

  const deliveries = async (id: string, query: PageQuery & DeliveryFilter, ask?: PageAsk): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: `${streamPath(id)}/deliveries`,
      query: { statuses: joined(query.statuses), event_types: joined(query.eventTypes), date_from: query.dateFrom, date_to: query.dateTo, from: query.from, take: query.take },
      action: `list the deliveries of stream ${id}`,
      scope: SCOPE.deliveries,
      success: 200,
      hints: { ...streamNotFound, 400: pageRequestHint(query, filtersSent(query)) },
      ...ask,
    };
    const { status, body } = await client.request(operation);
    // The published description says a bare list; the real service wraps it: both are read.
    return readPage(client, operation, status, body, 'deliveries', { bareArray: true, maxItems: query.take ?? LIMITS.takeMax });
  };

  const get = (id: string, forbiddenIsAnswer?: boolean): Promise<ApiRecord> =>
    requestRecord(client, { method: 'GET', path: streamPath(id), action: `read stream ${id}`, scope: SCOPE.read, success: 200, hints: streamNotFound, ...(forbiddenIsAnswer ? { forbiddenIsAnswer } : {}) }, 'a stream');

  const delivery = (id: string, eventId: string): Promise<ApiRecord> =>
    requestRecord(
      client,
      { method: 'GET', path: eventPath(id, eventId), action: `read delivery ${eventId} of stream ${id}`, scope: SCOPE.deliveries, success: 200, hints: deliveryNotFound(id) },
      'a delivery',
    );

  const stats = (id: string, window: StatsWindow, forbiddenIsAnswer?: boolean): Promise<ApiRecord> =>
    requestRecord(
      client,
      {
        method: 'GET',
        path: `${streamPath(id)}/stats`,
        query: { date_from: window.dateFrom, date_to: window.dateTo },
        action: `read the statistics of stream ${id}`,
        scope: SCOPE.stats,
        success: 200,
        hints: { ...streamNotFound, 400: 'Check --since and --until (RFC 3339 times or 30m, 6h, 7d).' },
        ...(forbiddenIsAnswer ? { forbiddenIsAnswer } : {}),
      },
      'statistics',
    );

  const testOperation = (id: string, body: TestEventBody): Operation => ({
    method: 'POST',
    path: `${streamPath(id)}/test`,
    body,
    action: `send a test event to stream ${id}`,
    scope: SCOPE.test,
    success: 202,
    // The body is checked before it is sent: a 400 is most likely the service refusing a disabled
    // stream (the recordings do not show that answer, so the hint does not claim it).
    hints: {
      ...streamNotFound,
      400: `A disabled stream takes no test events: '${command(['idm', 'streams', 'show', id])}' shows its status, and '${command(['idm', 'streams', 'enable', id])}' enables it.`,
    },
    unanswered: `The test event may have been sent all the same ('${command(['idm', 'streams', 'deliveries', 'list', id])}' lists it if its delivery failed); running this again sends another.`,
  });

  return {
    /** The scope each operation needs. */
    scopes: SCOPE,

    /** One page of streams. */
    list,
    /** Every page from `query.from` on. */
    pages: (query: PageQuery) => paginate((from, ask) => list({ ...query, from }, ask), query.from, 'list every event stream'),
    /** pages, for a caller that goes on without them on a 403 (the names a prompt checks): that 403 keeps the cached token. */
    pagesUnlessForbidden: (query: PageQuery) => paginate((from, ask) => list({ ...query, from }, { ...ask, forbiddenIsAnswer: true }), query.from, 'list every event stream'),

    get: (id: string): Promise<ApiRecord> => get(id),
    /** The stream, or undefined when the service says there is none (404). */
    find: (id: string): Promise<ApiRecord | undefined> => unlessAbsent(get(id)),
    /** The stream, or undefined when the client may not read it (403): for a read that only adds to what a command says. */
    getIfReadable: (id: string): Promise<ApiRecord | undefined> => unlessForbidden(get(id, true)),
    /**
     * The stream; undefined when there is none (404); 'unreadable' when the client may not read it
     * (403), which, as for getIfReadable, keeps the cached token: for a read that only adds to what
     * a command asks (streams delete's question).
     */
    findIfReadable: async (id: string): Promise<ApiRecord | undefined | 'unreadable'> => {
      try {
        return await unlessAbsent(get(id, true));
      } catch (error) {
        if (isForbidden(error)) return 'unreadable';
        throw error;
      }
    },

    /**
     * 201 with the stream; the write-only secret goes in and never comes back. `nameFree`: the caller
     * read the tenant's stream names and this one was not among them, so the service's 409 (which
     * says "the limit OR the name", wire-facts.md) most likely means the limit.
     */
    create: (body: Record<string, unknown>, { nameFree = false }: { nameFree?: boolean } = {}): Promise<ApiRecord> =>
      requestRecord(
        client,
        {
          method: 'POST',
          path: '/event-streams',
          body,
          action: 'create an event stream',
          scope: SCOPE.create,
          success: 201,
          hints: {
            409: nameFree
              ? 'The tenant likely has as many streams as its plan allows: delete one you no longer need. (The name was free when idm read the names; if a stream took it since, choose another.)'
              : 'The name is taken, or the tenant has as many streams as its plan allows: choose another --name, or delete a stream you no longer need.',
          },
          unanswered: `The stream may have been created all the same: check with '${command(['idm', 'streams', 'list'])}' before running this again (a second create makes a second stream).`,
        },
        'a stream',
      ),

    /** 200 with the whole stream; `subscriptions`, when sent, replaces the list. */
    update: (id: string, body: Record<string, unknown>): Promise<ApiRecord> =>
      requestRecord(
        client,
        {
          method: 'PATCH',
          path: streamPath(id),
          body,
          action: `change stream ${id}`,
          scope: SCOPE.update,
          success: 200,
          // A name taken is a conflict only a change of name can meet (not enable or disable's).
          hints: { ...streamNotFound, ...(body.name === undefined ? {} : { 409: 'Another stream has that name: choose another --name.' }) },
          unanswered: `The change may have been made all the same: check with '${command(['idm', 'streams', 'show', id])}' before running this again.`,
        },
        'a stream',
      ),

    /** 204, also for a stream that is already gone. */
    delete: async (id: string): Promise<void> => {
      await client.request({ method: 'DELETE', path: streamPath(id), action: `delete stream ${id}`, scope: SCOPE.delete, success: 204, hints: streamNotFound });
    },

    /** Sends a test event (202, a delivery record). Never repeated once it may have reached the service. */
    test: (id: string, body: TestEventBody): Promise<ApiRecord> => requestRecord(client, testOperation(id, body), 'a delivery record'),

    /**
     * Sends a test event as `test` does, for following its delivery: the record must name the event
     * (its `id`, or `event.id`) with a well-formed event id. When it does not, `unfollowable` is the
     * bad answer to report (the event was sent all the same: the record is there to show).
     */
    testToFollow: async (id: string, body: TestEventBody): Promise<{ record: ApiRecord; eventId: string } | { record: ApiRecord; unfollowable: ApiError }> => {
      const operation = testOperation(id, body);
      const { status, body: record } = await client.request(operation);
      if (!isPlainObject(record)) throw client.badAnswer(operation, status, `${jsonKind(record)} instead of a delivery record`);
      const eventId = typeof record.id === 'string' ? record.id : isPlainObject(record.event) && typeof record.event.id === 'string' ? record.event.id : undefined;
      if (eventId === undefined || idProblem('event', eventId)) return { record, unfollowable: client.badAnswer(operation, status, 'a delivery record without an event id to follow') };
      return { record, eventId };
    },

    /** One page of (failed) deliveries. */
    deliveries,
    deliveryPages: (id: string, query: PageQuery & DeliveryFilter) => paginate((from, ask) => deliveries(id, { ...query, from }, ask), query.from, `list every delivery of stream ${id}`),

    delivery,
    /** The event's delivery record, or undefined while the service has none (404: it keeps failed deliveries only). */
    findDelivery: (id: string, eventId: string): Promise<ApiRecord | undefined> => unlessAbsent(delivery(id, eventId)),

    /** Redelivers one event (202 `{}`). */
    redeliverOne: async (id: string, eventId: string): Promise<ApiRecord | undefined> =>
      (
        await client.request({
          method: 'POST',
          path: apiPath`/event-streams/${param(id, 'stream id')}/redeliver/${param(eventId, 'event id')}`,
          action: `redeliver event ${eventId} of stream ${id}`,
          scope: SCOPE.redeliver,
          success: 202,
          hints: { ...deliveryNotFound(id), 409: `Only a delivery that has failed and is not being retried can be delivered again; see '${command(['idm', 'streams', 'deliveries', 'show', id, eventId])}'.` },
          unanswered: `Event ${eventId} may have been redelivered all the same: check with '${command(['idm', 'streams', 'deliveries', 'show', id, eventId])}' (a retrying attempt) before running this again.`,
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
          scope: SCOPE.redeliver,
          success: 202,
          hints: { ...streamNotFound, 409: 'One or more of the matching deliveries is still in progress; narrow the filter, or wait and run again.' },
          // The list of what the filters chose (times as sent), as the command's own note after a 202 names it.
          unanswered: `The deliveries may have been redelivered all the same: check with '${command(['idm', 'streams', 'deliveries', 'list', id, ...filterWords(filter)])}' (retrying attempts) before running this again.`,
        })
      ).body as ApiRecord | undefined,

    /** Delivery counts of the stream over a window (`{window, buckets, metrics}`). */
    stats: (id: string, window: StatsWindow): Promise<ApiRecord> => stats(id, window),

    /**
     * The statistics, or the error that kept them from being read: a 400 (the window), 403 (the
     * scope) or 404 (the stream), which a caller can say and go on without. Other failures are thrown.
     * The 403 keeps the cached token (as getIfReadable).
     */
    statsIfReadable: async (id: string, window: StatsWindow): Promise<{ stats: ApiRecord } | { unreadable: ApiError }> => {
      try {
        return { stats: await stats(id, window, true) };
      } catch (error) {
        if (isForbidden(error) || isNotFound(error) || (error instanceof ApiError && error.status === 400)) return { unreadable: error };
        throw error;
      }
    },
  };
}

export type StreamsApi = ReturnType<typeof streamsApi>;
