// Where a stream's events go, from flags or from answers at a terminal: shared by `streams create`
// and `streams update`. The webhook's secret (token, password or header value) never comes from a
// flag's value: --secret-file PATH (or - for stdin), IDM_WEBHOOK_SECRET, or a masked prompt.
import { Command, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { parseChoice } from '../../cli/parse.js';
import { UsageError } from '../../core/errors.js';
import { readFileOrStdin } from '../../io/input.js';
import { CLOUD_REGIONS, PATTERNS } from '../../schemas/constants.js';

export const AUTH_CHOICES = ['bearer', 'basic', 'custom-header'] as const;
export type AuthChoice = (typeof AUTH_CHOICES)[number];
const METHOD: Record<AuthChoice, string> = { bearer: 'bearer', basic: 'basic', 'custom-header': 'custom_header' };
const SECRET_NAME: Record<AuthChoice, string> = { bearer: 'token', basic: 'password', 'custom-header': 'header value' };

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

function parseWebhookUrl(value: string): string {
  if (!PATTERNS.webhookEndpoint.test(value)) throw new UsageError(`--webhook must be an https:// URL, not "${value}".`);
  try {
    new URL(value);
  } catch {
    throw new UsageError(`--webhook "${value}" is not a URL.`);
  }
  return value;
}

/** The destination flags, on `streams create` (all of them) and `streams update` (no event bus: it cannot change). */
export function addDestinationOptions(command: Command, options: { eventbus: boolean }): Command {
  command
    .option('--webhook <url>', 'send events to this https:// endpoint (with --auth)')
    .addOption(new Option('--auth <method>', `how the webhook authenticates deliveries: ${AUTH_CHOICES.join(', ')}`).argParser(parseChoice('--auth', AUTH_CHOICES)))
    .option('--username <name>', 'the user name of --auth basic')
    .option('--header-key <name>', 'the header name of --auth custom-header')
    .option('--secret-file <path>', "the webhook's token, password or header value: a file, or - for stdin (else IDM_WEBHOOK_SECRET, or asked)");
  if (options.eventbus) {
    command
      .option('--eventbus-account <id>', 'send events to the event bus of this 12-digit account (with --eventbus-region)')
      .addOption(new Option('--eventbus-region <region>', 'the event bus region (e.g. us-east-1)').argParser(parseChoice('--eventbus-region', CLOUD_REGIONS)));
  }
  return command.option('--action <id>', 'send events to this action');
}

/** Which destination the flags name, or undefined; two at once is a usage error. */
export function destinationKind(flags: DestinationFlags): 'webhook' | 'eventbus' | 'action' | undefined {
  const kinds = [
    flags.webhook !== undefined || flags.auth !== undefined ? 'webhook' : undefined,
    flags.eventbusAccount !== undefined || flags.eventbusRegion !== undefined ? 'eventbus' : undefined,
    flags.action !== undefined ? 'action' : undefined,
  ].filter((kind): kind is 'webhook' | 'eventbus' | 'action' => kind !== undefined);
  if (kinds.length > 1) throw new UsageError(`Give one destination, not ${kinds.join(' and ')}: --webhook (with --auth), --eventbus-account with --eventbus-region, or --action.`);
  return kinds[0];
}

/** The webhook secret: --secret-file, else IDM_WEBHOOK_SECRET, else a masked prompt at a terminal. */
export async function webhookSecret(flags: DestinationFlags, auth: AuthChoice, deps: Deps): Promise<string | undefined> {
  let secret: string | undefined;
  if (flags.secretFile !== undefined) {
    secret = (await readFileOrStdin('--secret-file', flags.secretFile, deps.io, { secret: true })).replace(/\r?\n$/, '');
    if (secret === '') throw new UsageError(`--secret-file: ${flags.secretFile === '-' ? 'stdin' : 'the file'} is empty.`);
  } else if (deps.io.env.IDM_WEBHOOK_SECRET !== undefined && deps.io.env.IDM_WEBHOOK_SECRET !== '') {
    secret = deps.io.env.IDM_WEBHOOK_SECRET;
  } else if (deps.io.canPrompt) {
    const prompter = await deps.prompter();
    secret = await prompter.password(`Webhook ${SECRET_NAME[auth]}`, { validate: (value) => (value === '' ? `Enter the ${SECRET_NAME[auth]}.` : true) });
  }
  if (secret !== undefined && /[\r\n]/.test(secret)) throw new UsageError(`The webhook ${SECRET_NAME[auth]} holds more than one line.`, 'Put only the secret in the file.');
  return secret;
}

/**
 * The webhook destination the flags describe (URL, method, user name or header name, secret), or
 * the list of missing flags. `endpoint` stands in for --webhook (update: the current one).
 */
export async function webhookDestination(flags: DestinationFlags, deps: Deps, endpoint = flags.webhook): Promise<{ destination?: Destination; missing: string[] }> {
  const missing: string[] = [];
  if (endpoint === undefined) missing.push('--webhook');
  if (flags.auth === undefined) missing.push('--auth');
  if (flags.auth === 'basic' && flags.username === undefined) missing.push('--username');
  if (flags.auth === 'custom-header' && flags.headerKey === undefined) missing.push('--header-key');
  if (flags.auth !== 'basic' && flags.username !== undefined) throw new UsageError('--username goes with --auth basic.');
  if (flags.auth !== 'custom-header' && flags.headerKey !== undefined) throw new UsageError('--header-key goes with --auth custom-header.');
  if (missing.length > 0 || flags.auth === undefined || endpoint === undefined) return { missing };
  const secret = await webhookSecret(flags, flags.auth, deps);
  if (secret === undefined) return { missing: ['--secret-file (or IDM_WEBHOOK_SECRET)'] };
  const authorization: Record<string, string> = { method: METHOD[flags.auth] };
  if (flags.auth === 'bearer') authorization.token = secret;
  if (flags.auth === 'basic') Object.assign(authorization, { username: flags.username, password: secret });
  if (flags.auth === 'custom-header') Object.assign(authorization, { header_key: flags.headerKey, header_value: secret });
  return { destination: { type: 'webhook', configuration: { webhook_endpoint: parseWebhookUrl(endpoint), webhook_authorization: authorization } }, missing };
}

/** An event-bus or action destination from flags, or the missing flags. */
export function otherDestination(flags: DestinationFlags): { destination?: Destination; missing: string[] } {
  if (flags.action !== undefined) return { destination: { type: 'action', configuration: { action_id: flags.action } }, missing: [] };
  const missing = [flags.eventbusAccount === undefined ? '--eventbus-account' : '', flags.eventbusRegion === undefined ? '--eventbus-region' : ''].filter(Boolean);
  if (missing.length > 0) return { missing };
  return { destination: { type: 'eventbus', configuration: { cloud_account_id: flags.eventbusAccount, cloud_region: flags.eventbusRegion } }, missing };
}

/** At a terminal: the destination, asked step by step (types and regions from lists). */
export async function askDestination(deps: Deps): Promise<Destination> {
  const prompter = await deps.prompter();
  const kind = await prompter.select<'webhook' | 'eventbus' | 'action'>('Where do the events go?', [
    { value: 'webhook', name: 'A webhook (an https:// endpoint)' },
    { value: 'eventbus', name: 'An event bus (an account and a region)' },
    { value: 'action', name: 'An action' },
  ]);
  if (kind === 'action') return { type: 'action', configuration: { action_id: (await prompter.input('Action id', { validate: (value) => (value.trim() ? true : 'Enter the action id.') })).trim() } };
  if (kind === 'eventbus') {
    const account = await prompter.input('Account id (12 digits)', { validate: (value) => (PATTERNS.cloudAccountId.test(value.trim()) ? true : 'An account id is exactly 12 digits.') });
    const region = await prompter.select('Region', CLOUD_REGIONS.map((value) => ({ value, name: value })), { pageSize: 12 });
    return { type: 'eventbus', configuration: { cloud_account_id: account.trim(), cloud_region: region } };
  }
  const webhook = (await prompter.input('Webhook URL (https://…)', { validate: (value) => (PATTERNS.webhookEndpoint.test(value.trim()) ? true : 'The URL must begin with https://.') })).trim();
  const auth = await prompter.select<AuthChoice>('How does the webhook authenticate deliveries?', [
    { value: 'bearer', name: 'bearer: an Authorization: Bearer token' },
    { value: 'basic', name: 'basic: a user name and password' },
    { value: 'custom-header', name: 'custom-header: a header of your choice and its value' },
  ]);
  const flags: DestinationFlags = { webhook, auth };
  if (auth === 'basic') flags.username = (await prompter.input('User name', { validate: (value) => (/^[^:]{1,128}$/.test(value) ? true : 'At most 128 characters, no colon.') })).trim();
  if (auth === 'custom-header') flags.headerKey = (await prompter.input('Header name', { validate: (value) => (PATTERNS.headerKey.test(value.trim()) ? true : 'A header name: letters, digits and !#$%&\'*+.^_`|~-.') })).trim();
  const { destination } = await webhookDestination(flags, deps);
  return destination!;
}
