// Placeholder: built in its issue. The builder's shape is fixed by cli/program.ts.
import { Command } from 'commander';
import type { Deps } from '../../cli/deps.js';
import { IdmError } from '../../cli/errors.js';

export function streamsTestCommand(_deps: Deps): Command {
  return new Command('test').description('Send a test event to an event stream and show the delivery record').action(() => {
    throw new IdmError('idm test is not built yet.');
  });
}
