// Entry point: assembles the program from the commands, runs it, and turns every failure into one
// report on stderr and an exit code from the documented table. It returns the code; bin/idm.js sets
// it. Nothing else exits: a signal (SIGINT, SIGTERM, SIGHUP) or a closed stdout stops the run
// through the IO's AbortSignal, which every request, wait and prompt listens to.
import { type Command, CommanderError } from 'commander';
import { createDeps } from './cli/factory.js';
import { commandPath, configureTree, readGlobals } from './cli/program.js';
import { buildProgram } from './commands/index.js';
import { IdmError, InterruptedError, StdoutClosedError, UsageError } from './core/errors.js';
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
  program = buildProgram(deps);
  // The command whose parsing failed, so that a usage error names its --help.
  let failed: Command = program;
  configureTree(program, io, (command) => (failed = command));
  program.hook('preAction', async () => {
    const { color, input, json } = globals();
    await io.configure({ color, input, json });
  });

  try {
    await program.parseAsync(argv as string[]);
    return deps.exitCode ?? ExitCode.Ok;
  } catch (error) {
    // A stop explains whatever the interrupted work threw on its way out.
    const cause = io.signal.aborted ? io.signal.reason : error;
    if (cause instanceof StdoutClosedError) return ExitCode.Ok; // the reader has all it wanted
    if (cause instanceof InterruptedError) io.restoreTerminal();
    return report(cause, deps.output, hasDebugFlag(program), commandPath(failed));
  } finally {
    stopHandling();
    await deps.close();
  }
}

function hasDebugFlag(program: Command): boolean {
  return Boolean(program.opts().debug);
}

function report(error: unknown, output: Output, debug: boolean, command: string): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.Ok;
    const hint = `Run '${command} --help' for usage.`;
    if (error.code === 'commander.help') {
      // `idm help`: asked for. `idm streams` without its command: commander printed the help on
      // stderr (not with --json), and it is a usage error.
      if (error.exitCode === 0) return ExitCode.Ok;
      if (output.json) output.error(new UsageError(`Missing the command: ${command} <command>.`, hint));
      return ExitCode.Usage;
    }
    let message = error.message.replace(/^error: /, '');
    // "option '--take <n>' argument '0' is invalid. --take must be from 1 to 100": idm's parsers name
    // the flag themselves, so their message is enough.
    const parsers = /^(?:option '[^']*' argument '.*' is invalid|command-argument value '.*' is invalid for argument '[^']*')\. (.*)$/s.exec(message);
    if (error.code === 'commander.invalidArgument' && parsers) message = parsers[1]!;
    // "Unknown command 'lst'\n(Did you mean list?)": one line, and the hint the second.
    message = message.replace(/\n\((Did you mean [^)]*)\)$/, '. $1');
    output.error(new UsageError(capitalize(message), hint));
    return ExitCode.Usage;
  }
  if (error instanceof IdmError) {
    if (debug && error.cause) output.say(String((error.cause as Error)?.stack ?? error.cause));
    output.error(error);
    return error.exitCode;
  }
  if (debug) output.say(String((error as Error)?.stack ?? error));
  output.error(
    new IdmError(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, {
      hint: debug ? undefined : 'Run again with --debug for details.',
      code: 'internal',
    }),
  );
  return ExitCode.Failure;
}
