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
 * The `Examples:` block that ends every command's --help (or another `heading`). A `# comment` after a command is aligned
 * with the others in one column when they all fit beside their commands, else each goes on its own
 * line above its command; a command longer than the width continues on the next line.
 */
export function examples(lines: readonly string[], heading = 'Examples:'): string {
  const entries = lines.map((line) => {
    const at = line.search(/\s+# /);
    return at < 0 ? { command: line.trim(), comment: '' } : { command: line.slice(0, at).trim(), comment: line.slice(at).trim() };
  });
  const commented = entries.filter((entry) => entry.comment !== '');
  const column = Math.max(0, ...commented.map((entry) => entry.command.length));
  const beside = commented.every((entry) => 4 + column + 2 + entry.comment.length <= HELP_WIDTH);
  const out: string[] = [];
  for (const { command, comment } of entries) {
    if (comment !== '' && !beside) out.push(`  ${comment}`);
    const [first, ...rest] = wrapCommand(command, HELP_WIDTH - 4);
    out.push(`  $ ${comment !== '' && beside ? `${first!.padEnd(column)}  ${comment}` : first}`, ...rest.map((line) => `      ${line}`));
  }
  return `\n${heading}\n${out.join('\n')}\n`;
}

/** The exit-code table of `idm --help` and the README, wrapped at the help width. */
export function exitCodeHelp(): string {
  return ['Exit codes:', ...EXIT_CODE_TABLE.map(([code, meaning]) => `  ${String(code).padEnd(4)} ${paragraph(meaning, ' '.repeat(7)).trimStart()}`)].join('\n');
}
