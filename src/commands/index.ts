// The command tree: the root command with its global flags (cli/program.ts) and every command, one
// folder per noun. Builders only declare flags and hand parsed values to run functions, which load
// heavy modules themselves, so that building this tree (on every start, and for completions) stays
// cheap.
import { Command } from 'commander';
import type { Deps } from '../cli/factory.js';
import { examples } from '../cli/help.js';
import { createRootCommand, globalFlagsCommand, withGlobals, type GlobalFlag } from '../cli/program.js';
import { ID_SHAPES } from '../schemas/ids.js';
import { loginCommand } from './auth/login.js';
import { logoutCommand } from './auth/logout.js';
import { authStatusCommand } from './auth/status.js';
import { completionCommand } from './completion/index.js';
import { connectionsListCommand } from './connections/list.js';
import { provisioningCreateCommand } from './provisioning/create.js';
import { provisioningDefaultMappingCommand } from './provisioning/default-mapping.js';
import { provisioningDeleteCommand } from './provisioning/delete.js';
import { groupsChangeCommand } from './provisioning/groups/change.js';
import { groupsListCommand } from './provisioning/groups/list.js';
import { provisioningListCommand } from './provisioning/list.js';
import { provisioningShowCommand } from './provisioning/show.js';
import { provisioningSyncCommand } from './provisioning/sync.js';
import { provisioningUpdateCommand } from './provisioning/update.js';
import { profilesListCommand } from './profiles/list.js';
import { profilesRemoveCommand } from './profiles/remove.js';
import { profilesUseCommand } from './profiles/use.js';
import { sandboxStartCommand } from './sandbox/start.js';
import { streamsCreateCommand } from './streams/create.js';
import { streamsDeleteCommand } from './streams/delete.js';
import { deliveriesListCommand } from './streams/deliveries/list.js';
import { deliveriesShowCommand } from './streams/deliveries/show.js';
import { streamsListCommand } from './streams/list.js';
import { streamsRedeliverCommand } from './streams/redeliver.js';
import { streamsShowCommand } from './streams/show.js';
import { streamsStateCommand } from './streams/state.js';
import { streamsStatsCommand } from './streams/stats.js';
import { streamsTestCommand } from './streams/test.js';
import { streamsUpdateCommand } from './streams/update.js';

/** A noun's command: its description, a few examples of its subcommands, and the subcommands. */
function group(name: string, description: string, examplesOf: string[], ...commands: Command[]): Command {
  const command = new Command(name).description(description).addHelpText('after', examples(examplesOf));
  for (const child of commands) command.addCommand(child);
  return command;
}

const STREAM = ID_SHAPES.stream.example;
const CONNECTION = ID_SHAPES.connection.example;

/** Commands that talk to no tenant name only the global flags that mean something to them. */
const LOCAL: readonly GlobalFlag[] = ['--json', '-p/--profile', '--no-color'];

export function buildProgram(deps: Deps): Command {
  const program = createRootCommand();
  program.addCommand(loginCommand(deps));
  program.addCommand(withGlobals(logoutCommand(deps), LOCAL));
  // `idm auth login` and `idm auth logout` too, as in the GitHub CLI.
  program.addCommand(
    group(
      'auth',
      'Log in and out, and inspect the stored credentials and token',
      ['idm auth login', 'idm auth status'],
      loginCommand(deps),
      withGlobals(logoutCommand(deps), LOCAL),
      withGlobals(authStatusCommand(deps), LOCAL),
    ),
  );
  program.addCommand(
    group(
      'profiles',
      'The stored profiles: list them, choose the default, remove one',
      ['idm profiles list', 'idm profiles use prod'],
      withGlobals(profilesListCommand(deps), ['--json', '--no-color']),
      withGlobals(profilesUseCommand(deps), ['--json']),
      withGlobals(profilesRemoveCommand(deps), ['--json', '--no-input']),
    ),
  );
  program.addCommand(
    group(
      'streams',
      'Event streams: list, show, create, change, test, and follow their deliveries',
      ['idm streams list --take 20', `idm streams test ${STREAM} --event-type user.created --wait`, `idm streams deliveries list ${STREAM} --since 1d`],
      streamsListCommand(deps),
      streamsShowCommand(deps),
      streamsCreateCommand(deps),
      streamsUpdateCommand(deps),
      streamsStateCommand(deps, 'enable'),
      streamsStateCommand(deps, 'disable'),
      streamsDeleteCommand(deps),
      streamsTestCommand(deps),
      group(
        'deliveries',
        "A stream's failed deliveries: list them, show one",
        [`idm streams deliveries list ${STREAM}`, `idm streams deliveries show ${STREAM} ${ID_SHAPES.event.example}`],
        deliveriesListCommand(deps),
        deliveriesShowCommand(deps),
      ),
      streamsRedeliverCommand(deps),
      streamsStatsCommand(deps),
    ),
  );
  program.addCommand(
    group(
      'provisioning',
      'Directory provisioning of connections: set it up, change it, synchronize, choose groups',
      ['idm provisioning create', 'idm provisioning list', `idm provisioning sync ${CONNECTION}`],
      provisioningListCommand(deps),
      provisioningShowCommand(deps),
      provisioningCreateCommand(deps),
      provisioningUpdateCommand(deps),
      provisioningDeleteCommand(deps),
      provisioningDefaultMappingCommand(deps),
      provisioningSyncCommand(deps),
      group(
        'groups',
        'The groups synchronized when group synchronization is "selected"',
        [`idm provisioning groups list ${CONNECTION}`, `idm provisioning groups add ${CONNECTION} 03ep43zb1xk6ay0`],
        groupsListCommand(deps),
        groupsChangeCommand(deps, 'add'),
        groupsChangeCommand(deps, 'remove'),
        groupsChangeCommand(deps, 'set'),
      ),
    ),
  );
  program.addCommand(group('connections', "The tenant's connections", ['idm connections list --strategy google-apps'], connectionsListCommand(deps)));
  program.addCommand(
    group(
      'sandbox',
      'Run a local tenant on 127.0.0.1 that speaks the management interface',
      ['idm sandbox start', 'idm sandbox start --port 8080 --streams 1000'],
      withGlobals(sandboxStartCommand(deps), ['--json', '--no-color', '--debug']),
    ),
  );
  program.addCommand(withGlobals(completionCommand(deps, program), []));
  program.addCommand(globalFlagsCommand(), { hidden: true });
  return program;
}
