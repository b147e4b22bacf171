// The subcommands of `idm provisioning`, each built only when it is the one run (commands/index.ts).
import { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import type { Subcommand } from '../subcommand.js';
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

export const subcommands: readonly Subcommand[] = [
  { name: 'list', build: (deps) => provisioningListCommand(deps) },
  { name: 'show', aliases: ['get'], build: (deps) => provisioningShowCommand(deps) },
  { name: 'create', build: (deps) => provisioningCreateCommand(deps) },
  { name: 'update', build: (deps) => provisioningUpdateCommand(deps) },
  { name: 'delete', build: (deps) => provisioningDeleteCommand(deps) },
  { name: 'default-mapping', build: (deps) => provisioningDefaultMappingCommand(deps) },
  { name: 'sync', build: (deps) => provisioningSyncCommand(deps) },
  {
    name: 'groups',
    build: (deps) =>
      new Command('groups')
        .description('The groups synchronized when group synchronization is "selected"')
        .addHelpText('after', () => examples([`idm provisioning groups list ${CONNECTION}`, `idm provisioning groups add ${CONNECTION} 03ep43zb1xk6ay0`]))
        .addCommand(groupsListCommand(deps))
        .addCommand(groupsChangeCommand(deps, 'add'))
        .addCommand(groupsChangeCommand(deps, 'remove'))
        .addCommand(groupsChangeCommand(deps, 'set')),
  },
];
