// Shell completion scripts, generated from the commander tree so that they list exactly the
// commands and flags idm has. Everything is written into the script as static lists (every TAB would
// otherwise pay idm's start-up); the exceptions are profile names and what the last listings showed
// (stream and connection ids, strategies), which the script asks `idm completion --values KIND` for
// (read from the config and cache directories, never from the network).
//
// `idm completion <shell>` prints these; scripts/gen-completions.mjs writes them to completions/,
// and test/commands/completion fails when the committed files differ from what the tree gives.
import type { Argument, Command, Option } from 'commander';
import { isCommaList, isRepeatable } from '../../cli/parse.js';
import { CLOUD_REGIONS, DELIVERY_STATUSES, EVENT_TYPES } from '../../schemas/constants.js';
import type { Shell } from './index.js';
import type { AskKind } from './values.js';

/** What the value of a flag or argument completes to. */
export type Values =
  | { kind: 'list'; values: readonly string[]; commas?: boolean }
  | { kind: 'files' }
  | { kind: 'dirs' }
  | { kind: 'ask'; what: AskKind; commas?: boolean }
  | { kind: 'none' };



export interface FlagSpec {
  /** `-p` and `--profile` for one option. */
  names: string[];
  description: string;
  /** undefined: a switch that takes no value. */
  value?: Values;
  /** May be given more than once (--event-type a --event-type b): offered again after it is given. */
  repeatable: boolean;
  /**
   * The names of every flag that sets what this one sets (--sync-automatically and
   * --no-sync-automatically): once one is given, none is offered (both would be refused). Unset: `names`.
   */
  sameSetting?: string[];
}

export interface CommandSpec {
  /** Words after `idm`: [] for idm itself, ['streams', 'test']. */
  path: string[];
  subcommands: Array<{ name: string; description: string; aliases: string[] }>;
  /** Its own flags and the global ones (commander accepts idm's flags after a subcommand too). */
  flags: FlagSpec[];
  /** Positional arguments in order. */
  args: Values[];
}

// Flags whose values are a known list or a kind of thing, by long name (their parsers check the same
// lists). A fixed set of values is declared with commander's .choices() on the option itself, which
// needs no entry here; a flag whose value is a <path> or <file> completes file names, a <dir> directories.
const FLAG_VALUES: Record<string, Values> = {
  '--event-type': { kind: 'list', values: EVENT_TYPES },
  '--add-event-type': { kind: 'list', values: EVENT_TYPES },
  '--remove-event-type': { kind: 'list', values: EVENT_TYPES },
  '--profile': { kind: 'ask', what: 'profiles' },
  '--eventbus-region': { kind: 'list', values: CLOUD_REGIONS }, // too many for .choices() in --help
  '--status': { kind: 'list', values: DELIVERY_STATUSES }, // deliveries: others are sent as given, not refused
  '--strategy': { kind: 'ask', what: 'strategies' },
};

/** A flag's values; `commas` when it takes several, comma-separated (--event-type a,b: each completes). */
function optionValues(option: Option): Values | undefined {
  const values = plainOptionValues(option);
  return values && (values.kind === 'list' || values.kind === 'ask') && isCommaList(option.parseArg) ? { ...values, commas: true } : values;
}

function plainOptionValues(option: Option): Values | undefined {
  if (!option.required && !option.optional) return undefined;
  if (option.argChoices) return { kind: 'list', values: option.argChoices };
  const known = option.long ? FLAG_VALUES[option.long] : undefined;
  if (known) return known;
  if (/<dir>/.test(option.flags)) return { kind: 'dirs' };
  if (/<(path|file)>/.test(option.flags)) return { kind: 'files' };
  return { kind: 'none' };
}

/** Arguments by name whose values the last listings showed. */
const ARGUMENT_VALUES: Record<string, Values> = {
  'stream-id': { kind: 'ask', what: 'streams' },
  'connection-id': { kind: 'ask', what: 'connections' },
  name: { kind: 'ask', what: 'profiles' }, // idm profiles use/remove <name>
};

function argumentValues(argument: Argument): Values {
  return argument.argChoices ? { kind: 'list', values: argument.argChoices } : (ARGUMENT_VALUES[argument.name()] ?? { kind: 'none' });
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

function flagSpec(option: Option): FlagSpec {
  const names = [option.short, option.long].filter((name): name is string => Boolean(name));
  return { names, description: firstLine(option.description), value: optionValues(option), repeatable: isRepeatable(option.parseArg) };
}

/** Every command of the tree, depth first, idm itself first. */
export function describeTree(program: Command): CommandSpec[] {
  const help = program.createHelp();
  // idm's own flags work at every level; --version only means something on idm itself.
  const globals = help
    .visibleOptions(program)
    .filter((option) => option.long !== '--version' && option.long !== '--help')
    .map(flagSpec);
  const specs: CommandSpec[] = [];
  const named = (command: Command) => ({ name: command.name(), description: firstLine(command.description()), aliases: command.aliases() });
  const visitHelp = (command: Command, path: string[]): void => {
    const children = help.visibleCommands(command).filter((child) => child.name() !== 'help');
    specs.push({ path, subcommands: children.map(named), flags: [], args: [] });
    for (const child of children) if (child.commands.length > 0) visitHelp(child, [...path, child.name()]);
  };
  const visit = (command: Command, path: string[]): void => {
    const children = help.visibleCommands(command);
    const options = help.visibleOptions(command);
    const own = options.map((option) => {
      const spec = flagSpec(option);
      // --x and --no-x set one value: once either is given, neither is offered.
      const same = options.filter((other) => other !== option && other.attributeName() === option.attributeName());
      if (same.length > 0) spec.sameSetting = [...spec.names, ...same.flatMap((other) => [other.short, other.long].filter((name): name is string => Boolean(name)))];
      return spec;
    });
    const isRoot = path.length === 0;
    // commander's implicit `help [command]` takes the name of a sibling command.
    const siblings = children.filter((child) => child.name() !== 'help').map((child) => child.name());
    specs.push({
      path,
      subcommands: children.map(named),
      flags: isRoot ? own : [...own, ...globals],
      args: command.registeredArguments.map(argumentValues),
    });
    for (const child of children) {
      if (child.name() === 'help' && !command.commands.includes(child)) {
        // idm's own takes a command path (`idm help streams deliveries list`, program.ts
        // helpTakesPaths): the tree again, names only; a subcommand's takes one name.
        if (isRoot) visitHelp(command, [...path, 'help']);
        else specs.push({ path: [...path, 'help'], subcommands: [], flags: [], args: [{ kind: 'list', values: siblings }] });
      } else {
        visit(child, [...path, child.name()]);
      }
    }
  };
  visit(program, []);
  return specs;
}

export function completionScript(shell: Shell, program: Command): string {
  const specs = describeTree(program);
  if (shell === 'bash') return bashScript(specs);
  if (shell === 'zsh') return zshScript(specs);
  return fishScript(specs);
}

// ---- shared by the bash and zsh renderers ----

/** A POSIX single-quoted word. */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * How a value kind is encoded for the scripts' helper: `list:a b c`, `files`, `dirs`, `ask:streams`,
 * `none`; a leading comma for comma-separated values (`,list:a b c`: what follows the last comma completes).
 */
function kindWord(values: Values): string {
  const commas = (values.kind === 'list' || values.kind === 'ask') && values.commas ? ',' : '';
  return commas + (values.kind === 'list' ? `list:${values.values.join(' ')}` : values.kind === 'ask' ? `ask:${values.what}` : values.kind);
}

/** The case tables bash and zsh both look flags, values and arguments up in (the same shell code). */
function lookups(specs: CommandSpec[]): string {
  return `# Succeeds when flag $2 of command path $1 takes a value; REPLY says what it completes to.
_idm_flag_value() {
  case "$1|$2" in
${valueFlagArms(specs).join('\n')}
    *) return 1 ;;
  esac
}

# Succeeds when positional argument $2 (from 0) of command path $1 completes to something; REPLY says what.
_idm_arg_value() {
  case "$1|$2" in
${argArms(specs).join('\n')}
    *) return 1 ;;
  esac
}

# The names of flag $2 of command path $1 in REPLY (-p gives -p --profile): once it is given, none
# of them is offered again. Fails for a flag that may be given more than once.
_idm_given_names() {
  case "$1|$2" in
${givenArms(specs).join('\n')}
    *) REPLY=$2 ;;
  esac
}
`;
}

/**
 * Case arms `'path|flag') REPLY=kind ;;` for every flag that takes a value. A flag with the same
 * meaning on every command (idm's global flags) gets one wildcard arm instead of one per command.
 */
function valueFlagArms(specs: CommandSpec[]): string[] {
  const commands = specs.filter((spec) => spec.flags.length > 0);
  const everywhere = (name: string, kind: string): boolean =>
    commands.every((spec) => spec.flags.some((flag) => flag.names.includes(name) && flag.value && kindWord(flag.value) === kind));
  const arms: string[] = [];
  const written = new Set<string>();
  for (const spec of commands) {
    for (const flag of spec.flags) {
      if (!flag.value) continue;
      const kind = kindWord(flag.value);
      const patterns = flag.names
        .map((name) => (everywhere(name, kind) ? `*${sq(`|${name}`)}` : sq(`${spec.path.join(' ')}|${name}`)))
        .filter((pattern) => !written.has(pattern));
      patterns.forEach((pattern) => written.add(pattern));
      if (patterns.length > 0) arms.push(`    ${patterns.join('|')}) REPLY=${sq(kind)} ;;`);
    }
  }
  return arms;
}

function argArms(specs: CommandSpec[]): string[] {
  const arms: string[] = [];
  for (const spec of specs) {
    spec.args.forEach((values, index) => {
      if (values.kind !== 'none') arms.push(`    ${sq(`${spec.path.join(' ')}|${index}`)}) REPLY=${sq(kindWord(values))} ;;`);
    });
  }
  return arms;
}

/**
 * Case arms for _idm_given_names: a repeatable flag fails (`return 1`), one of several names gives
 * them all (`REPLY='-p --profile'`); any other flag is itself alone (the helper's default arm). A flag
 * of the same names on every command (idm's global flags) gets one wildcard arm.
 */
function givenArms(specs: CommandSpec[]): string[] {
  const commands = specs.filter((spec) => spec.flags.length > 0);
  const word = (flag: FlagSpec): string => (flag.repeatable ? 'return 1' : `REPLY=${sq((flag.sameSetting ?? flag.names).join(' '))}`);
  const everywhere = (name: string, action: string): boolean =>
    commands.every((spec) => spec.flags.some((flag) => flag.names.includes(name) && word(flag) === action));
  const arms: string[] = [];
  const written = new Set<string>();
  for (const spec of commands) {
    for (const flag of spec.flags) {
      if (!flag.repeatable && (flag.sameSetting ?? flag.names).length === 1) continue;
      const action = word(flag);
      const patterns = flag.names
        .map((name) => (everywhere(name, action) ? `*${sq(`|${name}`)}` : sq(`${spec.path.join(' ')}|${name}`)))
        .filter((pattern) => !written.has(pattern));
      patterns.forEach((pattern) => written.add(pattern));
      if (patterns.length > 0) arms.push(`    ${patterns.join('|')}) ${action} ;;`);
    }
  }
  return arms;
}

/** Case arms `'streams|get') REPLY=show ;;`: the subcommand an alias names (not offered, but read as it). */
function aliasArms(specs: CommandSpec[]): string[] {
  return specs.flatMap((spec) =>
    spec.subcommands.flatMap((sub) => sub.aliases.map((alias) => `    ${sq(`${spec.path.join(' ')}|${alias}`)}) REPLY=${sq(sub.name)} ;;`)),
  );
}

/** The names of the flag that picks the profile (-p, --profile): the scripts read the profile in effect from it. */
function profileFlag(specs: CommandSpec[]): { names: string[]; long: string; short: string } {
  const flag = specs[0]!.flags.find((candidate) => candidate.value?.kind === 'ask' && candidate.value.what === 'profiles');
  const long = flag?.names.find((name) => name.startsWith('--'));
  const short = flag?.names.find((name) => /^-[A-Za-z]$/.test(name));
  if (!flag || !long || !short) throw new Error('idm has no --profile flag with a short name');
  return { names: flag.names, long, short };
}

function header(shell: Shell): string {
  return [
    `# ${shell} completion for idm. Generated from idm's command tree by scripts/gen-completions.mjs`,
    '# (npm run completions); do not edit. `idm completion ' + shell + '` prints the same text.',
    '# Installation: see README: Shell completion.',
  ].join('\n');
}

// ---- bash ----

function bashScript(specs: CommandSpec[]): string {
  const profile = profileFlag(specs);
  const profilePatterns = profile.names.map(sq).join('|');
  const profileLong = sq(profile.long);
  const subcommandArms = specs
    .filter((spec) => spec.subcommands.length > 0)
    .map((spec) => `    ${sq(spec.path.join(' '))}) REPLY=${sq(spec.subcommands.map((sub) => sub.name).join(' '))} ;;`);
  const flagArms = specs
    .filter((spec) => spec.flags.length > 0)
    .map((spec) => `    ${sq(spec.path.join(' '))}) REPLY=${sq(spec.flags.flatMap((flag) => flag.names).join(' '))} ;;`);
  return `${header('bash')}

# The subcommands of a command path ('' is idm itself).
_idm_subcommands() {
  case "$1" in
${subcommandArms.join('\n')}
    *) REPLY='' ;;
  esac
}

# The subcommand that alias $2 of command path $1 stands for (show for streams get), in REPLY.
_idm_alias() {
  case "$1|$2" in
${aliasArms(specs).join('\n')}
    *) return 1 ;;
  esac
}

# Every flag a command path accepts.
_idm_flags() {
  case "$1" in
${flagArms.join('\n')}
    *) REPLY='' ;;
  esac
}

${lookups(specs)}
# Fills COMPREPLY with the values of kind $1 that start with $2; ids are those of the tenant of
# profile $3 (the command line's --profile), else of IDM_PROFILE's, else of the default profile's.
_idm_complete_value() {
  local IFS=$'\\n' head=''
  case "$1" in
    ,*)
      # Comma-separated (--event-type user.created,user.d): what follows the last comma completes.
      [[ $2 == *,* ]] && head=\${2%,*},
      _idm_complete_value "\${1#,}" "\${2##*,}" "$3"
      if [[ -n $head ]]; then COMPREPLY=("\${COMPREPLY[@]/#/$head}"); fi ;;
    list:*) IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "\${1#list:}" -- "$2")) ;;
    files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    ask:*) COMPREPLY=($(compgen -W "$(IDM_PROFILE=\${3:-$IDM_PROFILE} "\${COMP_WORDS[0]}" completion --values "\${1#ask:}" 2>/dev/null)" -- "$2")) ;;
    *) COMPREPLY=() ;;
  esac
}

_idm() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev='' path='' word flag='' prefix='' profile='' given=' ' offered='' REPLY
  local -i i=1 npos=0 ddash=0
  COMPREPLY=()
  (( COMP_CWORD > 0 )) && prev=\${COMP_WORDS[COMP_CWORD-1]}
  # The words before the cursor give the command path; flags and their values are skipped.
  while (( i < COMP_CWORD )); do
    word=\${COMP_WORDS[i]}
    # After --, every word is an argument, one with a dash too.
    if (( ddash )) && [[ $word == -* ]]; then npos+=1; i+=1; continue; fi
    case "$word" in
      --) ddash=1 ;;
      ${profileLong}=*) profile=\${word#*=}; _idm_given_names "$path" "\${word%%=*}" && given+="$REPLY " ;;
      # The profile glued to the short flag (-pprod), as idm reads it.
      ${sq(profile.short)}?*) profile=\${word#${profile.short}}; _idm_given_names "$path" ${sq(profile.short)} && given+="$REPLY " ;;
      -*=*) _idm_given_names "$path" "\${word%%=*}" && given+="$REPLY " ;;
      -*)
        if _idm_flag_value "$path" "$word"; then
          # bash splits --flag=value into three words: --flag, =, value.
          if [[ \${COMP_WORDS[i+1]} == = ]]; then i+=2; else i+=1; fi
          case "$word" in ${profilePatterns}) profile=\${COMP_WORDS[i]} ;; esac
        fi
        _idm_given_names "$path" "$word" && given+="$REPLY " ;;
      *)
        if (( npos == 0 )) && _idm_subcommands "$path" && [[ " $REPLY " == *" $word "* ]]; then
          path=\${path:+$path }$word
        elif (( npos == 0 )) && _idm_alias "$path" "$word"; then
          path=\${path:+$path }$REPLY
        else
          npos+=1
        fi ;;
    esac
    i+=1
  done

  # COMP_WORDS are the words as typed: -p 'prod' and --profile="prod" name prod (a profile's name
  # holds no quote or backslash).
  profile=\${profile//[\\'\\"\\\\]/}

  # The value of a flag: "--flag value", "--flag=value" split by bash, or kept whole. A short flag
  # takes no = (-p=prod is the profile "=prod"): nothing is offered after one. After --, no flags.
  if (( ddash )); then
    flag=''
  elif [[ $cur == = && $prev == --* ]]; then
    flag=$prev; cur=''
  elif [[ $prev == = && \${COMP_WORDS[COMP_CWORD-2]} == --* ]] && (( COMP_CWORD > 1 )); then
    flag=\${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $cur == --*=* ]]; then
    flag=\${cur%%=*}; prefix=\${flag}=; cur=\${cur#*=}
  elif [[ $prev == -* ]]; then
    flag=$prev
  fi
  if [[ -n $flag ]] && _idm_flag_value "$path" "$flag"; then
    _idm_complete_value "$REPLY" "$cur" "$profile"
    if [[ -n $prefix ]]; then COMPREPLY=("\${COMPREPLY[@]/#/$prefix}"); fi
    return 0
  fi

  if (( ! ddash )) && [[ $cur == -* ]]; then
    # The flags not given yet, and those that may be given again.
    _idm_flags "$path"
    for word in $REPLY; do [[ $given == *" $word "* ]] || offered+=" $word"; done
    COMPREPLY=($(compgen -W "$offered" -- "$cur"))
  elif (( npos == 0 )) && _idm_subcommands "$path" && [[ -n $REPLY ]]; then
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
  elif _idm_arg_value "$path" "$npos"; then
    _idm_complete_value "$REPLY" "$cur" "$profile"
  fi
  return 0
}

complete -F _idm idm
`;
}

// ---- zsh ----

function zshDescribed(name: string, description: string): string {
  return sq(`${name.replace(/:/g, '\\:')}:${description}`);
}

function zshScript(specs: CommandSpec[]): string {
  const profile = profileFlag(specs);
  const profilePatterns = profile.names.map(sq).join('|');
  const profileLong = sq(profile.long);
  const nameArms = specs
    .filter((spec) => spec.subcommands.length > 0)
    .map((spec) => `    ${sq(spec.path.join(' '))}) REPLY=${sq(spec.subcommands.map((sub) => sub.name).join(' '))} ;;`);
  const subcommandArms = specs
    .filter((spec) => spec.subcommands.length > 0)
    .map(
      (spec) =>
        `    ${sq(spec.path.join(' '))}) reply=(\n${spec.subcommands.map((sub) => `      ${zshDescribed(sub.name, sub.description)}`).join('\n')}\n    ) ;;`,
    );
  const flagArms = specs
    .filter((spec) => spec.flags.length > 0)
    .map(
      (spec) =>
        `    ${sq(spec.path.join(' '))}) reply=(\n${spec.flags
          .flatMap((flag) => flag.names.map((name) => `      ${zshDescribed(name, flag.description)}`))
          .join('\n')}\n    ) ;;`,
    );
  return `#compdef idm
${header('zsh')}

# The names of the subcommands of a command path ('' is idm itself), space-separated in REPLY.
_idm_subcommand_names() {
  case "$1" in
${nameArms.join('\n')}
    *) REPLY='' ;;
  esac
}

# The subcommands of a command path as name:description, in reply.
_idm_subcommands() {
  case "$1" in
${subcommandArms.join('\n')}
    *) reply=() ;;
  esac
}

# The subcommand that alias $2 of command path $1 stands for (show for streams get), in REPLY.
_idm_alias() {
  case "$1|$2" in
${aliasArms(specs).join('\n')}
    *) return 1 ;;
  esac
}

# Every flag a command path accepts, as name:description, in reply.
_idm_flags() {
  case "$1" in
${flagArms.join('\n')}
    *) reply=() ;;
  esac
}

${lookups(specs)}
# Offers the values of kind $1; ids are those of the tenant of profile $2 (the command line's
# --profile), else of IDM_PROFILE's, else of the default profile's.
_idm_complete_value() {
  local -a values
  local list
  case "$1" in
    ,*) compset -P '*,'; _idm_complete_value "\${1#,}" "$2" ;;  # comma-separated: what follows the last comma
    list:*) list=\${1#list:}; values=(\${=list}); compadd -a values ;;
    files) _files ;;
    dirs) _files -/ ;;
    ask:streams)
      # Each id with the stream's name (id<TAB>name) as its description; _describe drops a single
      # backslash, so each is doubled (a name's \\x1b, as idm escapes it, is shown as it is).
      local line
      local -a described
      for line in \${(f)"$(IDM_PROFILE=\${2:-$IDM_PROFILE} \${words[1]} completion --values named-streams 2>/dev/null)"}; do
        if [[ $line == *$'\\t'* ]]; then described+=("\${line%%$'\\t'*}:\${\${line#*$'\\t'}//\\\\/\\\\\\\\}"); else described+=("$line"); fi
      done
      _describe -t streams 'stream id' described ;;
    ask:*) values=(\${(f)"$(IDM_PROFILE=\${2:-$IDM_PROFILE} \${words[1]} completion --values \${1#ask:} 2>/dev/null)"}); compadd -a values ;;
  esac
}

_idm() {
  local cmdpath='' cmdprofile='' given=' ' word cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} REPLY
  local -a reply offered
  integer i=2 npos=0 ddash=0
  # The words before the cursor give the command path; flags and their values are skipped.
  while (( i < CURRENT )); do
    word=\${words[i]}
    # After --, every word is an argument, one with a dash too.
    if (( ddash )) && [[ $word == -* ]]; then (( npos += 1, i += 1 )); continue; fi
    case "$word" in
      --) ddash=1 ;;
      ${profileLong}=*) cmdprofile=\${(Q)word#*=}; _idm_given_names "$cmdpath" "\${word%%=*}" && given+="$REPLY " ;;
      # The profile glued to the short flag (-pprod), as idm reads it.
      ${sq(profile.short)}?*) cmdprofile=\${(Q)word#${profile.short}}; _idm_given_names "$cmdpath" ${sq(profile.short)} && given+="$REPLY " ;;
      -*=*) _idm_given_names "$cmdpath" "\${word%%=*}" && given+="$REPLY " ;;
      -*)
        if _idm_flag_value "$cmdpath" "$word"; then
          (( i += 1 ))
          case "$word" in ${profilePatterns}) cmdprofile=\${(Q)words[i]} ;; esac
        fi
        _idm_given_names "$cmdpath" "$word" && given+="$REPLY " ;;
      *)
        _idm_subcommand_names "$cmdpath"
        if (( npos == 0 )) && [[ " $REPLY " == *" $word "* ]]; then
          cmdpath=\${cmdpath:+$cmdpath }$word
        elif (( npos == 0 )) && _idm_alias "$cmdpath" "$word"; then
          cmdpath=\${cmdpath:+$cmdpath }$REPLY
        else
          (( npos += 1 ))
        fi ;;
    esac
    (( i += 1 ))
  done

  if (( ! ddash )) && [[ $cur == --*=* ]] && _idm_flag_value "$cmdpath" "\${cur%%=*}"; then
    compset -P '*='
    _idm_complete_value "$REPLY" "$cmdprofile"
    return
  fi
  if (( ! ddash && CURRENT > 2 )) && [[ $prev == -* ]] && _idm_flag_value "$cmdpath" "$prev"; then
    _idm_complete_value "$REPLY" "$cmdprofile"
    return
  fi
  if (( ! ddash )) && [[ $cur == -* ]]; then
    # The flags not given yet, and those that may be given again.
    _idm_flags "$cmdpath"
    for word in $reply; do [[ $given == *" \${word%%:*} "* ]] || offered+=("$word"); done
    _describe -t options 'option' offered
    return
  fi
  if (( npos == 0 )); then
    _idm_subcommands "$cmdpath"
    if (( \${#reply} )); then
      _describe -t commands 'command' reply
      return
    fi
  fi
  _idm_arg_value "$cmdpath" "$npos" && _idm_complete_value "$REPLY" "$cmdprofile"
}

if [ "$funcstack[1]" = "_idm" ]; then
  _idm "$@"
else
  compdef _idm idm
fi
`;
}

// ---- fish ----

/** A fish single-quoted word (inside one, only \\ and \\' are special). */
function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The directories that complete the word under the cursor, `--flag=` forms too (__idm_directories, below). */
const DIRECTORIES = "'(__idm_directories)'";

/** What fish asks idm for: stream ids with their names (id<TAB>name, which fish shows as a description). */
function fishAsk(what: AskKind): AskKind {
  return what === 'streams' ? 'named-streams' : what;
}

/**
 * Fixed values for -a, each with an empty description (`a\\t b\\t`): fish would otherwise show the
 * flag's description beside every value. The values are plain words (checked here).
 */
function fishBare(values: readonly string[]): string {
  const bad = values.find((value) => !/^[A-Za-z0-9._-]+$/.test(value));
  if (bad !== undefined) throw new Error(`A value of a flag is not a plain word: ${JSON.stringify(bad)}`);
  return `'${values.map((value) => `${value}\\t`).join(' ')}'`;
}

function fishValueArgs(values: Values): string {
  switch (values.kind) {
    case 'list':
      return values.commas ? `-x -a ${fq(`(__idm_commas ${values.values.join(' ')})`)}` : `-x -a ${fishBare(values.values)}`;
    case 'files':
      return '-r -F';
    case 'dirs':
      return `-x -a ${DIRECTORIES}`;
    case 'ask':
      return values.commas ? `-x -a '(__idm_commas (__idm_values ${fishAsk(values.what)}))'` : `-x -a '(__idm_values ${fishAsk(values.what)})'`;
    default:
      return '-x';
  }
}

function fishFlag(flag: FlagSpec, where: string | undefined): string {
  const parts = ['complete -c idm'];
  // Once given, a flag is not offered again, unless it may be given more than once.
  const once = flag.repeatable ? undefined : `not __idm_given ${(flag.sameSetting ?? flag.names).join(' ')}`;
  const condition = [where, once].filter(Boolean).join('; and ');
  if (condition) parts.push(`-n ${fq(condition)}`);
  for (const name of flag.names) {
    if (name.startsWith('--')) parts.push(`-l ${name.slice(2)}`);
    else parts.push(`-s ${name.slice(1)}`);
  }
  if (flag.value) parts.push(fishValueArgs(flag.value));
  if (flag.description) parts.push(`-d ${fq(flag.description)}`);
  return parts.join(' ');
}

function fishScript(specs: CommandSpec[]): string {
  const profile = profileFlag(specs);
  const fishProfileNames = profile.names.map(fq).join(' ');
  const profileLongName = profile.long;
  // idm's own flags (but --version) are accepted after any subcommand: written once, unconditioned.
  const key = (flag: FlagSpec): string => flag.names.join(' ');
  const globals = new Set(specs[0]!.flags.filter((flag) => !flag.names.includes('--version')).map(key));
  const subcommandArms = specs
    .filter((spec) => spec.subcommands.length > 0)
    .map((spec) => `    case ${fq(spec.path.join(' '))}\n      printf '%s\\n' ${spec.subcommands.map((sub) => fq(sub.name)).join(' ')}`);
  const fishAliasArms = specs.flatMap((spec) =>
    spec.subcommands.flatMap((sub) => sub.aliases.map((alias) => `    case ${fq(`${spec.path.join(' ')}|${alias}`)}\n      echo ${fq(sub.name)}\n      return 0`)),
  );
  const valueArms: string[] = [];
  for (const spec of specs) {
    const names = spec.flags.filter((flag) => flag.value).flatMap((flag) => flag.names);
    if (names.length > 0) valueArms.push(`    case ${names.map((name) => fq(`${spec.path.join(' ')}|${name}`)).join(' ')}\n      return 0`);
  }
  const lines: string[] = [];
  for (const spec of specs) {
    const path = spec.path.join(' ');
    for (const sub of spec.subcommands) {
      lines.push(`complete -c idm -n ${fq(`__idm_at "${path}"`)} -a ${fq(sub.name)} -d ${fq(sub.description)}`);
    }
    for (const flag of spec.flags) {
      if (!globals.has(key(flag))) lines.push(fishFlag(flag, `__idm_in "${path}"`));
      else if (spec.path.length === 0) lines.push(fishFlag(flag, undefined));
    }
    spec.args.forEach((values, index) => {
      if (values.kind === 'none') return;
      const condition = fq(`__idm_arg "${path}" ${index}`);
      if (values.kind === 'list') lines.push(`complete -c idm -n ${condition} -a ${fq(values.values.join(' '))}`);
      else if (values.kind === 'files') lines.push(`complete -c idm -n ${condition} -F`);
      else if (values.kind === 'dirs') lines.push(`complete -c idm -n ${condition} -a ${DIRECTORIES}`);
      else lines.push(`complete -c idm -n ${condition} -a '(__idm_values ${fishAsk(values.what)})'`);
    });
  }
  return `${header('fish')}

# The subcommands of a command path ('' is idm itself).
function __idm_subcommands
    switch $argv[1]
${subcommandArms.join('\n')}
    end
end

# The subcommand that alias $argv[2] of command path $argv[1] stands for (show for streams get).
function __idm_alias
    switch "$argv[1]|$argv[2]"
${fishAliasArms.join('\n')}
    end
    return 1
end

# Succeeds when flag $argv[2] of command path $argv[1] takes a value.
function __idm_flag_takes_value
    switch "$argv[1]|$argv[2]"
${valueArms.join('\n')}
    end
    return 1
end

# Prints the number of positional arguments before the cursor, then | and the command path ('|' for
# idm), then the flags given (one a line; a flag that takes a value once its value is there).
function __idm_state
    # Asked by the condition of every flag of a TAB: worked out once for the text before the cursor.
    set -l key (commandline -cp | string collect)
    if set -q __idm_state_key; and test "$__idm_state_key" = "$key"
        printf '%s\\n' $__idm_state_value
        return
    end
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path ''
    set -l npos 0
    set -l skip 0
    set -l ddash 0
    set -l given
    set -l pending
    for word in $tokens
        if test $skip = 1
            set skip 0
            set -a given $pending
            continue
        end
        # After --, every word is an argument, one with a dash too.
        if test $ddash = 1; and string match -q -- '-*' $word
            set npos (math $npos + 1)
            continue
        end
        switch $word
            case '--'
                set ddash 1
            case '-*=*'
                set -a given (string replace -r -- '=.*' '' $word)
            case '-*'
                if __idm_flag_takes_value "$path" $word
                    set skip 1
                    set pending $word
                else
                    # -pprod: the profile flag, given
                    set -a given (string replace -r -- ${fq(`^(${profile.short}).+`)} '$1' $word)
                end
            case '*'
                if test $npos = 0; and contains -- $word (__idm_subcommands "$path")
                    set path (string trim -- "$path $word")
                else if test $npos = 0; and set -l real (__idm_alias "$path" $word)
                    set path (string trim -- "$path $real")
                else
                    set npos (math $npos + 1)
                end
        end
    end
    set -g __idm_state_key $key
    set -g __idm_state_value $npos "|$path" $given
    printf '%s\\n' $__idm_state_value
end

# At command path $argv[1], where a subcommand may follow.
function __idm_at
    set -l state (__idm_state)
    test "$state[2]" = "|$argv[1]"; and test "$state[1]" = 0
end

# Anywhere inside command path $argv[1].
function __idm_in
    set -l state (__idm_state)
    test "$state[2]" = "|$argv[1]"
end

# At positional argument $argv[2] (from 0) of command path $argv[1].
function __idm_arg
    set -l state (__idm_state)
    test "$state[2]" = "|$argv[1]"; and test "$state[1]" = "$argv[2]"
end

# Succeeds when one of the names $argv (a flag's: -p --profile) is given before the cursor.
function __idm_given
    set -l state (__idm_state)
    for name in $argv
        contains -- $name $state[3..-1]; and return 0
    end
    return 1
end

# The values of kind $argv[1]; ids are those of the tenant of the command line's --profile, else of
# IDM_PROFILE's, else of the default profile's.
function __idm_values
    set -l tokens (commandline -opc)
    set -l profile $IDM_PROFILE
    set -l i 2
    while test $i -le (count $tokens)
        switch $tokens[$i]
            case ${fishProfileNames}
                set i (math $i + 1)
                set -q tokens[$i]; and set profile $tokens[$i]
            case ${fq(`${profileLongName}=*`)}
                set profile (string replace -- ${fq(`${profileLongName}=`)} '' $tokens[$i])
            case ${fq(`${profile.short}*`)}
                # The profile glued to the short flag (-pprod), as idm reads it.
                set profile (string sub -s 3 -- $tokens[$i])
        end
        set i (math $i + 1)
    end
    set -lx IDM_PROFILE $profile
    # idm not found (uninstalled, or not on this PATH): nothing, and no error of fish's at the TAB.
    type -q idm; or return
    # A value without a description (id<TAB>name) gets an empty one: not the flag's beside each.
    idm completion --values $argv[1] 2>/dev/null | string replace -r -- '^([^\\t]*)$' '$1\\t'
end

# The values $argv after what the word under the cursor has up to its last comma (a flag of
# comma-separated values: --event-type user.created,user.d completes the second). The word as
# typed: without its --flag= and an opening quote, which fish matches the values without.
function __idm_commas
    set -l head (string replace -r -- '^-[^=]*=' '' (commandline -ct) | string replace -r -- '^[\\\'"]' '' | string match -r -- '^.*,')
    for value in $argv
        printf '%s%s\\t\\n' "$head" (string split -f1 \\t -- $value)
    end
end

# The directories that complete the word under the cursor (fish's helper). Of --flag= with nothing
# (or only quotes) after the =, those of '': fish puts --flag= in front of what matches an empty
# value, so that the whole word's --flag=DIR/ became --flag=--flag=DIR/. After a value, the whole
# word: fish takes --flag=DIR/ as a replacement of the word.
function __idm_directories
    set -l word (commandline -ct)
    set -l empty (string match -r -- '^([\\'"]?)--[^=]*=([\\'"]*)$' "$word")
    and set word "$empty[2]$empty[3]"
    __fish_complete_directories "$word"
end

# No file names unless a flag asks for a file.
complete -c idm -f
${lines.join('\n')}
`;
}
