// Placeholder: built in its issue. The builder's shape is fixed by cli/program.ts.
import { Command } from 'commander';
import type { Deps } from '../cli/deps.js';
import { IdmError } from '../cli/errors.js';

export function logoutCommand(_deps: Deps): Command {
  return new Command('logout').description("Remove a profile's secrets and cached tokens").action(() => {
    throw new IdmError('idm logout is not built yet.');
  });
}
