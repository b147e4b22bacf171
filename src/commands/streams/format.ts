// How streams are shown: one place for every command that prints them (list, show, create...).
import { isSecretField, withoutSecretFields } from '../../api/redact.js';
import { withoutUrlUserInfo } from '../../core/secrets.js';
import { isPlainObject, plural } from '../../core/text.js';
import { safeText } from '../../io/safe.js';
import { asText as text, entryCell, entryField, fieldText, toMinute, type Column } from '../../output/index.js';
import { displayWidth } from '../../output/width.js';
import { LIMITS } from '../../schemas/constants.js';

/** A stream as received: every field may be missing or unexpected, and is shown as it is. */
export type StreamRecord = Record<string, unknown>;

/** A stream's destination: type plus where events go (the endpoint, the region and account, or the action); not an object, as it came. */
export function describeDestination(stream: unknown): string {
  const destination = isPlainObject(stream) ? stream.destination : undefined;
  if (!destination || typeof destination !== 'object') return fieldText(stream, 'destination');
  const { type, configuration } = destination as { type?: unknown; configuration?: Record<string, unknown> };
  const config = configuration && typeof configuration === 'object' ? configuration : {};
  let where: string;
  if (type === 'webhook') where = withoutUrlUserInfo(fieldText(config, 'webhook_endpoint'));
  else if (type === 'eventbus') where = [fieldText(config, 'cloud_region'), config.cloud_account_id ? `(${fieldText(config, 'cloud_account_id')})` : ''].filter(Boolean).join(' ');
  else if (type === 'action') where = fieldText(config, 'action_id');
  else where = text(Object.entries(config).find(([key, value]) => typeof value === 'string' && !isSecretField(key))?.[1]);
  return [fieldText(destination, 'type'), where].filter(Boolean).join(' ');
}


/** The event types a stream subscribes to, as received. */
export function eventTypesOf(stream: StreamRecord): string[] {
  const subscriptions = stream.subscriptions;
  return Array.isArray(subscriptions) ? subscriptions.map((sub) => fieldText(sub, 'event_type')) : [];
}

const KNOWN = new Set(['id', 'name', 'status', 'subscriptions', 'destination', 'created_at', 'updated_at']);

/**
 * A stream as label/value pairs: the full destination (webhook URL and how it authenticates, region
 * and account, or action), its event types and times; fields idm does not know are shown as they came.
 */
export function streamFields(stream: StreamRecord): Array<[string, string]> {
  const destination = isPlainObject(stream.destination) ? stream.destination : {};
  const config = isPlainObject(destination.configuration) ? destination.configuration : {};
  const fields: Array<[string, string]> = [
    ['ID', fieldText(stream, 'id')],
    ['Name', fieldText(stream, 'name')],
    ['Status', fieldText(stream, 'status')],
    ['Destination', fieldText(destination, 'type')],
  ];
  if (destination.type === 'webhook') {
    const auth = isPlainObject(config.webhook_authorization) ? config.webhook_authorization : {};
    fields.push(['Webhook URL', withoutUrlUserInfo(fieldText(config, 'webhook_endpoint'))], ['Authorization', fieldText(auth, 'method')]);
    if (auth.username !== undefined) fields.push(['Username', fieldText(auth, 'username')]);
    if (auth.header_key !== undefined) fields.push(['Header', fieldText(auth, 'header_key')]);
  } else if (destination.type === 'eventbus') {
    fields.push(['Region', fieldText(config, 'cloud_region')], ['Account', fieldText(config, 'cloud_account_id')]);
    if (config.cloud_partner_event_source !== undefined) fields.push(['Partner event source', fieldText(config, 'cloud_partner_event_source')]);
  } else if (destination.type === 'action') {
    fields.push(['Action', fieldText(config, 'action_id')]);
  } else if (Object.keys(config).length > 0) {
    fields.push(['Configuration', shownField(destination, 'configuration')]);
  }
  fields.push(['Event types', eventTypesOf(stream).join(', ')], ['Created', fieldText(stream, 'created_at')], ['Updated', fieldText(stream, 'updated_at')]);
  for (const key of Object.keys(stream)) if (!KNOWN.has(key)) fields.push([key, shownField(stream, key)]);
  return fields;
}

/** A field idm does not know, as it came but for a secret in it (a token, a password: the service returns none), masked. */
function shownField(holder: Record<string, unknown>, key: string): string {
  const masked = withoutSecretFields({ [key]: holder[key] }) as Record<string, unknown>;
  return masked[key] === holder[key] ? fieldText(holder, key) : fieldText(masked, key);
}

/** For people: a webhook as its host and path (no `webhook https://`: a URL says what it is); the others with their kind. */
const destinationDisplay = (s: StreamRecord) => describeDestination(s).replace(/^webhook https:\/\//, '');

/** The stream's event types, comma-separated. */
const eventTypes = (s: StreamRecord) => {
  const subscriptions = entryField(s, 'subscriptions');
  return Array.isArray(subscriptions) ? subscriptions.map((sub) => fieldText(sub, 'event_type')).join(',') : entryCell(s, 'subscriptions');
};

// At a narrow terminal CREATED goes first, then EVENT TYPES becomes a count, then the free-text
// columns are cut (the widest first), then EVENT TYPES goes, then DESTINATION, then names are cut
// down to NAME: whether a stream is enabled matters more than a cut URL or name. The id is never cut.
export const STREAM_COLUMNS: ReadonlyArray<Column<StreamRecord>> = [
  { header: 'ID', value: (s) => entryCell(s, 'id'), shrink: 'never' },
  { header: 'NAME', value: (s) => entryCell(s, 'name'), shrink: 'first', narrow: { toHeader: true } },
  { header: 'STATUS', value: (s) => entryCell(s, 'status'), width: LIMITS.streamStatusMax },
  { header: 'DESTINATION', value: (s) => describeDestination(s), display: destinationDisplay, shrink: 'first', cut: 'host', narrow: { drop: 4 } },
  {
    header: 'EVENT TYPES',
    shrink: 'first',
    value: eventTypes,
    narrow: { compact: 2, compactHeader: 'TYPES', compactValue: (s) => String(eventTypesOf(s).length), drop: 3 },
  },
  {
    header: 'CREATED',
    value: (s) => entryCell(s, 'created_at'),
    // At a terminal the minute is enough (UTC, as the service gives it); scripts get the full time.
    display: (s) => toMinute(entryCell(s, 'created_at')),
    narrow: { drop: 1 },
  },
];

/**
 * The event types chosen at `question`, as the answer on its row (`✔ <question> <answer>`, never the
 * last column): all of them while they fit, else the first ones and how many more, else their count.
 * Every type joined (22 of them: 560 columns) wrapped over seven rows, cut mid-word.
 */
export function chosenTypesAnswer(question: string, columns: number): (types: string[]) => string {
  return (types) => {
    const room = columns - 1 - displayWidth(`✔ ${question} `);
    const shown = types.map((type) => safeText(type));
    for (let count = shown.length; count >= 1; count--) {
      const text = count === shown.length ? shown.join(', ') : `${shown.slice(0, count).join(', ')} and ${shown.length - count} more`;
      if (displayWidth(text) <= room) return text;
    }
    return plural(shown.length, 'event type');
  };
}
