// README.md is the user's reference: its exit-code table must say what the code does, and its
// command reference must cover every command the program has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_TABLE } from '../src/core/exit-codes.js';
import { buildProgram } from '../src/commands/index.js';
import { createDeps } from '../src/cli/factory.js';
import { createIO } from '../src/io/io.js';
import type { Command } from 'commander';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README.md', () => {
  it('opens with the install-and-demo command and the test command', () => {
    const firstBlock = readme.slice(readme.indexOf('```sh'), readme.indexOf('```', readme.indexOf('```sh') + 5));
    expect(firstBlock).toContain('npm ci && npm run demo');
    expect(firstBlock).toContain('npm test');
  });

  it('has the exit-code table of src/core/exit-codes.ts, code by code and word for word', () => {
    const start = readme.indexOf('| Code | Meaning | For example |');
    expect(start).toBeGreaterThan(0);
    const block = readme.slice(start, readme.indexOf('\n\n', start));
    const table = new Map([...block.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map(([, code, meaning]) => [Number(code), meaning!.trim()]));
    expect(table.size).toBe(EXIT_CODE_TABLE.length);
    for (const [code, meaning] of EXIT_CODE_TABLE) expect(table.get(code), `exit code ${code}`).toBe(meaning);
  });

  it('documents every command of the program with its own section or table row', async () => {
    const io = createIO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, {});
    const program = await buildProgram(createDeps(io, () => ({ json: false, color: false, input: false, debug: false })));
    const leaves: string[] = [];
    const help = program.createHelp();
    const walk = (command: Command, path: string[]) => {
      const visible = help.visibleCommands(command).filter((c) => c.name() !== 'help');
      if (visible.length === 0) leaves.push(path.join(' '));
      for (const sub of visible) walk(sub, [...path, sub.name()]);
    };
    walk(program, ['idm']);
    expect(leaves.length).toBeGreaterThanOrEqual(8);
    for (const leaf of leaves) expect(readme, leaf).toContain(`\`${leaf}`);
  });
});
