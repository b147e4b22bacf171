// The root command, its global flags, and the settings every command of the tree shares (help
// layout, error handling). Commands are added by src/commands/index.ts; main.ts runs the result.
import { Command, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import type { IO } from '../io/io.js';
import { exitCodeHelp, examples, HELP_WIDTH } from './help.js';
import { parsePath, parsePositiveSeconds, parseProfileName } from './parse.js';

export interface GlobalOptions {
  json: boolean;
  profile?: string;
  /** false with --no-color. */
  color: boolean;
  /** false with --no-input. */
  input: boolean;
  debug: boolean;
  /** Seconds per request (--timeout, IDM_TIMEOUT). */
  timeout?: number;
  /** Seconds to wait in total for rate limits and retries (--max-wait, IDM_MAX_WAIT). */
  maxWait?: number;
  /** PEM file of a private certificate authority to trust as well (--ca-file, IDM_CA_FILE). */
  caFile?: string;
  /** Client certificate and its key for mutual TLS: paths (--client-cert/--client-key, IDM_CLIENT_CERT/IDM_CLIENT_KEY). */
  clientCert?: string;
  clientKey?: string;
}

export function createRootCommand(): Command {
  return new Command('idm')
    .description('Administer the event streams and directory provisioning of an identity-platform tenant.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print JSON for scripts (errors too, on stderr)')
    .addOption(new Option('-p, --profile <name>', 'use this stored profile (default: IDM_PROFILE or the default profile)').argParser(parseProfileName))
    .option('--no-color', 'no colour (also NO_COLOR, TERM=dumb, or output not a terminal)')
    .option('--no-input', 'never prompt; a missing value is a usage error')
    .option('--debug', 'print requests and responses on stderr, secrets redacted')
    // Their IDM_* variables are read from the run's environment by readGlobals (not commander's
    // .env(), which reads process.env), with the same parsers.
    .addOption(new Option('--timeout <seconds>', 'bound on each request (default 30) (env: IDM_TIMEOUT)').argParser(parsePositiveSeconds('--timeout')))
    .addOption(new Option('--max-wait <seconds>', 'longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)').argParser(parsePositiveSeconds('--max-wait')))
    .addOption(new Option('--ca-file <path>', 'also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)').argParser(parsePath('--ca-file')))
    .addOption(new Option('--client-cert <path>', 'PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)').argParser(parsePath('--client-cert')))
    .addOption(new Option('--client-key <path>', 'PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)').argParser(parsePath('--client-key')))
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `${examples([
        'idm sandbox start  # a local tenant to try idm against',
        'idm login --domain tenant.example.com --client-id ID --client-secret-file secret.txt',
        'idm streams list --take 20',
        'idm streams test est_2mNwzVbDq8sXe4RtY6uJkL --event-type user.created',
        'idm provisioning create con_Xy12AbCdEf345678  # asks at a terminal',
      ])}\n${exitCodeHelp()}\n`,
    );
}

/** A flag's value, else its IDM_* variable's (set but blank counts as unset), through the same parser. */
function flagOrEnv<T>(value: T | undefined, env: NodeJS.ProcessEnv, variable: string, parse: (text: string) => T): T | undefined {
  if (value !== undefined) return value;
  const text = env[variable];
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return parse(text);
  } catch (error) {
    // The parsers name the flag; the value came from the variable.
    throw new UsageError(`${variable}: ${(error as Error).message.replace(/^--[a-z-]+ /, '')}`);
  }
}

/** The global flags as parsed, with the IDM_* variables that stand in for them. */
export function readGlobals(program: Command, env: NodeJS.ProcessEnv): GlobalOptions {
  const opts = program.opts();
  return {
    json: Boolean(opts.json),
    profile: flagOrEnv(opts.profile as string | undefined, env, 'IDM_PROFILE', parseProfileName),
    color: opts.color !== false,
    input: opts.input !== false,
    debug: Boolean(opts.debug),
    timeout: flagOrEnv(opts.timeout as number | undefined, env, 'IDM_TIMEOUT', parsePositiveSeconds('--timeout')),
    maxWait: flagOrEnv(opts.maxWait as number | undefined, env, 'IDM_MAX_WAIT', parsePositiveSeconds('--max-wait')),
    caFile: flagOrEnv(opts.caFile as string | undefined, env, 'IDM_CA_FILE', parsePath('--ca-file')),
    clientCert: flagOrEnv(opts.clientCert as string | undefined, env, 'IDM_CLIENT_CERT', parsePath('--client-cert')),
    clientKey: flagOrEnv(opts.clientKey as string | undefined, env, 'IDM_CLIENT_KEY', parsePath('--client-key')),
  };
}

/** `idm streams list`: the words that run `command`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Settings that addCommand() does not pass down, applied to every command of the tree: commander's
 * output goes through the IO (help on stdout; its own error lines are replaced by idm's report), one
 * help width, one wording, and the global flags under every command. `onParseError` learns which
 * command failed to parse, so that the usage error names its --help.
 */
export function configureTree(command: Command, io: IO, onParseError: (command: Command) => void): void {
  command.exitOverride((error) => {
    onParseError(command);
    throw error;
  });
  command.configureOutput({
    writeOut: (text) => io.out(text),
    // Only help goes here (after a missing command); with --json, the JSON error replaces it.
    writeErr: (text) => (io.json ? undefined : io.err(text)),
    outputError: () => {}, // reported by main(), in idm's own format
    getOutHelpWidth: () => HELP_WIDTH,
    getErrHelpWidth: () => HELP_WIDTH,
  });
  command.helpOption('-h, --help', 'show help');
  if (command.commands.length > 0) command.helpCommand('help [command]', 'show help for a command');
  // Commands are listed by name (their arguments are in their own help): long terms would leave too
  // little room for the descriptions to wrap at the help width.
  command.configureHelp({ showGlobalOptions: true, subcommandTerm: (sub) => [sub.name(), ...sub.aliases()].join('|') });
  // JSON mode is state from the moment the parser sees --json, so that a usage error found later in
  // the same command line is already reported as JSON.
  command.on('option:json', () => void io.configure({ json: true }));
  command.commands.forEach((child) => configureTree(child, io, onParseError));
}
