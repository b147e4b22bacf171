// The subcommands of `idm auth` (login and logout too, as in the GitHub CLI), each built only when it is the
// one run (commands/index.ts: a noun's help builds them all).
import { LOCAL_GLOBALS, withGlobals } from '../../cli/program.js';
import type { Subcommand } from '../subcommand.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { authStatusCommand } from './status.js';

export const subcommands: readonly Subcommand[] = [
  { name: 'login', build: (deps) => loginCommand(deps) },
  { name: 'logout', build: (deps) => withGlobals(logoutCommand(deps), LOCAL_GLOBALS) },
  { name: 'status', build: (deps) => withGlobals(authStatusCommand(deps), LOCAL_GLOBALS) },
];
