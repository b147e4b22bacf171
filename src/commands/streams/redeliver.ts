// idm streams redeliver <stream-id> [<event-id>]: one event again, or every delivery that matches the
// filters. The service answers 202 and retries in the background; 409 means a delivery is not in a
// state that allows it (still being delivered). With neither, every failed delivery of the stream is
// sent again, old ones too: asked first at a terminal (as delete), --yes without one.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { checkSinceNotFuture, checkTimeWindow, sentTime } from '../../cli/parse.js';
import { utcSeconds } from '../../core/time.js';
import { CancelledError, UsageError } from '../../core/errors.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { addDeliveryFilters, deliveriesListWords } from './deliveries/list.js';
import { EVENT_ID_ARGUMENT } from './deliveries/show.js';
import { STREAM_ID_ARGUMENT } from './show.js';

export interface RedeliverOptions {
  streamId: string;
  eventId?: string;
  status?: string[];
  eventType?: string[];
  since?: string;
  until?: string;
  /** Every failed delivery (no event id, no filter) without asking. */
  yes?: boolean;
}

const S = ID_SHAPES.stream.example;

export function streamsRedeliverCommand(deps: Deps, run = redeliverRun): Command {
  return addDeliveryFilters(
    new Command('redeliver')
      .description('Deliver failed events again: one by its id, every one the filters match, or all (asks first at a terminal; --yes in scripts)')
      .addArgument(STREAM_ID_ARGUMENT())
      .addArgument(EVENT_ID_ARGUMENT(false)),
  )
    .option('-y, --yes', 'with no event id and no filter (or --status failed alone): deliver every failed delivery again without asking')
    .addHelpText(
      'after',
      () => examples([`idm streams redeliver ${S} ${ID_SHAPES.event.example}`, `idm streams redeliver ${S} --status failed --since 1d`, `idm streams redeliver ${S} --event-type user.created --since 2026-11-24T00:00:00Z`, `idm streams redeliver ${S} --yes  # every failed delivery, without asking`]),
    )
    .action((streamId: string, eventId: string | undefined, flags: Omit<RedeliverOptions, 'streamId' | 'eventId'>) => run({ ...flags, streamId, eventId }, deps));
}

export async function redeliverRun(given: RedeliverOptions, deps: Deps, now: () => number = Date.now): Promise<void> {
  const { streamId, eventId } = given;
  // What is sent, said and followed: the times to the second (the order is judged on those given).
  const options = { ...given, since: sentTime(given.since), until: sentTime(given.until, true) };
  const filter = { statuses: options.status, eventTypes: options.eventType, dateFrom: options.since, dateTo: options.until };
  const filtered = Object.values(filter).some((value) => value !== undefined);
  if (eventId !== undefined && filtered) throw new UsageError('Give an event id or filters (--status, --event-type, --since, --until), not both.');
  checkTimeWindow(given.since, given.until);
  checkSinceNotFuture(given.since, utcSeconds(now(), true));
  // Every failed delivery the service keeps, days old too, sent again (a receiver may take an old
  // event after a newer one): asked first, as delete is; --yes where idm cannot ask. A --status that
  // takes failed narrows nothing: the service keeps failed deliveries only.
  const failedOnly = options.status !== undefined && options.status.includes('failed');
  const narrowed = options.eventType !== undefined || options.since !== undefined || options.until !== undefined || (options.status !== undefined && !failedOnly);
  const everything = eventId === undefined && !narrowed && !given.yes;
  const { io } = deps;
  if (everything && !io.canPrompt) {
    throw new UsageError(
      `Delivering every failed delivery of stream ${streamId} again${failedOnly ? ' (--status failed is every one: the service keeps failed deliveries only)' : ''} needs --yes when idm cannot ask (${io.cannotAsk}).`,
      `Run '${deps.command(['idm', 'streams', 'redeliver', streamId, '--yes'])}', or narrow it with --event-type, --since or --until.`,
    );
  }
  const { streams } = await deps.api();
  const { output } = deps;
  if (everything) {
    const prompter = await deps.prompter();
    const question = `Deliver every failed delivery of stream ${streamId} again (--event-type, --since or --until would narrow it)?`;
    if (!(await prompter.confirm(question, { default: false }))) throw new CancelledError('Cancelled: nothing was redelivered.');
  }
  const answer = eventId !== undefined ? await streams.redeliverOne(streamId, eventId) : await streams.redeliver(streamId, filter);
  if (output.json) return output.printJson(answer ?? {});
  const matching = [
    options.status && `status ${options.status.join(',')}`,
    options.eventType && `event type ${options.eventType.join(',')}`,
    options.since && `since ${options.since}`,
    options.until && `until ${options.until}`,
  ]
    .filter(Boolean)
    .join(', ');
  const what =
    eventId !== undefined
      ? `event ${eventId} of stream ${streamId} again`
      : filtered
        ? `the failed deliveries of stream ${streamId} again, those matching ${matching}`
        : `every failed delivery of stream ${streamId} again`;
  output.note(`Asked the service to deliver ${what}; it retries in the background.`);
  // The list to follow is the one the filters chose: the same filters, the times as sent.
  // The service keeps failed deliveries only: once delivered, the event's record is gone, and the
  // command named answers "not found" (said here, so that it reads as the success it is).
  const gone = eventId !== undefined ? ' (once it is delivered, the service keeps no record of it: "not found" then means delivered)' : '';
  output.note(`Follow it with: ${deps.command(eventId !== undefined ? ['idm', 'streams', 'deliveries', 'show', streamId, eventId] : deliveriesListWords(streamId, options))}${gone}`);
}
