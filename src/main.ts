// Entry point: builds the program, runs it, and turns every failure into one report on stderr and an
// exit code from the documented table. It returns the code; bin/idm.js sets it. Nothing else exits.
import { type Command, CommanderError } from 'commander';
import { buildProgram } from './cli/program.js';
import { createDeps, type GlobalOptions } from './cli/deps.js';
import { IdmError, InterruptedError, UsageError } from './cli/errors.js';
import { ExitCode } from './cli/exit-codes.js';
import { capitalize, HELP_WIDTH } from './cli/help.js';
import { createIO, type IO, type Streams } from './io/terminal.js';

export { ExitCode } from './cli/exit-codes.js';

export async function main(
  argv: readonly string[],
  streams: Streams = process,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const io = createIO(streams, env);
  let program: ReturnType<typeof buildProgram> | undefined;
  const globals = (): GlobalOptions => {
    const opts = program?.opts() ?? {};
    return {
      json: Boolean(opts.json),
      profile: (opts.profile as string | undefined) ?? env.IDM_PROFILE,
      color: opts.color !== false,
      input: opts.input !== false,
      debug: Boolean(opts.debug),
      timeout: opts.timeout as number | undefined,
      maxWait: opts.maxWait as number | undefined,
      caFile: opts.caFile as string | undefined,
      clientCert: opts.clientCert as string | undefined,
      clientKey: opts.clientKey as string | undefined,
    };
  };
  const deps = createDeps(io, globals);
  const json = () => argv.includes('--json') || globals().json;
  program = buildProgram(deps);
  // The command whose parsing failed, so that a usage error names its --help.
  let failed: Command = program;
  // addCommand() does not pass these settings down, so every command gets them here.
  const configure = (command: Command): void => {
    command.exitOverride((error) => {
      failed = command;
      throw error;
    });
    command.configureOutput({
      writeOut: (text) => io.out(text),
      // Only help goes here (after a missing command); with --json, the JSON error replaces it.
      writeErr: (text) => (json() ? undefined : io.err(text)),
      outputError: () => {}, // reported by report(), in idm's own format
      // One width everywhere, so help reads the same in a pipe, at any terminal, and from the
      // text bin/idm.js prints for `idm --help` without loading the CLI.
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    });
    // One wording on every command, and idm's own flags listed under each (they work after it too).
    command.helpOption('-h, --help', 'show help');
    if (command.commands.length > 0) command.helpCommand('help [command]', 'show help for a command');
    command.configureHelp({ showGlobalOptions: true });
    command.commands.forEach(configure);
  };
  configure(program);
  let running = '';
  program.hook('preAction', (_root, action) => {
    running = commandPath(action).replace(/^idm /, '');
    const { color, input } = globals();
    io.configure({ color, input });
  });

  // Ctrl-C during a request or a wait (a prompt reports its own): restore the terminal, say so, exit
  // 130. Files are written atomically and synchronously, so none is left half-written; held locks are
  // released on exit. `sandbox start` runs until Ctrl-C by design and stops itself.
  const interrupted = () => {
    if (running === 'sandbox start') return;
    restoreTerminal(io);
    process.exit(print(new InterruptedError(), io, json()));
  };
  if (streams === process) process.on('SIGINT', interrupted);

  try {
    await program.parseAsync(argv as string[]);
    return deps.exitCode ?? ExitCode.Ok;
  } catch (error) {
    return report(error, io, json(), argv.includes('--debug'), commandPath(failed));
  } finally {
    process.off('SIGINT', interrupted);
    await deps.close();
  }
}

/** Raw mode off, cursor shown, a half-written line (a countdown) cleared. */
function restoreTerminal(io: IO): void {
  const stdin = io.stdin as IO['stdin'] & { isRaw?: boolean; setRawMode?: (raw: boolean) => void };
  if (stdin.isTTY && stdin.isRaw) stdin.setRawMode?.(false);
  if (io.stderrIsTTY) io.err('\r\x1b[K\x1b[?25h');
}

/** `idm streams list`: the words that run `command`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function report(error: unknown, io: IO, json: boolean, debug: boolean, command: string): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.Ok;
    const hint = `Run '${command} --help' for usage.`;
    if (error.code === 'commander.help') {
      // `idm help`: asked for. `idm streams` without its command: commander printed the help on
      // stderr (not with --json), and it is a usage error.
      if (error.exitCode === 0) return ExitCode.Ok;
      return json ? print(new UsageError(`Missing the command: ${command} <command>.`, hint), io, json) : ExitCode.Usage;
    }
    let message = error.message.replace(/^error: /, '');
    // "option '--take <n>' argument '0' is invalid. --take must be from 1 to 100": idm's parsers name
    // the flag themselves, so their message is enough.
    const parsers = /^(?:option '[^']*' argument '.*' is invalid|command-argument value '.*' is invalid for argument '[^']*')\. (-.*)$/s.exec(message);
    if (error.code === 'commander.invalidArgument' && parsers) message = parsers[1]!;
    // "Unknown command 'lst'\n(Did you mean list?)": one line, and the hint the second.
    message = message.replace(/\n\((Did you mean [^)]*)\)$/, '. $1');
    return print(new UsageError(capitalize(message), hint), io, json);
  }
  if (error instanceof IdmError) {
    if (debug && error.cause) io.err(`${String((error.cause as Error)?.stack ?? error.cause)}\n`);
    return print(error, io, json);
  }
  const unexpected = new IdmError(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, {
    hint: debug ? undefined : 'Run again with --debug for details.',
    code: 'internal',
  });
  if (debug) io.err(`${String((error as Error)?.stack ?? error)}\n`);
  return print(unexpected, io, json);
}

/** An error is one or two lines: a message that quotes a huge pasted value is cut, not echoed whole. */
const MAX_MESSAGE = 1000;
function clip(text: string): string {
  return text.length <= MAX_MESSAGE ? text : `${text.slice(0, MAX_MESSAGE)}… (${text.length - MAX_MESSAGE} more characters)`;
}

function print(error: IdmError, io: IO, json: boolean): number {
  if (json) {
    const { error: body } = error.toJSON();
    io.err(`${JSON.stringify({ error: { ...body, message: clip(error.message) } })}\n`);
  } else {
    io.err(`Error: ${clip(error.message)}\n`);
    if (error.hint) io.err(`${clip(error.hint)}\n`);
  }
  return error.exitCode;
}
