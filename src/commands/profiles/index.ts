// The subcommands of `idm profiles`, each built only when it is the one run (commands/index.ts).
import { withGlobals } from '../../cli/program.js';
import type { Subcommand } from '../subcommand.js';
import { profilesListCommand } from './list.js';
import { profilesRemoveCommand } from './remove.js';
import { profilesUseCommand } from './use.js';

export const subcommands: readonly Subcommand[] = [
  { name: 'list', build: (deps) => withGlobals(profilesListCommand(deps), ['--json', '--no-color']) },
  { name: 'use', build: (deps) => withGlobals(profilesUseCommand(deps), ['--json']) },
  { name: 'remove', build: (deps) => withGlobals(profilesRemoveCommand(deps), ['--json', '--no-input']) },
];
