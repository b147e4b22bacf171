// Placeholder: built in its issue (shell completions generated from the command tree).
import { Command } from 'commander';
import type { Deps } from '../cli/deps.js';
import { IdmError } from '../cli/errors.js';

export function completionCommand(_deps: Deps, _program: Command): Command {
  return new Command('completion').argument('<shell>').description('Print the completion script for bash, zsh or fish').action(() => {
    throw new IdmError('idm completion is not built yet.');
  });
}
