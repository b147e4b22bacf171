// `idm streams test <stream-id>`: sends one test event to a stream and shows the delivery record.
// Every input is checked before anything is sent, and the event is sent exactly once: a failed
// delivery is a result (exit 3), not something to retry.
import { Argument, Command, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples, paragraph } from '../../cli/help.js';
import { parseId } from '../../cli/parse.js';
import { didYouMean } from '../../cli/suggest.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { isPlainObject, jsonKind } from '../../core/text.js';
import { parseJson, readFileOrStdin } from '../../io/input.js';
import { asText as text, type Column } from '../../output/index.js';
import type { ApiRecord } from '../../api/management/index.js';
import { EVENT_TYPES, SCOPES, isEventType, type EventType } from '../../schemas/constants.js';
import { ID_SHAPES } from '../../schemas/ids.js';

export interface StreamsTestOptions {
  streamId: string;
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
    .option('--event-type <type>', 'the event type to send (asks at a terminal when absent); see the list below')
    .addOption(new Option('--data <json>', 'payload of the event: a JSON object').conflicts('dataFile'))
    .option('--data-file <path>', 'read the payload (a JSON object) from a file, or - for stdin')
    .addHelpText(
      'after',
      `${examples([
        `idm streams test ${EXAMPLE_ID} --event-type user.created`,
        `idm streams test ${EXAMPLE_ID} --event-type user.updated --data '{"object":{"user_id":"u1"}}'`,
        `idm streams test ${EXAMPLE_ID} --event-type group.created --data-file payload.json --json`,
        `idm streams test ${EXAMPLE_ID}  # asks for the type`,
      ])}
Event types:
${paragraph(EVENT_TYPES.join(' '), '  ')}

${paragraph('Exit status: 0 when the event was accepted or delivered, 3 when its delivery failed (the record and its attempts are printed all the same), and the usual codes for other errors (see idm --help).')}
`,
    )
    .action((streamId: string, flags: Omit<StreamsTestOptions, 'streamId'>) => run({ streamId, ...flags }, deps));
}

/** Checks what was given, asks for the event type when allowed, sends once, prints the record. */
export async function streamsTestRun(options: StreamsTestOptions, deps: Deps): Promise<void> {
  const { streamId } = options;
  if (options.eventType !== undefined && !isEventType(options.eventType)) {
    throw new UsageError(
      `--event-type "${options.eventType}" is not an event type.${didYouMean(options.eventType, EVENT_TYPES)}`,
      "Run 'idm streams test --help' for the list.",
    );
  }
  const data = await readData(options, deps);
  if (options.eventType === undefined && !deps.io.canPrompt) {
    throw new UsageError('Missing --event-type.', "Pass --event-type TYPE; run 'idm streams test --help' for the list.");
  }

  // The shared schema has the last word on the body, before anything is sent.
  const { TestEventRequestSchema, describeIssues } = await import('../../schemas/index.js');
  const check = (type: EventType) => {
    const parsed = TestEventRequestSchema.safeParse({ event_type: type, ...(data === undefined ? {} : { data }) });
    if (!parsed.success) throw new UsageError(`Invalid test event: ${describeIssues(parsed.error)}.`);
    return parsed.data;
  };
  if (options.eventType !== undefined) check(options.eventType as EventType);

  const { streams } = await deps.api();
  const body = check((options.eventType as EventType | undefined) ?? (await pickEventType(streamId, deps)));
  // Sent once: the client never repeats a POST that may have reached the service.
  await printDelivery(await streams.test(streamId, body), deps);
}

async function readData(options: StreamsTestOptions, deps: Deps): Promise<Record<string, unknown> | undefined> {
  let value: unknown;
  let source: string;
  if (options.data !== undefined) {
    source = '--data';
    value = parseJson(source, options.data);
  } else if (options.dataFile !== undefined) {
    source = options.dataFile === '-' ? '--data-file - (stdin)' : `--data-file ${options.dataFile}`;
    value = parseJson(source, await readFileOrStdin('--data-file', options.dataFile, deps.io, { hint: "Pipe the JSON in, or use --data '{...}' or --data-file <path>." }));
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
  try {
    const stream = await streams.get(streamId);
    const types = (Array.isArray(stream.subscriptions) ? stream.subscriptions : []).map((s) => String((s as { event_type?: unknown })?.event_type));
    subscribed = EVENT_TYPES.filter((type) => types.includes(type));
  } catch (error) {
    // Without read:event_streams the list is still useful, just not sorted by subscription.
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    deps.output.note(`Cannot read the stream's subscriptions (${SCOPES.readStream} missing); showing every event type.`);
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

interface Attempt {
  status?: unknown;
  timestamp?: unknown;
  error_message?: unknown;
  duration?: unknown;
}

/** The record as received with --json; otherwise its summary, attempts and envelope. Sets exit 3 on `failed`. */
async function printDelivery(record: ApiRecord, deps: Deps): Promise<void> {
  const { output } = deps;
  const status = text(record.status);
  if (status === 'failed') deps.exitCode = ExitCode.DeliveryFailed;
  if (output.json) return output.printJson(record);

  const fields: Array<[string, string]> = [
    ['Delivery', text(record.id)],
    ['Stream', text(record.event_stream_id)],
    ['Event type', text(record.event_type)],
    ['Status', status],
  ];
  const event = isPlainObject(record.event) ? record.event : undefined;
  if (event) {
    fields.push(['Event id', text(event.id)], ['Event source', text(event.source)], ['Event time', text(event.time)]);
    if (text(event.type) !== text(record.event_type)) fields.push(['Event envelope type', text(event.type)]);
  }
  output.printFields(fields);

  const attempts = (Array.isArray(record.attempts) ? record.attempts : []).filter(isPlainObject) as Attempt[];
  const columns: Array<Column<Attempt>> = [
    { header: 'Status', value: (a) => text(a.status) },
    { header: 'Time', value: (a) => text(a.timestamp) },
    { header: 'Error', value: (a) => text(a.error_message), shrink: 'first' },
    ...(attempts.some((a) => a.duration !== undefined)
      ? [{ header: 'Duration', value: (a: Attempt) => (typeof a.duration === 'number' ? `${a.duration}s` : text(a.duration)) }]
      : []),
  ];
  await output.printRows(columns, attempts, { label: 'attempt', hideEmptyColumns: true });
  if (status === 'failed') output.note(`Delivery failed after ${attempts.length} attempt${attempts.length === 1 ? '' : 's'}.`);
  else if (status === 'success') output.note('Delivered.');
  else output.note(`Accepted: delivery is asynchronous${status ? ` (status ${status})` : ''}; the service delivers the event and retries when it fails.`);
}
