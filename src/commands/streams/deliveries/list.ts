// idm streams deliveries list <stream-id>: the stream's failed deliveries (the only ones the service
// keeps), filtered by status, event type and time, paged like `streams list`.
import { Command } from 'commander';
import type { Deps } from '../../../cli/factory.js';
import { examples } from '../../../cli/help.js';
import { addListingOptions, printListing } from '../../../cli/listing.js';
import { checkDeliveryStatus, checkEventType, checkSinceNotFuture, checkTimeWindow, collectList, once, parseTime, sentTime } from '../../../cli/parse.js';
import { utcSeconds } from '../../../core/time.js';
import { ID_SHAPES } from '../../../schemas/ids.js';
import { STREAM_ID_ARGUMENT } from '../show.js';
import { DELIVERY_COLUMNS, type DeliveryRecord } from './format.js';

export interface DeliveriesListOptions {
  streamId: string;
  status?: string[];
  eventType?: string[];
  since?: string;
  until?: string;
  take?: number;
  from?: string;
  all: boolean;
}

const EXAMPLE_ID = ID_SHAPES.stream.example;

/** --status, --event-type, --since, --until: shared with `streams redeliver`. */
export function addDeliveryFilters(command: Command): Command {
  return command
    .option('--status <statuses>', 'only deliveries with this status, e.g. failed (repeat, or comma-separate)', collectList('--status', checkDeliveryStatus('--status')))
    .option('--event-type <types>', 'only these event types (repeat, or comma-separate)', collectList('--event-type', checkEventType('--event-type')))
    .option('--since <time>', 'from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d)', once('--since', parseTime('--since')))
    .option('--until <time>', 'up to this time: RFC 3339, a date, or back from now', once('--until', parseTime('--until', Date.now, true)));
}

/**
 * The words of `idm streams deliveries list` for these filters (the times as sent, absolute): the
 * next page's command, and the one `streams redeliver` names to follow what it asked for.
 */
export function deliveriesListWords(streamId: string, filters: Pick<DeliveriesListOptions, 'status' | 'eventType' | 'since' | 'until'>): Array<string | number> {
  const words: Array<string | number> = ['idm', 'streams', 'deliveries', 'list', streamId];
  if (filters.status?.length) words.push('--status', filters.status.join(','));
  if (filters.eventType?.length) words.push('--event-type', filters.eventType.join(','));
  if (filters.since) words.push('--since', filters.since);
  if (filters.until) words.push('--until', filters.until);
  return words;
}

export function deliveriesListCommand(deps: Deps, run = deliveriesListRun): Command {
  return addListingOptions(
    addDeliveryFilters(new Command('list').description("List a stream's failed deliveries (the service keeps no others)").addArgument(STREAM_ID_ARGUMENT())),
    'deliveries',
  )
    .addHelpText(
      'after',
      () => examples([
        `idm streams deliveries list ${EXAMPLE_ID}`,
        `idm streams deliveries list ${EXAMPLE_ID} --since 6h --event-type user.created`,
        `idm streams deliveries list ${EXAMPLE_ID} --all --json | jq -r '.deliveries[].id'`,
      ]),
    )
    .action((streamId: string, flags: Omit<DeliveriesListOptions, 'streamId' | 'all'> & { all?: boolean }) => run({ ...flags, streamId, all: Boolean(flags.all) }, deps));
}

export async function deliveriesListRun(options: DeliveriesListOptions, deps: Deps, now: () => number = Date.now): Promise<void> {
  checkTimeWindow(options.since, options.until);
  checkSinceNotFuture(options.since, utcSeconds(now(), true));
  const { streams } = await deps.api();
  // The times as sent: to the second (checked above as given).
  const sent = { ...options, since: sentTime(options.since), until: sentTime(options.until, true) };
  const filter = { statuses: options.status, eventTypes: options.eventType, dateFrom: sent.since, dateTo: sent.until };
  // The next page's command repeats the filters.
  const again = deliveriesListWords(options.streamId, sent);
  await printListing<DeliveryRecord>(
    options,
    {
      key: 'deliveries',
      columns: DELIVERY_COLUMNS,
      empty: 'No failed deliveries.',
      more: 'More deliveries',
      again,
      shortPageIsLast: true,
      page: (query) => streams.deliveries(options.streamId, { ...filter, ...query }),
      pages: (query) => streams.deliveryPages(options.streamId, { ...filter, ...query }),
    },
    deps,
  );
}
