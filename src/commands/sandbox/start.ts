// Placeholder: built in its issue. The builder's shape is fixed by cli/program.ts.
import { Command } from 'commander';
import type { Deps } from '../../cli/deps.js';
import { IdmError } from '../../cli/errors.js';

export function sandboxStartCommand(_deps: Deps): Command {
  return new Command('start').description('Run a local tenant on 127.0.0.1 until interrupted').action(() => {
    throw new IdmError('idm start is not built yet.');
  });
}
