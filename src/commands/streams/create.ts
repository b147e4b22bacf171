// idm streams create: a stream from flags (scripts), from a JSON body (--from-file, flags override
// its fields), or, at a terminal, from answers to what is missing. Checked against the shared schema
// before anything is sent; the created stream is printed.
import { Command } from 'commander';
import { isForbidden } from '../../api/errors.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { checkEventType, checkText, collectList, once } from '../../cli/parse.js';
import { UsageError } from '../../core/errors.js';
import { clip, isPlainObject, plural } from '../../core/text.js';
import { statusLine } from '../../io/progress.js';
import { unsafeTextProblem } from '../../io/safe.js';
import { asText as text, fieldText } from '../../output/index.js';
import { EVENT_TYPES, LIMITS } from '../../schemas/constants.js';
import { idProblem } from '../../schemas/ids.js';
import { checkStreamBody, readBody } from './body.js';
import { addDestinationOptions, destinationFrom, destinationKind, missingEventbusFlags, missingWebhookFlags, refuseStdinTwice, type DestinationFlags } from './destination.js';
import { chosenTypesAnswer, streamFields } from './format.js';

export interface CreateOptions extends DestinationFlags {
  name?: string;
  eventType?: string[];
  disabled?: boolean;
  fromFile?: string;
}

export function streamsCreateCommand(deps: Deps, run = createRun): Command {
  const command = new Command('create')
    .description('Create an event stream: a name, event types and one destination (webhook, event bus or action)')
    .option('--name <name>', `the stream's name (${LIMITS.streamNameMin}-${LIMITS.streamNameMax} characters)`, once('--name', checkText('--name')))
    .option('--event-type <types>', 'an event type to subscribe to (repeat, or comma-separate)', collectList('--event-type', checkEventType('--event-type')))
    .option('--disabled', 'create it disabled (default: enabled)')
    .option('--from-file <path>', 'the whole body as JSON (as the API takes it), or - for stdin; flags override its fields', once('--from-file'));
  addDestinationOptions(command, { eventbus: true });
  return command
    .addHelpText(
      'after',
      () => examples([
        'idm streams create  # at a terminal: asks for each value',
        'idm streams create --name orders --event-type user.created,user.deleted --webhook https://hooks.example.com/idm --auth bearer --secret-file token.txt',
        'IDM_WEBHOOK_SECRET="$PASS" idm streams create --name audit --event-type user.created --webhook https://hooks.example.com/a --auth basic --username idm',
        'idm streams create --name bus --event-type user.created --eventbus-account 123456789012 --eventbus-region us-east-1 --disabled',
        'idm streams create --from-file stream.json --name copy-of-it --json',
      ]),
    )
    .action((flags: CreateOptions) => run(flags, deps));
}

export async function createRun(options: CreateOptions, deps: Deps): Promise<void> {
  const { io, output } = deps;
  refuseStdinTwice(options);
  const kind = destinationKind(options, 'create');
  const file = options.fromFile === undefined ? {} : await readBody(options.fromFile, deps);
  const body: Record<string, unknown> = { ...file };
  if (options.name !== undefined) body.name = options.name;
  if (options.eventType !== undefined) body.subscriptions = options.eventType.map((type) => ({ event_type: type }));
  // Sent always: recent streams are created enabled without it, but early ones were created disabled
  // (wire-facts.md, Create), and a disabled stream takes no test event (the note below offers one).
  if (options.disabled) body.status = 'disabled';
  else if (!Object.hasOwn(body, 'status')) body.status = 'enabled';

  // Flags name the destination (and override the file's); without them, the file's is kept.
  const destinationFromFlags = kind !== undefined || body.destination === undefined;
  const missing = [body.name === undefined ? '--name' : '', body.subscriptions === undefined ? '--event-type' : ''].filter(Boolean);
  if (kind === 'webhook') missing.push(...missingWebhookFlags(options, io, { endpoint: true }));
  else if (kind === 'eventbus') missing.push(...missingEventbusFlags(options));
  else if (kind === undefined && body.destination === undefined) missing.push('a destination (--webhook with --auth, --eventbus-account with --eventbus-region, or --action)');
  if (missing.length > 0 && !io.canPrompt) {
    throw new UsageError(`Missing ${missing.join(', ')}.`, `idm cannot ask here (${io.cannotAsk}): run 'idm streams create --help' for the flags.`);
  }

  // At a terminal, whatever is missing is asked for, in this order. The names in use are read before
  // the first question: the service's 409 for a name in use would come after the last answer.
  const inUse = missing.length > 0 ? await streamNames(deps) : undefined;
  const holder = (name: unknown) => (typeof name === 'string' ? inUse?.get(name) : undefined);
  if (holder(body.name) !== undefined) {
    throw new UsageError(`Stream ${shown(text(holder(body.name)))} is named "${shown(text(body.name))}" already: stream names are unique in a tenant.`, 'Choose another --name.');
  }
  if (body.name === undefined) {
    const prompter = await deps.prompter();
    body.name = (await prompter.input('Stream name', { validate: nameAnswerCheck(inUse) })).trim();
  }
  if (body.subscriptions === undefined) {
    const prompter = await deps.prompter();
    const question = 'Event types';
    const types = await prompter.checkbox(question, EVENT_TYPES.map((value) => ({ value, name: value })), { pageSize: 12, required: true, answer: chosenTypesAnswer(question, deps.io.stderrColumns) });
    body.subscriptions = types.map((type) => ({ event_type: type }));
  }
  if (destinationFromFlags) body.destination = await destinationFrom(options, deps);

  const checked = await checkStreamBody('create', body, file);

  const { streams } = await deps.api();
  // The names were read, and one in use refused above: a 409 now most likely means the limit.
  const stream = await streams.create(checked, { nameFree: inUse !== undefined });
  if (output.json) return output.printJson(stream);
  output.printFields(streamFields(stream));
  const [first] = checked.subscriptions as Array<{ event_type: string }>;
  // A command only for an id of the stream id's shape: the answer's id is a server's word, and one
  // such as `--profile=prod` would be an option of the command printed.
  const id = text(stream.id);
  // A disabled stream takes no test event (400): what it needs first is to be enabled.
  const disabled = stream.status === 'disabled';
  const next = disabled ? ` It is disabled; to enable it: ${deps.command(['idm', 'streams', 'enable', id])}` : ` Try it: ${deps.command(['idm', 'streams', 'test', id, '--event-type', first!.event_type, '--wait'])}`;
  output.note(`Created stream ${shown(id) || '(the service did not say its id)'}.${idProblem('stream', id) ? '' : next}`);
  const eventbus = eventbusNextStep(stream);
  if (eventbus) output.note(eventbus);
}

/**
 * A server's value quoted in a note or message for people (an id, a partner event source): cut,
 * as clip does, past what a terminal line or two holds; the record on stdout and --json show it whole.
 */
const shown = (value: string) => clip(value, 200);

/**
 * For an event-bus stream, the step left on the cloud side: the service offers its events as a
 * partner event source in the account (named in its answer, wire-facts.md: Create), which reaches an
 * event bus only once the account's owner associates it with one.
 */
function eventbusNextStep(stream: Record<string, unknown>): string | undefined {
  const destination = isPlainObject(stream.destination) ? stream.destination : {};
  if (destination.type !== 'eventbus') return undefined;
  const config = isPlainObject(destination.configuration) ? destination.configuration : {};
  const account = shown(fieldText(config, 'cloud_account_id'));
  const region = shown(fieldText(config, 'cloud_region'));
  const where = `cloud account ${account || '(not said)'}${region ? ` (${region})` : ''}`;
  const source = typeof config.cloud_partner_event_source === 'string' && config.cloud_partner_event_source !== '' ? `the partner event source ${shown(config.cloud_partner_event_source)}` : 'the partner event source of this stream';
  return `Next, in ${where}: associate ${source} with an event bus; the stream's events reach the bus only once it is associated.`;
}

/**
 * The check of a stream name typed at a prompt (kept trimmed): blank (Enter alone, or spaces) is asked
 * for, not a length to meet; a name in `inUse` (name → id) is refused with the stream that has it.
 */
export function nameAnswerCheck(inUse: Map<string, string> | undefined): (value: string) => true | string {
  // Characters as the service and --name count them: code points, not UTF-16 units (an emoji is one).
  const problem = (value: string) => {
    const length = [...value].length;
    return length >= 1 && length <= LIMITS.streamNameMax ? unsafeTextProblem(value) : `has 1 to ${LIMITS.streamNameMax} characters`;
  };
  return (answer) => {
    const value = answer.trim();
    if (value === '') return "Enter the stream's name.";
    if (problem(value) !== undefined) return `A name ${problem(value)}.`;
    return inUse?.has(value) ? `Stream ${shown(inUse.get(value)!)} has that name: choose another.` : true;
  };
}

/**
 * The tenant's stream names, each with its stream's id; undefined when the client may not list
 * streams (403: the create may still be allowed, and the service then says whether the name is taken).
 */
export async function streamNames(deps: Deps): Promise<Map<string, string> | undefined> {
  const { streams } = await deps.api();
  const names = new Map<string, string>();
  // Page after page, each request too quick for its own spinner, a large tenant was seconds of
  // silence before the first question: from the second page on, a status line says what is read and
  // why. Only at a terminal (this runs only where idm asks); erased before the question.
  const status = deps.io.liveStderr ? statusLine(deps.io) : undefined;
  let read = 0;
  try {
    for await (const page of streams.pagesUnlessForbidden({ take: LIMITS.takeMax })) {
      for (const stream of page.items) if (isPlainObject(stream) && typeof stream.name === 'string') names.set(stream.name, typeof stream.id === 'string' ? stream.id : '(no id)');
      read += page.items.length;
      if (page.next !== undefined) status?.set(`Reading the names of the tenant's streams, to refuse one in use (${plural(read, 'stream')} so far)…`);
    }
  } catch (error) {
    if (!isForbidden(error)) throw error;
    return undefined;
  } finally {
    status?.clear();
  }
  return names;
}
