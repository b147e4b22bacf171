// The command tree: the root command with its global flags (cli/program.ts) and every command, one
// folder per noun. Only the command being run is built in full: the other nouns are their name and
// description (what `idm --help` and a typo's suggestions need), and of the noun run, only the
// subcommand argv names (all of them when it names none: the noun's help, a typo), so that a start
// builds one command's options and help, not twenty. Without argv (completions, tests) the whole
// tree is built.
// The modules are imported statically: as ES modules split into chunks, each loaded file costs
// more than the code it saves (measured: README, Performance).
// Builders only declare flags and hand parsed values to run functions, which load heavy modules
// themselves.
import { Command } from 'commander';
import type { Deps } from '../cli/factory.js';
import { examples } from '../cli/help.js';
import { createRootCommand, globalFlagsCommand, LOCAL_GLOBALS, withGlobals } from '../cli/program.js';
import { ID_SHAPES } from '../schemas/ids.js';
import { apiCommand } from './api/index.js';
import { subcommands as authSubcommands } from './auth/index.js';
import { loginCommand } from './auth/login.js';
import { logoutCommand } from './auth/logout.js';
import { completionCommand } from './completion/index.js';
import { subcommands as connectionsSubcommands } from './connections/index.js';
import { subcommands as profilesSubcommands } from './profiles/index.js';
import { subcommands as provisioningSubcommands } from './provisioning/index.js';
import { subcommands as sandboxSubcommands } from './sandbox/index.js';
import { subcommands as streamsSubcommands } from './streams/index.js';
import type { Subcommand } from './subcommand.js';

const STREAM = ID_SHAPES.stream.example;
const CONNECTION = ID_SHAPES.connection.example;

interface TopCommand {
  name: string;
  description: string;
  /** A noun: its examples, and its subcommands. */
  examples?: string[];
  subcommands?: readonly Subcommand[];
  /** A command of its own. */
  build?: (deps: Deps, program: Command) => Command;
}

/** In the order `idm --help` lists them. Each description is the one place it is written. */
const TOP: readonly TopCommand[] = [
  {
    name: 'login',
    description: 'Store credentials for a tenant as a profile (checked with a token request first)',
    build: (deps) => loginCommand(deps),
  },
  {
    name: 'logout',
    description: "Remove a profile's secrets and cached tokens",
    build: (deps) => withGlobals(logoutCommand(deps), LOCAL_GLOBALS),
  },
  {
    name: 'auth',
    description: 'Log in and out, and inspect the stored credentials and token',
    examples: ['idm auth login', 'idm auth status'],
    subcommands: authSubcommands,
  },
  {
    name: 'profiles',
    description: 'The stored profiles: list them, choose the default, remove one',
    examples: ['idm profiles list', 'idm profiles use prod'],
    subcommands: profilesSubcommands,
  },
  {
    name: 'streams',
    description: 'Event streams: list, show, create, change, test, and follow their deliveries',
    examples: ['idm streams list --take 20', `idm streams test ${STREAM} --event-type user.created --wait`, `idm streams deliveries list ${STREAM} --since 1d`],
    subcommands: streamsSubcommands,
  },
  {
    name: 'provisioning',
    description: 'Directory provisioning of connections: set it up, change it, synchronize, choose groups',
    examples: ['idm provisioning create', 'idm provisioning list', `idm provisioning sync ${CONNECTION}`],
    subcommands: provisioningSubcommands,
  },
  {
    name: 'connections',
    description: "The tenant's connections",
    examples: ['idm connections list --strategy google-apps'],
    subcommands: connectionsSubcommands,
  },
  {
    name: 'api',
    description: "Call any management endpoint with the profile's token (like gh api)",
    build: (deps) => apiCommand(deps),
  },
  {
    name: 'sandbox',
    description: 'Run a local tenant on 127.0.0.1 that speaks the management interface',
    examples: ['idm sandbox start', 'idm sandbox start --port 8080 --streams 1000'],
    subcommands: sandboxSubcommands,
  },
  {
    name: 'completion',
    description: 'Print the completion script for bash, zsh or fish',
    build: (deps, program) => withGlobals(completionCommand(deps, program), []),
  },
];

/** Global flags that take a value: skipped with it when looking for the command's name in argv. */
const VALUE_FLAGS = new Set(['-p', '--profile', '--timeout', '--max-wait', '--ca-file', '--client-cert', '--client-key']);

/** The words of argv that name the command (`help streams list` runs streams list's help), at most two. */
function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 3; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_FLAGS.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words[0] === 'help' ? words.slice(1) : words.slice(0, 2);
}

/**
 * The top-level command argv runs (`help streams list` runs streams' help); undefined when the
 * whole tree is needed: no argv, `completion` (its scripts describe every command), or no command.
 */
export function commandToBuild(argv: readonly string[]): string | undefined {
  const [name] = commandWords(argv);
  return name === 'completion' ? undefined : name;
}

/**
 * A noun or command: in full when it is run (`full`), else its name and description, enough for help
 * and suggestions. Of a noun run, only the subcommand `word` names, if it names one.
 */
function buildTop(top: TopCommand, deps: Deps, program: Command, full: boolean, word: string | undefined): Command {
  if (top.build) return full ? top.build(deps, program) : new Command(top.name).description(top.description);
  const command = new Command(top.name).description(top.description).addHelpText('after', () => examples(top.examples ?? []));
  if (!full) return command;
  const named = top.subcommands!.find((sub) => sub.name === word || sub.aliases?.includes(word!));
  for (const sub of named ? [named] : top.subcommands!) command.addCommand(sub.build(deps));
  return command;
}

/** The program: every command, in full only the one `argv` (process.argv) runs; without argv, all. */
export async function buildProgram(deps: Deps, argv?: readonly string[]): Promise<Command> {
  const program = createRootCommand();
  const words = argv === undefined ? [] : commandWords(argv.slice(2));
  const wanted = argv === undefined ? undefined : commandToBuild(argv.slice(2));
  const known = TOP.some((top) => top.name === wanted);
  for (const top of TOP) program.addCommand(buildTop(top, deps, program, !known || top.name === wanted, known ? words[1] : undefined));
  program.addCommand(globalFlagsCommand(), { hidden: true });
  return program;
}
