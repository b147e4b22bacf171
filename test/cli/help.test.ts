// Every command's --help: examples, and lines that fit 80 columns (the help width whatever the
// terminal), walked over the whole tree so a new command cannot skip them.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createDeps } from '../../src/cli/factory.js';
import { configureTree } from '../../src/cli/program.js';
import { subcommands as authSubcommands } from '../../src/commands/auth/index.js';
import { subcommands as connectionsSubcommands } from '../../src/commands/connections/index.js';
import { buildProgram, commandToBuild } from '../../src/commands/index.js';
import { subcommands as profilesSubcommands } from '../../src/commands/profiles/index.js';
import { subcommands as provisioningSubcommands } from '../../src/commands/provisioning/index.js';
import { subcommands as sandboxSubcommands } from '../../src/commands/sandbox/index.js';
import { subcommands as streamsSubcommands } from '../../src/commands/streams/index.js';
import { createIO } from '../../src/io/io.js';
import { runInProcess } from '../helpers/cli.js';

async function everyCommand(): Promise<Array<[string, Command]>> {
  const io = createIO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, {});
  const program = await buildProgram(createDeps(io, () => ({ json: false, color: false, input: false, debug: false })));
  configureTree(program, io, () => {});
  const help = program.createHelp();
  const found: Array<[string, Command]> = [];
  const walk = (command: Command, path: string[]) => {
    found.push([path.join(' '), command]);
    for (const sub of help.visibleCommands(command).filter((c) => c.name() !== 'help')) walk(sub, [...path, sub.name()]);
  };
  walk(program, ['idm']);
  // idm help global: a hidden command, with examples of its own.
  found.push(['idm global', program.commands.find((c) => c.name() === 'global')!]);
  return found;
}

/** What --help prints: commander's part and the text added after it. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
}

const commands = await everyCommand();

const SUBCOMMANDS = {
  auth: authSubcommands,
  profiles: profilesSubcommands,
  streams: streamsSubcommands,
  provisioning: provisioningSubcommands,
  connections: connectionsSubcommands,
  sandbox: sandboxSubcommands,
};

describe('--help of every command', () => {
  it('walks the whole tree', () => {
    expect(commands.length).toBeGreaterThanOrEqual(30);
  });

  it.each(commands.map(([path, command]) => [path, command] as const))('%s: examples, and no line wider than 80 columns', (path, command) => {
    const text = helpOf(command);
    const wide = text.split('\n').filter((line) => line.length > 80);
    expect(wide, path).toEqual([]);
    expect(text, path).toMatch(/\nExamples:\n( {2}# .*\n)? {2}\$ idm /);
  });

  it.each(commands.map(([path, command]) => [path, command] as const))('%s: examples paste into a shell as they are (no <placeholder>, which the shell reads as a redirection; no comment beside a command, which zsh passes on; no unquoted glob, which zsh refuses when nothing matches)', (path, command) => {
    // Each example, its continuation lines joined, without its comment and its quoted strings.
    const pasted = helpOf(command)
      .replace(/ \\\n {6}/g, ' ')
      .split('\n')
      .filter((line) => line.startsWith('  $ '))
      .map((line) => line.replace(/'[^']*'|"[^"]*"/g, "''"));
    expect(pasted.filter((line) => /<[A-Za-z]/.test(line)), path).toEqual([]);
    // A comment goes on a line of its own: an interactive zsh (no interactive_comments) passes `# ...` to the command.
    expect(pasted.filter((line) => /\s#/.test(line)), path).toEqual([]);
    // A glob character outside quotes: zsh stops at a pattern that matches no file ("no matches found").
    expect(pasted.filter((line) => line.slice(4).split(/\s+/).some((word) => word !== '[' && word !== ']' && /[*?[\]]/.test(word))), path).toEqual([]);
  });

  it.each(commands.map(([path, command]) => [path, command] as const))('%s: examples run a command that exists, with flags it takes', (path, command) => {
    const root = commands[0]![1];
    const help = root.createHelp();
    const runs = helpOf(command)
      .replace(/ \\\n {6}/g, ' ')
      .split('\n')
      .filter((line) => line.startsWith('  $ '))
      // Each idm run of the line (a pipe's other side is another program), without quoted strings.
      .flatMap((line) => line.slice(4).replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''").replace(/\s+#\s.*$/, '').split(/[|;&>]/))
      .map((run) => run.trim().split(/\s+/).filter((word) => !/^[A-Z_]+=/.test(word)))
      .filter((words) => words[0] === 'idm');
    expect(runs.length, path).toBeGreaterThan(0);
    const flagsOf = (c: Command) => c.options.flatMap((option) => [option.long, option.short]).filter(Boolean);
    for (const words of runs) {
      let target = root;
      const operands: string[] = [];
      for (const word of words.slice(1)) {
        if (word.startsWith('-')) continue;
        const sub = operands.length === 0 ? target.commands.find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
        if (sub) target = sub;
        else operands.push(word);
      }
      const example = words.join(' ');
      expect(help.visibleCommands(target).filter((c) => c.name() !== 'help'), `${path}: ${example}: no such command (a typo, or a group without its command)`).toEqual([]);
      for (const word of words.filter((w) => w.startsWith('-') && w !== '-')) {
        expect([...flagsOf(target), ...flagsOf(root)], `${path}: ${example}`).toContain(word.split('=')[0]);
      }
    }
  });
});

describe('help layout', () => {
  const run = (args: string[]) => runInProcess(args, { configDir: '/nonexistent-idm-config' });

  it("a command's own options and examples first, then one line of global flags", async () => {
    const result = await run(['logout', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('Global Options');
    expect(result.stdout).not.toContain('--max-wait');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Global flags: --json, -p/--profile, --no-color (idm help global).');
    expect(result.stdout.split('\n').length).toBeLessThan(16);
  });

  it('idm help global lists every global flag in full', async () => {
    const result = await run(['help', 'global']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: idm \[global flags\] <command>\n/);
    // One block of flags: the global ones, with no "Options: -h" block of the hidden command before it.
    expect(result.stdout).toMatch(/\n\nGlobal Options:\n {2}-V, --version /);
    expect(result.stdout).not.toMatch(/^Options:|--help/m);
    for (const flag of ['--json', '--profile <name>', '--no-color', '--no-input', '--debug', '--timeout <seconds>', '--max-wait <seconds>', '--ca-file <path>', '--client-cert <path>', '--client-key <path>']) {
      expect(result.stdout).toContain(flag);
    }
  });

  it('idm help global says which flags come from a variable, and only those do', async () => {
    const help = (await run(['help', 'global'])).stdout;
    expect(help).not.toMatch(/each may also come from/);
    // Each flag's block: its name, then its description up to the next flag.
    const blocks = help.slice(help.indexOf('Global Options:')).split(/\n(?= {2}-)/).slice(1);
    const flags = blocks.map((block) => ({ flag: /--[a-z-]+/.exec(block)![0], env: /\(env:\s+(IDM_[A-Z_]+)\)/.exec(block)?.[1] }));
    expect(flags.filter((f) => f.env).map((f) => f.flag)).toEqual(['--timeout', '--max-wait', '--ca-file', '--client-cert', '--client-key']);
    for (const { flag, env } of flags.filter((f) => f.env)) {
      // A value of the variable that the flag would refuse is refused, naming the variable.
      // (Credentials that would reach nothing: the check comes before any request.)
      const value = flag === '--timeout' || flag === '--max-wait' ? 'soon' : '/nonexistent/x.pem';
      const result = await runInProcess(['streams', 'list'], { configDir: '/nonexistent-idm-config', env: { IDM_DOMAIN: 'http://127.0.0.1:9', IDM_ACCESS_TOKEN: 'abcd', [env!]: value } });
      expect(result.code, env).toBe(2);
      expect(result.stderr, env).toContain(env);
    }
    // A flag without the mark takes nothing from IDM_<FLAG>: IDM_JSON does not make the error JSON.
    const plain = await runInProcess(['streams', 'list'], { configDir: '/nonexistent-idm-config', env: { IDM_JSON: '1', IDM_DEBUG: '1' } });
    expect(plain.code).toBe(4);
    expect(plain.stderr).toMatch(/^Error: /);
  });

  it('idm help streams list shows the help of streams list (and idm streams help list too)', async () => {
    for (const args of [['help', 'streams', 'list'], ['streams', 'help', 'list'], ['streams', 'list', '--help']]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: idm streams list \[options\]\n/);
    }
  });

  it('idm help with an unknown command is a usage error naming it', async () => {
    const result = await run(['help', 'streams', 'lisst']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown command 'lisst'/);
  });

  it('sandbox start names only the global flags that mean something to it', async () => {
    const result = await run(['sandbox', 'start', '--help']);
    expect(result.stdout).toContain('Global flags: --json, --no-color, --debug (idm help global).');
    expect(result.stdout).not.toContain('--ca-file');
    expect(result.stdout).not.toContain('--profile');
  });
});

describe('the tree built for one command', () => {
  const deps = () => createDeps(createIO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, {}), () => ({ json: false, color: false, input: false, debug: false }));

  it('builds in full only the command argv runs; the others are their name and the same description', async () => {
    const full = await buildProgram(deps());
    const one = await buildProgram(deps(), ['node', 'idm', '--profile', 'prod', 'streams', 'list', '--take', '5']);
    const byName = (program: Command, name: string) => program.commands.find((command) => command.name() === name)!;
    // Of streams, only list: with its options, as in the whole tree.
    expect(byName(one, 'streams').commands.map((command) => command.name())).toEqual(['list']);
    const optionsOf = (program: Command) => byName(byName(program, 'streams'), 'list').options.map((option) => option.flags);
    expect(optionsOf(one)).toEqual(optionsOf(full));
    for (const command of full.commands) {
      const stub = byName(one, command.name());
      expect(stub.description(), command.name()).toBe(command.description());
      if (command.name() !== 'streams' && command.name() !== 'global') expect(stub.commands, command.name()).toHaveLength(0);
    }
  });

  it.each([
    [['streams', 'get', 'x'], ['show']],
    [['help', 'provisioning', 'groups', 'list'], ['groups']],
    [['streams', '--help'], 'all'],
    [['streams'], 'all'],
    [['streams', 'lst'], 'all'],
    [['streams', 'help', 'list'], 'all'],
  ])('idm %j builds of the noun %j', async (args, built) => {
    const full = await buildProgram(deps());
    const one = await buildProgram(deps(), ['node', 'idm', ...args]);
    const noun = args.find((arg) => arg === 'streams' || arg === 'provisioning')!;
    const names = (program: Command) => program.commands.find((command) => command.name() === noun)!.commands.map((command) => command.name());
    expect(names(one)).toEqual(built === 'all' ? names(full) : built);
  });

  it('builds every subcommand under the name and aliases its noun lists it by', async () => {
    const full = await buildProgram(deps());
    for (const [noun, table] of Object.entries(SUBCOMMANDS)) {
      const built = full.commands.find((command) => command.name() === noun)!.commands;
      expect(built.map((command) => [command.name(), command.aliases()]), noun).toEqual(table.map((sub) => [sub.name, [...(sub.aliases ?? [])]]));
    }
  });

  it.each([
    [['streams', 'list'], 'streams'],
    [['-p', 'prod', '--json', 'provisioning', 'show', 'x'], 'provisioning'],
    [['help', 'streams', 'list'], 'streams'],
    [['--timeout', '5', 'help', 'auth'], 'auth'],
    [['completion', 'bash'], undefined],
    [['--json'], undefined],
    [[], undefined],
  ])('idm %j runs the command %s', (args, name) => {
    expect(commandToBuild(args)).toBe(name);
  });
});
