// A subcommand as its noun lists it: its name (and aliases) without building it, so that a run builds
// only the subcommand it runs (commands/index.ts). test/cli/help.test.ts checks that every entry
// builds a command of that name.
import type { Command } from 'commander';
import type { Deps } from '../cli/factory.js';

export interface Subcommand {
  name: string;
  aliases?: readonly string[];
  build(deps: Deps): Command;
}
