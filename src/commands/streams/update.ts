// idm streams update <stream-id>: a PATCH from flags (or --from-file, a PATCH body that flags
// override). `--event-type` replaces the list; --add-event-type / --remove-event-type read it, change
// it and write it whole (the service replaces the list). A webhook's endpoint and authorization are
// sent together, with a new secret (rotation); an event-bus destination cannot be changed.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { checkEventType, collectList } from '../../cli/parse.js';
import { UsageError } from '../../core/errors.js';
import { isPlainObject, shellCommand } from '../../core/text.js';
import type { ApiRecord } from '../../api/management/index.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { readBody } from './create.js';
import { addDestinationOptions, destinationKind, otherDestination, webhookDestination, type DestinationFlags } from './destination.js';
import { eventTypesOf, streamFields } from './format.js';
import { STREAM_ID_ARGUMENT } from './show.js';

export interface UpdateOptions extends DestinationFlags {
  streamId: string;
  name?: string;
  eventType?: string[];
  addEventType?: string[];
  removeEventType?: string[];
  fromFile?: string;
}

const EXAMPLE_ID = ID_SHAPES.stream.example;

export function streamsUpdateCommand(deps: Deps, run = updateRun): Command {
  const command = new Command('update')
    .description("Change a stream's name, event types, webhook (endpoint and secret) or action")
    .addArgument(STREAM_ID_ARGUMENT())
    .option('--name <name>', 'a new name')
    .option('--event-type <types>', 'the event types, replacing the list (repeat, or comma-separate)', collectList('--event-type', checkEventType('--event-type')))
    .option('--add-event-type <types>', 'subscribe to these too', collectList('--add-event-type', checkEventType('--add-event-type')))
    .option('--remove-event-type <types>', 'unsubscribe from these', collectList('--remove-event-type', checkEventType('--remove-event-type')))
    .option('--from-file <path>', 'a PATCH body as JSON, or - for stdin; flags override its fields');
  addDestinationOptions(command, { eventbus: false });
  return command
    .addHelpText(
      'after',
      examples([
        `idm streams update ${EXAMPLE_ID} --name orders-v2`,
        `idm streams update ${EXAMPLE_ID} --add-event-type user.deleted`,
        `idm streams update ${EXAMPLE_ID} --auth bearer --secret-file new-token.txt  # rotate the secret`,
        `idm streams update ${EXAMPLE_ID} --webhook https://hooks.example.com/v2 --auth basic --username idm --secret-file pass.txt`,
      ]),
    )
    .action((streamId: string, flags: Omit<UpdateOptions, 'streamId'>) => run({ streamId, ...flags }, deps));
}

export async function updateRun(options: UpdateOptions, deps: Deps): Promise<void> {
  const { io, output } = deps;
  const { streamId } = options;
  if (options.eventType !== undefined && (options.addEventType !== undefined || options.removeEventType !== undefined)) {
    throw new UsageError('--event-type replaces the list: give it alone, or use --add-event-type / --remove-event-type.');
  }
  const kind = destinationKind(options);
  const body: Record<string, unknown> = options.fromFile === undefined ? {} : await readBody(options.fromFile, deps);
  if (options.name !== undefined) body.name = options.name;
  if (options.eventType !== undefined) body.subscriptions = options.eventType.map((type) => ({ event_type: type }));

  const { streams } = await deps.api();
  // The current stream is needed to change its list or its webhook's secret, and to show what changed.
  const needsCurrent = options.addEventType !== undefined || options.removeEventType !== undefined || (kind === 'webhook' && options.webhook === undefined) || io.stdoutIsTTY;
  let before = needsCurrent ? await streams.get(streamId) : undefined;
  const current = isPlainObject(before?.destination) ? before.destination : {};
  const refuseEventbus = (stream: ApiRecord | undefined) => {
    if (kind === undefined || !isPlainObject(stream?.destination) || stream.destination.type !== 'eventbus') return;
    throw new UsageError(
      `Stream ${streamId} sends events to an event bus, and the service does not let an event-bus destination change.`,
      'Create a new stream with the destination you want (idm streams create), then delete this one.',
    );
  };
  refuseEventbus(before);

  if (options.addEventType !== undefined || options.removeEventType !== undefined) {
    const types = new Set([...eventTypesOf(before!), ...(options.addEventType ?? [])]);
    for (const type of options.removeEventType ?? []) types.delete(type);
    if (types.size === 0) throw new UsageError('That would leave the stream with no event types; a stream needs at least one.');
    body.subscriptions = [...types].map((type) => ({ event_type: type }));
  }
  if (kind === 'webhook') {
    // The service takes the endpoint and its authorization together, and never returns the secret.
    const endpoint = options.webhook ?? (isPlainObject(current.configuration) && current.type === 'webhook' ? String(current.configuration.webhook_endpoint) : undefined);
    if (endpoint === undefined) throw new UsageError(`Stream ${streamId} has no webhook: give --webhook URL with --auth.`);
    const webhook = await webhookDestination(options, deps, endpoint);
    if (!webhook.destination) {
      throw new UsageError(`Missing ${webhook.missing.join(', ')}.`, 'A webhook is changed with its authorization and a secret: the service takes them together and never returns the secret.');
    }
    body.destination = webhook.destination;
  } else if (kind === 'action') {
    body.destination = otherDestination(options).destination;
  }
  if (Object.keys(body).length === 0) throw new UsageError('Nothing to change.', `Run '${shellCommand(['idm', 'streams', 'update', '--help'])}' for what can change.`);

  const { EventStreamUpdateSchema, describeIssues } = await import('../../schemas/requests.js');
  const parsed = EventStreamUpdateSchema.safeParse(body);
  if (!parsed.success) throw new UsageError(`Invalid change: ${describeIssues(parsed.error)}.`);
  // A new destination for a stream not read yet: read it now (after every local check), so that an
  // event-bus stream is refused the same way piped as at a terminal.
  if (kind !== undefined && before === undefined) refuseEventbus((before = await streams.get(streamId)));

  const stream = await streams.update(streamId, parsed.data);
  if (output.json) return output.printJson(stream);
  output.printFields(streamFields(stream));
  if (before) for (const line of changes(before, stream)) output.note(line);
}

/** What differs between two versions of a stream, one line per field (secrets are never returned). */
export function changes(before: ApiRecord, after: ApiRecord): string[] {
  const was = new Map(streamFields(before));
  const lines = streamFields(after)
    .filter(([label, value]) => label !== 'Updated' && was.get(label) !== value)
    .map(([label, value]) => `${label}: ${was.get(label) ?? '(none)'} → ${value}`);
  return lines.length > 0 ? ['Changed:', ...lines.map((line) => `  ${line}`)] : ['Nothing changed in what the service shows (a new secret is never shown).'];
}
