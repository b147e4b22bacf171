// `idm streams test <stream-id>`: sends one test event to a stream and shows the delivery record.
// Every input is checked before anything is sent, and the event is sent exactly once: a failed
// delivery is a result (exit 3), not something to retry.
import { Command, Option } from 'commander';
import type { Deps } from '../../cli/deps.js';
import { IdmError, UsageError } from '../../cli/errors.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { examples, paragraph } from '../../cli/help.js';
import { asText as text, type Column } from '../../output/index.js';
import { didYouMean } from '../../cli/suggest.js';
import { ApiError } from '../../api/types.js';
import { EVENT_TYPES, LIMITS, SCOPES, isEventType, type EventType } from '../../schemas/constants.js';
import { isPlainObject, jsonKind, parseJson, readFileOrStdin } from '../../cli/input.js';

export interface StreamsTestOptions {
  streamId: string;
  eventType?: string;
  /** --data: the payload as JSON text. */
  data?: string;
  /** --data-file: a path, or - for stdin. */
  dataFile?: string;
}

export function streamsTestCommand(deps: Deps, run = streamsTestRun): Command {
  return new Command('test')
    .description('Send a test event to an event stream and show the delivery record')
    .argument('<stream-id>', `the stream's id (${LIMITS.streamIdLength} characters, est_...)`)
    .option('--event-type <type>', 'the event type to send (asks at a terminal when absent); see the list below')
    .addOption(new Option('--data <json>', 'payload of the event: a JSON object').conflicts('dataFile'))
    .option('--data-file <path>', 'read the payload (a JSON object) from a file, or - for stdin')
    .addHelpText(
      'after',
      `${examples([
        'idm streams test est_2mNwzVbDq8sXe4RtY6uJkLp0Aa --event-type user.created',
        `idm streams test est_2mNwzVbDq8sXe4RtY6uJkLp0Aa --event-type user.updated --data '{"object":{"user_id":"u1"}}'`,
        'idm streams test est_2mNwzVbDq8sXe4RtY6uJkLp0Aa --event-type group.created --data-file payload.json --json',
        'idm streams test est_2mNwzVbDq8sXe4RtY6uJkLp0Aa  # asks for the type',
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
  const streamId = options.streamId.trim();
  if (streamId.length !== LIMITS.streamIdLength) {
    throw new UsageError(
      `The stream id must be exactly ${LIMITS.streamIdLength} characters; "${options.streamId}" has ${options.streamId.length}.`,
      "Run 'idm streams list' to see the ids.",
    );
  }
  // Ids are ASCII (est_ and 22 letters or digits): anything else cannot be one (and a lone surrogate
  // could not even be put in a URL).
  if (!/^[\x21-\x7e]+$/.test(streamId)) {
    throw new UsageError(`The stream id "${options.streamId}" has characters no stream id has (spaces, control or non-ASCII characters).`, "Run 'idm streams list' to see the ids.");
  }
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

  const api = await deps.api();
  const path = `/event-streams/${encodeURIComponent(streamId)}`;
  const body = check((options.eventType as EventType | undefined) ?? (await pickEventType(streamId, path, deps)));

  // Sent once: the client never repeats a POST that may have reached the service.
  const { body: record } = await api.request({ method: 'POST', path: `${path}/test`, body, ...describe(`send a test event to stream ${streamId}`, SCOPES.testStream) });
  await printDelivery(record, deps);
}

async function readData(options: StreamsTestOptions, deps: Deps): Promise<Record<string, unknown> | undefined> {
  let value: unknown;
  let source: string;
  if (options.data !== undefined) {
    source = '--data';
    value = parseJson(source, options.data);
  } else if (options.dataFile !== undefined) {
    source = options.dataFile === '-' ? '--data-file - (stdin)' : `--data-file ${options.dataFile}`;
    // At a terminal, idm would wait without a word for JSON typed and ended with Ctrl-D.
    if (options.dataFile === '-' && deps.io.stdinIsTTY) {
      throw new UsageError('--data-file - reads stdin, which is a terminal here.', "Pipe the JSON in, or use --data '{...}' or --data-file <path>.");
    }
    value = parseJson(source, await readFileOrStdin('--data-file', options.dataFile, deps.io));
  } else {
    return undefined;
  }
  if (!isPlainObject(value)) {
    throw new UsageError(`${source} must be a JSON object (the event's data), not ${jsonKind(value)}.`, `For example: --data '{"object":{"user_id":"u1"}}'`);
  }
  return value;
}

/** At a terminal: the stream's subscribed types first, then the rest. */
async function pickEventType(streamId: string, path: string, deps: Deps): Promise<EventType> {
  const api = await deps.api();
  let subscribed: EventType[] = [];
  try {
    const { body } = await api.request<{ subscriptions?: Array<{ event_type?: unknown }> }>({ method: 'GET', path, ...describe(`read stream ${streamId}`, SCOPES.readStream) });
    const types = (Array.isArray(body?.subscriptions) ? body.subscriptions : []).map((s) => String(s?.event_type));
    subscribed = EVENT_TYPES.filter((type) => types.includes(type));
  } catch (error) {
    // Without read:event_streams the list is still useful, just not sorted by subscription.
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    deps.output().note(`Cannot read the stream's subscriptions (${SCOPES.readStream} missing); showing every event type.`);
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

/** How the client names the operation in messages, the scope a 403 is about, and the advice on 404. */
function describe(action: string, scope: string) {
  return { action, scope, hints: { 404: "Run 'idm streams list' to see the stream ids." } };
}

interface Attempt {
  status?: unknown;
  timestamp?: unknown;
  error_message?: unknown;
  duration?: unknown;
}

/** The record as received with --json; otherwise its summary, attempts and envelope. Sets exit 3 on `failed`. */
async function printDelivery(record: unknown, deps: Deps): Promise<void> {
  const output = deps.output();
  if (!isPlainObject(record)) throw new IdmError(`The service answered the test with ${jsonKind(record)} instead of a delivery record.`);
  const status = text(record.status);
  if (status === 'failed') deps.exitCode = ExitCode.DeliveryFailed;
  if (output.json) {
    output.printJson(record);
    return;
  }

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
  await output.printFields(fields);

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
  else {
    output.note(
      `Accepted: delivery is asynchronous${status ? ` (status ${status})` : ''}; the service delivers the event and retries when it fails.`,
    );
  }
}
