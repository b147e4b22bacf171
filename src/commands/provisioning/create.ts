// Placeholder: built in its issue. The builder's shape is fixed by cli/program.ts.
import { Command } from 'commander';
import type { Deps } from '../../cli/deps.js';
import { IdmError } from '../../cli/errors.js';

export function provisioningCreateCommand(_deps: Deps): Command {
  return new Command('create').description('Create the directory-provisioning configuration of a connection').action(() => {
    throw new IdmError('idm create is not built yet.');
  });
}
