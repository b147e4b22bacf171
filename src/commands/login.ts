// Placeholder: built in its issue. The builder's shape is fixed by cli/program.ts.
import { Command } from 'commander';
import type { Deps } from '../cli/deps.js';
import { IdmError } from '../cli/errors.js';

export function loginCommand(_deps: Deps): Command {
  return new Command('login').description('Store credentials for a tenant as a profile').action(() => {
    throw new IdmError('idm login is not built yet.');
  });
}
