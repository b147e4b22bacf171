// Placeholder: built in its issue. The builder's shape is fixed by cli/program.ts.
import { Command } from 'commander';
import type { Deps } from '../../cli/deps.js';
import { IdmError } from '../../cli/errors.js';

export function streamsListCommand(_deps: Deps): Command {
  return new Command('list').description('List the event streams of the tenant').action(() => {
    throw new IdmError('idm list is not built yet.');
  });
}
