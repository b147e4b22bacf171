// The root command, its global flags, and the settings every command of the tree shares (help
// layout, error handling). Commands are added by src/commands/index.ts; main.ts runs the result.
import { Command, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { preview } from '../core/text.js';
import type { IO } from '../io/io.js';
import { exitCodeHelp, examples, HELP_WIDTH, paragraph } from './help.js';
import { once, parsePath, parsePositiveSeconds, parseProfileName } from './parse.js';
import { suggest } from './suggest.js';

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
    .addOption(new Option('-p, --profile <name>', 'use this stored profile (default: IDM_PROFILE or the default profile)').argParser(once('--profile', parseProfileName)))
    .option('--no-color', 'no colour (also NO_COLOR, TERM=dumb, or output not a terminal)')
    .option('--no-input', 'never prompt (also CI set, or not at a terminal); a missing value is a usage error')
    .option('--debug', 'print requests and responses on stderr, secrets redacted')
    // Their IDM_* variables are read from the run's environment by readGlobals (not commander's
    // .env(), which reads process.env), with the same parsers.
    .addOption(new Option('--timeout <seconds>', 'bound on each request (default 30) (env: IDM_TIMEOUT)').argParser(once('--timeout', parsePositiveSeconds('--timeout'))))
    .addOption(new Option('--max-wait <seconds>', 'longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)').argParser(once('--max-wait', parsePositiveSeconds('--max-wait'))))
    .addOption(new Option('--ca-file <path>', 'also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)').argParser(once('--ca-file', parsePath('--ca-file'), { secret: true })))
    .addOption(new Option('--client-cert <path>', 'PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)').argParser(once('--client-cert', parsePath('--client-cert'), { secret: true })))
    .addOption(new Option('--client-key <path>', 'PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)').argParser(once('--client-key', parsePath('--client-key'), { secret: true })))
    .showSuggestionAfterError(true) // for flags; commands get idm's own (unknownCommand)
    .addHelpText(
      'after',
      () => `${examples([
        'idm sandbox start  # a local tenant to try idm against',
        'idm login --domain tenant.example.com --client-id ID --client-secret-file secret.txt',
        'idm streams list --take 20',
        'idm streams test est_2mNwzVbDq8sXe4RtY6uJkL --event-type user.created',
        'idm provisioning create con_Xy12AbCdEf345678  # asks at a terminal',
      ])}\n${exitCodeHelp()}\n`,
    );
}

/** The global flags, as a command's --help names them in its closing line. */
export const GLOBAL_FLAGS = ['--json', '-p/--profile', '--no-color', '--no-input', '--debug', '--timeout', '--max-wait', '--ca-file', '--client-cert', '--client-key'] as const;
export type GlobalFlag = (typeof GLOBAL_FLAGS)[number];

const relevantGlobals = new WeakMap<Command, readonly GlobalFlag[]>();

/** What a command that reads only local settings (no request) takes of the global flags. */
export const LOCAL_GLOBALS: readonly GlobalFlag[] = ['--json', '-p/--profile', '--no-color'];

/**
 * The global flags that mean something to `command` (by default all of them): its --help names only
 * these (`idm sandbox start` talks to no tenant: no --profile, --ca-file, ...). Every command still
 * accepts every global flag.
 */
export function withGlobals(command: Command, flags: readonly GlobalFlag[]): Command {
  relevantGlobals.set(command, flags);
  return command;
}

/** `idm global` (hidden; what `idm help global` shows): the global flags in full. */
export function globalFlagsCommand(): Command {
  return new Command('global')
    .description('Flags every command accepts, before or after its name (one marked env: may also come from that variable)')
    .addHelpText('after', () => examples(['idm streams list --json --profile prod', 'IDM_PROFILE=prod IDM_TIMEOUT=10 idm streams list', 'idm --no-color --debug streams show est_2mNwzVbDq8sXe4RtY6uJkL']))
    .addHelpText('after', 'Proxies: HTTPS_PROXY=http[s]://[USER:PASSWORD@]HOST:PORT and NO_PROXY,\nlower-case forms first; ALL_PROXY is not read, and loopback never goes\nthrough a proxy (README: Proxies).')
    .action(function (this: Command) {
      this.outputHelp();
    });
}

/**
 * `idm help streams list` (and `idm streams help deliveries list`) shows the help of that command
 * (commander's help command takes one name, and shows the parent's help for a name it does not
 * know). Replaces the dispatch of a command's help command, which receives only the first word; the
 * command's operands hold them all. A help flag among them (`idm help streams --help`) asks for the
 * same help.
 */
function helpTakesPaths(command: Command): void {
  const self = command as Command & { _dispatchHelpCommand(name?: string): unknown };
  const original = self._dispatchHelpCommand.bind(self);
  self._dispatchHelpCommand = (name?: string) => {
    let target: Command = command;
    for (const word of command.args.slice(1)) {
      if (word === '-h' || word === '--help') continue;
      const next = target.commands.find((child) => child.name() === word || child.aliases().includes(word));
      if (!next) throw unknownCommand(word, target);
      target = next;
    }
    return target === command ? original(name) : target.help();
  };
  // `idm streams lst --help`: commander shows the group's help for a word none of its commands has,
  // hiding the typo that `idm help streams lst` reports. The word is the first operand (a known
  // command was dispatched before this; a flag's word starts with '-').
  const group = command as Command & { _outputHelpIfRequested(args: string[]): void };
  const outputHelp = group._outputHelpIfRequested.bind(group);
  group._outputHelpIfRequested = (args: string[]) => {
    const word = command.args[0];
    if (word !== undefined && !word.startsWith('-') && args.some((arg) => arg === '-h' || arg === '--help')) throw unknownCommand(word, command);
    outputHelp(args);
  };
}

/**
 * The commands a typo may be corrected to: those that change nothing. `idm provisioning updat` is
 * never answered "Did you mean update?" (a user who runs the suggestion changes the tenant); the
 * list of commands is shown instead.
 */
const SAFE_TO_SUGGEST = new Set(['list', 'show', 'get', 'status', 'stats', 'default-mapping', 'help', 'streams', 'provisioning', 'connections', 'auth', 'deliveries', 'groups', 'profiles', 'completion', 'sandbox']);

/** `idm streams lst`: a usage error naming the word, a safe suggestion when one is close, and the commands there are. */
export function unknownCommand(word: string, parent: Command): UsageError {
  const visible = parent.createHelp().visibleCommands(parent).filter((command) => command.name() !== 'help');
  // `idm help streams list foo`: a command without subcommands has no list to show.
  if (visible.length === 0) return new UsageError(`Unknown command '${preview(word)}': ${commandPath(parent)} has no subcommands.`, `Run '${commandPath(parent)} --help' for usage.`);
  const close = suggest(word, visible.flatMap((command) => [command.name(), ...command.aliases()])).filter((name) => SAFE_TO_SUGGEST.has(name));
  // `idm version`, as other tools have it: a flag here.
  if (close.length === 0 && parent.parent === null && word.toLowerCase() === 'version') close.push('--version');
  return new UsageError(
    `Unknown command '${preview(word)}'.${close.length > 0 ? ` Did you mean ${close.join(' or ')}?` : ''}`,
    `The commands of ${commandPath(parent)}: ${visible.map((command) => command.name()).join(', ')}.`,
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
  if (command.commands.length > 0) {
    command.helpCommand('help [command]', 'show help for a command');
    helpTakesPaths(command);
  }
  // Commands are listed by name (their arguments are in their own help): long terms would leave too
  // little room for the descriptions to wrap at the help width. A command's own options and examples
  // come first; the global flags close it in one line (in full: idm help global).
  const full = command.name() === 'global' && command.parent !== null;
  command.configureHelp({
    showGlobalOptions: full,
    subcommandTerm: (sub) => [sub.name(), ...sub.aliases()].join('|'),
    // `idm help global` is the global flags alone: not its own -h, which every command has.
    ...(full ? { commandUsage: () => 'idm [global flags] <command>', visibleOptions: () => [] } : {}),
  });
  if (command.parent && !full) {
    const flags = relevantGlobals.get(command) ?? GLOBAL_FLAGS;
    if (flags.length > 0) command.addHelpText('after', () => `${paragraph(`Global flags: ${flags.join(', ')} (idm help global).`)}\n`);
  }
  // JSON mode is state from the moment the parser sees --json, so that a usage error found later in
  // the same command line is already reported as JSON.
  command.on('option:json', () => void io.configure({ json: true }));
  command.commands.forEach((child) => configureTree(child, io, onParseError));
}
