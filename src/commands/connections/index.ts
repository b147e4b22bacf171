// The subcommands of `idm connections`, each built only when it is the one run (commands/index.ts).
import type { Subcommand } from '../subcommand.js';
import { connectionsListCommand } from './list.js';

export const subcommands: readonly Subcommand[] = [{ name: 'list', build: (deps) => connectionsListCommand(deps) }];
