// The subcommands of `idm sandbox`, each built only when it is the one run (commands/index.ts).
import { withGlobals } from '../../cli/program.js';
import type { Subcommand } from '../subcommand.js';
import { sandboxStartCommand } from './start.js';

export const subcommands: readonly Subcommand[] = [{ name: 'start', build: (deps) => withGlobals(sandboxStartCommand(deps), ['--json', '--no-color', '--debug']) }];
