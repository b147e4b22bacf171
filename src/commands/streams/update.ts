// idm streams update <stream-id>: a PATCH from flags (or --from-file, a PATCH body that flags
// override). `--event-type` replaces the list; --add-event-type / --remove-event-type read it, change
// it and write it whole (the service replaces the list). A webhook's endpoint and authorization are
// sent together, with a new secret (rotation); an event-bus destination cannot be changed.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { checkEventType, checkText, collectList, notAnEventType, once } from '../../cli/parse.js';
import { UsageError } from '../../core/errors.js';
import { andList, isPlainObject, shellCommand, type CommandLine } from '../../core/text.js';
import type { ApiRecord } from '../../api/management/index.js';
import { isEventType } from '../../schemas/constants.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { checkStreamBody, checkWebhookAuthorization, readBody } from './body.js';
import { actionDestination, addDestinationOptions, destinationKind, missingWebhookFlags, refuseStdinTwice, secretNameOf, webhookAuthorization, webhookDestination, webhookUrlProblem, type DestinationFlags } from './destination.js';
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

/** The flags that change something: without any, a terminal asks what to change. */
const CHANGE_FLAGS = ['name', 'eventType', 'addEventType', 'removeEventType', 'fromFile', 'webhook', 'auth', 'username', 'headerKey', 'secretFile', 'action'] as const;
const NAME_A_CHANGE = 'give --name, --event-type (or --add-event-type, --remove-event-type), --webhook with --auth, --auth (a new secret), --action or --from-file';

export function streamsUpdateCommand(deps: Deps, run = updateRun): Command {
  const command = new Command('update')
    .description("Change a stream's name, event types, webhook (endpoint and secret) or action")
    .addArgument(STREAM_ID_ARGUMENT())
    .option('--name <name>', 'a new name', once('--name', checkText('--name')))
    .option('--event-type <types>', 'the event types, replacing the list (repeat, or comma-separate)', collectList('--event-type', checkEventType('--event-type')))
    .option('--add-event-type <types>', 'subscribe to these too', collectList('--add-event-type', checkEventType('--add-event-type')))
    .option('--remove-event-type <types>', 'unsubscribe from these', collectList('--remove-event-type'))
    .option('--from-file <path>', 'a PATCH body as JSON, or - for stdin; flags override its fields', once('--from-file'));
  addDestinationOptions(command, { eventbus: false });
  return command
    .addHelpText(
      'after',
      () => examples([
        `idm streams update ${EXAMPLE_ID}  # at a terminal: asks what to change`,
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
  refuseStdinTwice(options);
  if (CHANGE_FLAGS.every((flag) => options[flag] === undefined)) {
    if (!io.canPrompt) throw new UsageError('Nothing to change.', `idm cannot ask here (${io.cannotAsk}): ${NAME_A_CHANGE}.`);
    // At a terminal, what to change is asked, the stream's own values as the defaults; the answers
    // run as the flags they stand for.
    const stream = await (await deps.api()).streams.get(streamId);
    const { askStreamChanges } = await import('./update-wizard.js');
    const flags = await askStreamChanges(streamId, stream, deps);
    if (flags === undefined) {
      // As when an --add-event-type changes nothing: the stream as it is (read above), so that
      // --json always prints a stream.
      output.note('Nothing changed: nothing was sent.');
      if (output.json) return output.printJson(stream);
      return output.printFields(streamFields(stream));
    }
    return updateRun({ streamId, ...flags }, deps);
  }
  if (options.eventType !== undefined && (options.addEventType !== undefined || options.removeEventType !== undefined)) {
    throw new UsageError('--event-type replaces the list: give it alone, or use --add-event-type / --remove-event-type.');
  }
  // A type both added and removed: which one was meant cannot be told (it was silently removed).
  const both = (options.addEventType ?? []).filter((type) => options.removeEventType?.includes(type));
  if (both.length > 0) throw new UsageError(`${both.join(', ')} ${both.length === 1 ? 'is' : 'are'} given to both --add-event-type and --remove-event-type: nothing sent.`, 'Give each event type to one of them.');
  const kind = destinationKind(options, 'update');
  if (kind === 'webhook') {
    // The endpoint may be the stream's own (a secret rotated); the rest is refused before any request.
    const missing = missingWebhookFlags(options, io, { endpoint: false });
    if (missing.length > 0 && !io.canPrompt) {
      throw new UsageError(
        `Missing ${missing.join(', ')}.`,
        `idm cannot ask here (${io.cannotAsk}). A webhook is changed with its authorization and a secret: the service takes them together and never returns the secret.`,
      );
    }
  }
  const file = options.fromFile === undefined ? {} : await readBody(options.fromFile, deps);
  // As --event-type: a file's subscriptions replace the list, which the list flags would read from
  // the stream and write back whole, dropping the file's.
  if (file.subscriptions !== undefined && (options.addEventType !== undefined || options.removeEventType !== undefined)) {
    throw new UsageError('The --from-file body sets subscriptions, which replaces the list: give it alone, or use --add-event-type / --remove-event-type without it.');
  }
  // --auth without --webhook keeps the stream's endpoint: a file's destination (its endpoint) would
  // be dropped for it without a word.
  if (file.destination !== undefined && kind === 'webhook' && options.webhook === undefined) {
    throw new UsageError("The --from-file body sets destination, and --auth without --webhook changes the stream's own endpoint.", 'Give --webhook URL with --auth, or leave the flags out and put the whole destination in the file.');
  }
  const body: Record<string, unknown> = { ...file };
  if (isPlainObject(body.destination) && body.destination.type === 'eventbus') throw eventbusUnchangeable('The service does not let a change set an event-bus destination (its change body takes a webhook or an action).', deps.command);
  if (options.name !== undefined) body.name = options.name;
  if (options.eventType !== undefined) body.subscriptions = options.eventType.map((type) => ({ event_type: type }));
  if (kind === 'action') body.destination = actionDestination(options.action!);
  // At a terminal, what the flags lack of a webhook is asked only of a stream that can take it: the
  // stream is read first (after every local check of the rest), so that no secret is typed for an
  // event bus, or for a stream without a webhook when --webhook is not given, only to be refused.
  const asks = kind === 'webhook' && io.canPrompt && missingWebhookFlags(options, io, { endpoint: false }).length > 0;
  let read: ApiRecord | undefined;
  if (asks) {
    await checkStreamBody('update', body, file);
    read = await (await deps.api()).streams.get(streamId);
    refuseWebhook(read, streamId, options.webhook !== undefined, deps.command);
  }
  // Read (or asked) before any request that changes anything: a secret file that cannot be read sends nothing.
  const wasAuthorization = isPlainObject(read?.destination) && isPlainObject(read.destination.configuration) ? read.destination.configuration.webhook_authorization : undefined;
  const authorization = kind === 'webhook' ? await webhookAuthorization(options, deps, wasAuthorization) : undefined;
  if (authorization && options.webhook !== undefined) body.destination = webhookDestination(options.webhook, authorization);
  const changesList = options.addEventType !== undefined || options.removeEventType !== undefined;
  if (Object.keys(body).length === 0 && !changesList && !authorization) throw new UsageError('Nothing to change.', `Run '${shellCommand(['idm', 'streams', 'update', '--help'])}' for what can change.`);

  // Every local check before any request: the authorization too, when it is sent with the stream's
  // current endpoint (read below).
  await checkStreamBody('update', body, file);
  if (authorization && options.webhook === undefined) await checkWebhookAuthorization(authorization);

  // The current stream: to change its list, to keep its endpoint, to refuse a new destination for an
  // event bus (the same piped as at a terminal), and at a terminal to show what changed (a read the
  // change does not need: a client that may not read streams changes it all the same, without the summary).
  const changesDestination = authorization !== undefined || body.destination !== undefined;
  const { streams } = await deps.api();
  // Otherwise it is read to send nothing when nothing would change (piped too), as an
  // --add-event-type of a type it has: a client that may not read it sends the change unchecked.
  const before = read ?? (changesList || changesDestination ? await streams.get(streamId) : await streams.getIfReadable(streamId));
  const current = isPlainObject(before?.destination) ? before.destination : {};
  if (changesDestination) refuseWebhook(before!, streamId, true, deps.command);

  if (changesList) {
    const had = eventTypesOf(before!);
    const absent = (options.removeEventType ?? []).filter((type) => !had.includes(type));
    // A type idm does not list is removed when the stream has it (set by another tool, or newer than
    // idm's list): checked against the stream's list, read above, not refused before it.
    const unknown = absent.find((type) => !isEventType(type));
    if (unknown !== undefined) throw new UsageError(notAnEventType('--remove-event-type', unknown), `Stream ${streamId} subscribes to: ${had.join(', ') || '(none)'}.`);
    if (absent.length > 0) throw new UsageError(`Stream ${streamId} does not subscribe to ${absent.join(', ')}: nothing to remove, nothing sent.`, `Its event types: ${had.join(', ') || '(none)'}.`);
    const types = new Set([...had, ...(options.addEventType ?? [])]);
    for (const type of options.removeEventType ?? []) types.delete(type);
    if (types.size === 0) throw new UsageError('That would leave the stream with no event types; a stream needs at least one.');
    // Adding a type the stream has already changes nothing: not sent (an add is idempotent).
    const unchanged = types.size === had.length && had.every((type) => types.has(type));
    if (!unchanged) body.subscriptions = [...types].map((type) => ({ event_type: type }));
    else if (Object.keys(body).length === 0 && !authorization) {
      output.note(`Stream ${streamId} subscribes to ${options.addEventType!.join(', ')} already: nothing to change, nothing sent.`);
      if (output.json) return output.printJson(before);
      output.printFields(streamFields(before!));
      return;
    }
  }
  // A name, status, list or action the stream has already: nothing sent (a PATCH would only move its
  // updated_at), said, and the stream printed as read. A secret is never known to be the same.
  // (An --add-event-type / --remove-event-type that changed nothing reached here with the list as it is.)
  const same = before && !authorization ? unchangedBy(body, before, changesList ? ['those event types'] : []) : undefined;
  if (same) {
    output.note(`Stream ${streamId} has ${same} already: nothing to change, nothing sent.`);
    if (output.json) return output.printJson(before);
    output.printFields(streamFields(before!));
    return;
  }
  if (authorization && options.webhook === undefined) {
    // The service takes the endpoint and its authorization together, and never returns the secret.
    refuseWebhook(before!, streamId, false, deps.command);
    body.destination = webhookDestination(String((current.configuration as Record<string, unknown>).webhook_endpoint), authorization);
  }

  // What was added since the check above is the stream's own (its event types, its endpoint): the
  // interface's rules only, so that a type the list lacks, set elsewhere, never blocks a change.
  const stream = await streams.update(streamId, await checkStreamBody('update', body, file, { interfaceOnly: true }));
  if (output.json) return output.printJson(stream);
  output.printFields(streamFields(stream));
  // What changed, for people at a terminal (on stderr: stdout stays the record).
  // A new secret is sent with every webhook change, and never shown: said, or the summary would have it kept.
  const secret = authorization ? secretNameOf(authorization.method) : undefined;
  if (before && io.stdoutIsTTY) for (const line of changes(before, stream, secret)) output.note(line);
}

/**
 * When `body` would leave `stream` as it is (each field it sets has that value already; event types
 * as a set, in any order): the words for what it sets, after `alsoAsItIs` (`those event types and that name`). Undefined when it
 * changes something, or sets a field compared here never (a webhook, a field idm does not know).
 */
function unchangedBy(body: Record<string, unknown>, stream: ApiRecord, alsoAsItIs: string[]): string | undefined {
  const words = [...alsoAsItIs];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'name' || key === 'status') {
      if (typeof value !== 'string' || stream[key] !== value) return undefined;
      words.push(`that ${key}`);
    } else if (key === 'subscriptions') {
      if (!Array.isArray(value) || !value.every((entry) => isPlainObject(entry) && Object.keys(entry).length === 1 && typeof entry.event_type === 'string')) return undefined;
      const types = new Set(value.map((entry) => (entry as { event_type: string }).event_type));
      const had = eventTypesOf(stream);
      if (!Array.isArray(stream.subscriptions) || had.length !== types.size || !had.every((type) => types.has(type))) return undefined;
      words.push('those event types');
    } else if (key === 'destination') {
      // An action's id alone, sent as the stream has it (a body with more is sent).
      const now = isPlainObject(stream.destination) ? stream.destination : {};
      const only = (record: unknown, keys: string[]) => isPlainObject(record) && Object.keys(record).every((key) => keys.includes(key));
      const wanted = only(value, ['type', 'configuration']) && (value as ApiRecord).type === 'action' && only((value as ApiRecord).configuration, ['action_id']) ? ((value as ApiRecord).configuration as ApiRecord).action_id : undefined;
      if (typeof wanted !== 'string' || now.type !== 'action' || !isPlainObject(now.configuration) || now.configuration.action_id !== wanted) return undefined;
      words.push('that action');
    } else return undefined;
  }
  if (Object.keys(body).length === 0) return undefined;
  return andList(words);
}

/**
 * Refuses a new destination for `stream` that the service would refuse (an event bus cannot change),
 * and, without `withEndpoint` (--webhook), a new secret for a stream that has no webhook endpoint to
 * keep, or one idm would not send (a user name and password in it).
 */
function refuseWebhook(stream: ApiRecord, streamId: string, withEndpoint: boolean, command: CommandLine): void {
  const type = isPlainObject(stream.destination) ? stream.destination.type : undefined;
  if (type === 'eventbus') throw eventbusUnchangeable(`Stream ${streamId} sends events to an event bus, and the service does not let an event-bus destination change.`, command);
  if (withEndpoint) return;
  const configuration = isPlainObject(stream.destination) ? stream.destination.configuration : undefined;
  if (type !== 'webhook' || !isPlainObject(configuration)) throw new UsageError(`Stream ${streamId} has no webhook: give --webhook URL with --auth.`);
  // The stream's endpoint is sent back with the new secret: only one idm would send itself.
  const problem = webhookUrlProblem(String(configuration.webhook_endpoint));
  if (problem) throw new UsageError(`The webhook URL of stream ${streamId} ${problem}.`, 'Give --webhook URL with the new secret: idm does not send that URL back as it is.');
}

function eventbusUnchangeable(message: string, command: CommandLine): UsageError {
  return new UsageError(message, `Create a new stream with the destination you want ('${command(['idm', 'streams', 'create'])}'), then delete this one.`);
}

/** What differs between two versions of a stream, one line per field (secrets are never returned). */
export function changes(before: ApiRecord, after: ApiRecord, secret?: string): string[] {
  const was = new Map(streamFields(before));
  const lines = streamFields(after)
    .filter(([label, value]) => label !== 'Updated' && was.get(label) !== value)
    .map(([label, value]) => `${label}: ${was.get(label) ?? '(none)'} → ${value}`);
  if (secret) lines.push(`Webhook ${secret}: replaced by the one given (never shown)`);
  return lines.length > 0 ? ['Changed:', ...lines.map((line) => `  ${line}`)] : ['Nothing changed in what the service shows.'];
}
