// `idm completion <bash|zsh|fish>`: prints the shell's completion script, generated from the command
// tree (the same text as completions/idm.<shell>). The hidden `--values KIND` flag lists what a TAB
// offers that no static list can: profile names, and the stream and connection ids and strategies
// of the last listings (read from the config and cache directories, no network). `--profiles` is
// `--values profiles`, as older scripts call it.
import { Argument, Command, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { UsageError } from '../../core/errors.js';
import { ASK_KINDS, completionValues, type AskKind } from './values.js';

export { ASK_KINDS, type AskKind };

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionCommand(deps: Deps, program: Command): Command {
  return new Command('completion')
    .description('Print the completion script for bash, zsh or fish')
    .addArgument(new Argument('[shell]', 'bash, zsh or fish').choices(SHELLS))
    .addOption(new Option('--values <kind>', 'list values for a TAB, one per line (used by the scripts)').choices(ASK_KINDS).hideHelp())
    .addOption(new Option('--profiles', 'the same as --values profiles').hideHelp())
    .addHelpText(
      'after',
      // The README's installation (a directory of the user's own for zsh: the first of fpath is
      // usually a system one, not writable, and empty outside zsh, which would write /_idm).
      () =>
        examples([
          'idm completion bash > ~/.local/share/bash-completion/completions/idm',
          'idm completion zsh > ~/.zfunc/_idm  # with fpath=(~/.zfunc $fpath) before compinit',
          'idm completion fish > ~/.config/fish/completions/idm.fish',
        ]) + '\nMake the directory first (mkdir -p). README: Shell completion, for the rest.\n',
    )
    .action(async (shell: Shell | undefined, flags: { profiles?: boolean; values?: AskKind }) => {
      const values = flags.profiles ? 'profiles' : flags.values;
      if (values) {
        for (const value of await completionValues(deps.io.env, values)) deps.io.out(`${value}\n`);
        return;
      }
      if (!shell) throw new UsageError('Missing the shell: idm completion <bash|zsh|fish>.', 'See README: Shell completion, for how to install it.');
      const { completionScript } = await import('./scripts.js');
      deps.io.out(completionScript(shell, program));
    });
}
