// The command tree: the root command with its global flags (cli/program.ts) and every command, one
// folder per noun. Builders only declare flags and hand parsed values to run functions, which load
// heavy modules themselves, so that building this tree (on every start, and for completions) stays
// cheap.
import { Command } from 'commander';
import type { Deps } from '../cli/factory.js';
import { createRootCommand } from '../cli/program.js';
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

export function buildProgram(deps: Deps): Command {
  const program = createRootCommand();
  program.addCommand(loginCommand(deps));
  program.addCommand(logoutCommand(deps));
  program.addCommand(new Command('auth').description('Inspect the stored credentials and token').addCommand(authStatusCommand(deps)));
  program.addCommand(
    new Command('streams')
      .description('Event streams: list, show, create, change, test, and follow their deliveries')
      .addCommand(streamsListCommand(deps))
      .addCommand(streamsShowCommand(deps))
      .addCommand(streamsCreateCommand(deps))
      .addCommand(streamsUpdateCommand(deps))
      .addCommand(streamsStateCommand(deps, 'enable'))
      .addCommand(streamsStateCommand(deps, 'disable'))
      .addCommand(streamsDeleteCommand(deps))
      .addCommand(streamsTestCommand(deps))
      .addCommand(
        new Command('deliveries')
          .description("A stream's failed deliveries: list them, show one")
          .addCommand(deliveriesListCommand(deps))
          .addCommand(deliveriesShowCommand(deps)),
      )
      .addCommand(streamsRedeliverCommand(deps))
      .addCommand(streamsStatsCommand(deps)),
  );
  program.addCommand(
    new Command('provisioning')
      .description('Directory provisioning of connections: set it up, change it, synchronize, choose groups')
      .addCommand(provisioningListCommand(deps))
      .addCommand(provisioningShowCommand(deps))
      .addCommand(provisioningCreateCommand(deps))
      .addCommand(provisioningUpdateCommand(deps))
      .addCommand(provisioningDeleteCommand(deps))
      .addCommand(provisioningDefaultMappingCommand(deps))
      .addCommand(provisioningSyncCommand(deps))
      .addCommand(
        new Command('groups')
          .description('The groups synchronized when group synchronization is "selected"')
          .addCommand(groupsListCommand(deps))
          .addCommand(groupsChangeCommand(deps, 'add'))
          .addCommand(groupsChangeCommand(deps, 'remove'))
          .addCommand(groupsChangeCommand(deps, 'set')),
      ),
  );
  program.addCommand(
    new Command('connections').description("The tenant's connections").addCommand(connectionsListCommand(deps)),
  );
  program.addCommand(
    new Command('sandbox')
      .description('Run a local tenant on 127.0.0.1 that speaks the management interface')
      .addCommand(sandboxStartCommand(deps)),
  );
  program.addCommand(completionCommand(deps, program));
  return program;
}
