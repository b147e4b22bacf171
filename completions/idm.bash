# bash completion for idm. Generated from idm's command tree by scripts/gen-completions.mjs
# (npm run completions); do not edit. `idm completion bash` prints the same text.
# Installation: see README: Shell completion.

# The subcommands of a command path ('' is idm itself).
_idm_subcommands() {
  case "$1" in
    '') REPLY='login logout auth profiles streams provisioning connections api sandbox completion help' ;;
    'auth') REPLY='login logout status help' ;;
    'profiles') REPLY='list use remove help' ;;
    'streams') REPLY='list show create update enable disable delete test deliveries redeliver stats help' ;;
    'streams deliveries') REPLY='list show help' ;;
    'provisioning') REPLY='list show create update delete default-mapping sync groups help' ;;
    'provisioning groups') REPLY='list add remove set help' ;;
    'connections') REPLY='list help' ;;
    'sandbox') REPLY='start help' ;;
    'help') REPLY='login logout auth profiles streams provisioning connections api sandbox completion' ;;
    'help auth') REPLY='login logout status' ;;
    'help profiles') REPLY='list use remove' ;;
    'help streams') REPLY='list show create update enable disable delete test deliveries redeliver stats' ;;
    'help streams deliveries') REPLY='list show' ;;
    'help provisioning') REPLY='list show create update delete default-mapping sync groups' ;;
    'help provisioning groups') REPLY='list add remove set' ;;
    'help connections') REPLY='list' ;;
    'help sandbox') REPLY='start' ;;
    *) REPLY='' ;;
  esac
}

# The subcommand that alias $2 of command path $1 stands for (show for streams get), in REPLY.
_idm_alias() {
  case "$1|$2" in
    'streams|get') REPLY='show' ;;
    'streams deliveries|get') REPLY='show' ;;
    'provisioning|get') REPLY='show' ;;
    'help streams|get') REPLY='show' ;;
    'help streams deliveries|get') REPLY='show' ;;
    'help provisioning|get') REPLY='show' ;;
    *) return 1 ;;
  esac
}

# Every flag a command path accepts.
_idm_flags() {
  case "$1" in
    '') REPLY='-V --version --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key -h --help' ;;
    'login') REPLY='--domain --client-id --client-secret-file --private-key-file --signing-alg --auth-method -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'logout') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'auth') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'auth login') REPLY='--domain --client-id --client-secret-file --private-key-file --signing-alg --auth-method -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'auth logout') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'auth status') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'profiles') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'profiles list') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'profiles use') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'profiles remove') REPLY='-y --yes -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams list') REPLY='--take --from --all -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams show') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams create') REPLY='--name --event-type --disabled --from-file --webhook --auth --username --header-key --secret-file --eventbus-account --eventbus-region --action -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams update') REPLY='--name --event-type --add-event-type --remove-event-type --from-file --webhook --auth --username --header-key --secret-file --action -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams enable') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams disable') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams delete') REPLY='-y --yes -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams test') REPLY='--event-type --data --data-file --wait --wait-timeout -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams deliveries') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams deliveries list') REPLY='--status --event-type --since --until --take --from --all -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams deliveries show') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams redeliver') REPLY='--status --event-type --since --until -y --yes -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'streams stats') REPLY='--since --until -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning list') REPLY='--take --from --all -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning show') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning create') REPLY='--mapping --mapping-file --sync-automatically --no-sync-automatically --sync-groups -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning update') REPLY='--mapping --mapping-file --add-mapping --remove-mapping --sync-automatically --no-sync-automatically --sync-groups -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning delete') REPLY='-y --yes --ignore-not-found -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning default-mapping') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning sync') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning groups') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning groups list') REPLY='--search --take --from --all -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning groups add') REPLY='--groups-file -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning groups remove') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'provisioning groups set') REPLY='--groups-file --none -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'connections') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'connections list') REPLY='--strategy --take --from --all -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'api') REPLY='--data --query --paginate -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'sandbox') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'sandbox start') REPLY='--port --https --tls-cert --tls-key --mtls --mtls-edge --state-dir --seed --streams --token-lifetime --rate-limit --max-streams --delivery --retry-delays --delivery-timeout --fault -h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    'completion') REPLY='-h --help --json -p --profile --no-color --no-input --debug --timeout --max-wait --ca-file --client-cert --client-key' ;;
    *) REPLY='' ;;
  esac
}

# Succeeds when flag $2 of command path $1 takes a value; REPLY says what it completes to.
_idm_flag_value() {
  case "$1|$2" in
    *'|-p'|*'|--profile') REPLY='ask:profiles' ;;
    *'|--timeout') REPLY='none' ;;
    *'|--max-wait') REPLY='none' ;;
    *'|--ca-file') REPLY='files' ;;
    *'|--client-cert') REPLY='files' ;;
    *'|--client-key') REPLY='files' ;;
    'login|--domain') REPLY='none' ;;
    'login|--client-id') REPLY='none' ;;
    'login|--client-secret-file') REPLY='files' ;;
    'login|--private-key-file') REPLY='files' ;;
    'login|--signing-alg') REPLY='list:RS256 RS384 PS256 ES256' ;;
    'login|--auth-method') REPLY='list:post basic private_key_jwt tls_client_auth' ;;
    'auth login|--domain') REPLY='none' ;;
    'auth login|--client-id') REPLY='none' ;;
    'auth login|--client-secret-file') REPLY='files' ;;
    'auth login|--private-key-file') REPLY='files' ;;
    'auth login|--signing-alg') REPLY='list:RS256 RS384 PS256 ES256' ;;
    'auth login|--auth-method') REPLY='list:post basic private_key_jwt tls_client_auth' ;;
    'streams list|--take') REPLY='none' ;;
    'streams list|--from') REPLY='none' ;;
    'streams create|--name') REPLY='none' ;;
    'streams create|--event-type') REPLY=',list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams create|--from-file') REPLY='files' ;;
    'streams create|--webhook') REPLY='none' ;;
    'streams create|--auth') REPLY='list:bearer basic custom-header' ;;
    'streams create|--username') REPLY='none' ;;
    'streams create|--header-key') REPLY='none' ;;
    'streams create|--secret-file') REPLY='files' ;;
    'streams create|--eventbus-account') REPLY='none' ;;
    'streams create|--eventbus-region') REPLY='list:af-south-1 ap-east-1 ap-east-2 ap-northeast-1 ap-northeast-2 ap-northeast-3 ap-south-1 ap-south-2 ap-southeast-1 ap-southeast-2 ap-southeast-3 ap-southeast-4 ap-southeast-5 ap-southeast-6 ap-southeast-7 ca-central-1 ca-west-1 eu-central-1 eu-central-2 eu-north-1 eu-south-1 eu-south-2 eu-west-1 eu-west-2 eu-west-3 il-central-1 me-central-1 me-south-1 mx-central-1 sa-east-1 us-gov-east-1 us-gov-west-1 us-east-1 us-east-2 us-west-1 us-west-2' ;;
    'streams create|--action') REPLY='none' ;;
    'streams update|--name') REPLY='none' ;;
    'streams update|--event-type') REPLY=',list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams update|--add-event-type') REPLY=',list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams update|--remove-event-type') REPLY=',list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams update|--from-file') REPLY='files' ;;
    'streams update|--webhook') REPLY='none' ;;
    'streams update|--auth') REPLY='list:bearer basic custom-header' ;;
    'streams update|--username') REPLY='none' ;;
    'streams update|--header-key') REPLY='none' ;;
    'streams update|--secret-file') REPLY='files' ;;
    'streams update|--action') REPLY='none' ;;
    'streams test|--event-type') REPLY='list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams test|--data') REPLY='none' ;;
    'streams test|--data-file') REPLY='files' ;;
    'streams test|--wait-timeout') REPLY='none' ;;
    'streams deliveries list|--status') REPLY=',list:failed' ;;
    'streams deliveries list|--event-type') REPLY=',list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams deliveries list|--since') REPLY='none' ;;
    'streams deliveries list|--until') REPLY='none' ;;
    'streams deliveries list|--take') REPLY='none' ;;
    'streams deliveries list|--from') REPLY='none' ;;
    'streams redeliver|--status') REPLY=',list:failed' ;;
    'streams redeliver|--event-type') REPLY=',list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams redeliver|--since') REPLY='none' ;;
    'streams redeliver|--until') REPLY='none' ;;
    'streams stats|--since') REPLY='none' ;;
    'streams stats|--until') REPLY='none' ;;
    'provisioning list|--take') REPLY='none' ;;
    'provisioning list|--from') REPLY='none' ;;
    'provisioning create|--mapping') REPLY='none' ;;
    'provisioning create|--mapping-file') REPLY='files' ;;
    'provisioning create|--sync-groups') REPLY='list:all off selected' ;;
    'provisioning update|--mapping') REPLY='none' ;;
    'provisioning update|--mapping-file') REPLY='files' ;;
    'provisioning update|--add-mapping') REPLY='none' ;;
    'provisioning update|--remove-mapping') REPLY='none' ;;
    'provisioning update|--sync-groups') REPLY='list:all off selected' ;;
    'provisioning groups list|--search') REPLY='none' ;;
    'provisioning groups list|--take') REPLY='none' ;;
    'provisioning groups list|--from') REPLY='none' ;;
    'provisioning groups add|--groups-file') REPLY='files' ;;
    'provisioning groups set|--groups-file') REPLY='files' ;;
    'connections list|--strategy') REPLY=',ask:strategies' ;;
    'connections list|--take') REPLY='none' ;;
    'connections list|--from') REPLY='none' ;;
    'api|--data') REPLY='none' ;;
    'api|--query') REPLY='none' ;;
    'sandbox start|--port') REPLY='none' ;;
    'sandbox start|--tls-cert') REPLY='files' ;;
    'sandbox start|--tls-key') REPLY='files' ;;
    'sandbox start|--state-dir') REPLY='dirs' ;;
    'sandbox start|--seed') REPLY='files' ;;
    'sandbox start|--streams') REPLY='none' ;;
    'sandbox start|--token-lifetime') REPLY='none' ;;
    'sandbox start|--rate-limit') REPLY='none' ;;
    'sandbox start|--max-streams') REPLY='none' ;;
    'sandbox start|--delivery') REPLY='list:async sync' ;;
    'sandbox start|--retry-delays') REPLY='none' ;;
    'sandbox start|--delivery-timeout') REPLY='none' ;;
    'sandbox start|--fault') REPLY='none' ;;
    *) return 1 ;;
  esac
}

# Succeeds when positional argument $2 (from 0) of command path $1 completes to something; REPLY says what.
_idm_arg_value() {
  case "$1|$2" in
    'auth help|0') REPLY='list:login logout status' ;;
    'profiles use|0') REPLY='ask:profiles' ;;
    'profiles remove|0') REPLY='ask:profiles' ;;
    'profiles help|0') REPLY='list:list use remove' ;;
    'streams show|0') REPLY='ask:streams' ;;
    'streams update|0') REPLY='ask:streams' ;;
    'streams enable|0') REPLY='ask:streams' ;;
    'streams disable|0') REPLY='ask:streams' ;;
    'streams delete|0') REPLY='ask:streams' ;;
    'streams test|0') REPLY='ask:streams' ;;
    'streams deliveries list|0') REPLY='ask:streams' ;;
    'streams deliveries show|0') REPLY='ask:streams' ;;
    'streams deliveries help|0') REPLY='list:list show' ;;
    'streams redeliver|0') REPLY='ask:streams' ;;
    'streams stats|0') REPLY='ask:streams' ;;
    'streams help|0') REPLY='list:list show create update enable disable delete test deliveries redeliver stats' ;;
    'provisioning show|0') REPLY='ask:connections' ;;
    'provisioning create|0') REPLY='ask:connections' ;;
    'provisioning update|0') REPLY='ask:connections' ;;
    'provisioning delete|0') REPLY='ask:connections' ;;
    'provisioning default-mapping|0') REPLY='ask:connections' ;;
    'provisioning sync|0') REPLY='ask:connections' ;;
    'provisioning groups list|0') REPLY='ask:connections' ;;
    'provisioning groups add|0') REPLY='ask:connections' ;;
    'provisioning groups remove|0') REPLY='ask:connections' ;;
    'provisioning groups set|0') REPLY='ask:connections' ;;
    'provisioning groups help|0') REPLY='list:list add remove set' ;;
    'provisioning help|0') REPLY='list:list show create update delete default-mapping sync groups' ;;
    'connections help|0') REPLY='list:list' ;;
    'api|0') REPLY='list:GET POST PATCH PUT DELETE' ;;
    'sandbox help|0') REPLY='list:start' ;;
    'completion|0') REPLY='list:bash zsh fish' ;;
    *) return 1 ;;
  esac
}

# The names of flag $2 of command path $1 in REPLY (-p gives -p --profile): once it is given, none
# of them is offered again. Fails for a flag that may be given more than once.
_idm_given_names() {
  case "$1|$2" in
    '|-V'|'|--version') REPLY='-V --version' ;;
    *'|-p'|*'|--profile') REPLY='-p --profile' ;;
    *'|-h'|*'|--help') REPLY='-h --help' ;;
    'profiles remove|-y'|'profiles remove|--yes') REPLY='-y --yes' ;;
    'streams create|--event-type') return 1 ;;
    'streams update|--event-type') return 1 ;;
    'streams update|--add-event-type') return 1 ;;
    'streams update|--remove-event-type') return 1 ;;
    'streams delete|-y'|'streams delete|--yes') REPLY='-y --yes' ;;
    'streams deliveries list|--status') return 1 ;;
    'streams deliveries list|--event-type') return 1 ;;
    'streams redeliver|--status') return 1 ;;
    'streams redeliver|--event-type') return 1 ;;
    'streams redeliver|-y'|'streams redeliver|--yes') REPLY='-y --yes' ;;
    'provisioning create|--mapping') return 1 ;;
    'provisioning create|--sync-automatically') REPLY='--sync-automatically --no-sync-automatically' ;;
    'provisioning create|--no-sync-automatically') REPLY='--no-sync-automatically --sync-automatically' ;;
    'provisioning update|--mapping') return 1 ;;
    'provisioning update|--add-mapping') return 1 ;;
    'provisioning update|--remove-mapping') return 1 ;;
    'provisioning update|--sync-automatically') REPLY='--sync-automatically --no-sync-automatically' ;;
    'provisioning update|--no-sync-automatically') REPLY='--no-sync-automatically --sync-automatically' ;;
    'provisioning delete|-y'|'provisioning delete|--yes') REPLY='-y --yes' ;;
    'connections list|--strategy') return 1 ;;
    'api|--query') return 1 ;;
    'sandbox start|--fault') return 1 ;;
    *) REPLY=$2 ;;
  esac
}

# Fills COMPREPLY with the values of kind $1 that start with $2; ids are those of the tenant of
# profile $3 (the command line's --profile), else of IDM_PROFILE's, else of the default profile's.
_idm_complete_value() {
  local IFS=$'\n' head=''
  case "$1" in
    ,*)
      # Comma-separated (--event-type user.created,user.d): what follows the last comma completes.
      [[ $2 == *,* ]] && head=${2%,*},
      _idm_complete_value "${1#,}" "${2##*,}" "$3"
      if [[ -n $head ]]; then COMPREPLY=("${COMPREPLY[@]/#/$head}"); fi ;;
    list:*) IFS=$' \t\n'; COMPREPLY=($(compgen -W "${1#list:}" -- "$2")) ;;
    files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    ask:*) COMPREPLY=($(compgen -W "$(IDM_PROFILE=${3:-$IDM_PROFILE} "${COMP_WORDS[0]}" completion --values "${1#ask:}" 2>/dev/null)" -- "$2")) ;;
    *) COMPREPLY=() ;;
  esac
}

_idm() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev='' path='' word flag='' prefix='' profile='' given=' ' offered='' REPLY
  local -i i=1 npos=0 ddash=0
  COMPREPLY=()
  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
  # The words before the cursor give the command path; flags and their values are skipped.
  while (( i < COMP_CWORD )); do
    word=${COMP_WORDS[i]}
    # After --, every word is an argument, one with a dash too.
    if (( ddash )) && [[ $word == -* ]]; then npos+=1; i+=1; continue; fi
    case "$word" in
      --) ddash=1 ;;
      '--profile'=*) profile=${word#*=}; _idm_given_names "$path" "${word%%=*}" && given+="$REPLY " ;;
      # The profile glued to the short flag (-pprod), as idm reads it.
      '-p'?*) profile=${word#-p}; _idm_given_names "$path" '-p' && given+="$REPLY " ;;
      -*=*) _idm_given_names "$path" "${word%%=*}" && given+="$REPLY " ;;
      -*)
        if _idm_flag_value "$path" "$word"; then
          # bash splits --flag=value into three words: --flag, =, value.
          if [[ ${COMP_WORDS[i+1]} == = ]]; then i+=2; else i+=1; fi
          case "$word" in '-p'|'--profile') profile=${COMP_WORDS[i]} ;; esac
        fi
        _idm_given_names "$path" "$word" && given+="$REPLY " ;;
      *)
        if (( npos == 0 )) && _idm_subcommands "$path" && [[ " $REPLY " == *" $word "* ]]; then
          path=${path:+$path }$word
        elif (( npos == 0 )) && _idm_alias "$path" "$word"; then
          path=${path:+$path }$REPLY
        else
          npos+=1
        fi ;;
    esac
    i+=1
  done

  # COMP_WORDS are the words as typed: -p 'prod' and --profile="prod" name prod (a profile's name
  # holds no quote or backslash).
  profile=${profile//[\'\"\\]/}

  # The value of a flag: "--flag value", "--flag=value" split by bash, or kept whole. A short flag
  # takes no = (-p=prod is the profile "=prod"): nothing is offered after one. After --, no flags.
  if (( ddash )); then
    flag=''
  elif [[ $cur == = && $prev == --* ]]; then
    flag=$prev; cur=''
  elif [[ $prev == = && ${COMP_WORDS[COMP_CWORD-2]} == --* ]] && (( COMP_CWORD > 1 )); then
    flag=${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $cur == --*=* ]]; then
    flag=${cur%%=*}; prefix=${flag}=; cur=${cur#*=}
  elif [[ $prev == -* ]]; then
    flag=$prev
  fi
  if [[ -n $flag ]] && _idm_flag_value "$path" "$flag"; then
    _idm_complete_value "$REPLY" "$cur" "$profile"
    if [[ -n $prefix ]]; then COMPREPLY=("${COMPREPLY[@]/#/$prefix}"); fi
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
