// Text for people, shared by every command's --help: one width (commander's help is rendered at it
// too, so that help reads the same at any terminal, in a pipe, and from bin/idm.js's copy).
import { EXIT_CODE_TABLE } from '../core/exit-codes.js';
import { wrapWords } from '../output/width.js';

export const HELP_WIDTH = 80;

/** `text` wrapped at the help width, every line starting with `indent`. */
export function paragraph(text: string, indent = ''): string {
  return wrapWords(text, HELP_WIDTH - indent.length)
    .map((l) => `${indent}${l}`)
    .join('\n');
}

/** A shell command cut at spaces outside quotes into lines of at most `width`, each but the last ending in ` \`. */
function wrapCommand(command: string, width: number): string[] {
  const words = command.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? [command];
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    // Continuation lines are indented 4 more than the first, and every line but the last ends in " \".
    const room = width - (lines.length === 0 ? 0 : 4) - 2;
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(`${line} \\`);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * The `Examples:` block that ends every command's --help (or another `heading`). A `# comment` after a command goes
 * on its own line above it, never beside it: a line copied from after `$ ` must run in an interactive
 * zsh, which (without interactive_comments) passes `# ...` to the command as arguments. A command
 * longer than the width continues on the next line.
 */
export function examples(lines: readonly string[], heading = 'Examples:'): string {
  const out: string[] = [];
  for (const line of lines) {
    const at = line.search(/\s+# /);
    const [command, comment] = at < 0 ? [line.trim(), ''] : [line.slice(0, at).trim(), line.slice(at).trim()];
    if (comment !== '') out.push(`  ${comment}`);
    const [first, ...rest] = wrapCommand(command, HELP_WIDTH - 4);
    out.push(`  $ ${first}`, ...rest.map((next) => `      ${next}`));
  }
  return `\n${heading}\n${out.join('\n')}\n`;
}

/** The exit-code table of `idm --help` and the README, wrapped at the help width. */
export function exitCodeHelp(): string {
  return ['Exit codes:', ...EXIT_CODE_TABLE.map(([code, meaning]) => `  ${String(code).padEnd(4)} ${paragraph(meaning, ' '.repeat(7)).trimStart()}`)].join('\n');
}
