// The built idm as a process: version, help, and how usage errors read.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runIdm, tempConfigDir } from '../helpers/cli.js';

describe('idm as a process', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => dirs.splice(0).forEach((cleanup) => cleanup()));
  const config = () => {
    const { dir, cleanup } = tempConfigDir();
    dirs.push(cleanup);
    return dir;
  };

  it('prints the version from package.json and exits 0', async () => {
    const result = await runIdm(['--version'], { configDir: config() });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(result.stderr).toBe('');
  });

  it('lists the exit-code table in --help', async () => {
    const result = await runIdm(['--help'], { configDir: config() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Exit codes:');
    expect(result.stdout).toMatch(/130\s+interrupted \(Ctrl-C, or Escape at a prompt\), or cancelled by answering no\s+at a confirmation/);
  });

  it('reports an unknown option as a usage error (exit 2) on stderr only, naming the command for help', async () => {
    const result = await runIdm(['streams', 'list', '--bogus'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("Error: Unknown flag --bogus.\nRun 'idm streams list --help' for usage.\n");
  });

  it('a flag that takes no value given one (--json=false, --yes=1): named as such, not as an unknown flag', async () => {
    for (const [args, flag, help] of [
      [['streams', 'list', '--json=false'], '--json', 'idm streams list'],
      [['--no-color=1', 'streams', 'list'], '--no-color', 'idm'],
      [['streams', 'delete', 'est_demoInboxBasic00000000', '--yes=1'], '--yes', 'idm streams delete'],
      // The help flag, which commander keeps apart from the options: it said "Unknown flag --help".
      [['--help=1'], '--help', 'idm'],
      [['streams', 'list', '--help=1'], '--help', 'idm streams list'],
      [['--version=1'], '--version', 'idm'],
    ] as const) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: ${flag} takes no value: give ${flag} alone, without "=".\nRun '${help} --help' for usage.\n`);
    }
    // -h with a value in its word (-h1, -h=1): the same, in the short flag's words.
    for (const [args, help] of [[['-h=1'], 'idm'], [['streams', 'list', '-h1'], 'idm streams list']] as const) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(`Error: -h takes no value: give -h alone.\nRun '${help} --help' for usage.\n`);
    }
    // With --json: the JSON error a script reads.
    const json = await runIdm(['streams', 'list', '--help=1', '--json'], { configDir: config() });
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage', message: '--help takes no value: give --help alone, without "=".', exitCode: 2 });
    // A flag idm does not have stays an unknown one.
    expect((await runIdm(['streams', 'list', '--bogus=1'], { configDir: config() })).stderr).toMatch(/^Error: Unknown flag --bogus \(its value is not repeated here/);
  });

  it('an unknown flag with its value in the same word (--client-secret=…, -pVALUE) is named without the value, which may be a secret', async () => {
    const secret = 'a-client-secret-0123456789abcdef';
    for (const [args, flag, near] of [
      [['streams', 'list', `--client-secret=${secret}`], '--client-secret', ' Did you mean --client-cert?'],
      [['login', `--client-secet=${secret}`], '--client-secet', ' Did you mean --client-cert?'],
      [['streams', 'list', `--tak=${secret}`], '--tak', ' Did you mean --take?'],
      // The help flag, which commander keeps apart from the options: it was no suggestion at all.
      [['streams', 'list', `--hepl=${secret}`], '--hepl', ' Did you mean --help?'],
      [[`--hepl=${secret}`], '--hepl', ' Did you mean --help?'],
      [['streams', 'list', `-z${secret}`], '-z', ''],
    ] as const) {
      for (const json of [false, true]) {
        const result = await runIdm([...args, ...(json ? ['--json'] : [])], { configDir: config() });
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).not.toContain(secret.slice(0, 8));
        const message = `Unknown flag ${flag} (its value is not repeated here: it may be a secret).${near}`;
        if (json) expect(JSON.parse(result.stderr).error.message).toBe(message);
        else expect(result.stderr.split('\n')[0]).toBe(`Error: ${message}`);
      }
    }
  });

  it('a long flag with one dash (-json, -take 3, idm -json …): the flag it means, not the unknown -j of commander\'s reading', async () => {
    for (const [args, flag, help] of [
      [['streams', 'list', '-json'], 'json', 'idm streams list'],
      [['streams', 'list', '-take', '3'], 'take', 'idm streams list'],
      [['-json', 'streams', 'list'], 'json', 'idm'],
      [['login', '-domain', 'tenant.example.com'], 'domain', 'idm login'],
      // The help flag, kept apart from the options: it was '-h takes no value: give -h alone.'
      [['streams', 'list', '-help'], 'help', 'idm streams list'],
      [['-help'], 'help', 'idm'],
    ] as const) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: Unknown flag -${flag}: a long flag takes two dashes. Did you mean --${flag}?\nRun '${help} --help' for usage.\n`);
    }
    // A word that is no flag's name stays short flags run together, named without the rest.
    expect((await runIdm(['streams', 'list', '-jsonx'], { configDir: config() })).stderr).toMatch(/^Error: Unknown flag -j \(its value is not repeated here/);
  });

  it('-yes (one dash, its first letter a flag of its own): the flag it means, not the unknown -e commander reports after -y', async () => {
    for (const [args, help] of [
      [['streams', 'delete', 'est_demoInboxBasic00000000', '-yes'], 'idm streams delete'],
      [['profiles', 'remove', 'default', '-yes'], 'idm profiles remove'],
    ] as const) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: Unknown flag -yes: a long flag takes two dashes. Did you mean --yes?\nRun '${help} --help' for usage.\n`);
    }
    // A value run into -y is no flag's name: named without it, as before.
    const secret = 'yS3cr3tValue';
    const result = await runIdm(['streams', 'delete', 'est_demoInboxBasic00000000', `-${secret}`], { configDir: config() });
    expect(result.stderr).toMatch(/^Error: Unknown flag -S \(its value is not repeated here/);
    expect(result.stderr).not.toContain(secret.slice(1));
  });

  it('a short flag in the other case (idm -v, -P prod): the flag it means, with its long name', async () => {
    for (const [args, flag, meant, help] of [
      [['-v'], '-v', '-V (--version)', 'idm'],
      [['streams', 'list', '-P', 'prod'], '-P', '-p (--profile)', 'idm streams list'],
      [['streams', 'delete', 'est_demoInboxBasic00000000', '-Y'], '-Y', '-y (--yes)', 'idm streams delete'],
      // The help flag, kept apart from the options: -H was 'Unknown flag -H.' alone.
      [['streams', 'list', '-H'], '-H', '-h (--help)', 'idm streams list'],
    ] as const) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: Unknown flag ${flag}. Did you mean ${meant}?\nRun '${help} --help' for usage.\n`);
    }
    // A letter no flag has in either case: named alone, as before.
    expect((await runIdm(['streams', 'list', '-x'], { configDir: config() })).stderr).toBe("Error: Unknown flag -x.\nRun 'idm streams list --help' for usage.\n");
  });

  it('a one-dash long flag with its value after = (-take=3, -profile=prod): the flag it means, never the value', async () => {
    const secret = 'S3cretValue0123';
    for (const [args, flag, hint] of [
      [['streams', 'list', `-take=${secret}`], 'take', "Run 'idm streams list --help' for usage."],
      [['streams', 'list', `-profile=${secret}`], 'profile', 'Give the profile as --profile NAME (or -p NAME).'],
    ] as const) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`Error: Unknown flag -${flag}: a long flag takes two dashes. Did you mean --${flag}?\n${hint}\n`);
    }
  });

  it('-profile NAME (one dash): the flag it means, not what follows from -p taking the value rofile', async () => {
    for (const args of [
      ['streams', 'list', '-profile', 'prod'],
      ['-profile', 'prod', 'streams', 'list'],
      ['streams', 'show', 'est_demoInboxBasic00000000', '-profile', 'prod'],
    ]) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('Error: Unknown flag -profile: a long flag takes two dashes. Did you mean --profile?\nGive the profile as --profile NAME (or -p NAME).\n');
    }
    // -p with its value in the same word is a profile name still.
    expect((await runIdm(['streams', 'list', '-prod'], { configDir: config() })).stderr).toMatch(/^Error: There is no profile named "rod"/);
  });

  it('--json=1, --json=true (anywhere in argv, the parser stopping before it or at it): the error is the one JSON line a script reads', async () => {
    for (const args of [
      ['streams', 'list', '--json=1'],
      ['--json=true', 'streams', 'list'],
      ['--timeout', '0', 'streams', 'list', '--json=yes'],
    ]) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(JSON.parse(lines[0]!), args.join(' ')).toEqual({ error: expect.objectContaining({ code: 'usage', exitCode: 2 }) });
    }
    const valued = JSON.parse((await runIdm(['streams', 'list', '--json=1'], { configDir: config() })).stderr);
    expect(valued.error.message).toBe('--json takes no value: give --json alone, without "=".');
  });

  it('after -- (the end of the flags), --json and --no-color are operands: an error about them is said in words, in colour where colour is on', async () => {
    const result = await runIdm(['streams', 'show', '--', '--json'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: Not a stream id: "--json"\. /);
    const coloured = await runIdm(['streams', 'show', '--', '--no-color'], { configDir: config(), env: { FORCE_COLOR: '1' } });
    expect(coloured.code).toBe(2);
    expect(coloured.stderr).toMatch(/^\x1b\[31mError:\x1b\[39m Not a stream id: "--no-color"\. /);
    // Before --, they are flags as ever.
    const json = await runIdm(['streams', 'show', '--json', '--', 'nope'], { configDir: config() });
    expect(JSON.parse(json.stderr)).toEqual({ error: expect.objectContaining({ code: 'usage', message: expect.stringContaining('Not a stream id: "nope"') }) });
  });

  it('a -- that is the value of the flag before it (--take --, -p --) ends nothing: a --json after it is the flag', async () => {
    // Commander's first pass took such a -- for the end of the flags: "Unknown flag --json. Did you
    // mean --json?", or the value's error in words though --json was given.
    for (const [args, message] of [
      [['streams', 'list', '--take', '--', '--json'], '--take must be a whole number from 1 to 100.'],
      [['--profile', '--', 'streams', 'list', '--json'], '--profile "--" is not a valid profile name'],
      [['-p', '--', 'streams', 'list', '--json'], '--profile "--" is not a valid profile name'],
    ] as const) {
      const result = await runIdm(args, { configDir: config() });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(JSON.parse(result.stderr).error, args.join(' ')).toMatchObject({ code: 'usage', message: expect.stringContaining(message) });
    }
    // A flag that takes no value: the -- after it ends the flags, as ever.
    const ended = await runIdm(['streams', 'list', '--all', '--', '--json'], { configDir: config() });
    expect(ended.stderr).toMatch(/^Error: Too many arguments for list/);
  });

  it('a bad flag value: the parser\'s own message, said once', async () => {
    const result = await runIdm(['streams', 'list', '--take', '0'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("Error: --take must be from 1 to 100, not 0.\nRun 'idm streams list --help' for usage.\n");
  });

  it('idm version (a command in other tools): the flag that prints it', async () => {
    const result = await runIdm(['version'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe("Error: Unknown command 'version'. Did you mean --version?");
    // Below a group, where --version would not print it, no such suggestion.
    expect((await runIdm(['streams', 'version'], { configDir: config() })).stderr.split('\n')[0]).toBe("Error: Unknown command 'version'.");
  });

  it('an unknown command: the message and its suggestion on one line, the hint on the second', async () => {
    const result = await runIdm(['streams', 'lst'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("Error: Unknown command 'lst'. Did you mean list?\nThe commands of idm streams: list, show, create, update, enable, disable, delete, test, deliveries, redeliver, stats.\n");
  });

  it('with --json, reports a usage error as one JSON object on stderr', async () => {
    const result = await runIdm(['--json', 'streams', 'nope'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2, message: "Unknown command 'nope'.", hint: expect.stringMatching(/^The commands of idm streams: list, /) } });
  });

  it.each([[[]], [['streams']], [['provisioning']]])('a missing command (idm %j) is a usage error: exit 2, the help on stderr', async (args) => {
    const result = await runIdm(args, { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^Usage: ${['idm', ...args].join(' ')} \\[options\\] \\[command\\]`));
  });

  it('a missing command with --json: one JSON usage error on stderr, no help text', async () => {
    const result = await runIdm(['--json', 'streams'], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: 'usage', message: 'Missing the command: idm streams <command>.', hint: "Run 'idm streams --help' for usage.", exitCode: 2 },
    });
  });

  it.each([[['--help']], [['streams', '--help']], [['help', 'streams']]])('asked for, help (idm %j) is on stdout with exit 0', async (args) => {
    const result = await runIdm(args, { configDir: config() });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: idm/);
  });

  it('cuts a message that quotes a huge pasted value instead of echoing it whole', async () => {
    const huge = 'x'.repeat(50_000);
    const result = await runIdm(['streams', 'show', huge], { configDir: config() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: Not a stream id: "x{40}… \(49960 more characters\)"/);
    expect(result.stderr.length).toBeLessThan(2_500);
    expect(result.stderr).toMatch(/… \(\d+ more characters\)/);
  });
});

// Every command's help is checked in process (test/cli/help.test.ts walks the tree); these are the
// real process's: the root from bin/idm.js's fast path, and a command of each kind.
describe('help as a process', () => {
  const { dir, cleanup } = tempConfigDir();
  afterAll(cleanup);
  const COMMANDS = [[], ['streams', 'list'], ['sandbox', 'start'], ['completion']];

  it.each(COMMANDS)('idm %s --help: one wording, the global flags, no meaningless default, 80 columns', async (...words) => {
    const result = await runIdm([...words, '--help'], { configDir: dir, env: { COLUMNS: '200', IDM_FORCE_TTY: 'stdout' } });
    expect(result.code).toBe(0);
    const help = result.stdout;
    expect(help).toMatch(/^ {2}-h, --help\s+show help$/m);
    expect(help).not.toContain('display help');
    expect(help).not.toContain('(default: false)');
    // The command's own options first; the global flags in one closing line (none for completion).
    expect(help).not.toContain('Global Options:');
    if (words.length > 0 && words[0] !== 'completion') expect(help).toMatch(/\nGlobal flags: --json, .*\(idm help global\)\.\n+$/s);
    for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});

describe('help command with a path', () => {
  const { dir, cleanup } = tempConfigDir();
  afterAll(cleanup);

  it.each([
    [['help', 'streams', 'list', '--help'], 'Usage: idm streams list [options]'],
    [['help', 'streams', '-h'], 'Usage: idm streams [options] [command]'],
    [['help', 'global', '--help'], 'Usage: idm [global flags] <command>'],
    [['streams', 'help', 'deliveries', 'list'], 'Usage: idm streams deliveries list [options] <stream-id>'],
  ])('idm %j: the help of the command the whole path names, a help flag after it asking the same', async (args, usage) => {
    const result = await runIdm(args, { configDir: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith(`${usage}\n`)).toBe(true);
  });

  it('under a command, help with an unknown word is the usage error idm help gives, not the parent\'s help', async () => {
    for (const args of [['streams', 'help', 'lst'], ['streams', 'help', 'deliveries', 'lst'], ['streams', 'deliveries', 'help', 'lst']]) {
      const result = await runIdm(args, { configDir: dir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Error: Unknown command 'lst'\. Did you mean list\?\nThe commands of idm streams( deliveries)?: list, show[,.]/);
    }
  });

  it('an unknown word before --help is the same usage error, not the group\'s help (idm help streams lst and idm streams lst --help are the same thing)', async () => {
    for (const args of [['streams', 'lst', '--help'], ['streams', 'deliveries', 'lst', '-h'], ['strems', '--help'], ['--profile', 'x', 'streams', 'lst', '--help']]) {
      const result = await runIdm(args, { configDir: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Error: Unknown command '(lst|strems)'\. Did you mean (list|streams)\?\nThe commands of idm( streams)?( deliveries)?: /);
    }
    // A group's own help, and a flag before --help, are unchanged.
    for (const args of [['streams', '--help'], ['streams', '--json', '--help'], ['--help']]) {
      const result = await runIdm(args, { configDir: dir });
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^Usage: idm /);
    }
  });

  it('a word after a command that has no subcommands says so, not an empty list of commands', async () => {
    const result = await runIdm(['help', 'streams', 'list', 'foo'], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("Error: Unknown command 'foo': idm streams list has no subcommands.\nRun 'idm streams list --help' for usage.\n");
  });
});
