// The subcommands of `idm sandbox`, loaded only when the command run is one of them (commands/index.ts).
import type { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { withGlobals } from '../../cli/program.js';
import { sandboxStartCommand } from './start.js';

export function subcommands(deps: Deps): Command[] {
  return [withGlobals(sandboxStartCommand(deps), ['--json', '--no-color', '--debug'])];
}
