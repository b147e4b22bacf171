// Where a stream's events go, from flags or from answers at a terminal: shared by `streams create`
// and `streams update`. The webhook's secret (token, password or header value) never comes from a
// flag's value: --secret-file PATH (or - for stdin), IDM_WEBHOOK_SECRET, or a masked prompt.
import { Command, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { checkText, once, parseChoice } from '../../cli/parse.js';
import { UsageError } from '../../core/errors.js';
import { hasUnsafeCharacters, isPlainObject, preview } from '../../core/text.js';
import { readFileOrStdin } from '../../io/input.js';
import type { IO } from '../../io/io.js';
import { unsafeTextProblem } from '../../io/safe.js';
import { CLOUD_REGIONS, LIMITS, PATTERNS } from '../../schemas/constants.js';

export const AUTH_CHOICES = ['bearer', 'basic', 'custom-header'] as const;
export type AuthChoice = (typeof AUTH_CHOICES)[number];
const METHOD: Record<AuthChoice, string> = { bearer: 'bearer', basic: 'basic', 'custom-header': 'custom_header' };
const SECRET_NAME: Record<AuthChoice, string> = { bearer: 'token', basic: 'password', 'custom-header': 'header value' };

/** The choice of a webhook authorization `method` as the service names it (custom_header). */
const choiceOf = (method: unknown): AuthChoice | undefined => AUTH_CHOICES.find((choice) => METHOD[choice] === method);

/** What the secret of a webhook authorization `method` (as the service names it) is called. */
export function secretNameOf(method: unknown): string | undefined {
  const choice = choiceOf(method);
  return choice === undefined ? undefined : SECRET_NAME[choice];
}

export interface DestinationFlags {
  webhook?: string;
  auth?: AuthChoice;
  username?: string;
  headerKey?: string;
  secretFile?: string;
  eventbusAccount?: string;
  eventbusRegion?: string;
  action?: string;
}

export type Destination = { type: string; configuration: Record<string, unknown> };
type Kind = 'webhook' | 'eventbus' | 'action';

/**
 * A webhook URL as it may be quoted back: its scheme and host, `/…` for anything after them. The rest
 * may be the secret: a user name and password (user:pass@), a ?token=, or a path that is the key
 * itself, as chat services' webhook URLs are.
 */
export function webhookShown(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  const rest = value.slice(scheme.length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  return `${scheme}${preview(authority.slice(authority.lastIndexOf('@') + 1))}${end < 0 ? '' : '/…'}`;
}

/**
 * Why idm will not send `value` as a webhook URL, or undefined. The service takes anything that
 * begins with https:// (interface.md); idm also wants a host, and refuses what the service would keep
 * and show to whoever lists streams: a user name and password (the secret goes in --secret-file), and
 * spaces, backslashes or control characters (a paste gone wrong; the URL parser would drop or change them).
 */
export function webhookUrlProblem(value: string, options: { prompt?: boolean } = {}): string | undefined {
  if (!PATTERNS.webhookEndpoint.test(value)) return 'must be an https:// URL';
  if (/[\s\\]/.test(value) || hasUnsafeCharacters(value)) return 'must not hold spaces, backslashes or control characters (a space in a path is %20)';
  const authority = /^https:\/\/([^/?#]*)/.exec(value)![1]!;
  if (authority.includes('@')) {
    // At the prompt the flags are no answer: the next question offers basic authorization.
    const basic = options.prompt ? 'choose basic authorization next, and give them there' : 'for basic authorization: --auth basic --username NAME --secret-file FILE';
    return `must not hold a user name or password, which the service would show to whoever reads the stream (${basic})`;
  }
  if (authority === '') return 'has no host (https://HOST/PATH)';
  try {
    new URL(value);
  } catch {
    return 'is not a URL';
  }
  return undefined;
}

function parseWebhookUrl(value: string): string {
  const problem = webhookUrlProblem(value);
  if (problem === undefined) return value;
  if (!PATTERNS.webhookEndpoint.test(value)) throw new UsageError(`--webhook ${problem}, not "${webhookShown(value)}".`);
  throw new UsageError(`--webhook "${webhookShown(value)}" ${problem}.`);
}

/** The destination flags, on `streams create` (all of them) and `streams update` (no event bus: it cannot change). */
export function addDestinationOptions(command: Command, options: { eventbus: boolean }): Command {
  command
    // Not quoted when given twice: a webhook URL's path may be its key (webhookShown).
    .option('--webhook <url>', 'send events to this https:// endpoint (with --auth)', once('--webhook', undefined, { secret: true }))
    // .choices() for --help and the completions; the parser after it checks them too, and a second value.
    .addOption(new Option('--auth <method>', 'how the webhook authenticates deliveries').choices(AUTH_CHOICES).argParser(once('--auth', parseChoice('--auth', AUTH_CHOICES))))
    .option('--username <name>', 'the user name of --auth basic (with --webhook, it implies --auth basic)', once('--username', checkText('--username')))
    .option('--header-key <name>', 'the header name of --auth custom-header (with --webhook, it implies --auth custom-header)', once('--header-key', checkText('--header-key')))
    .option('--secret-file <path>', "the webhook's token, password or header value: a file, or - for stdin (else IDM_WEBHOOK_SECRET, or asked)", once('--secret-file', undefined, { secret: true }));
  if (options.eventbus) {
    command
      .option('--eventbus-account <id>', 'send events to the event bus of this 12-digit account (with --eventbus-region)', once('--eventbus-account'))
      // Not .choices(): --help would list every region. The completions take the same list (FLAG_VALUES).
      .addOption(new Option('--eventbus-region <region>', 'the event bus region (e.g. us-east-1)').argParser(once('--eventbus-region', parseChoice('--eventbus-region', CLOUD_REGIONS))));
  }
  return command.option('--action <id>', 'send events to this action', once('--action', checkText('--action')));
}

/** --from-file - and --secret-file - would both read stdin: refused before anything is read. */
export function refuseStdinTwice(flags: DestinationFlags & { fromFile?: string }): void {
  if (flags.fromFile === '-' && flags.secretFile === '-') throw new UsageError('--from-file - and --secret-file - both read stdin.', 'Give one of them a file.');
}

/**
 * Which destination the flags name, or undefined. Refused here, before anything is read or sent: two
 * destinations at once, a --webhook that is not an https:// URL, and webhook settings (--secret-file,
 * --username, --header-key) without a webhook (--webhook or --auth) or with the wrong --auth.
 */
export function destinationKind(flags: DestinationFlags, operation: 'create' | 'update'): Kind | undefined {
  const kinds = [
    flags.webhook !== undefined || flags.auth !== undefined ? 'webhook' : undefined,
    flags.eventbusAccount !== undefined || flags.eventbusRegion !== undefined ? 'eventbus' : undefined,
    flags.action !== undefined ? 'action' : undefined,
  ].filter((kind): kind is Kind => kind !== undefined);
  if (kinds.length > 1) throw new UsageError(`Give one destination, not ${kinds.join(' and ')}: --webhook (with --auth), --eventbus-account with --eventbus-region, or --action.`);
  const kind = kinds[0];
  if (kind !== 'webhook') {
    const stray = [flags.secretFile !== undefined && '--secret-file', flags.username !== undefined && '--username', flags.headerKey !== undefined && '--header-key'].filter((flag): flag is string => Boolean(flag));
    if (stray.length > 0) {
      const what = `${stray.join(' and ')} ${stray.length === 1 ? 'is a webhook setting' : 'are webhook settings'}`;
      if (kind !== undefined) throw new UsageError(`${what}, and this destination is ${kind === 'action' ? 'an action' : 'an event bus'}.`, `Leave ${stray.length === 1 ? 'it' : 'them'} out, or give --webhook URL --auth METHOD instead.`);
      const auth = flags.username !== undefined ? '--auth basic' : flags.headerKey !== undefined ? '--auth custom-header' : '--auth METHOD';
      // A new stream's webhook needs its endpoint (--auth alone would be refused next: Missing
      // --webhook), and there is no secret to rotate; --username or --header-key says the method.
      if (operation === 'create') {
        const says = flags.username !== undefined ? ' (--username says --auth basic)' : flags.headerKey !== undefined ? ' (--header-key says --auth custom-header)' : ' --auth METHOD';
        throw new UsageError(`${what}: ${stray.length === 1 ? 'it needs' : 'they need'} --webhook URL.`, `Give --webhook URL${says}.`);
      }
      // The method goes with the new secret: the stream's own, which idm has not read here (a bare
      // '--auth bearer' would turn a basic or custom-header webhook into a bearer one).
      const rotate = auth === '--auth METHOD' ? "; to rotate a secret, the stream's own method (--auth bearer, --auth basic --username NAME, or --auth custom-header --header-key NAME): another one would change how deliveries authenticate" : '';
      throw new UsageError(`${what}: ${stray.length === 1 ? 'it needs' : 'they need'} ${auth}.`, `Give ${auth} (and --webhook URL for a new endpoint)${rotate}.`);
    }
  }
  if (flags.auth !== undefined && flags.auth !== 'basic' && flags.username !== undefined) throw new UsageError('--username goes with --auth basic.');
  if (flags.auth !== undefined && flags.auth !== 'custom-header' && flags.headerKey !== undefined) throw new UsageError('--header-key goes with --auth custom-header.');
  // Without --auth, the method follows from --username (basic) or --header-key (custom-header): from
  // both, it does not (one of them would be dropped without a word).
  if (flags.auth === undefined && flags.username !== undefined && flags.headerKey !== undefined) {
    throw new UsageError('--username (for --auth basic) and --header-key (for --auth custom-header) are settings of two methods.', 'Give the one of the method meant, or --auth with it.');
  }
  if (flags.webhook !== undefined) parseWebhookUrl(flags.webhook);
  return kind;
}

const SECRET_FLAG = '--secret-file (or IDM_WEBHOOK_SECRET)';
const secretGiven = (flags: DestinationFlags, io: IO) => flags.secretFile !== undefined || Boolean(io.env.IDM_WEBHOOK_SECRET);

/**
 * The flags a webhook still lacks (asked at a terminal, a usage error elsewhere): --webhook when
 * `endpoint` (create: the stream has no other), --auth, --username or --header-key for the method,
 * and the secret.
 */
export function missingWebhookFlags(flags: DestinationFlags, io: IO, options: { endpoint: boolean }): string[] {
  const auth = authOf(flags);
  return [
    options.endpoint && flags.webhook === undefined ? '--webhook' : '',
    auth === undefined ? '--auth' : '',
    auth === 'basic' && flags.username === undefined ? '--username' : '',
    auth === 'custom-header' && flags.headerKey === undefined ? '--header-key' : '',
    // IDM_WEBHOOK_SECRET="$TOKEN" with nothing in $TOKEN (a CI secret the job cannot read): said so.
    secretGiven(flags, io) ? '' : io.env.IDM_WEBHOOK_SECRET === '' ? '--secret-file (IDM_WEBHOOK_SECRET is set, but empty)' : SECRET_FLAG,
  ].filter(Boolean);
}

/**
 * The method the flags name: --auth, else the one --username (basic) or --header-key (custom-header)
 * belongs to, with or without a terminal (destinationKind refuses the two together without --auth).
 */
function authOf(flags: DestinationFlags): AuthChoice | undefined {
  return flags.auth ?? (flags.username !== undefined ? 'basic' : flags.headerKey !== undefined ? 'custom-header' : undefined);
}

/** The event bus flags `create` still lacks. */
export function missingEventbusFlags(flags: DestinationFlags): string[] {
  return [flags.eventbusAccount === undefined ? '--eventbus-account' : '', flags.eventbusRegion === undefined ? '--eventbus-region' : ''].filter(Boolean);
}

/** The webhook secret: --secret-file, else IDM_WEBHOOK_SECRET, else a masked prompt at a terminal. */
export async function webhookSecret(flags: DestinationFlags, auth: AuthChoice, deps: Deps): Promise<string | undefined> {
  let secret: string | undefined;
  // Where a secret idm refuses came from, for the fix: the file, the variable, or what was typed.
  let fix = 'Put only the secret in the file.';
  if (flags.secretFile !== undefined) {
    secret = (await readFileOrStdin('--secret-file', flags.secretFile, deps.io, 'secret')).replace(/\r?\n$/, '');
    if (secret === '') throw new UsageError(`--secret-file: ${flags.secretFile === '-' ? 'stdin' : 'the file'} is empty.`);
  } else if (deps.io.env.IDM_WEBHOOK_SECRET !== undefined && deps.io.env.IDM_WEBHOOK_SECRET !== '') {
    secret = deps.io.env.IDM_WEBHOOK_SECRET;
    fix = 'Set IDM_WEBHOOK_SECRET to the secret alone, or give it with --secret-file.';
    // Where the secret would be asked, that it was not: a variable left set for another webhook
    // would otherwise go to this one without a word.
    if (deps.io.canPrompt) deps.output.note(`The webhook ${SECRET_NAME[auth]} is IDM_WEBHOOK_SECRET's (not asked); unset it to type one.`);
  } else if (deps.io.canPrompt) {
    fix = 'Type the secret alone, without spaces around it.';
    const prompter = await deps.prompter();
    // Checked as typed (the prompt keeps what was typed, masked): refused after the prompt, it lost every answer before it.
    secret = await prompter.password(`Webhook ${SECRET_NAME[auth]}`, {
      validate: (value) => (value === '' ? `Enter the ${SECRET_NAME[auth]}.` : secretProblem(value, auth) === undefined ? true : `${secretProblem(value, auth)} Ctrl-U clears it.`),
    });
  }
  const problem = secret === undefined ? undefined : secretProblem(secret, auth);
  if (problem !== undefined) throw new UsageError(problem, fix);
  return secret;
}

/** Why idm will not send `secret` as the webhook's `auth` secret, or undefined (never quoting it). */
function secretProblem(secret: string, auth: AuthChoice): string | undefined {
  if (/[\r\n]/.test(secret)) return `The webhook ${SECRET_NAME[auth]} holds more than one line.`;
  // A token or header value is sent in an HTTP header as it is: no control character can be, and the
  // receiver drops spaces around it. A basic password travels in Base64 and may hold either.
  if (auth !== 'basic' && (/[\x00-\x08\x0a-\x1f\x7f]/.test(secret) || /^[ \t]|[ \t]$/.test(secret))) {
    return `The webhook ${SECRET_NAME[auth]} holds a control character or begins or ends with a space, which an HTTP header cannot carry.`;
  }
  return undefined;
}

/**
 * The webhook's authorization with its secret: from the flags, and at a terminal what they lack is
 * asked (the method, the user name or header name, the secret). Callers refuse what is missing
 * where nothing may be asked (missingWebhookFlags) before calling this.
 */
export async function webhookAuthorization(flags: DestinationFlags, deps: Deps, current?: unknown): Promise<Record<string, string>> {
  const ask = async () => deps.prompter();
  // update: the stream's own authorization (as the service shows it, without its secret) is each
  // question's default, so that Enter keeps it rather than switching a basic webhook to bearer.
  const was = isPlainObject(current) ? current : {};
  const wasAuth = choiceOf(was.method);
  // Offered only when the question's check takes it: Enter on a name the service's rules refuse (a
  // server's, longer than 128 characters or with a colon) would only be refused.
  const wasText = (key: string, choice: AuthChoice, check: (value: string) => true | string) =>
    wasAuth === choice && typeof was[key] === 'string' && check(was[key] as string) === true ? (was[key] as string) : undefined;
  const headerKeyProblem = (value: string) => (PATTERNS.headerKey.test(value.trim()) ? true : "A header name: letters, digits and !#$%&'*+.^_`|~-.");
  const auth =
    authOf(flags) ??
    (await (await ask()).select<AuthChoice>(
      'How does the webhook authenticate deliveries?',
      [
        { value: 'bearer', name: 'bearer: an Authorization: Bearer token', short: 'bearer' },
        { value: 'basic', name: 'basic: a user name and password', short: 'basic' },
        { value: 'custom-header', name: 'custom-header: a header of your choice and its value', short: 'custom-header' },
      ].map((choice) => (choice.value === wasAuth ? { ...choice, name: `${choice.name} (as now)` } : choice)) as Array<{ value: AuthChoice; name: string; short: string }>,
      { default: wasAuth },
    ));
  const username = auth !== 'basic' ? undefined : (flags.username ?? (await (await ask()).input('User name', { default: wasText('username', 'basic', usernameProblem), validate: usernameProblem })).trim());
  const headerKey = auth !== 'custom-header' ? undefined : (flags.headerKey ?? (await (await ask()).input('Header name', { default: wasText('header_key', 'custom-header', headerKeyProblem), validate: headerKeyProblem })).trim());
  const secret = await webhookSecret(flags, auth, deps);
  if (secret === undefined) throw new UsageError(`Missing ${SECRET_FLAG}.`, 'The service takes a webhook with its secret and never returns it.');
  if (auth === 'basic') return { method: METHOD[auth], username: username!, password: secret };
  if (auth === 'custom-header') return { method: METHOD[auth], header_key: headerKey!, header_value: secret };
  return { method: METHOD[auth], token: secret };
}

/**
 * The user name prompt's check, of the name as it is kept (trimmed): a blank answer was taken, then
 * the password asked, and the stream refused for an empty --username, a flag never given.
 */
function usernameProblem(value: string): true | string {
  const name = value.trim();
  if (name === '') return 'Enter the user name.';
  // Characters as --username and the service count them: code points (an emoji is one), not UTF-16 units.
  if ([...name].length > LIMITS.basicUsernameMax) return `A user name has at most ${LIMITS.basicUsernameMax} characters.`;
  if (!PATTERNS.basicUsername.test(name)) return 'A user name has no colon.';
  return freeText(name);
}

/** A prompt's check of free text (a user name, an action id): what checkText says of a flag's value. */
function freeText(value: string): true | string {
  const problem = unsafeTextProblem(value);
  return problem ? `It ${problem}.` : true;
}

/** A webhook destination: the endpoint with its authorization (the service takes them together). */
export function webhookDestination(endpoint: string, authorization: Record<string, string>): Destination {
  return { type: 'webhook', configuration: { webhook_endpoint: parseWebhookUrl(endpoint), webhook_authorization: authorization } };
}

/** An action destination from --action. */
export function actionDestination(action: string): Destination {
  return { type: 'action', configuration: { action_id: action } };
}

/**
 * An account id as the service takes it: 12 digits. The cloud console shows it as 1234-5678-9012;
 * such an id, or one with spaces between its groups, is the same account, and its digits are kept.
 * Anything else is left as given, for the checks to refuse.
 */
export function accountId(value: string): string {
  const trimmed = value.trim();
  const digits = trimmed.replace(/^(\d{4})[- ](\d{4})[- ](\d{4})$/, '$1$2$3');
  return PATTERNS.cloudAccountId.test(digits) ? digits : trimmed;
}

/**
 * The destination the flags describe; at a terminal, whatever they lack is asked step by step (the
 * kind, then its values: types and regions from lists). Callers refuse what is missing where nothing
 * may be asked before calling this.
 */
export async function destinationFrom(flags: DestinationFlags, deps: Deps): Promise<Destination> {
  const ask = async () => deps.prompter();
  const kind =
    destinationKind(flags, 'create') ??
    (await (await ask()).select<Kind>('Where do the events go?', [
      { value: 'webhook', name: 'A webhook (an https:// endpoint)', short: 'a webhook' },
      { value: 'eventbus', name: 'An event bus (an account and a region)', short: 'an event bus' },
      { value: 'action', name: 'An action', short: 'an action' },
    ]));
  if (kind === 'action') return actionDestination(flags.action ?? (await askActionId(deps)));
  if (kind === 'eventbus') {
    const account = accountId(flags.eventbusAccount ?? (await (await ask()).input('Account id (12 digits)', { validate: (value) => (PATTERNS.cloudAccountId.test(accountId(value)) ? true : 'An account id is exactly 12 digits.') })));
    const region = flags.eventbusRegion ?? (await (await ask()).select('Region', CLOUD_REGIONS.map((value) => ({ value, name: value })), { pageSize: 12 }));
    return { type: 'eventbus', configuration: { cloud_account_id: account, cloud_region: region } };
  }
  const endpoint = flags.webhook ?? (await askWebhookUrl(deps));
  return webhookDestination(endpoint, await webhookAuthorization(flags, deps));
}

/**
 * The action id, asked (trimmed); `current` (update: the stream's own) is the default, when it is
 * one a terminal line can show: the prompt writes it whole (as its hint, and as the answer taken).
 */
export async function askActionId(deps: Deps, current?: string): Promise<string> {
  const prompter = await deps.prompter();
  const offered = current !== undefined && current.length <= OFFERED_MAX ? current : undefined;
  return (await prompter.input('Action id', { default: offered, validate: (value) => (value.trim() ? freeText(value.trim()) : 'Enter the action id.') })).trim();
}

/** The longest value of the service's offered as a prompt's default (an action id is a few dozen characters). */
const OFFERED_MAX = 200;

/** The webhook URL, asked (trimmed); `current` (update: the stream's own, if idm would send it) is the default. */
export async function askWebhookUrl(deps: Deps, current?: string): Promise<string> {
  const prompter = await deps.prompter();
  const offered = current !== undefined && webhookUrlProblem(current) === undefined ? current : undefined;
  const validate = (value: string) => {
    const problem = webhookUrlProblem(value.trim(), { prompt: true });
    return problem ? `The URL ${problem}.` : true;
  };
  return (await prompter.input('Webhook URL (https://…)', { default: offered, validate })).trim();
}
