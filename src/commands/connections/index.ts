// The subcommands of `idm connections`, loaded only when the command run is one of them (commands/index.ts).
import type { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { connectionsListCommand } from './list.js';

export function subcommands(deps: Deps): Command[] {
  return [connectionsListCommand(deps)];
}
