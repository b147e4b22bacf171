// Placeholder: built in its issue. The builder's shape is fixed by cli/program.ts.
import { Command } from 'commander';
import type { Deps } from '../../cli/deps.js';
import { IdmError } from '../../cli/errors.js';

export function authStatusCommand(_deps: Deps): Command {
  return new Command('status').description('Show the profile, domain, method, token expiry and scopes').action(() => {
    throw new IdmError('idm status is not built yet.');
  });
}
