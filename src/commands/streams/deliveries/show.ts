// idm streams deliveries show <stream-id> <event-id>: one delivery with every attempt and the event
// envelope (--json for all of it, the event's data included).
import { Argument, Command } from 'commander';
import type { Deps } from '../../../cli/factory.js';
import { examples } from '../../../cli/help.js';
import { parseId } from '../../../cli/parse.js';
import { isPlainObject } from '../../../core/text.js';
import { ID_SHAPES } from '../../../schemas/ids.js';
import { STREAM_ID_ARGUMENT } from '../show.js';
import { ATTEMPT_COLUMNS, attemptsOf, deliveryFields } from './format.js';

export interface DeliveryShowOptions {
  streamId: string;
  eventId: string;
}

export const EVENT_ID_ARGUMENT = (required = true) =>
  new Argument(required ? '<event-id>' : '[event-id]', `the event's id (${ID_SHAPES.event.words})`).argParser(parseId('event'));

export function deliveriesShowCommand(deps: Deps, run = deliveryShowRun): Command {
  return new Command('show')
    .alias('get')
    .description('Show one delivery: every attempt, and the event envelope')
    .addArgument(STREAM_ID_ARGUMENT())
    .addArgument(EVENT_ID_ARGUMENT())
    .addHelpText('after', () => examples([`idm streams deliveries show ${ID_SHAPES.stream.example} ${ID_SHAPES.event.example}`, `idm streams deliveries show ${ID_SHAPES.stream.example} ${ID_SHAPES.event.example} --json | jq .event.data`]))
    .action((streamId: string, eventId: string) => run({ streamId, eventId }, deps));
}

export async function deliveryShowRun(options: DeliveryShowOptions, deps: Deps): Promise<void> {
  const { streams } = await deps.api();
  const delivery = await streams.delivery(options.streamId, options.eventId);
  const { output } = deps;
  if (output.json) return output.printJson(delivery);
  output.printFields(deliveryFields(delivery));
  const attempts = attemptsOf(delivery);
  await output.printRows(ATTEMPT_COLUMNS(attempts), attempts, { label: 'attempt', hideEmptyColumns: true });
  const data = isPlainObject(delivery.event) ? delivery.event.data : undefined;
  if (data !== undefined) output.note(`The event's data: ${deps.command(['idm', 'streams', 'deliveries', 'show', options.streamId, options.eventId, '--json'])} | jq .event.data`);
}
