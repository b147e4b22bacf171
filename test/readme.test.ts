// README.md is the user's reference: its exit-code table must say what the code does, its
// command reference must cover every command the program has, and its table of environment
// variables every IDM_* variable the code reads.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_TABLE } from '../src/core/exit-codes.js';
import { duration } from '../src/commands/streams/deliveries/format.js';
import { buildProgram } from '../src/commands/index.js';
import { createDeps } from '../src/cli/factory.js';
import { createIO } from '../src/io/io.js';
import type { Command } from 'commander';
import { runInProcess } from './helpers/cli.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The text of every source file of idm (src/, without the sandbox's own program). */
function sourceFiles(dir = fileURLToPath(new URL('../src', import.meta.url))): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? (join(dir, entry.name).endsWith('/src/sandbox') ? [] : sourceFiles(join(dir, entry.name))) : entry.name.endsWith('.ts') ? [readFileSync(join(dir, entry.name), 'utf8')] : [],
  );
}

describe('README.md', () => {
  it('opens with the install-and-demo command and the test command', () => {
    const firstBlock = readme.slice(readme.indexOf('```sh'), readme.indexOf('```', readme.indexOf('```sh') + 5));
    expect(firstBlock).toContain('npm ci && npm run demo');
    expect(firstBlock).toContain('npm test');
  });

  it('has no comment in a shell block or on a command line of a transcript: an interactive zsh runs `#` as a command', () => {
    const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map(([, body]) => body!);
    expect(blocks.length).toBeGreaterThanOrEqual(15);
    const commands = [...readme.matchAll(/^```console\n([\s\S]*?)^```/gm)].flatMap(([, body]) => body!.split('\n').filter((line) => line.startsWith('$ ')));
    expect(commands.length).toBeGreaterThanOrEqual(15);
    // A word that starts with `#` outside quotes: what bash (and zsh with interactive_comments) would skip.
    for (const line of [...blocks.flatMap((block) => block.split('\n')), ...commands]) expect(line).not.toMatch(/(?:^|\s)#/);
  });

  it('has no unquoted glob character in a shell block: zsh stops at a pattern that matches no file ("no matches found")', () => {
    const lines = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap(([, body]) => body!.split('\n'));
    // Each line without its quoted strings, cut into words; `[` and `]` alone are the test command.
    const globs = lines.flatMap((line) =>
      line
        .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''")
        .split(/\s+/)
        .filter((word) => word !== '[' && word !== ']' && /[*?[\]]/.test(word))
        .map((word) => `${word} in: ${line}`),
    );
    expect(globs).toEqual([]);
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
    // ... and a row of the table of commands that opens the reference.
    const start = readme.indexOf('| Command | What it does |');
    const table = readme.slice(start, readme.indexOf('\n\n', start));
    for (const leaf of leaves) expect(table, leaf).toMatch(new RegExp(`^\\|.*\`${leaf.replace(/[-]/g, '\\$&')}[\` ]`, 'm'));
  });

  it('lists every IDM_* variable the code reads in its table of environment variables', () => {
    const start = readme.indexOf('#### Environment variables');
    const table = readme.slice(start, readme.indexOf('\n\n', readme.indexOf('| Variable |', start)));
    const read = new Set<string>();
    for (const text of [...sourceFiles(), readFileSync(new URL('../bin/idm.js', import.meta.url), 'utf8')]) {
      // IDM_VERSION is the build's constant, not a variable of the environment.
      for (const [name] of text.matchAll(/\bIDM_[A-Z][A-Z_]*[A-Z]\b/g)) if (name !== 'IDM_VERSION') read.add(name);
    }
    expect(read.size).toBeGreaterThanOrEqual(15);
    for (const name of read) expect(table, name).toMatch(new RegExp(`^\\| [^|]*\`${name}[\`=]`, 'm'));
    for (const name of ['CI', 'NO_COLOR', 'FORCE_COLOR']) expect(table, name).toContain(`\`${name}\``);
  });

  it("names every code of idm's own that an error object can carry", () => {
    const row = readme.split('\n').find((line) => line.startsWith('| `code` |'))!;
    const codes = new Set<string>();
    for (const text of sourceFiles()) {
      for (const [, code] of text.matchAll(/\bcode: (?:options\.code \?\? )?'([a-z_]+)'/g)) codes.add(code!);
      for (const [, one, other] of text.matchAll(/\bcode: [^,\n]*\? '([a-z_]+)' : '([a-z_]+)'/g)) codes.add(one!).add(other!);
    }
    // zod's issue code, and the quiet end of a closed stdout (exit 0, nothing reported), are no error objects.
    codes.delete('custom');
    codes.delete('stdout_closed');
    expect(codes.size).toBeGreaterThanOrEqual(20);
    for (const code of codes) expect(row, code).toContain(`\`${code}\``);
  });

  it("documents every flag of a command in that command's section (or, without one, somewhere)", async () => {
    const io = createIO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, {});
    const program = await buildProgram(createDeps(io, () => ({ json: false, color: false, input: false, debug: false })));
    const help = program.createHelp();
    const lines = readme.split('\n');
    /** The text under each heading that names the command, down to the next heading of its level or above. */
    const sections = (path: string): string[] =>
      lines.flatMap((line, at) => {
        const level = /^(#+) /.exec(line)?.[1]!.length;
        if (level === undefined || !(line.includes(`\`${path}\``) || line.includes(`\`${path} `))) return [];
        const end = lines.findIndex((next, i) => i > at && /^#+ /.test(next) && /^#+/.exec(next)![0].length <= level);
        return [lines.slice(at, end === -1 ? undefined : end).join('\n')];
      });
    let checked = 0;
    const walk = (command: Command, path: string[]) => {
      const name = path.join(' ');
      const own = path.length === 1 ? [] : sections(name); // the global flags: anywhere
      for (const option of help.visibleOptions(command)) {
        if (option.long === '--help' || option.long === '--version') continue;
        const where = own.length > 0 ? own.join('\n') : readme;
        expect(where, `${name} ${option.long}`).toContain(`\`${option.long}`);
        checked++;
      }
      for (const sub of help.visibleCommands(command).filter((c) => c.name() !== 'help')) walk(sub, [...path, sub.name()]);
    };
    walk(program, ['idm']);
    expect(checked).toBeGreaterThanOrEqual(100);
  });

  it("shows a delivery's attempts as idm prints them: the DURATION column in idm's format", () => {
    const tables = [...readme.matchAll(/^STATUS +TIME +ERROR +DURATION\n((?:failed|retrying).*\n)+/gm)].map(([table]) => table);
    expect(tables.length).toBeGreaterThanOrEqual(1);
    for (const table of tables) {
      for (const row of table.split('\n').slice(1).filter(Boolean)) {
        const cell = / {2}(\S+(?: ms)?)$/.exec(row)![1]!;
        // What the attempts table prints for the number of milliseconds the cell shows.
        expect(duration({ duration: Number.parseFloat(cell) } as Parameters<typeof duration>[0]), row).toBe(cell);
      }
    }
  });

  it('idm completion --help installs the scripts where the README says, in a directory of your own', async () => {
    const help = (await runInProcess(['completion', '--help'], { configDir: '/nonexistent-idm-config' })).stdout;
    const installs = [...help.matchAll(/^ {2}\$ (idm completion \w+ > \S+)/gm)].map(([, line]) => line!);
    expect(installs.map((line) => line.split(' ')[2])).toEqual(['bash', 'zsh', 'fish']);
    const section = readme.slice(readme.indexOf('## Shell completion'), readme.indexOf('\n## ', readme.indexOf('## Shell completion') + 3));
    for (const line of installs) {
      expect(section, line).toContain(line);
      expect(line, 'a path that is there outside zsh, and the user may write').toMatch(/> ~\//);
    }
  });
});
