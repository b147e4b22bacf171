// Entry point: assembles the program from the commands, runs it, and turns every failure into one
// report on stderr and an exit code from the documented table. It returns the code; bin/idm.js sets
// it. Nothing else exits: a signal (SIGINT, SIGTERM, SIGHUP) or a closed stdout stops the run
// through the IO's AbortSignal, which every request, wait and prompt listens to.
import { type Command, CommanderError } from 'commander';
import { createDeps } from './cli/factory.js';
import { commandPath, configureTree, readGlobals, unknownCommand } from './cli/program.js';
import { didYouMean, notOneOf } from './cli/suggest.js';
import { buildProgram } from './commands/index.js';
import { IdmError, InterruptedError, OutputError, StdoutClosedError, UsageError } from './core/errors.js';
import { ExitCode } from './core/exit-codes.js';
import { capitalize } from './core/text.js';
import { createIO, type SignalSource, type Streams } from './io/io.js';
import type { Output } from './output/index.js';

export { ExitCode } from './core/exit-codes.js';

export async function main(
  argv: readonly string[],
  streams: Streams = process,
  env: NodeJS.ProcessEnv = process.env,
  signals: SignalSource | undefined = streams === process ? process : undefined,
): Promise<number> {
  const io = createIO(streams, env);
  const stopHandling = signals ? io.handleSignals(signals) : () => {};
  let program: Command | undefined;
  const globals = () => readGlobals(program!, env);
  const deps = createDeps(io, globals);
  const stopWarnings = streams === process ? sayNodeWarnings(deps.output) : () => {};
  program = await buildProgram(deps, argv);
  argv = dashValues(program, argv);
  // The command whose parsing failed, so that a usage error names its --help.
  let failed: Command = program;
  configureTree(program, io, (command) => (failed = command));
  let configured = false;
  program.hook('preAction', async () => {
    const { color, input, json } = globals();
    await io.configure({ color, input, json });
    configured = true;
  });

  try {
    await program.parseAsync(argv as string[]);
    // A write refused after the last one was checked (a pipe's error comes late) still fails the run.
    if (io.signal.reason instanceof OutputError) throw io.signal.reason;
    const { failure } = deps;
    if (failure === undefined) return ExitCode.Ok;
    // Said in words by the command; a script reads the error object, the last line as always.
    if (deps.output.json) deps.output.error(failure);
    return failure.exitCode;
  } catch (error) {
    // A stop explains whatever the interrupted work threw on its way out. A closed stdout (stderr
    // too, with `2>&1`) is no failure, but neither does it erase one: a usage error whose help
    // commander wrote into the closed pipe, or a command's own failure after a warning went there,
    // keeps its exit code (`idm 2>&1 | head -1` exits 2 under pipefail). Only what the stop itself
    // made the work throw (its reason, or an error no IdmError) ends the run with exit 0.
    const stop = io.signal.aborted ? io.signal.reason : undefined;
    const ownFailure = error !== stop && (error instanceof CommanderError || (error instanceof IdmError && !(error instanceof StdoutClosedError)));
    const cause = stop instanceof StdoutClosedError && ownFailure ? error : (stop ?? error);
    if (cause instanceof StdoutClosedError) return ExitCode.Ok; // the reader has all it wanted
    if (cause instanceof InterruptedError) io.restoreTerminal();
    // An error found while parsing never reached preAction: its colour is set up here, only now
    // (chalk is loaded on this path alone). --no-color and --json may come after the error's place
    // in argv (`idm --timeout 0 streams list --json`): the parser stopped before it saw them.
    if (!configured) await io.configure({ color: program.opts().color !== false && !flagWords(argv).includes('--no-color'), json: io.json || asksForJson(argv) });
    return report(cause instanceof InterruptedError ? cause : (oneDashProfile(argv, program) ?? cause), deps.output, hasDebugFlag(program), failed, argv);
  } finally {
    stopHandling();
    await deps.close();
    stopWarnings();
  }
}

/**
 * Node's own warnings (process.emitWarning), said by idm as its other warnings are: `Warning: ...`,
 * or a {"warning"} line with --json, whose stderr is JSON lines only; Node would print its
 * `(node:PID) Warning: ...` line. NODE_TLS_REJECT_UNAUTHORIZED=0 (set by CI runners for everything)
 * turns nothing off in idm, which asks for verification on every connection: Node's words, that
 * certificate verification is disabled, would be untrue. With --no-warnings, Node has no printer
 * of its own, and none is added.
 */
function sayNodeWarnings(output: Output): () => void {
  const printers = process.listeners('warning');
  if (printers.length === 0) return () => {};
  const say = (warning: Error) => {
    if (warning.message.includes('NODE_TLS_REJECT_UNAUTHORIZED')) {
      output.warn({
        message: 'NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: idm verifies every certificate.',
        hint: 'Unset it. For a private certificate authority, give its certificate with --ca-file PATH (IDM_CA_FILE, or NODE_EXTRA_CA_CERTS).',
      });
      return;
    }
    output.warn({ message: `Node.js ${warning.name}: ${warning.message}` });
  };
  for (const printer of printers) process.off('warning', printer);
  process.on('warning', say);
  return () => {
    process.off('warning', say);
    for (const printer of printers) process.on('warning', printer);
  };
}

/**
 * What bin/idm.js says when stdout refused the answer of a fast path (--version, --help, TAB's values
 * on a full disk): the CLI's own words for an OutputError, exit 1.
 */
export function outputFailure(error: unknown): string {
  const failure = new OutputError(error);
  return `Error: ${failure.message}\n${failure.hint}\n`;
}

/** Whether `flag` (`--json`, `--no-color`, `-h`) is a flag of `command` or of a command above it that takes no value. */
function takesNoValue(command: Command, flag: string): boolean {
  // Every command's help flag (helpOption in cli/program.ts), which commander keeps apart from its options.
  if (flag === '--help' || flag === '-h') return true;
  for (let c: Command | null = command; c; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return !option.required && !option.optional;
  }
  return false;
}

/**
 * argv with a `--` that is the value of the flag before it (`--name --`, `-p --`) in that flag's word
 * (`--name=--`, `-p--`). The command's parser takes it as the value, as getopt does, but commander's
 * first pass, the program's, took it for the end of the flags: every flag after it was hidden (`idm
 * streams list --from -- --json` said "Unknown flag --json. Did you mean --json?", and an error in the
 * value was said in words). Only for a flag that takes a value wherever the tree defines it; any other
 * `--` ends the flags, as ever (buildProgram's commandWords reads the global flags' `--` so already).
 */
function dashValues(program: Command, argv: readonly string[]): readonly string[] {
  const valued = new Map<string, boolean>();
  const visit = (command: Command) => {
    for (const option of command.options) for (const flag of [option.long, option.short]) if (flag) valued.set(flag, (valued.get(flag) ?? true) && option.required);
    command.commands.forEach(visit);
  };
  visit(program);
  const words = [...argv];
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') break;
    if (valued.get(word) !== true) continue;
    if (words[i + 1] === '--') words.splice(i, 2, word.startsWith('--') ? `${word}=--` : `${word}--`);
    else i++; // its value, whatever it looks like
  }
  return words;
}

/** The words of argv before `--`: after it every word is an operand (`idm streams show -- --json`), never a flag. */
function flagWords(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

/**
 * Whether argv asks for JSON, for an error found while parsing: `--json`, or `--json=VALUE`, whose
 * error ("takes no value") a script reading stderr as JSON lines must still read, unless VALUE says no.
 */
function asksForJson(argv: readonly string[]): boolean {
  return flagWords(argv).some((arg) => arg === '--json' || (arg.startsWith('--json=') && !/^(false|0|no|off)$/i.test(arg.slice('--json='.length))));
}

/**
 * An unknown flag given with its value in the same word (`--client-secret=…`, `-pVALUE`): named
 * without the value, which may be a secret (a flag idm does not take, tried on the wrong command)
 * and would otherwise be quoted back on stderr, into a terminal's scrollback or a CI log.
 */
function unknownValuedFlag(flag: string, command: Command, hint: string): UsageError {
  // --help is commander's help option, never in `options`: `--hepl=1` is as close to it as `--jsno=1` to --json.
  const flags: string[] = ['--help'];
  for (let c: Command | null = command; c; c = c.parent) for (const option of c.options) if (!option.hidden && option.long) flags.push(option.long);
  const near = flag.startsWith('--') ? didYouMean(flag, flags) : '';
  return new UsageError(`Unknown flag ${flag} (its value is not repeated here: it may be a secret).${near}`, hint);
}

/**
 * `-json`, `-take` (one dash, as some other tools spell long flags): the name of the long flag it
 * means when `--NAME` is one of the command's or of a command above it, else undefined. Commander
 * reads such a word as short flags run together (`-j` `-s` …, or `-t` with the value `ake`), which
 * would be reported as the unknown `-j`; the word itself is a known flag's name, so it is no secret.
 */
function singleDashed(message: string, command: Command, argv: readonly string[]): string | undefined {
  // `-take=3`: the name alone is named, never what follows its `=`.
  const rest = /^error: unknown option '-([a-z][a-z0-9-]+)(?:=[^']*)?'$/.exec(message)?.[1];
  if (rest === undefined) return undefined;
  const known = (name: string) => {
    // `-help`: every command's help flag, which commander keeps apart from its options (takesNoValue).
    if (name === 'help') return true;
    for (let c: Command | null = command; c; c = c.parent) if (c.options.some((option) => !option.hidden && option.long === `--${name}`)) return true;
    return false;
  };
  if (known(rest)) return rest;
  // `-yes`: -y is a flag, and commander reports what follows it (`-es`); the word it came from says more.
  return flagWords(argv)
    .map((word) => /^-([a-z][a-z0-9-]+)$/.exec(word)?.[1])
    .find((name) => name !== undefined && name.length > rest.length && name.endsWith(rest) && known(name));
}

/**
 * `idm -v` (a short flag in the other case, as other tools spell their version flag): the flag it
 * means, `-V (--version)`, when the command or one above it has that short flag; else undefined.
 */
function otherCase(message: string, command: Command): string | undefined {
  const letter = /^error: unknown option '-([a-zA-Z])'$/.exec(message)?.[1];
  if (letter === undefined) return undefined;
  const twin = `-${letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()}`;
  // `-H`: every command's help flag, which commander keeps apart from its options (takesNoValue).
  if (twin === '-h') return '-h (--help)';
  for (let c: Command | null = command; c; c = c.parent) {
    const option = c.options.find((o) => !o.hidden && o.short === twin);
    if (option) return option.long ? `${twin} (${option.long})` : twin;
  }
  return undefined;
}

/**
 * `-profile prod`: commander reads `-p` with the value `rofile`, and the run fails on whatever comes
 * next (`prod`: too many arguments, an unknown command, or no profile named rofile). The word in
 * argv says what was meant, so that error is said instead, as for `-json` (singleDashed).
 */
function oneDashProfile(argv: readonly string[], program: Command): UsageError | undefined {
  // `-profile=prod`: -p takes `rofile=prod`, which no profile name can be (refused as one).
  const words = flagWords(argv);
  if (!(program.opts().profile === 'rofile' && words.includes('-profile')) && !words.some((word) => word.startsWith('-profile='))) return undefined;
  return new UsageError('Unknown flag -profile: a long flag takes two dashes. Did you mean --profile?', 'Give the profile as --profile NAME (or -p NAME).');
}

function hasDebugFlag(program: Command): boolean {
  return Boolean(program.opts().debug);
}

function report(error: unknown, output: Output, debug: boolean, failed: Command, argv: readonly string[]): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.Ok;
    const command = commandPath(failed);
    const hint = `Run '${command} --help' for usage.`;
    if (error.code === 'commander.help') {
      // `idm help`: asked for. `idm streams` without its command: commander printed the help on
      // stderr (not with --json), and it is a usage error.
      if (error.exitCode === 0) return ExitCode.Ok;
      if (output.json) output.error(new UsageError(`Missing the command: ${command} <command>.`, hint));
      return ExitCode.Usage;
    }
    const unknown = error.code === 'commander.unknownCommand' ? /^error: unknown command '(.*)'/.exec(error.message) : null;
    const valued = error.code === 'commander.unknownOption' ? /^error: unknown option '(--[^=']+)=/.exec(error.message) : null;
    const dashed = error.code === 'commander.unknownOption' ? singleDashed(error.message, failed, argv) : undefined;
    // `--json=true`: commander knows no such flag, but the flag is there, and takes no value.
    if (valued && takesNoValue(failed, valued[1]!)) output.error(new UsageError(`${valued[1]} takes no value: give ${valued[1]} alone, without "=".`, hint));
    else if (valued) output.error(unknownValuedFlag(valued[1]!, failed, hint));
    else if (dashed) output.error(new UsageError(`Unknown flag -${dashed}: a long flag takes two dashes. Did you mean --${dashed}?`, hint));
    else if (error.code === 'commander.unknownOption' && otherCase(error.message, failed)) output.error(new UsageError(`Unknown flag ${error.message.slice("error: unknown option '".length, -1)}. Did you mean ${otherCase(error.message, failed)!}?`, hint));
    else if (error.code === 'commander.unknownOption' && /^error: unknown option '-[^-'][^']/.test(error.message)) {
      const short = error.message.slice("error: unknown option '".length).slice(0, 2);
      // `-h1`, `-h=1`: the help flag, which commander does not split as it splits the other switches.
      output.error(takesNoValue(failed, short) ? new UsageError(`${short} takes no value: give ${short} alone.`, hint) : unknownValuedFlag(short, failed, hint));
    }
    else output.error(unknown ? unknownCommand(unknown[1]!, failed) : new UsageError(capitalize(commanderMessage(error)), hint));
    return ExitCode.Usage;
  }
  if (error instanceof IdmError) {
    if (debug && error.cause) output.debug(String((error.cause as Error)?.stack ?? error.cause));
    output.error(error);
    return error.exitCode;
  }
  if (debug) output.debug(String((error as Error)?.stack ?? error));
  output.error(
    new IdmError(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, {
      hint: debug ? undefined : 'Run again with --debug for details.',
      code: 'internal',
    }),
  );
  return ExitCode.Failure;
}

/** Commander's own words, in idm's voice: what is wrong, naming the flag or argument. */
export function commanderMessage(error: CommanderError): string {
  const message = error.message.replace(/^error: /, '');
  const option = (flags: string) => flags.split(/[ ,]+/).find((part) => part.startsWith('--')) ?? flags;
  let match: RegExpExecArray | null;
  // idm's parsers name the flag or argument themselves: their message is enough.
  if ((match = /^option '([^']*)' argument '(.*)' is invalid\. (.*)$/s.exec(message))) {
    const [, flags, value, rest] = match;
    const choices = /^Allowed choices are (.*)\.$/.exec(rest!)?.[1];
    return choices ? notOneOf(option(flags!), choices.split(', '), value!) : rest!;
  }
  if ((match = /^command-argument value '(.*)' is invalid for argument '([^']*)'\. (.*)$/s.exec(message))) {
    const [, value, name, rest] = match;
    const choices = /^Allowed choices are (.*)\.$/.exec(rest!)?.[1];
    return choices ? notOneOf(`<${name}>`, choices.split(', '), value!) : rest!;
  }
  if ((match = /^option '([^']*)' argument missing$/.exec(message))) return `${option(match[1]!)} needs a value: ${match[1]}.`;
  if ((match = /^missing required argument '([^']*)'$/.exec(message))) return `Missing <${match[1]}>.`;
  if ((match = /^(option '[^']*'|environment variable '[^']*') cannot be used with (option '[^']*'|environment variable '[^']*')$/.exec(message))) {
    const name = (text: string) => option(text.replace(/^(option|environment variable) '|'$/g, ''));
    return `${name(match[1]!)} and ${name(match[2]!)} cannot be used together.`;
  }
  if ((match = /^unknown option '([^']*)'(?:\n\(Did you mean (.*)\?\))?$/s.exec(message))) return `Unknown flag ${match[1]}.${match[2] ? ` Did you mean ${match[2]}?` : ''}`;
  if ((match = /^too many arguments(?: for '([^']*)')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(message))) {
    return `Too many arguments${match[1] ? ` for ${match[1]}` : ''}: it takes ${match[2] === '0' ? 'none' : match[2]}, not ${match[3]}.`;
  }
  // "Unknown command 'lst'\n(Did you mean list?)": one line, and the hint the second.
  return capitalize(message.replace(/\n\((Did you mean [^)]*)\)$/, '. $1'));
}
