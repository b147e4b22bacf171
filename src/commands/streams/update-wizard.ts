// `idm streams update ID` at a terminal without a change flag: what to change is asked (as gh's edit
// commands do), each question with the stream's own value as its default; the answers become the
// flags they stand for, and the update runs as with those flags (a webhook then asks its method and
// secret there). Loaded only when asked.
import type { Deps } from '../../cli/factory.js';
import { isPlainObject } from '../../core/text.js';
import type { ApiRecord } from '../../api/management/index.js';
import { safeText } from '../../io/safe.js';
import { cut } from '../../output/width.js';
import { EVENT_TYPES } from '../../schemas/constants.js';
import { nameAnswerCheck, streamNames } from './create.js';
import { askActionId, askWebhookUrl } from './destination.js';
import { chosenTypesAnswer, eventTypesOf } from './format.js';
import type { UpdateOptions } from './update.js';

type Part = 'name' | 'types' | 'destination';

/** The flags that the answers stand for, or undefined when every answer is what the stream has. */
export async function askStreamChanges(streamId: string, stream: ApiRecord, deps: Deps): Promise<Partial<UpdateOptions> | undefined> {
  const destination = isPlainObject(stream.destination) ? stream.destination : {};
  const config = isPlainObject(destination.configuration) ? destination.configuration : {};
  const type = destination.type;
  const name = typeof stream.name === 'string' ? stream.name : undefined;
  const had = eventTypesOf(stream);
  const prompter = await deps.prompter();
  // The stream's values as the server has them, on one line: a name of 5,000 characters would wrap
  // to more rows than the terminal has, and the question and the choices would scroll away.
  const now = (value: string) => cut(safeText(`Now: ${value}`), Math.max(20, deps.io.stderrColumns - 24));
  const parts = await prompter.checkbox<Part>(
    `What to change in stream ${streamId}?`,
    [
      // In short once chosen: all three after the question ('name, types, destination') fit 80 columns.
      { value: 'name', name: 'Name', short: 'name', description: now(name ?? '(none)') },
      { value: 'types', name: 'Event types', short: 'types', description: now(had.join(', ') || '(none)') },
      type === 'eventbus'
        ? { value: 'destination', name: 'Destination', disabled: 'an event bus cannot change: create a new stream' }
        : { value: 'destination', name: 'Destination (a webhook with a new secret, or an action)', short: 'destination', description: now(typeof type === 'string' ? type : '(none)') },
    ],
    { required: true },
  );
  const flags: Partial<UpdateOptions> = {};
  if (parts.includes('name')) {
    // Another stream's name is refused as typed (the stream's own is Enter: kept).
    const inUse = await streamNames(deps);
    if (name !== undefined) inUse?.delete(name);
    const check = nameAnswerCheck(inUse);
    // Only a name the check takes is offered (Enter keeps it): not one the service's rules refuse (longer than they allow).
    const answer = (await prompter.input('Stream name', { default: name !== undefined && check(name) === true ? name : undefined, validate: check })).trim();
    if (answer !== name) flags.name = answer;
  }
  if (parts.includes('types')) {
    // The stream's types first, ticked (a type idm's list lacks among them: unticked, it is dropped),
    // then the others. Sent as what is added and removed (--add-event-type, --remove-event-type),
    // which keeps such a type as the stream's own, where a new list (--event-type) would be refused.
    const offered = [...had, ...EVENT_TYPES.filter((value) => !had.includes(value))];
    const question = 'Event types (space to choose, enter to go on)';
    const types = await prompter.checkbox(question, offered.map((value) => ({ value, name: value, checked: had.includes(value) })), { pageSize: 12, required: true, answer: chosenTypesAnswer(question, deps.io.stderrColumns) });
    const added = types.filter((value) => !had.includes(value));
    const removed = had.filter((value) => !types.includes(value));
    if (added.length > 0) flags.addEventType = added;
    if (removed.length > 0) flags.removeEventType = removed;
  }
  if (parts.includes('destination')) {
    const kind = await prompter.select<'webhook' | 'action'>(
      'Where do the events go?',
      [
        { value: 'webhook', name: 'A webhook (an https:// endpoint, with a new secret)', short: 'a webhook' },
        { value: 'action', name: 'An action', short: 'an action' },
      ],
      { default: type === 'action' ? 'action' : 'webhook' },
    );
    const text = (key: string) => (typeof config[key] === 'string' ? (config[key] as string) : undefined);
    if (kind === 'webhook') flags.webhook = await askWebhookUrl(deps, type === 'webhook' ? text('webhook_endpoint') : undefined);
    else {
      const action = await askActionId(deps, type === 'action' ? text('action_id') : undefined);
      if (type !== 'action' || action !== text('action_id')) flags.action = action;
    }
  }
  return Object.keys(flags).length > 0 ? flags : undefined;
}
