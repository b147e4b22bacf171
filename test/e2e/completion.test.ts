// The bash completion in a real bash, through COMP_WORDS / COMPREPLY, the fish one in a real fish
// (complete -C) and the zsh one in a real zsh (a zpty): every command's flags, fixed values, file
// names; the scripts call `idm` on PATH (here the built binary) for profile names and the ids of
// the last listings.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/cli/factory.js';
import { buildProgram } from '../../src/commands/index.js';
import { createIO } from '../../src/io/io.js';
import { cliEnv, credentialsEnv, idmOnPath, runInProcess, tempConfigDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, WAIT_MS } from '../helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const { dir: configDir, cleanup } = tempConfigDir();
afterAll(cleanup);

const sandbox = useSandbox();

/** Every command that runs (not a group), with the long flags it takes and the global ones (--version is the root's alone), sorted. */
async function leafCommands(): Promise<Array<[string, string[]]>> {
  const io = createIO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, {});
  const program = await buildProgram(createDeps(io, () => ({ json: false, color: false, input: false, debug: false })));
  const help = program.createHelp();
  const longs = (command: Command) => help.visibleOptions(command).map((option) => option.long!).filter((flag) => flag !== '--version');
  const globals = longs(program);
  const leaves: Array<[string, string[]]> = [];
  const walk = (command: Command, path: string[]) => {
    const subs = help.visibleCommands(command).filter((c) => c.name() !== 'help');
    if (subs.length === 0) leaves.push([path.join(' '), [...new Set([...longs(command), '--help', ...globals])].sort()]);
    for (const sub of subs) walk(sub, [...path, sub.name()]);
  };
  walk(program, ['idm']);
  expect(leaves.length).toBeGreaterThanOrEqual(30);
  return leaves;
}

function has(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

const LEAVES = await leafCommands();

describe('the bash completion in a real bash', () => {
  // `idm` on PATH as the script calls it (for profile names), backed by the built binary.
  const binDir = idmOnPath(configDir);
  const profilesDir = join(configDir, 'profiles');
  mkdirSync(profilesDir, { recursive: true });
  writeFileSync(join(profilesDir, 'config.json'), JSON.stringify({
      defaultProfile: 'prod',
      profiles: {
        prod: { domain: 'https://prod.example.com', clientId: 'client-prod', authMethod: 'post' },
        staging: { domain: 'https://staging.example.com', clientId: 'client-staging', authMethod: 'basic' },
      },
    }),);
  const files = join(configDir, 'files');
  mkdirSync(files, { recursive: true });
  writeFileSync(join(files, 'mapping.json'), '[]');
  writeFileSync(join(files, 'map two.json'), '[]');

  /** COMPREPLY for the words (the last one is under the cursor), one entry per element. */
  function complete(words: string[], env: Record<string, string | undefined> = {}): string[] {
    const script = [
      `source ${JSON.stringify(join(ROOT, 'completions/idm.bash'))}`,
      `COMP_WORDS=(${words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')})`,
      `COMP_CWORD=${words.length - 1}`,
      '_idm',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
      cwd: files,
      env: cliEnv(profilesDir, { PATH: `${binDir}:${process.env.PATH}`, ...env }),
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return result.stdout.split('\n').filter(Boolean).sort();
  }

  /** What fish offers for the words (the last one is under the cursor), without the descriptions. */
  function completeFish(words: string[], env: Record<string, string | undefined> = {}): string[] {
    const fq = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    const line = words.map((word) => (word === '' ? '' : fq(word))).join(' ');
    const script = `source ${fq(join(ROOT, 'completions/idm.fish'))}; complete -C ${fq(line)}`;
    const result = spawnSync('fish', ['--no-config', '-c', script], {
      cwd: files,
      env: cliEnv(profilesDir, { PATH: `${binDir}:${process.env.PATH}`, ...env }),
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return result.stdout.split('\n').filter(Boolean).map((entry) => entry.split('\t')[0]!).sort();
  }

  /**
   * What zsh offers for the command line (the cursor at its end): an interactive zsh -f in a zpty,
   * compinit with completions/idm.zsh as _idm on its fpath, every match given to compadd recorded.
   * A key bound to complete-word and then a message tells when the completion has run (no sleeps).
   */
  const zfunc = join(configDir, 'zfunc');
  mkdirSync(zfunc, { recursive: true });
  copyFileSync(join(ROOT, 'completions/idm.zsh'), join(zfunc, '_idm'));
  const zshDriver = join(configDir, 'complete.zsh');
  writeFileSync(zshDriver, [
    'zmodload zsh/zpty',
    'zpty z zsh -f -i',
    `zpty -w z "PROMPT='> '; RPROMPT=''; unsetopt automenu autolist; fpath=(\${(q)1} \\$fpath); autoload -Uz compinit; compinit -u -D"`,
    `zpty -w z 'compadd() { if (( \${@[(I)-[OAD]*]} )); then builtin compadd "$@"; return; fi; local -a m; builtin compadd -O m "$@"; (( \${#m} )) && print -rl -- $m >> '"\${(q)2}"'; builtin compadd "$@" }'`,
    `zpty -w z 'complete-and-mark() { zle complete-word; zle -M "ZZ$((6*7))DONE" }; zle -N complete-and-mark; bindkey "^T" complete-and-mark'`,
    `zpty -w z 'print ZZ$((6*7))READY'`,
    `zpty -r z out '*ZZ42READY*'`,
    `zpty -w -n z "$3"$'\\C-t'`,
    `zpty -r z out '*ZZ42DONE*'`,
    'zpty -d z',
    '',
  ].join('\n'));
  function completeZsh(line: string, env: Record<string, string | undefined> = {}): string[] {
    const out = join(configDir, 'zsh-matches');
    rmSync(out, { force: true });
    const result = spawnSync('zsh', ['-f', zshDriver, zfunc, out, line], {
      cwd: files,
      env: cliEnv(profilesDir, { PATH: `${binDir}:${process.env.PATH}`, ...env }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(0);
    let text = '';
    try {
      text = readFileSync(out, 'utf8');
    } catch {
      // nothing offered
    }
    return [...new Set(text.split('\n').filter(Boolean))].sort();
  }

  // Values of flags with fixed values (declared with .choices()), of the event-type flags of
  // `streams update`, and file names after the flags that take a path: in bash and in fish.
  const VALUES: Array<[string, string[], string[]]> = [
    ['streams update --add-event-type user.<TAB>', ['idm', 'streams', 'update', 'x', '--add-event-type', 'user.'], ['user.created', 'user.deleted', 'user.updated']],
    ['streams update --remove-event-type group.m<TAB>', ['idm', 'streams', 'update', 'x', '--remove-event-type', 'group.m'], ['group.member.added', 'group.member.deleted']],
    ['streams create --auth <TAB>', ['idm', 'streams', 'create', '--auth', ''], ['basic', 'bearer', 'custom-header']],
    ['streams update --auth <TAB>', ['idm', 'streams', 'update', 'x', '--auth', ''], ['basic', 'bearer', 'custom-header']],
    ['sandbox start --delivery <TAB>', ['idm', 'sandbox', 'start', '--delivery', ''], ['async', 'sync']],
    ['sandbox start --tls-cert ma<TAB>', ['idm', 'sandbox', 'start', '--tls-cert', 'ma'], ['map two.json', 'mapping.json']],
    ['sandbox start --tls-key ma<TAB>', ['idm', 'sandbox', 'start', '--https', '--tls-key', 'ma'], ['map two.json', 'mapping.json']],
  ];

  it.each(VALUES)('bash: %s', (_name, words, expected) => {
    expect(complete(words)).toEqual(expected);
  });

  it.skipIf(!has('fish') && !process.env.CI).each(VALUES)('fish: %s', (_name, words, expected) => {
    expect(completeFish(words)).toEqual(expected);
  });

  it.skipIf(!has('fish') && !process.env.CI)('fish: the --flag=value form, and the event types of --event-type as before', () => {
    expect(completeFish(['idm', 'sandbox', 'start', '--delivery=s'])).toEqual(['--delivery=sync']);
    expect(completeFish(['idm', 'streams', 'test', 'x', '--event-type', 'user.'])).toEqual(['user.created', 'user.deleted', 'user.updated']);
  });

  // A flag's description is the flag's: fish shows it beside the flag, not beside each of its values.
  it.skipIf(!has('fish') && !process.env.CI)('fish: values of a flag come without the flag\'s description beside each', () => {
    const raw = (line: string) =>
      spawnSync('fish', ['--no-config', '-c', `source '${join(ROOT, 'completions/idm.fish')}'; complete -C '${line}'`], {
        cwd: files,
        env: cliEnv(profilesDir, { PATH: `${binDir}:${process.env.PATH}` }),
        encoding: 'utf8',
      }).stdout.split('\n').filter(Boolean).sort();
    expect(raw('idm streams create --auth ')).toEqual(['basic', 'bearer', 'custom-header']);
    expect(raw('idm -p ')).toEqual(['prod', 'staging']);
    expect(raw('idm streams create --event-type user.created,user.d')).toEqual(['user.created,user.deleted']);
    expect(raw('idm streams create --au')).toEqual(['--auth\thow the webhook authenticates deliveries']);
  });

  // Every shell is quiet when idm is not found at a TAB that asks it (uninstalled, another PATH).
  it('without idm on PATH, a TAB that asks idm prints no error, in bash and fish', () => {
    const env = { PATH: '/usr/bin:/bin' };
    expect(complete(['idm', '-p', ''], env)).toEqual([]);
    if (has('fish')) expect(completeFish(['idm', '-p', ''], env)).toEqual([]);
    if (has('fish')) expect(completeFish(['idm', 'streams', 'show', ''], env)).toEqual([]);
  });

  // idm help takes a command path (idm help streams deliveries list): each word completes.
  const HELP: Array<[string, string[]]> = [
    ['idm help ', ['api', 'auth', 'completion', 'connections', 'login', 'logout', 'profiles', 'provisioning', 'sandbox', 'streams']],
    ['idm help streams ', ['create', 'delete', 'deliveries', 'disable', 'enable', 'list', 'redeliver', 'show', 'stats', 'test', 'update']],
    ['idm help streams deliveries ', ['list', 'show']],
    ['idm help provisioning groups s', ['set']],
    ['idm help streams list ', []],
  ];
  it.each(HELP)('bash: %s<TAB>', (line, expected) => {
    expect(complete(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('fish') && !process.env.CI).each(HELP)('fish: %s<TAB>', (line, expected) => {
    expect(completeFish(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('zsh') && !process.env.CI).each(HELP)('zsh: %s<TAB>', (line, expected) => {
    expect(completeZsh(line)).toEqual(expected);
  });

  // --state-dir <dir> takes a directory: directories only, not the files beside them.
  it('bash: sandbox start --state-dir <TAB> offers directories only', () => {
    mkdirSync(join(files, 'state one'), { recursive: true });
    expect(complete(['idm', 'sandbox', 'start', '--state-dir', ''])).toEqual(['state one']);
    expect(complete(['idm', 'sandbox', 'start', '--state-dir', '=', 'st'])).toEqual(['state one']);
  });
  it.skipIf(!has('fish') && !process.env.CI)('fish: sandbox start --state-dir <TAB> offers directories only', () => {
    mkdirSync(join(files, 'state one'), { recursive: true });
    expect(completeFish(['idm', 'sandbox', 'start', '--state-dir', ''])).toEqual(['state one/']);
    expect(completeFish(['idm', 'sandbox', 'start', '--state-dir=st'])).toEqual(['--state-dir=state one/']);
    // Nothing typed after the =: the flag once, not --state-dir=--state-dir=state one/.
    expect(completeFish(['idm', 'sandbox', 'start', '--state-dir='])).toEqual(['--state-dir=state one/']);
  });
  it.skipIf(!has('zsh') && !process.env.CI)('zsh: sandbox start --state-dir <TAB> offers directories only', () => {
    mkdirSync(join(files, 'state one'), { recursive: true });
    expect(completeZsh('idm sandbox start --state-dir ')).toEqual(['state\\ one']);
  });

  it('completes idm str<TAB> to streams', () => {
    expect(complete(['idm', 'str'])).toEqual(['streams']);
  });

  it('completes the subcommands of streams', () => {
    expect(complete(['idm', 'streams', ''])).toEqual(['create', 'delete', 'deliveries', 'disable', 'enable', 'help', 'list', 'redeliver', 'show', 'stats', 'test', 'update']);
  });

  it('completes --event-type user.<TAB> to the three user event types', () => {
    expect(complete(['idm', 'streams', 'test', 'x', '--event-type', 'user.'])).toEqual(['user.created', 'user.deleted', 'user.updated']);
  });

  it('completes --event-type=user.<TAB> (bash splits it at the =)', () => {
    expect(complete(['idm', 'streams', 'test', 'x', '--event-type', '=', 'user.'])).toEqual(['user.created', 'user.deleted', 'user.updated']);
  });

  it('offers all 22 event types after --event-type', () => {
    expect(complete(['idm', 'streams', 'test', 'est_x', '--event-type', ''])).toHaveLength(22);
  });

  it('completes the flags of streams test, with the global ones, and not those of other commands', () => {
    const flags = complete(['idm', 'streams', 'test', '--']);
    expect(flags).toEqual(expect.arrayContaining(['--event-type', '--data', '--data-file', '--json', '--profile', '--no-input']));
    expect(flags).not.toContain('--take');
    expect(flags).not.toContain('--mapping');
  });

  // Every command of the tree, and every flag it takes (its own and the global ones, no other), in
  // each shell: a command or flag added without `npm run completions` fails here, not at a user's TAB.
  it.each(LEAVES)('bash: %s --<TAB> offers its flags and the global ones', (path, flags) => {
    expect(complete([...path.split(' '), '--'])).toEqual(flags);
  });
  it.skipIf(!has('fish') && !process.env.CI).each(LEAVES)('fish: %s --<TAB> offers its flags and the global ones', (path, flags) => {
    expect(completeFish([...path.split(' '), '--'])).toEqual(flags);
  });
  it.skipIf(!has('zsh') && !process.env.CI).each(LEAVES)('zsh: %s --<TAB> offers its flags and the global ones', (path, flags) => {
    expect(completeZsh(`${path} --`)).toEqual(flags);
  });

  it('completes --sync-groups values of provisioning create', () => {
    expect(complete(['idm', 'provisioning', 'create', 'con_1', '--sync-groups', ''])).toEqual(['all', 'off', 'selected']);
  });

  it('skips a global flag and its value when finding the command', () => {
    expect(complete(['idm', '--profile', 'prod', 'streams', 't'])).toEqual(['test']);
    expect(complete(['idm', '-p', 'prod', 'prov'])).toEqual(['provisioning']);
  });

  it('completes the shells of idm completion', () => {
    expect(complete(['idm', 'completion', ''])).toEqual(['bash', 'fish', 'zsh']);
  });

  it('completes profile names from the config directory, without the network', () => {
    expect(complete(['idm', '--profile', ''])).toEqual(['prod', 'staging']);
    expect(complete(['idm', 'streams', 'list', '-p', 'st'])).toEqual(['staging']);
    expect(complete(['idm', 'streams', 'list', '--profile', '=', 'st'])).toEqual(['staging']);
  });

  // After --, every word is an argument (commander's rule): no flags are offered, and a word with a
  // dash counts as an argument (the second one of api, which has no values), never as a flag.
  const AFTER_DOUBLE_DASH: Array<[string, string[]]> = [
    ['idm streams show -- --', []],
    ['idm api -- -x ', []],
    ['idm api -- ', ['DELETE', 'GET', 'PATCH', 'POST', 'PUT']],
    ['idm -- str', ['streams']],
  ];
  it.each(AFTER_DOUBLE_DASH)('bash: %s<TAB>', (line, expected) => {
    expect(complete(line.split(' '))).toEqual(expected);
  });
  // fish's own rule offers no flag after a -- typed as it is; completeFish quotes each word ('--').
  it.skipIf(!has('fish') && !process.env.CI).each(AFTER_DOUBLE_DASH.slice(1))('fish: %s<TAB>', (line, expected) => {
    expect(completeFish(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('zsh') && !process.env.CI).each(AFTER_DOUBLE_DASH)('zsh: %s<TAB>', (line, expected) => {
    expect(completeZsh(line)).toEqual(expected);
  });

  // A short flag takes no =: -p=prod is the profile "=prod" to idm, a usage error; bash splits it
  // at the = as it does --profile=prod, and nothing is offered there (as zsh and fish do).
  it('offers no profile after -p= (what it would complete is not a profile)', () => {
    expect(complete(['idm', 'streams', 'list', '-p', '='])).toEqual([]);
    expect(complete(['idm', 'streams', 'list', '-p', '=', 'st'])).toEqual([]);
  });

  it('completes file names after --mapping-file, spaces included', () => {
    expect(complete(['idm', 'provisioning', 'create', 'con_1', '--mapping-file', 'ma'])).toEqual(['map two.json', 'mapping.json']);
  });

  it('offers the delivery status the interface lists after --status (deliveries list, redeliver)', () => {
    expect(complete(['idm', 'streams', 'deliveries', 'list', 'est_1', '--status', ''])).toEqual(['failed']);
    expect(complete(['idm', 'streams', 'redeliver', 'est_1', '--status', 'f'])).toEqual(['failed']);
  });

  // A flag given is not offered again (a second --take is a usage error, a second --json says
  // nothing), under none of its names (-p is --profile), unless it may be given more than once
  // (--event-type a --event-type b). Its value still completes (-p <TAB> offers the profiles).
  const listFlags = LEAVES.find(([path]) => path === 'idm streams list')![1];
  const GIVEN: Array<[string, string[]]> = [
    ['idm streams list --json --take 5 --', listFlags.filter((flag) => flag !== '--json' && flag !== '--take')],
    ['idm -p prod streams list --pro', []],
    ['idm streams list --profile=prod --pro', []],
    ['idm streams list --take=5 --t', ['--timeout']],
    ['idm streams create --event-type user.created --event-t', ['--event-type']],
    ['idm streams list --json -p ', ['prod', 'staging']],
    // A switch and its --no- form set one value: after either, the other is refused ('contradict each other').
    ['idm provisioning update con_1 --sync-automatically --no-s', []],
    ['idm provisioning create con_1 --no-sync-automatically --sync-a', []],
  ];
  // bash splits --flag=value into three words (--flag, =, value).
  const bashWords = (line: string) => line.split(' ').flatMap((word) => (/^--[^=]+=./.test(word) ? [word.slice(0, word.indexOf('=')), '=', word.slice(word.indexOf('=') + 1)] : [word]));
  it.each(GIVEN)('bash: %s<TAB> offers no flag given already', (line, expected) => {
    expect(complete(bashWords(line))).toEqual(expected);
  });
  it.skipIf(!has('fish') && !process.env.CI).each(GIVEN)('fish: %s<TAB> offers no flag given already', (line, expected) => {
    expect(completeFish(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('zsh') && !process.env.CI).each(GIVEN)('zsh: %s<TAB> offers no flag given already', (line, expected) => {
    expect(completeZsh(line)).toEqual(expected);
  });

  // A flag of comma-separated values (--event-type a,b, --status, --strategy): what follows the last
  // comma completes; bash and fish offer the whole word, zsh the item (the rest stays in the line).
  const COMMAS: Array<[string, string[], string[]]> = [
    ['idm streams create --event-type user.created,user.d', ['user.created,user.deleted'], ['user.deleted']],
    ['idm streams update x --remove-event-type group.created,group.member.a', ['group.created,group.member.added'], ['group.member.added']],
    ['idm streams deliveries list est_1 --status failed,f', ['failed,failed'], ['failed']],
  ];
  it.each(COMMAS)('bash: %s<TAB> completes after the comma', (line, expected) => {
    expect(complete(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('fish') && !process.env.CI).each(COMMAS)('fish: %s<TAB> completes after the comma', (line, expected) => {
    expect(completeFish(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('zsh') && !process.env.CI).each(COMMAS)('zsh: %s<TAB> completes after the comma', (line, _whole, expected) => {
    expect(completeZsh(line)).toEqual(expected);
  });
  it.skipIf(!has('fish') && !process.env.CI)('bash and fish: --event-type=a,b<TAB> and --strategy a,b<TAB> (the strategies of the last listing)', async () => {
    expect(complete(['idm', 'streams', 'create', '--event-type', '=', 'user.created,user.u'])).toEqual(['user.created,user.updated']);
    expect(completeFish(['idm', 'streams', 'create', '--event-type=user.created,user.u'])).toEqual(['--event-type=user.created,user.updated']);
  });

  // get is show's alias (idm streams get ID): after it, what comes after show (ids: below).
  const ALIASES: Array<[string, string[]]> = [
    ['idm streams get --j', ['--json']],
    ['idm help streams get ', []],
  ];
  it.each(ALIASES)('bash: %s<TAB> reads get as show', (line, expected) => {
    expect(complete(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('fish') && !process.env.CI).each(ALIASES)('fish: %s<TAB> reads get as show', (line, expected) => {
    expect(completeFish(line.split(' '))).toEqual(expected);
  });
  it.skipIf(!has('zsh') && !process.env.CI).each(ALIASES)('zsh: %s<TAB> reads get as show', (line, expected) => {
    expect(completeZsh(line)).toEqual(expected);
  });

  it('offers nothing for a free value such as --data', () => {
    expect(complete(['idm', 'streams', 'test', 'x', '--data', ''])).toEqual([]);
  });

  it('offers the stream and connection ids and strategies of the last listings (nothing before one), and regions', async () => {
    // In the listing's environment: its tenant is IDM_DOMAIN's, the sandbox.
    const env = credentialsEnv(sandbox());
    expect(complete(['idm', 'streams', 'show', ''], env)).toEqual([]);
    for (const args of [['streams', 'list'], ['connections', 'list']]) expect((await runInProcess(args, { configDir: profilesDir, env })).code).toBe(0);
    expect(complete(['idm', 'streams', 'show', 'est_demoInbox'], env)).toEqual(['est_demoInboxBasic00000000', 'est_demoInboxBearer0000000', 'est_demoInboxHeader0000000']);
    expect(complete(['idm', 'streams', 'test', ''], env)).toHaveLength(6);
    expect(complete(['idm', 'provisioning', 'show', 'con_google'], env)).toEqual(['con_googleAppsDemo01', 'con_googleAppsFails1', 'con_googleAppsTaken1']);
    expect(complete(['idm', 'provisioning', 'get', 'con_google'], env)).toEqual(['con_googleAppsDemo01', 'con_googleAppsFails1', 'con_googleAppsTaken1']);
    expect(complete(['idm', 'connections', 'list', '--strategy', ''], env)).toEqual(['google-apps', 'platform', 'samlp']);
    expect(complete(['idm', 'connections', 'list', '--strategy', 'samlp,goo'], env)).toEqual(['samlp,google-apps']);
    expect(complete(['idm', 'streams', 'create', '--eventbus-region', 'eu-'])).toEqual(expect.arrayContaining(['eu-west-1']));
    expect(complete(['idm', 'profiles', 'use', ''])).toEqual(['prod', 'staging']);
  });

  // A listing that shows no stream (the last one deleted) leaves no id to offer, not the deleted ones.
  describe('after the last stream is deleted', () => {
    const emptied = useSandbox();
    it('bash: streams show <TAB> offers nothing once streams list showed none', async () => {
      const dir = join(configDir, 'emptied');
      mkdirSync(dir, { recursive: true });
      const env = { IDM_CONFIG_DIR: dir, ...credentialsEnv(emptied()) };
      const list = await runInProcess(['streams', 'list'], { configDir: dir, env });
      expect(list.code).toBe(0);
      const ids = list.stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0]!);
      expect(complete(['idm', 'streams', 'show', ''], env)).toEqual([...ids].sort());
      for (const id of ids) expect((await runInProcess(['streams', 'delete', '--yes', id], { configDir: dir, env })).code).toBe(0);
      expect(await runInProcess(['streams', 'list'], { configDir: dir, env })).toMatchObject({ code: 0, stdout: '' });
      expect(complete(['idm', 'streams', 'show', ''], env)).toEqual([]);
    });
  });

  // The ids offered are those of the tenant the command line works on: its --profile (-p, --profile=),
  // else IDM_PROFILE, else the default profile; never those another tenant's listing showed.
  describe('ids of the tenant in effect only', () => {
    const tenantsDir = join(configDir, 'tenants');
    const inTenants = (env: Record<string, string | undefined> = {}) => ({ IDM_CONFIG_DIR: tenantsDir, ...env });
    const STREAMS = ['est_demoInboxBasic00000000', 'est_demoInboxBearer0000000', 'est_demoInboxHeader0000000'];

    it('lists at the sandbox as profile local; the default profile (another tenant) gets none of its ids', async () => {
      mkdirSync(tenantsDir, { recursive: true });
      writeFileSync(join(tenantsDir, 'config.json'), JSON.stringify({
        defaultProfile: 'other',
        profiles: {
          other: { domain: 'https://other.example.com', clientId: 'client-other', authMethod: 'post' },
          local: { domain: sandbox().url, clientId: sandbox().clients.admin.clientId, authMethod: 'post' },
        },
      }));
      expect((await runInProcess(['streams', 'list'], { configDir: tenantsDir, env: credentialsEnv(sandbox()) })).code).toBe(0);
      expect(complete(['idm', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual([]);
      expect(complete(['idm', '-p', 'other', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual([]);
      expect(complete(['idm', 'streams', 'show', 'est_demoInbox'], inTenants({ IDM_PROFILE: 'other' }))).toEqual([]);
      expect(complete(['idm', '-p', 'nosuch', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual([]);
    });

    it('bash: --profile local, -p local, --profile=local, IDM_PROFILE=local offer its ids', () => {
      expect(complete(['idm', '--profile', 'local', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(complete(['idm', 'streams', 'show', '-p', 'local', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(complete(['idm', '--profile', '=', 'local', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(complete(['idm', 'streams', 'show', 'est_demoInbox'], inTenants({ IDM_PROFILE: 'local' }))).toEqual(STREAMS);
      expect(complete(['idm', '-p', 'other', 'streams', 'show', 'est_demoInbox'], inTenants({ IDM_PROFILE: 'local' }))).toEqual([]);
      expect(complete(['idm', '-p', 'local', 'streams', 'get', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(complete(['idm', '-p', 'local', 'streams', 'deliveries', 'get', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      // As typed, quoted: the shell gives idm the name without the quotes.
      expect(complete(['idm', '-p', "'local'", 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(complete(['idm', '--profile', '=', '"local"', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(complete(['idm', '--profile="local"', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      // Glued to the short flag, as idm reads it (-plocal): its ids, and -p/--profile not offered again.
      expect(complete(['idm', '-plocal', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(complete(['idm', '-plocal', 'streams', 'show', '--pro'], inTenants())).toEqual([]);
    });

    it.skipIf(!has('fish') && !process.env.CI)('fish: the same', () => {
      expect(completeFish(['idm', '--profile', 'local', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(completeFish(['idm', 'streams', 'show', '-p', 'local', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(completeFish(['idm', '--profile=local', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(completeFish(['idm', 'streams', 'show', 'est_demoInbox'], inTenants({ IDM_PROFILE: 'local' }))).toEqual(STREAMS);
      expect(completeFish(['idm', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual([]);
      expect(completeFish(['idm', '-p', 'other', 'streams', 'show', 'est_demoInbox'], inTenants({ IDM_PROFILE: 'local' }))).toEqual([]);
      expect(completeFish(['idm', '-p', 'local', 'streams', 'get', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(completeFish(['idm', '-p', 'local', 'streams', 'deliveries', 'get', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(completeFish(['idm', '-plocal', 'streams', 'show', 'est_demoInbox'], inTenants())).toEqual(STREAMS);
      expect(completeFish(['idm', '-plocal', 'streams', 'show', '--pro'], inTenants())).toEqual([]);
    });

    it.skipIf(!has('zsh') && !process.env.CI)('zsh: the same', () => {
      expect(completeZsh('idm --profile local streams show est_demoInbox', inTenants())).toEqual(STREAMS);
      expect(completeZsh('idm streams show -p local est_demoInbox', inTenants())).toEqual(STREAMS);
      expect(completeZsh('idm --profile=local streams show est_demoInbox', inTenants())).toEqual(STREAMS);
      expect(completeZsh('idm streams show est_demoInbox', inTenants({ IDM_PROFILE: 'local' }))).toEqual(STREAMS);
      expect(completeZsh('idm streams show est_demoInbox', inTenants())).toEqual([]);
      expect(completeZsh('idm -p other streams show est_demoInbox', inTenants({ IDM_PROFILE: 'local' }))).toEqual([]);
      expect(completeZsh('idm -p local streams get est_demoInbox', inTenants())).toEqual(STREAMS);
      expect(completeZsh('idm -p local streams deliveries get est_demoInbox', inTenants())).toEqual(STREAMS);
      expect(completeZsh(`idm -p 'local' streams show est_demoInbox`, inTenants())).toEqual(STREAMS);
      expect(completeZsh('idm -plocal streams show est_demoInbox', inTenants())).toEqual(STREAMS);
      expect(completeZsh('idm -plocal streams show --pro', inTenants())).toEqual([]);
    });

    // zsh and fish show each stream id with its name (the listing's), as the user sees it at a TAB.
    it.skipIf(!has('fish') && !process.env.CI)('fish: each stream id with its name as the description', () => {
      const line = `idm -p local streams show est_demoInboxB`;
      const result = spawnSync('fish', ['--no-config', '-c', `source '${join(ROOT, 'completions/idm.fish')}'; complete -C '${line}'`], {
        cwd: files,
        env: cliEnv(tenantsDir, { PATH: `${binDir}:${process.env.PATH}` }),
        encoding: 'utf8',
      });
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual(['est_demoInboxBasic00000000\tdemo-inbox-basic', 'est_demoInboxBearer0000000\tdemo-inbox-bearer']);
    });

    it.skipIf(!hasTmux || (!has('zsh') && !process.env.CI))('zsh, in a terminal: each stream id with its name beside it', async () => {
      const home = join(configDir, 'zsh-home');
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, '.zshrc'), [`fpath=(${zfunc} $fpath)`, 'autoload -Uz compinit && compinit -u -D', "PROMPT='zsh-ready> '", ''].join('\n'));
      const socket = `idm-zsh-${process.pid}`;
      const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', env: cliEnv(tenantsDir, { PATH: `${binDir}:${process.env.PATH}`, HOME: home, ZDOTDIR: home, TERM: 'xterm' }) });
      const screenWith = async (text: string): Promise<string> => {
        const deadline = Date.now() + WAIT_MS;
        for (;;) {
          const screen = tmux('capture-pane', '-p', '-t', 'z');
          if (screen.includes(text)) return screen;
          if (Date.now() > deadline) throw new Error(`Timed out waiting for ${text}. The screen:\n${screen}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      try {
        tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'z', '-x', '150', '-y', '30', 'zsh -i');
        await screenWith('zsh-ready>');
        tmux('send-keys', '-t', 'z', '-l', '--', 'idm -p local streams show est_demoInboxB');
        tmux('send-keys', '-t', 'z', 'Tab');
        const screen = await screenWith('demo-inbox-bearer');
        expect(screen).toMatch(/est_demoInboxBasic00000000\s+-- demo-inbox-basic/);
        expect(screen).toMatch(/est_demoInboxBearer0000000\s+-- demo-inbox-bearer/);
      } finally {
        tmux('kill-server');
      }
    });
  });
});
