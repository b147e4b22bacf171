// The subcommands of `idm auth` (login and logout too, as in the GitHub CLI), loaded only when the
// command run is one of them (commands/index.ts).
import type { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { LOCAL_GLOBALS, withGlobals } from '../../cli/program.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { authStatusCommand } from './status.js';

export function subcommands(deps: Deps): Command[] {
  return [loginCommand(deps), withGlobals(logoutCommand(deps), LOCAL_GLOBALS), withGlobals(authStatusCommand(deps), LOCAL_GLOBALS)];
}
