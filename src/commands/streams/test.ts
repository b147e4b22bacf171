// `idm streams test <stream-id>`: sends one test event to a stream and shows the delivery record.
// Every input is checked before anything is sent, and the event is sent exactly once: a failed
// delivery is a result (exit 3), not something to retry.
import { Argument, Command, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples, paragraph } from '../../cli/help.js';
import { notAnEventType, once, parseId } from '../../cli/parse.js';
import { IdmError, InterruptedError, RateLimitError, UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { isPlainObject, jsonKind, plural } from '../../core/text.js';
import { statusLine } from '../../io/progress.js';
import { parsePositiveSeconds } from '../../cli/parse.js';
import { idProblem } from '../../schemas/ids.js';
import { ATTEMPT_COLUMNS, attemptsOf, deliveryFields } from './deliveries/format.js';
import { secondsText, utcSeconds } from '../../core/time.js';
import { countBefore, waitForOutcome, type Outcome } from './wait.js';

const DEFAULT_WAIT_SECONDS = 60;
import { parseJson, readFileOrStdin } from '../../io/input.js';
import { asText as text } from '../../output/index.js';
import type { ApiRecord } from '../../api/management/index.js';
import { EVENT_TYPES, isEventType, type EventType } from '../../schemas/constants.js';
import { ID_SHAPES } from '../../schemas/ids.js';

export interface StreamsTestOptions {
  streamId: string;
  /** Follow the delivery until its outcome is known, for at most waitTimeout seconds. */
  wait?: boolean;
  waitTimeout?: number;
  eventType?: string;
  /** --data: the payload as JSON text. */
  data?: string;
  /** --data-file: a path, or - for stdin. */
  dataFile?: string;
}

const EXAMPLE_ID = ID_SHAPES.stream.example;

export function streamsTestCommand(deps: Deps, run = streamsTestRun): Command {
  return new Command('test')
    .description('Send a test event to an event stream and show the delivery record')
    .addArgument(new Argument('<stream-id>', `the stream's id (${ID_SHAPES.stream.words})`).argParser(parseId('stream')))
    // Values not quoted when given twice: as notAnEventType, anything but an event type may be a token.
    .option('--event-type <type>', 'the event type to send (asks at a terminal when absent); see the list below', once('--event-type', undefined, { secret: true }))
    .addOption(new Option('--data <json>', 'payload of the event: a JSON object').conflicts('dataFile').argParser(once('--data', undefined, { secret: true })))
    .option('--data-file <path>', 'read the payload (a JSON object) from a file, or - for stdin', once('--data-file'))
    .option('--wait', 'follow the delivery until its outcome is known (exit 0 delivered, 3 failed, 6 not known in time)')
    .addOption(new Option('--wait-timeout <seconds>', `how long --wait follows it (default ${DEFAULT_WAIT_SECONDS})`).argParser(once('--wait-timeout', parsePositiveSeconds('--wait-timeout'))))
    .addHelpText(
      'after',
      () => `${examples([
        `idm streams test ${EXAMPLE_ID} --event-type user.created`,
        `idm streams test ${EXAMPLE_ID} --event-type user.updated --data '{"object":{"user_id":"u1"}}'`,
        `idm streams test ${EXAMPLE_ID} --event-type group.created --data-file payload.json --json`,
        `idm streams test ${EXAMPLE_ID} --event-type user.created --wait --wait-timeout 30  # CI: did it arrive?`,
        `idm streams test ${EXAMPLE_ID}  # asks for the type`,
      ])}
Event types:
${paragraph(EVENT_TYPES.join(' '), '  ')}

${paragraph('Exit status: 0 when the event was accepted or delivered, 3 when its delivery failed (the record and its attempts are printed all the same), 6 with --wait when its outcome was still not known when the wait ended, and the usual codes for other errors (see idm --help). The service lists only failed deliveries: --wait counts a delivery as made when the stream\'s statistics, for the window from a minute before the test to a minute after the end of the wait, count more successful deliveries than before the test, and the event still has no failed record when read once more (README: streams test --wait).')}
`,
    )
    .action((streamId: string, flags: Omit<StreamsTestOptions, 'streamId'>) => run({ streamId, ...flags }, deps));
}

/** How far this machine's clock may be from the service's, either way, for --wait's statistics window. */
const CLOCK_ALLOWANCE_MS = 60_000;

/** Checks what was given, asks for the event type when allowed, sends once, prints the record. */
export async function streamsTestRun(options: StreamsTestOptions, deps: Deps): Promise<void> {
  const { streamId } = options;
  if (options.eventType !== undefined && !isEventType(options.eventType)) {
    throw new UsageError(notAnEventType('--event-type', options.eventType), "Run 'idm streams test --help' for the list.");
  }
  const data = await readData(options, deps);
  if (options.eventType === undefined && !deps.io.canPrompt) {
    throw new UsageError('Missing --event-type.', `idm cannot ask here (${deps.io.cannotAsk}): pass --event-type TYPE; run 'idm streams test --help' for the list.`);
  }

  // The shared schema has the last word on a body with --data, before anything is sent. A body of
  // the event type alone is the schema's by construction (isEventType checks the list the schema
  // holds, the prompt offers only that list): it does not load the schemas, about 3 ms of a run.
  const schemas = data === undefined ? undefined : await import('../../schemas/requests.js');
  const check = (type: EventType) => {
    if (!schemas) return { event_type: type };
    const parsed = schemas.testEventRequestSchema().safeParse({ event_type: type, data });
    if (!parsed.success) throw new UsageError(`Invalid test event: ${schemas.describeIssues(parsed.error)}.`);
    // The payload as given: the schema's copy of a record drops a `__proto__` key (an assignment
    // there sets the copy's prototype), and the event would carry less than the file said.
    return { event_type: parsed.data.event_type, data };
  };
  if (options.eventType !== undefined) check(options.eventType as EventType);

  if (options.waitTimeout !== undefined && !options.wait) throw new UsageError('--wait-timeout goes with --wait.');
  const api = await deps.api();
  const body = check((options.eventType as EventType | undefined) ?? (await pickEventType(streamId, deps)));
  // Sent once: the client never repeats a POST that may have reached the service.
  if (!options.wait) return printDelivery(await api.streams.test(streamId, body), streamId, deps);

  const { output } = deps;
  const timeoutMs = (options.waitTimeout ?? DEFAULT_WAIT_SECONDS) * 1000;
  // --wait's evidence of a success: the stream's successful deliveries in one window, from a minute
  // before the test to a minute after the end of the wait, counted now and then while waiting
  // (README). The minute each side is for the clocks: this machine's is not the service's, and one
  // ahead of it put the delivery, which the service times by its own, before the window's start.
  const sentAt = Date.now();
  const window = { dateFrom: utcSeconds(sentAt - CLOCK_ALLOWANCE_MS), dateTo: utcSeconds(sentAt + timeoutMs + CLOCK_ALLOWANCE_MS, true) };
  const note = (line: string) => output.note(line);
  const baseline = await countBefore(api, streamId, window, note);
  const sent = await api.streams.testToFollow(streamId, body);
  const { record } = sent;
  // Which event is followed; its status is what the wait finds out (printed at the end).
  if (!output.json) output.printFields(deliveryFields(record).filter(([label]) => label !== 'Status'));
  if ('unfollowable' in sent) throw sent.unfollowable;
  const { eventId } = sent;
  const status = statusLine(deps.io);
  let outcome: Outcome;
  try {
    outcome = await waitForOutcome({ api, sent: record, streamId, eventId, baseline, timeoutMs, signal: deps.io.signal, status, note });
  } catch (error) {
    // Stopped while waiting (Ctrl-C): the event was sent all the same, and goes on; say where to see how it went.
    const stop = deps.io.signal.reason;
    if (deps.io.signal.aborted && stop instanceof InterruptedError) stop.hint ??= `The test event was sent; see how it went with '${followUp(streamId, eventId, false, deps).seeIt}'.`;
    // A read that failed while following (a rate limit, a 5xx, the network): the event was sent all
    // the same, so the read's own "run again" would send another. Say where to see it instead, after
    // a rate limit's reset, keeping the fix of a refused read (the scope it lacks).
    else if (error instanceof IdmError && !(error instanceof InterruptedError)) {
      const after = error instanceof RateLimitError && error.resetAt ? ` after ${utcSeconds(error.resetAt.getTime(), true)}` : '';
      const fix = error.exitCode === ExitCode.Auth && error.hint ? `${error.hint} ` : '';
      error.hint = `${fix}The test event was sent: see how it went with '${followUp(streamId, eventId, false, deps).seeIt}'${after}; running this again sends another.`;
    }
    throw error;
  } finally {
    status.clear();
  }
  await printOutcome(outcome, record, { streamId, eventId, timeoutMs }, deps);
}

/** The commands that follow a test event: see its delivery, and (`again`) send it again. */
interface FollowUp {
  seeIt: string;
  again?: string;
}

function followUp(streamId: string, eventId: string, again: boolean, deps: Deps): FollowUp {
  const seeIt = deps.command(['idm', 'streams', 'deliveries', 'show', streamId, eventId]);
  return again ? { seeIt, again: deps.command(['idm', 'streams', 'redeliver', streamId, eventId]) } : { seeIt };
}

/**
 * A test delivery that failed (exit 3) or whose outcome is not known (exit 6): the run ends with it
 * once the record is printed (main: the error object with --json); its hint names the follow-up.
 */
function deliveryFailure(kind: 'failed' | 'unknown', message: string, next: FollowUp | undefined): IdmError {
  return new IdmError(message, {
    exitCode: kind === 'failed' ? ExitCode.DeliveryFailed : ExitCode.DeliveryUnknown,
    code: kind === 'failed' ? 'delivery_failed' : 'delivery_unknown',
    hint: next && `See it with '${next.seeIt}'${next.again ? `; send it again with '${next.again}'` : ''}.`,
  });
}

/** For people: the follow-up, a command a line. */
function noteFollowUp(next: FollowUp | undefined, deps: Deps): void {
  if (next) deps.output.note(`See it: ${next.seeIt}`);
  if (next?.again) deps.output.note(`Send it again: ${next.again}`);
}

/** The end of `--wait`: the outcome, the attempts known, the exit code, and what to do next. */
async function printOutcome(outcome: Outcome, sent: ApiRecord, what: { streamId: string; eventId: string; timeoutMs: number }, deps: Deps): Promise<void> {
  const { output } = deps;
  const attempts = outcome.record ? attemptsOf(outcome.record) : [];
  // Not known: while the service may still retry it, sending it again is not the next step.
  const next = followUp(what.streamId, what.eventId, outcome.kind === 'failed', deps);
  if (outcome.kind === 'failed') {
    deps.failure = deliveryFailure('failed', `Delivery failed after ${plural(attempts.length, 'attempt')}; the service will not retry it.`, next);
  } else if (outcome.kind === 'unknown') {
    const tried = outcome.record ? ` It has failed ${plural(attempts.length, 'time')} so far; the service may still retry it.` : '';
    const unseen = outcome.statistics ? '' : " (The stream's statistics could not be read, so a success could not be seen.)";
    deps.failure = deliveryFailure('unknown', `Not known after ${secondsText(what.timeoutMs)} whether the event was delivered.${tried}${unseen}`, next);
  }
  if (output.json) return output.printJson(outcome.record ?? sent);
  output.printFields([['Outcome', outcome.kind === 'unknown' ? 'not known yet' : outcome.kind]]);
  if (outcome.kind !== 'delivered' && attempts.length > 0) await output.printRows(ATTEMPT_COLUMNS(attempts), attempts, { label: 'attempt', hideEmptyColumns: true });
  if (outcome.kind === 'delivered') {
    output.say([['green', outcome.evidence === 'record' ? 'Delivered.' : "Delivered: the stream's statistics count one more successful delivery, and the event has no failed record."]]);
    return;
  }
  output.say([[outcome.kind === 'failed' ? ['bold', 'red'] : 'bold', deps.failure!.message]]);
  noteFollowUp(next, deps);
}

async function readData(options: StreamsTestOptions, deps: Deps): Promise<Record<string, unknown> | undefined> {
  let value: unknown;
  let source: string;
  if (options.data !== undefined) {
    source = '--data';
    value = parseJson(source, options.data);
  } else if (options.dataFile !== undefined) {
    source = options.dataFile === '-' ? '--data-file - (stdin)' : `--data-file ${options.dataFile}`;
    value = parseJson(source, await readFileOrStdin('--data-file', options.dataFile, deps.io, 'json', { hint: "Pipe the JSON in, or use --data '{…}' or --data-file <path>." }));
  } else {
    return undefined;
  }
  if (!isPlainObject(value)) {
    throw new UsageError(`${source} must be a JSON object (the event's data), not ${jsonKind(value)}.`, `For example: --data '{"object":{"user_id":"u1"}}'`);
  }
  return value;
}

/** At a terminal: the stream's subscribed types first, then the rest. */
async function pickEventType(streamId: string, deps: Deps): Promise<EventType> {
  const { streams } = await deps.api();
  let subscribed: EventType[] = [];
  // Without read:event_streams the list is still useful, just not sorted by subscription (that 403
  // keeps the cached token: getIfReadable).
  const stream = await streams.getIfReadable(streamId);
  if (stream === undefined) {
    deps.output.note(`Cannot read the stream's subscriptions (${streams.scopes.read} missing); showing every event type.`);
  } else {
    // A disabled stream takes no test event (the service answers 400): said before the question, not after it.
    if (stream.status === 'disabled') {
      throw new IdmError(`Stream ${streamId} is disabled, and a disabled stream takes no test events: nothing was sent.`, { code: 'stream_disabled', hint: `Enable it first with '${deps.command(['idm', 'streams', 'enable', streamId])}'.` });
    }
    const types = (Array.isArray(stream.subscriptions) ? stream.subscriptions : []).map((s) => String((s as { event_type?: unknown })?.event_type));
    subscribed = EVENT_TYPES.filter((type) => types.includes(type));
  }
  const rest = EVENT_TYPES.filter((type) => !subscribed.includes(type));
  const prompter = await deps.prompter();
  return prompter.select<EventType>(
    'Event type to send',
    [
      ...subscribed.map((type) => ({ value: type, name: type, description: 'the stream subscribes to it' })),
      ...(subscribed.length > 0 && rest.length > 0 ? [{ separator: '── not subscribed ──' }] : []),
      ...rest.map((type) => ({ value: type, name: type })),
    ],
    { pageSize: 12 },
  );
}

/**
 * The record as received with --json; otherwise its summary, attempts and envelope. Ends the run
 * with exit 3 on `failed`. `summary`: the closing words (not with --wait, which says what followed).
 */
async function printDelivery(record: ApiRecord, streamId: string, deps: Deps, options: { summary?: boolean } = {}): Promise<void> {
  const { output } = deps;
  const status = text(record.status);
  const attempts = attemptsOf(record);
  // Commands only for an event id of the right shape: the answer is not trusted to hold one. The
  // stream is the one the test went to, never the answer's event_stream_id: a server's word there
  // (`--profile=prod`) would be an option of the command printed, or another stream.
  const eventId = text(record.id);
  const next = idProblem('event', eventId) ? undefined : followUp(streamId, eventId, true, deps);
  if (status === 'failed') deps.failure = deliveryFailure('failed', `Delivery failed after ${plural(attempts.length, 'attempt')}.`, next);
  if (output.json) return output.printJson(record);

  output.printFields(deliveryFields(record));
  const columns = ATTEMPT_COLUMNS(attempts);
  await output.printRows(columns, attempts, { label: 'attempt', hideEmptyColumns: true });
  if (options.summary === false) return;
  if (status === 'failed') {
    output.say([[['bold', 'red'], deps.failure!.message]]);
    noteFollowUp(next, deps);
  } else if (status === 'success') output.say([['green', 'Delivered.']]);
  else {
    // Not "Follow it with --wait": run again, that sends another test event. This one's failure, if
    // any, is a record to read.
    output.note(`Accepted: delivery is asynchronous${status ? ` (status ${status})` : ''}; the service delivers the event and retries when it fails (--wait follows a test to its outcome).`);
    if (next) output.note(`If it fails: ${next.seeIt}`);
  }
}
