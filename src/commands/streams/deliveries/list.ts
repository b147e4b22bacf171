// idm streams deliveries list <stream-id>: the stream's failed deliveries (the only ones the service
// keeps), filtered by status, event type and time, paged like `streams list`.
import { Command, Option } from 'commander';
import type { Deps } from '../../../cli/factory.js';
import { examples } from '../../../cli/help.js';
import { checkEventType, collectList, parseIntegerInRange, parseTime } from '../../../cli/parse.js';
import { shellCommand } from '../../../core/text.js';
import { jsonPages } from '../../../output/json-pages.js';
import { LIMITS } from '../../../schemas/constants.js';
import { ID_SHAPES } from '../../../schemas/ids.js';
import { parseCursor } from '../list.js';
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
    .option('--status <statuses>', 'only deliveries with this status, e.g. failed (repeat, or comma-separate)', collectList('--status', (status) => status))
    .option('--event-type <types>', 'only these event types (repeat, or comma-separate)', collectList('--event-type', checkEventType('--event-type')))
    .option('--since <time>', 'from this time: RFC 3339, or back from now (30m, 6h, 7d)', parseTime('--since'))
    .option('--until <time>', 'up to this time: RFC 3339, or back from now', parseTime('--until'));
}

export function deliveriesListCommand(deps: Deps, run = deliveriesListRun): Command {
  return addDeliveryFilters(
    new Command('list')
      .description("List a stream's failed deliveries (the service keeps no others)")
      .addArgument(STREAM_ID_ARGUMENT()),
  )
    .addOption(new Option('--take <n>', `deliveries per page (${LIMITS.takeMin}-${LIMITS.takeMax}; default ${LIMITS.takeDefault})`).argParser(parseIntegerInRange('--take', LIMITS.takeMin, LIMITS.takeMax)))
    .option('--from <cursor>', 'start at this cursor (the `next` of a previous page)', parseCursor)
    .option('--all', 'follow `next` to the last page')
    .addHelpText(
      'after',
      examples([
        `idm streams deliveries list ${EXAMPLE_ID}`,
        `idm streams deliveries list ${EXAMPLE_ID} --since 6h --event-type user.created`,
        `idm streams deliveries list ${EXAMPLE_ID} --all --json | jq -r '.deliveries[].id'`,
      ]),
    )
    .action((streamId: string, flags: Omit<DeliveriesListOptions, 'streamId' | 'all'> & { all?: boolean }) => run({ ...flags, streamId, all: Boolean(flags.all) }, deps));
}

export async function deliveriesListRun(options: DeliveriesListOptions, deps: Deps): Promise<void> {
  const { streams } = await deps.api();
  const { io, output } = deps;
  const query = {
    statuses: options.status,
    eventTypes: options.eventType,
    dateFrom: options.since,
    dateTo: options.until,
    from: options.from,
    take: options.take ?? (options.all ? LIMITS.takeMax : undefined),
  };
  if (!options.all) {
    const page = await streams.deliveries(options.streamId, query);
    if (output.json) return output.printJson(page.raw);
    await output.printRows(DELIVERY_COLUMNS, page.items as DeliveryRecord[]);
    if (page.items.length === 0 && io.stdoutIsTTY) output.note('No failed deliveries.');
    if (page.next !== undefined && (io.stdoutIsTTY || io.stderrIsTTY)) {
      const { profile } = deps.globals();
      const again = ['idm', 'streams', 'deliveries', 'list', options.streamId, '--from', page.next, '--take', query.take ?? LIMITS.takeDefault];
      for (const [flag, values] of [['--status', options.status], ['--event-type', options.eventType]] as const) if (values?.length) again.push(flag, values.join(','));
      if (options.since) again.push('--since', options.since);
      if (options.until) again.push('--until', options.until);
      if (profile) again.push('--profile', profile);
      output.note(`More deliveries: ${shellCommand(again)}`);
    }
    return;
  }
  const json = output.json ? jsonPages(io, 'deliveries') : undefined;
  const table = output.rows(DELIVERY_COLUMNS);
  let shown = 0;
  for await (const page of streams.deliveryPages(options.streamId, query)) {
    // A bare list (the published shape) has no next page: it is the whole answer, as received.
    if (json && Array.isArray(page.raw)) return output.printJson(page.raw);
    if (json) json.add(page.raw);
    else await table.add(page.items as DeliveryRecord[]);
    shown += page.items.length;
  }
  json?.end();
  if (!json && shown === 0 && io.stdoutIsTTY) output.note('No failed deliveries.');
}
