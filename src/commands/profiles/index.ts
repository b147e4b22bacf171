// The subcommands of `idm profiles`, loaded only when the command run is one of them (commands/index.ts).
import type { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { withGlobals } from '../../cli/program.js';
import { profilesListCommand } from './list.js';
import { profilesRemoveCommand } from './remove.js';
import { profilesUseCommand } from './use.js';

export function subcommands(deps: Deps): Command[] {
  return [
    withGlobals(profilesListCommand(deps), ['--json', '--no-color']),
    withGlobals(profilesUseCommand(deps), ['--json']),
    withGlobals(profilesRemoveCommand(deps), ['--json', '--no-input']),
  ];
}
