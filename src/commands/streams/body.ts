// The body of a stream create or change (POST or PATCH /event-streams), read from --from-file and
// checked before anything is sent: first the shared schema (the interface's rules), then what idm
// adds to them (README, streams create): event types from the interface's list, each listed once, a
// webhook URL that webhookUrlProblem takes, and free text without control or invisible characters. A problem names
// the flag that set the field, or, for a field that came from --from-file, its path in that body.
import type { Deps } from '../../cli/factory.js';
import { didYouMean } from '../../cli/suggest.js';
import { UsageError } from '../../core/errors.js';
import { andList, isPlainObject, jsonKind, preview } from '../../core/text.js';
import { parseJson, readFileOrStdin } from '../../io/input.js';
import { unsafeTextProblem } from '../../io/safe.js';
import { EVENT_TYPES, isEventType } from '../../schemas/constants.js';
import { webhookUrlProblem } from './destination.js';

type Body = Record<string, unknown>;
interface Problem {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  /** What to do about it, when there is more to say than the message. */
  hint?: string;
}

const SECRET = '--secret-file (or IDM_WEBHOOK_SECRET)';

/** The flag that sets a field: by the top-level field, or below destination by the last key. */
const FLAG_OF: Readonly<Record<string, string>> = {
  name: '--name',
  subscriptions: '--event-type',
  status: '--disabled',
  webhook_endpoint: '--webhook',
  method: '--auth',
  username: '--username',
  header_key: '--header-key',
  token: SECRET,
  password: SECRET,
  header_value: SECRET,
  cloud_account_id: '--eventbus-account',
  cloud_region: '--eventbus-region',
  action_id: '--action',
};

function flagOf(path: ReadonlyArray<PropertyKey>): string | undefined {
  const [field] = path;
  const key = field === 'destination' ? path.findLast((part): part is string => typeof part === 'string') : field;
  return typeof key === 'string' && Object.hasOwn(FLAG_OF, key) ? FLAG_OF[key] : undefined;
}

/** --from-file: a JSON object, the body as the API takes it. */
export async function readBody(path: string, deps: Deps): Promise<Body> {
  const source = path === '-' ? '--from-file - (stdin)' : `--from-file ${path}`;
  const value = parseJson(source, await readFileOrStdin('--from-file', path, deps.io, 'json'));
  if (!isPlainObject(value)) throw new UsageError(`${source} must hold a JSON object (the request body), not ${jsonKind(value)}.`);
  return value;
}

/**
 * `body` checked for `operation`, or a usage error naming every problem. `file` is the --from-file
 * body it was made from ({} without one): a top-level field that is still the file's is named by its
 * path in the file, any other by the flag that set it. `interfaceOnly`: the interface's rules alone,
 * for a body that adds to one already checked what the stream holds (update: its event types, its
 * endpoint), which idm's stricter rules must not refuse.
 */
export async function checkStreamBody(operation: 'create' | 'update', body: Body, file: Body, options: { interfaceOnly?: boolean } = {}): Promise<Body> {
  const { eventStreamCreateSchema, eventStreamUpdateSchema } = await import('../../schemas/requests.js');
  const parsed = (operation === 'create' ? eventStreamCreateSchema() : eventStreamUpdateSchema()).safeParse(body);
  const problems = parsed.success ? (options.interfaceOnly ? [] : idmProblems(parsed.data)) : parsed.error.issues.map(answerFieldsHint);
  if (parsed.success && problems.length === 0) return parsed.data;
  const fromFile = (field: PropertyKey) => typeof field === 'string' && Object.hasOwn(file, field) && file[field] === body[field];
  const flag = (path: ReadonlyArray<PropertyKey>) => (fromFile(path[0]!) ? undefined : flagOf(path));
  throw operation === 'create' ? invalid('stream', problems, flag, "Run 'idm streams create --help' for the flags.") : invalid('change', problems, flag);
}

/** The fields of a stream that only the service sets, which an answer holds (`streams show --json`) and a body may not. */
const ANSWER_ONLY = ['id', 'created_at', 'updated_at'];

/** A body copied from an answer is refused for its unknown fields; the hint says which are the answer's and what to do. */
function answerFieldsHint(issue: { code: string; path: PropertyKey[]; message: string; keys?: string[] }): Problem {
  const answerOnly = issue.code === 'unrecognized_keys' && issue.path.length === 0 ? ANSWER_ONLY.filter((key) => issue.keys?.includes(key)) : [];
  if (answerOnly.length === 0) return issue;
  return { ...issue, hint: `${answerOnly.join(', ')}: the service sets ${answerOnly.length === 1 ? 'it' : 'them'} (a copy of 'idm streams show --json' holds ${answerOnly.length === 1 ? 'it' : 'them'}); leave ${answerOnly.length === 1 ? 'it' : 'them'} out of the file.` };
}

/**
 * A webhook authorization from the flags, checked on its own: `update` sends it with the stream's
 * current endpoint, read later, and a bad --username must be refused before that read.
 */
export async function checkWebhookAuthorization(authorization: Record<string, string>): Promise<void> {
  const { webhookAuthorizationInputSchema } = await import('../../schemas/requests.js');
  const parsed = webhookAuthorizationInputSchema().safeParse(authorization);
  const problems = parsed.success
    ? freeTextProblems({ destination: { configuration: { webhook_authorization: parsed.data } } })
    : parsed.error.issues.map((issue) => ({ ...issue, path: ['destination', 'configuration', 'webhook_authorization', ...issue.path] }));
  if (problems.length > 0) throw invalid('change', problems, flagOf);
}

/** The free-text fields of a body, which must be neither blank nor hold a control or invisible character (as the flags that set them). */
const FREE_TEXT: ReadonlyArray<ReadonlyArray<string>> = [
  ['name'],
  ['destination', 'configuration', 'action_id'],
  ['destination', 'configuration', 'cloud_partner_event_source'],
  ['destination', 'configuration', 'webhook_authorization', 'username'],
  ['destination', 'configuration', 'webhook_authorization', 'header_key'],
];

/** The free-text fields of `body` that are blank or hold a control or invisible character. */
function freeTextProblems(body: Body): Problem[] {
  const problems: Problem[] = [];
  for (const path of FREE_TEXT) {
    const value = path.reduce<unknown>((at, key) => (isPlainObject(at) ? at[key] : undefined), body);
    // Blank: the interface's 1 character is met, but the prompts refuse it ('Enter the user name.'),
    // and a name or user name of spaces is a slip that the service would keep.
    const problem = typeof value !== 'string' ? undefined : value !== '' && value.trim() === '' ? 'must not be blank (only spaces)' : unsafeTextProblem(value);
    if (problem) problems.push({ path, message: problem });
  }
  return problems;
}

/** What idm refuses although the interface's schema takes it (README, streams create). */
function idmProblems(body: Body): Problem[] {
  const problems = freeTextProblems(body);
  const subscriptions = Array.isArray(body.subscriptions) ? body.subscriptions : [];
  const listedAt = new Map<string, number[]>(); // each event type: the indexes that list it
  subscriptions.forEach((subscription: { event_type: string }, index) => {
    const type = subscription.event_type;
    if (!isEventType(type)) problems.push({ path: ['subscriptions', index, 'event_type'], message: `"${preview(type)}" is not an event type`, hint: `${didYouMean(type, EVENT_TYPES).trim()} Run 'idm streams test --help' for the list.`.trim() });
    else listedAt.set(type, [...(listedAt.get(type) ?? []), index]);
  });
  // A stream receives the events of the types it lists: a type listed again adds nothing, and idm
  // sends each --event-type once. In a body someone wrote, a repeat is more likely a slip (another
  // type meant) than intended: refused, at its second place, rather than sent or silently dropped.
  for (const [type, indexes] of listedAt) {
    if (indexes.length < 2) continue;
    const times = indexes.length === 2 ? 'twice' : `${indexes.length} times`;
    const at = andList(indexes);
    problems.push({ path: ['subscriptions', indexes[1]!, 'event_type'], message: `"${type}" is listed ${times} (at ${at})`, hint: 'List each event type once: a stream receives the events of each type it lists.' });
  }
  const destination = isPlainObject(body.destination) ? body.destination : {};
  if (destination.type === 'webhook' && isPlainObject(destination.configuration)) {
    const problem = webhookUrlProblem(String(destination.configuration.webhook_endpoint));
    if (problem) problems.push({ path: ['destination', 'configuration', 'webhook_endpoint'], message: problem });
  }
  return problems;
}

/** One usage error for every problem: `--eventbus-account: must be exactly 12 digits`, or the path in the file. */
function invalid(what: string, problems: readonly Problem[], flag: (path: ReadonlyArray<PropertyKey>) => string | undefined, hint?: string): UsageError {
  const lines = problems.map(({ path, message }) => `${flag(path) ?? (path.map(String).join('.') || 'the body')}: ${message}`);
  return new UsageError(`Invalid ${what}: ${lines.join('; ')}.`, problems.find((problem) => problem.hint)?.hint ?? hint);
}
