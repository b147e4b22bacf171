// The subcommands of `idm provisioning`, loaded only when the command run is one of them (commands/index.ts).
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { provisioningCreateCommand } from './create.js';
import { provisioningDefaultMappingCommand } from './default-mapping.js';
import { provisioningDeleteCommand } from './delete.js';
import { groupsChangeCommand } from './groups/change.js';
import { groupsListCommand } from './groups/list.js';
import { provisioningListCommand } from './list.js';
import { provisioningShowCommand } from './show.js';
import { provisioningSyncCommand } from './sync.js';
import { provisioningUpdateCommand } from './update.js';

const CONNECTION = ID_SHAPES.connection.example;

export function subcommands(deps: Deps): Command[] {
  const groups = new Command('groups')
    .description('The groups synchronized when group synchronization is "selected"')
    .addHelpText('after', examples([`idm provisioning groups list ${CONNECTION}`, `idm provisioning groups add ${CONNECTION} 03ep43zb1xk6ay0`]))
    .addCommand(groupsListCommand(deps))
    .addCommand(groupsChangeCommand(deps, 'add'))
    .addCommand(groupsChangeCommand(deps, 'remove'))
    .addCommand(groupsChangeCommand(deps, 'set'));
  return [
    provisioningListCommand(deps),
    provisioningShowCommand(deps),
    provisioningCreateCommand(deps),
    provisioningUpdateCommand(deps),
    provisioningDeleteCommand(deps),
    provisioningDefaultMappingCommand(deps),
    provisioningSyncCommand(deps),
    groups,
  ];
}
