// Every command's --help: examples, and lines that fit 80 columns (the help width whatever the
// terminal), walked over the whole tree so a new command cannot skip them.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createDeps } from '../../src/cli/factory.js';
import { configureTree } from '../../src/cli/program.js';
import { buildProgram } from '../../src/commands/index.js';
import { createIO } from '../../src/io/io.js';

function everyCommand(): Array<[string, Command]> {
  const io = createIO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, {});
  const program = buildProgram(createDeps(io, () => ({ json: false, color: false, input: false, debug: false })));
  configureTree(program, io, () => {});
  const help = program.createHelp();
  const found: Array<[string, Command]> = [];
  const walk = (command: Command, path: string[]) => {
    found.push([path.join(' '), command]);
    for (const sub of help.visibleCommands(command).filter((c) => c.name() !== 'help')) walk(sub, [...path, sub.name()]);
  };
  walk(program, ['idm']);
  return found;
}

/** What --help prints: commander's part and the text added after it. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
}

describe('--help of every command', () => {
  const commands = everyCommand();
  it('walks the whole tree', () => {
    expect(commands.length).toBeGreaterThanOrEqual(30);
  });

  it.each(commands.map(([path, command]) => [path, command] as const))('%s: examples, and no line wider than 80 columns', (path, command) => {
    const text = helpOf(command);
    const wide = text.split('\n').filter((line) => line.length > 80);
    expect(wide, path).toEqual([]);
    expect(text, path).toMatch(/\nExamples:\n( {2}# .*\n)? {2}\$ idm /);
  });
});
