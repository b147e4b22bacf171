// `idm completion <bash|zsh|fish>`: prints the shell's completion script, generated from the command
// tree (the same text as completions/idm.<shell>). The hidden `--profiles` flag lists the profile
// names for the scripts' TAB on --profile: read from the config directory, no network.
import { Argument, Command, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { UsageError } from '../../core/errors.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionCommand(deps: Deps, program: Command): Command {
  return new Command('completion')
    .description('Print the completion script for bash, zsh or fish')
    .addArgument(new Argument('[shell]', 'bash, zsh or fish').choices(SHELLS))
    .addOption(new Option('--profiles', 'list profile names, one per line (used by the scripts)').hideHelp())
    .addHelpText(
      'after',
      examples([
        'idm completion bash > ~/.local/share/bash-completion/completions/idm',
        'idm completion zsh > "${fpath[1]}/_idm"',
        'idm completion fish > ~/.config/fish/completions/idm.fish',
      ]),
    )
    .action(async (shell: Shell | undefined, flags: { profiles?: boolean }) => {
      if (flags.profiles) {
        const { listProfileNames } = await import('./profiles.js');
        for (const name of await listProfileNames(deps.io.env)) deps.io.out(`${name}\n`);
        return;
      }
      if (!shell) throw new UsageError('Missing the shell: idm completion <bash|zsh|fish>.', 'See README: Shell completion, for how to install it.');
      const { completionScript } = await import('./scripts.js');
      deps.io.out(completionScript(shell, program));
    });
}
