# fish completion for idm. Generated from idm's command tree by scripts/gen-completions.mjs
# (npm run completions); do not edit. `idm completion fish` prints the same text.
# Installation: see README: Shell completion.

# The subcommands of a command path ('' is idm itself).
function __idm_subcommands
    switch $argv[1]
    case ''
      printf '%s\n' 'login' 'logout' 'auth' 'profiles' 'streams' 'provisioning' 'connections' 'api' 'sandbox' 'completion' 'help'
    case 'auth'
      printf '%s\n' 'login' 'logout' 'status' 'help'
    case 'profiles'
      printf '%s\n' 'list' 'use' 'remove' 'help'
    case 'streams'
      printf '%s\n' 'list' 'show' 'create' 'update' 'enable' 'disable' 'delete' 'test' 'deliveries' 'redeliver' 'stats' 'help'
    case 'streams deliveries'
      printf '%s\n' 'list' 'show' 'help'
    case 'provisioning'
      printf '%s\n' 'list' 'show' 'create' 'update' 'delete' 'default-mapping' 'sync' 'groups' 'help'
    case 'provisioning groups'
      printf '%s\n' 'list' 'add' 'remove' 'set' 'help'
    case 'connections'
      printf '%s\n' 'list' 'help'
    case 'sandbox'
      printf '%s\n' 'start' 'help'
    case 'help'
      printf '%s\n' 'login' 'logout' 'auth' 'profiles' 'streams' 'provisioning' 'connections' 'api' 'sandbox' 'completion'
    case 'help auth'
      printf '%s\n' 'login' 'logout' 'status'
    case 'help profiles'
      printf '%s\n' 'list' 'use' 'remove'
    case 'help streams'
      printf '%s\n' 'list' 'show' 'create' 'update' 'enable' 'disable' 'delete' 'test' 'deliveries' 'redeliver' 'stats'
    case 'help streams deliveries'
      printf '%s\n' 'list' 'show'
    case 'help provisioning'
      printf '%s\n' 'list' 'show' 'create' 'update' 'delete' 'default-mapping' 'sync' 'groups'
    case 'help provisioning groups'
      printf '%s\n' 'list' 'add' 'remove' 'set'
    case 'help connections'
      printf '%s\n' 'list'
    case 'help sandbox'
      printf '%s\n' 'start'
    end
end

# The subcommand that alias $argv[2] of command path $argv[1] stands for (show for streams get).
function __idm_alias
    switch "$argv[1]|$argv[2]"
    case 'streams|get'
      echo 'show'
      return 0
    case 'streams deliveries|get'
      echo 'show'
      return 0
    case 'provisioning|get'
      echo 'show'
      return 0
    case 'help streams|get'
      echo 'show'
      return 0
    case 'help streams deliveries|get'
      echo 'show'
      return 0
    case 'help provisioning|get'
      echo 'show'
      return 0
    end
    return 1
end

# Succeeds when flag $argv[2] of command path $argv[1] takes a value.
function __idm_flag_takes_value
    switch "$argv[1]|$argv[2]"
    case '|-p' '|--profile' '|--timeout' '|--max-wait' '|--ca-file' '|--client-cert' '|--client-key'
      return 0
    case 'login|--domain' 'login|--client-id' 'login|--client-secret-file' 'login|--private-key-file' 'login|--signing-alg' 'login|--auth-method' 'login|-p' 'login|--profile' 'login|--timeout' 'login|--max-wait' 'login|--ca-file' 'login|--client-cert' 'login|--client-key'
      return 0
    case 'logout|-p' 'logout|--profile' 'logout|--timeout' 'logout|--max-wait' 'logout|--ca-file' 'logout|--client-cert' 'logout|--client-key'
      return 0
    case 'auth|-p' 'auth|--profile' 'auth|--timeout' 'auth|--max-wait' 'auth|--ca-file' 'auth|--client-cert' 'auth|--client-key'
      return 0
    case 'auth login|--domain' 'auth login|--client-id' 'auth login|--client-secret-file' 'auth login|--private-key-file' 'auth login|--signing-alg' 'auth login|--auth-method' 'auth login|-p' 'auth login|--profile' 'auth login|--timeout' 'auth login|--max-wait' 'auth login|--ca-file' 'auth login|--client-cert' 'auth login|--client-key'
      return 0
    case 'auth logout|-p' 'auth logout|--profile' 'auth logout|--timeout' 'auth logout|--max-wait' 'auth logout|--ca-file' 'auth logout|--client-cert' 'auth logout|--client-key'
      return 0
    case 'auth status|-p' 'auth status|--profile' 'auth status|--timeout' 'auth status|--max-wait' 'auth status|--ca-file' 'auth status|--client-cert' 'auth status|--client-key'
      return 0
    case 'profiles|-p' 'profiles|--profile' 'profiles|--timeout' 'profiles|--max-wait' 'profiles|--ca-file' 'profiles|--client-cert' 'profiles|--client-key'
      return 0
    case 'profiles list|-p' 'profiles list|--profile' 'profiles list|--timeout' 'profiles list|--max-wait' 'profiles list|--ca-file' 'profiles list|--client-cert' 'profiles list|--client-key'
      return 0
    case 'profiles use|-p' 'profiles use|--profile' 'profiles use|--timeout' 'profiles use|--max-wait' 'profiles use|--ca-file' 'profiles use|--client-cert' 'profiles use|--client-key'
      return 0
    case 'profiles remove|-p' 'profiles remove|--profile' 'profiles remove|--timeout' 'profiles remove|--max-wait' 'profiles remove|--ca-file' 'profiles remove|--client-cert' 'profiles remove|--client-key'
      return 0
    case 'streams|-p' 'streams|--profile' 'streams|--timeout' 'streams|--max-wait' 'streams|--ca-file' 'streams|--client-cert' 'streams|--client-key'
      return 0
    case 'streams list|--take' 'streams list|--from' 'streams list|-p' 'streams list|--profile' 'streams list|--timeout' 'streams list|--max-wait' 'streams list|--ca-file' 'streams list|--client-cert' 'streams list|--client-key'
      return 0
    case 'streams show|-p' 'streams show|--profile' 'streams show|--timeout' 'streams show|--max-wait' 'streams show|--ca-file' 'streams show|--client-cert' 'streams show|--client-key'
      return 0
    case 'streams create|--name' 'streams create|--event-type' 'streams create|--from-file' 'streams create|--webhook' 'streams create|--auth' 'streams create|--username' 'streams create|--header-key' 'streams create|--secret-file' 'streams create|--eventbus-account' 'streams create|--eventbus-region' 'streams create|--action' 'streams create|-p' 'streams create|--profile' 'streams create|--timeout' 'streams create|--max-wait' 'streams create|--ca-file' 'streams create|--client-cert' 'streams create|--client-key'
      return 0
    case 'streams update|--name' 'streams update|--event-type' 'streams update|--add-event-type' 'streams update|--remove-event-type' 'streams update|--from-file' 'streams update|--webhook' 'streams update|--auth' 'streams update|--username' 'streams update|--header-key' 'streams update|--secret-file' 'streams update|--action' 'streams update|-p' 'streams update|--profile' 'streams update|--timeout' 'streams update|--max-wait' 'streams update|--ca-file' 'streams update|--client-cert' 'streams update|--client-key'
      return 0
    case 'streams enable|-p' 'streams enable|--profile' 'streams enable|--timeout' 'streams enable|--max-wait' 'streams enable|--ca-file' 'streams enable|--client-cert' 'streams enable|--client-key'
      return 0
    case 'streams disable|-p' 'streams disable|--profile' 'streams disable|--timeout' 'streams disable|--max-wait' 'streams disable|--ca-file' 'streams disable|--client-cert' 'streams disable|--client-key'
      return 0
    case 'streams delete|-p' 'streams delete|--profile' 'streams delete|--timeout' 'streams delete|--max-wait' 'streams delete|--ca-file' 'streams delete|--client-cert' 'streams delete|--client-key'
      return 0
    case 'streams test|--event-type' 'streams test|--data' 'streams test|--data-file' 'streams test|--wait-timeout' 'streams test|-p' 'streams test|--profile' 'streams test|--timeout' 'streams test|--max-wait' 'streams test|--ca-file' 'streams test|--client-cert' 'streams test|--client-key'
      return 0
    case 'streams deliveries|-p' 'streams deliveries|--profile' 'streams deliveries|--timeout' 'streams deliveries|--max-wait' 'streams deliveries|--ca-file' 'streams deliveries|--client-cert' 'streams deliveries|--client-key'
      return 0
    case 'streams deliveries list|--status' 'streams deliveries list|--event-type' 'streams deliveries list|--since' 'streams deliveries list|--until' 'streams deliveries list|--take' 'streams deliveries list|--from' 'streams deliveries list|-p' 'streams deliveries list|--profile' 'streams deliveries list|--timeout' 'streams deliveries list|--max-wait' 'streams deliveries list|--ca-file' 'streams deliveries list|--client-cert' 'streams deliveries list|--client-key'
      return 0
    case 'streams deliveries show|-p' 'streams deliveries show|--profile' 'streams deliveries show|--timeout' 'streams deliveries show|--max-wait' 'streams deliveries show|--ca-file' 'streams deliveries show|--client-cert' 'streams deliveries show|--client-key'
      return 0
    case 'streams redeliver|--status' 'streams redeliver|--event-type' 'streams redeliver|--since' 'streams redeliver|--until' 'streams redeliver|-p' 'streams redeliver|--profile' 'streams redeliver|--timeout' 'streams redeliver|--max-wait' 'streams redeliver|--ca-file' 'streams redeliver|--client-cert' 'streams redeliver|--client-key'
      return 0
    case 'streams stats|--since' 'streams stats|--until' 'streams stats|-p' 'streams stats|--profile' 'streams stats|--timeout' 'streams stats|--max-wait' 'streams stats|--ca-file' 'streams stats|--client-cert' 'streams stats|--client-key'
      return 0
    case 'provisioning|-p' 'provisioning|--profile' 'provisioning|--timeout' 'provisioning|--max-wait' 'provisioning|--ca-file' 'provisioning|--client-cert' 'provisioning|--client-key'
      return 0
    case 'provisioning list|--take' 'provisioning list|--from' 'provisioning list|-p' 'provisioning list|--profile' 'provisioning list|--timeout' 'provisioning list|--max-wait' 'provisioning list|--ca-file' 'provisioning list|--client-cert' 'provisioning list|--client-key'
      return 0
    case 'provisioning show|-p' 'provisioning show|--profile' 'provisioning show|--timeout' 'provisioning show|--max-wait' 'provisioning show|--ca-file' 'provisioning show|--client-cert' 'provisioning show|--client-key'
      return 0
    case 'provisioning create|--mapping' 'provisioning create|--mapping-file' 'provisioning create|--sync-groups' 'provisioning create|-p' 'provisioning create|--profile' 'provisioning create|--timeout' 'provisioning create|--max-wait' 'provisioning create|--ca-file' 'provisioning create|--client-cert' 'provisioning create|--client-key'
      return 0
    case 'provisioning update|--mapping' 'provisioning update|--mapping-file' 'provisioning update|--add-mapping' 'provisioning update|--remove-mapping' 'provisioning update|--sync-groups' 'provisioning update|-p' 'provisioning update|--profile' 'provisioning update|--timeout' 'provisioning update|--max-wait' 'provisioning update|--ca-file' 'provisioning update|--client-cert' 'provisioning update|--client-key'
      return 0
    case 'provisioning delete|-p' 'provisioning delete|--profile' 'provisioning delete|--timeout' 'provisioning delete|--max-wait' 'provisioning delete|--ca-file' 'provisioning delete|--client-cert' 'provisioning delete|--client-key'
      return 0
    case 'provisioning default-mapping|-p' 'provisioning default-mapping|--profile' 'provisioning default-mapping|--timeout' 'provisioning default-mapping|--max-wait' 'provisioning default-mapping|--ca-file' 'provisioning default-mapping|--client-cert' 'provisioning default-mapping|--client-key'
      return 0
    case 'provisioning sync|-p' 'provisioning sync|--profile' 'provisioning sync|--timeout' 'provisioning sync|--max-wait' 'provisioning sync|--ca-file' 'provisioning sync|--client-cert' 'provisioning sync|--client-key'
      return 0
    case 'provisioning groups|-p' 'provisioning groups|--profile' 'provisioning groups|--timeout' 'provisioning groups|--max-wait' 'provisioning groups|--ca-file' 'provisioning groups|--client-cert' 'provisioning groups|--client-key'
      return 0
    case 'provisioning groups list|--search' 'provisioning groups list|--take' 'provisioning groups list|--from' 'provisioning groups list|-p' 'provisioning groups list|--profile' 'provisioning groups list|--timeout' 'provisioning groups list|--max-wait' 'provisioning groups list|--ca-file' 'provisioning groups list|--client-cert' 'provisioning groups list|--client-key'
      return 0
    case 'provisioning groups add|--groups-file' 'provisioning groups add|-p' 'provisioning groups add|--profile' 'provisioning groups add|--timeout' 'provisioning groups add|--max-wait' 'provisioning groups add|--ca-file' 'provisioning groups add|--client-cert' 'provisioning groups add|--client-key'
      return 0
    case 'provisioning groups remove|-p' 'provisioning groups remove|--profile' 'provisioning groups remove|--timeout' 'provisioning groups remove|--max-wait' 'provisioning groups remove|--ca-file' 'provisioning groups remove|--client-cert' 'provisioning groups remove|--client-key'
      return 0
    case 'provisioning groups set|--groups-file' 'provisioning groups set|-p' 'provisioning groups set|--profile' 'provisioning groups set|--timeout' 'provisioning groups set|--max-wait' 'provisioning groups set|--ca-file' 'provisioning groups set|--client-cert' 'provisioning groups set|--client-key'
      return 0
    case 'connections|-p' 'connections|--profile' 'connections|--timeout' 'connections|--max-wait' 'connections|--ca-file' 'connections|--client-cert' 'connections|--client-key'
      return 0
    case 'connections list|--strategy' 'connections list|--take' 'connections list|--from' 'connections list|-p' 'connections list|--profile' 'connections list|--timeout' 'connections list|--max-wait' 'connections list|--ca-file' 'connections list|--client-cert' 'connections list|--client-key'
      return 0
    case 'api|--data' 'api|--query' 'api|-p' 'api|--profile' 'api|--timeout' 'api|--max-wait' 'api|--ca-file' 'api|--client-cert' 'api|--client-key'
      return 0
    case 'sandbox|-p' 'sandbox|--profile' 'sandbox|--timeout' 'sandbox|--max-wait' 'sandbox|--ca-file' 'sandbox|--client-cert' 'sandbox|--client-key'
      return 0
    case 'sandbox start|--port' 'sandbox start|--tls-cert' 'sandbox start|--tls-key' 'sandbox start|--state-dir' 'sandbox start|--seed' 'sandbox start|--streams' 'sandbox start|--token-lifetime' 'sandbox start|--rate-limit' 'sandbox start|--max-streams' 'sandbox start|--delivery' 'sandbox start|--retry-delays' 'sandbox start|--delivery-timeout' 'sandbox start|--fault' 'sandbox start|-p' 'sandbox start|--profile' 'sandbox start|--timeout' 'sandbox start|--max-wait' 'sandbox start|--ca-file' 'sandbox start|--client-cert' 'sandbox start|--client-key'
      return 0
    case 'completion|-p' 'completion|--profile' 'completion|--timeout' 'completion|--max-wait' 'completion|--ca-file' 'completion|--client-cert' 'completion|--client-key'
      return 0
    end
    return 1
end

# Prints the number of positional arguments before the cursor, then | and the command path ('|' for
# idm), then the flags given (one a line; a flag that takes a value once its value is there).
function __idm_state
    # Asked by the condition of every flag of a TAB: worked out once for the text before the cursor.
    set -l key (commandline -cp | string collect)
    if set -q __idm_state_key; and test "$__idm_state_key" = "$key"
        printf '%s\n' $__idm_state_value
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
                    set -a given (string replace -r -- '^(-p).+' '$1' $word)
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
    printf '%s\n' $__idm_state_value
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
            case '-p' '--profile'
                set i (math $i + 1)
                set -q tokens[$i]; and set profile $tokens[$i]
            case '--profile=*'
                set profile (string replace -- '--profile=' '' $tokens[$i])
            case '-p*'
                # The profile glued to the short flag (-pprod), as idm reads it.
                set profile (string sub -s 3 -- $tokens[$i])
        end
        set i (math $i + 1)
    end
    set -lx IDM_PROFILE $profile
    # idm not found (uninstalled, or not on this PATH): nothing, and no error of fish's at the TAB.
    type -q idm; or return
    # A value without a description (id<TAB>name) gets an empty one: not the flag's beside each.
    idm completion --values $argv[1] 2>/dev/null | string replace -r -- '^([^\t]*)$' '$1\t'
end

# The values $argv after what the word under the cursor has up to its last comma (a flag of
# comma-separated values: --event-type user.created,user.d completes the second). The word as
# typed: without its --flag= and an opening quote, which fish matches the values without.
function __idm_commas
    set -l head (string replace -r -- '^-[^=]*=' '' (commandline -ct) | string replace -r -- '^[\'"]' '' | string match -r -- '^.*,')
    for value in $argv
        printf '%s%s\t\n' "$head" (string split -f1 \t -- $value)
    end
end

# The directories that complete the word under the cursor (fish's helper). Of --flag= with nothing
# (or only quotes) after the =, those of '': fish puts --flag= in front of what matches an empty
# value, so that the whole word's --flag=DIR/ became --flag=--flag=DIR/. After a value, the whole
# word: fish takes --flag=DIR/ as a replacement of the word.
function __idm_directories
    set -l word (commandline -ct)
    set -l empty (string match -r -- '^([\'"]?)--[^=]*=([\'"]*)$' "$word")
    and set word "$empty[2]$empty[3]"
    __fish_complete_directories "$word"
end

# No file names unless a flag asks for a file.
complete -c idm -f
complete -c idm -n '__idm_at ""' -a 'login' -d 'Store credentials for a tenant as a profile (checked with a token request first)'
complete -c idm -n '__idm_at ""' -a 'logout' -d 'Remove a profile\'s secrets and cached tokens'
complete -c idm -n '__idm_at ""' -a 'auth' -d 'Log in and out, and inspect the stored credentials and token'
complete -c idm -n '__idm_at ""' -a 'profiles' -d 'The stored profiles: list them, choose the default, remove one'
complete -c idm -n '__idm_at ""' -a 'streams' -d 'Event streams: list, show, create, change, test, and follow their deliveries'
complete -c idm -n '__idm_at ""' -a 'provisioning' -d 'Directory provisioning of connections: set it up, change it, synchronize, choose groups'
complete -c idm -n '__idm_at ""' -a 'connections' -d 'The tenant\'s connections'
complete -c idm -n '__idm_at ""' -a 'api' -d 'Call any management endpoint with the profile\'s token (like gh api)'
complete -c idm -n '__idm_at ""' -a 'sandbox' -d 'Run a local tenant on 127.0.0.1 that speaks the management interface'
complete -c idm -n '__idm_at ""' -a 'completion' -d 'Print the completion script for bash, zsh or fish'
complete -c idm -n '__idm_at ""' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in ""; and not __idm_given -V --version' -s V -l version -d 'print the version'
complete -c idm -n 'not __idm_given --json' -l json -d 'print JSON for scripts (errors too, on stderr)'
complete -c idm -n 'not __idm_given -p --profile' -s p -l profile -x -a '(__idm_values profiles)' -d 'use this stored profile (default: IDM_PROFILE or the default profile)'
complete -c idm -n 'not __idm_given --no-color' -l no-color -d 'no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
complete -c idm -n 'not __idm_given --no-input' -l no-input -d 'never prompt (also CI set, or not at a terminal); a missing value is a usage error'
complete -c idm -n 'not __idm_given --debug' -l debug -d 'print requests and responses on stderr, secrets redacted'
complete -c idm -n 'not __idm_given --timeout' -l timeout -x -d 'bound on each request (default 30) (env: IDM_TIMEOUT)'
complete -c idm -n 'not __idm_given --max-wait' -l max-wait -x -d 'longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
complete -c idm -n 'not __idm_given --ca-file' -l ca-file -r -F -d 'also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
complete -c idm -n 'not __idm_given --client-cert' -l client-cert -r -F -d 'PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
complete -c idm -n 'not __idm_given --client-key' -l client-key -r -F -d 'PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
complete -c idm -n 'not __idm_given -h --help' -s h -l help -d 'show help'
complete -c idm -n '__idm_in "login"; and not __idm_given --domain' -l domain -x -d 'tenant domain: a host (tenant.example.com) or base URL (else IDM_DOMAIN, or asked)'
complete -c idm -n '__idm_in "login"; and not __idm_given --client-id' -l client-id -x -d 'client (application) id (else IDM_CLIENT_ID, or asked)'
complete -c idm -n '__idm_in "login"; and not __idm_given --client-secret-file' -l client-secret-file -r -F -d 'read the client secret from this file, or - for stdin (else IDM_CLIENT_SECRET, or asked)'
complete -c idm -n '__idm_in "login"; and not __idm_given --private-key-file' -l private-key-file -r -F -d 'PEM private key for private_key_jwt, or - for stdin (else IDM_PRIVATE_KEY, or asked)'
complete -c idm -n '__idm_in "login"; and not __idm_given --signing-alg' -l signing-alg -x -a 'RS256\t RS384\t PS256\t ES256\t' -d 'assertion algorithm (default: the profile\'s when the key can make it, else by key type)'
complete -c idm -n '__idm_in "login"; and not __idm_given --auth-method' -l auth-method -x -a 'post\t basic\t private_key_jwt\t tls_client_auth\t' -d 'client authentication (default: private_key_jwt with a key; with a secret, post, or basic when the profile has it already)'
complete -c idm -n '__idm_at "auth"' -a 'login' -d 'Store credentials for a tenant as a profile (checked with a token request first)'
complete -c idm -n '__idm_at "auth"' -a 'logout' -d 'Remove a profile\'s secrets and cached tokens'
complete -c idm -n '__idm_at "auth"' -a 'status' -d 'Show every profile (or one) with its domain, method, token expiry and scopes'
complete -c idm -n '__idm_at "auth"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "auth login"; and not __idm_given --domain' -l domain -x -d 'tenant domain: a host (tenant.example.com) or base URL (else IDM_DOMAIN, or asked)'
complete -c idm -n '__idm_in "auth login"; and not __idm_given --client-id' -l client-id -x -d 'client (application) id (else IDM_CLIENT_ID, or asked)'
complete -c idm -n '__idm_in "auth login"; and not __idm_given --client-secret-file' -l client-secret-file -r -F -d 'read the client secret from this file, or - for stdin (else IDM_CLIENT_SECRET, or asked)'
complete -c idm -n '__idm_in "auth login"; and not __idm_given --private-key-file' -l private-key-file -r -F -d 'PEM private key for private_key_jwt, or - for stdin (else IDM_PRIVATE_KEY, or asked)'
complete -c idm -n '__idm_in "auth login"; and not __idm_given --signing-alg' -l signing-alg -x -a 'RS256\t RS384\t PS256\t ES256\t' -d 'assertion algorithm (default: the profile\'s when the key can make it, else by key type)'
complete -c idm -n '__idm_in "auth login"; and not __idm_given --auth-method' -l auth-method -x -a 'post\t basic\t private_key_jwt\t tls_client_auth\t' -d 'client authentication (default: private_key_jwt with a key; with a secret, post, or basic when the profile has it already)'
complete -c idm -n '__idm_arg "auth help" 0' -a 'login logout status'
complete -c idm -n '__idm_at "profiles"' -a 'list' -d 'List the stored profiles: domain, client, method, the default, and what is stored'
complete -c idm -n '__idm_at "profiles"' -a 'use' -d 'Make a stored profile the default'
complete -c idm -n '__idm_at "profiles"' -a 'remove' -d 'Remove a stored profile: its settings, secret and cached token (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "profiles"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_arg "profiles use" 0' -a '(__idm_values profiles)'
complete -c idm -n '__idm_in "profiles remove"; and not __idm_given -y --yes' -s y -l yes -d 'remove without asking'
complete -c idm -n '__idm_arg "profiles remove" 0' -a '(__idm_values profiles)'
complete -c idm -n '__idm_arg "profiles help" 0' -a 'list use remove'
complete -c idm -n '__idm_at "streams"' -a 'list' -d 'List the event streams of the tenant'
complete -c idm -n '__idm_at "streams"' -a 'show' -d 'Show one event stream: its destination, authorization, event types and times'
complete -c idm -n '__idm_at "streams"' -a 'create' -d 'Create an event stream: a name, event types and one destination (webhook, event bus or action)'
complete -c idm -n '__idm_at "streams"' -a 'update' -d 'Change a stream\'s name, event types, webhook (endpoint and secret) or action'
complete -c idm -n '__idm_at "streams"' -a 'enable' -d 'Enable an event stream: it forwards events again'
complete -c idm -n '__idm_at "streams"' -a 'disable' -d 'Disable an event stream: it stops forwarding events (and takes no test events)'
complete -c idm -n '__idm_at "streams"' -a 'delete' -d 'Delete an event stream (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "streams"' -a 'test' -d 'Send a test event to an event stream and show the delivery record'
complete -c idm -n '__idm_at "streams"' -a 'deliveries' -d 'A stream\'s failed deliveries: list them, show one'
complete -c idm -n '__idm_at "streams"' -a 'redeliver' -d 'Deliver failed events again: one by its id, every one the filters match, or all (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "streams"' -a 'stats' -d 'Show successful and failed deliveries of a stream, per hour or per day'
complete -c idm -n '__idm_at "streams"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "streams list"; and not __idm_given --take' -l take -x -d 'streams per page (1-100; default 50, 100 with --all)'
complete -c idm -n '__idm_in "streams list"; and not __idm_given --from' -l from -x -d 'start at this cursor (the `next` of a previous page)'
complete -c idm -n '__idm_in "streams list"; and not __idm_given --all' -l all -d 'follow `next` to the last page'
complete -c idm -n '__idm_arg "streams show" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --name' -l name -x -d 'the stream\'s name (1-128 characters)'
complete -c idm -n '__idm_in "streams create"' -l event-type -x -a '(__idm_commas group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated)' -d 'an event type to subscribe to (repeat, or comma-separate)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --disabled' -l disabled -d 'create it disabled (default: enabled)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --from-file' -l from-file -r -F -d 'the whole body as JSON (as the API takes it), or - for stdin; flags override its fields'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --webhook' -l webhook -x -d 'send events to this https:// endpoint (with --auth)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --auth' -l auth -x -a 'bearer\t basic\t custom-header\t' -d 'how the webhook authenticates deliveries'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --username' -l username -x -d 'the user name of --auth basic (with --webhook, it implies --auth basic)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --header-key' -l header-key -x -d 'the header name of --auth custom-header (with --webhook, it implies --auth custom-header)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --secret-file' -l secret-file -r -F -d 'the webhook\'s token, password or header value: a file, or - for stdin (else IDM_WEBHOOK_SECRET, or asked)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --eventbus-account' -l eventbus-account -x -d 'send events to the event bus of this 12-digit account (with --eventbus-region)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --eventbus-region' -l eventbus-region -x -a 'af-south-1\t ap-east-1\t ap-east-2\t ap-northeast-1\t ap-northeast-2\t ap-northeast-3\t ap-south-1\t ap-south-2\t ap-southeast-1\t ap-southeast-2\t ap-southeast-3\t ap-southeast-4\t ap-southeast-5\t ap-southeast-6\t ap-southeast-7\t ca-central-1\t ca-west-1\t eu-central-1\t eu-central-2\t eu-north-1\t eu-south-1\t eu-south-2\t eu-west-1\t eu-west-2\t eu-west-3\t il-central-1\t me-central-1\t me-south-1\t mx-central-1\t sa-east-1\t us-gov-east-1\t us-gov-west-1\t us-east-1\t us-east-2\t us-west-1\t us-west-2\t' -d 'the event bus region (e.g. us-east-1)'
complete -c idm -n '__idm_in "streams create"; and not __idm_given --action' -l action -x -d 'send events to this action'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --name' -l name -x -d 'a new name'
complete -c idm -n '__idm_in "streams update"' -l event-type -x -a '(__idm_commas group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated)' -d 'the event types, replacing the list (repeat, or comma-separate)'
complete -c idm -n '__idm_in "streams update"' -l add-event-type -x -a '(__idm_commas group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated)' -d 'subscribe to these too'
complete -c idm -n '__idm_in "streams update"' -l remove-event-type -x -a '(__idm_commas group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated)' -d 'unsubscribe from these'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --from-file' -l from-file -r -F -d 'a PATCH body as JSON, or - for stdin; flags override its fields'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --webhook' -l webhook -x -d 'send events to this https:// endpoint (with --auth)'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --auth' -l auth -x -a 'bearer\t basic\t custom-header\t' -d 'how the webhook authenticates deliveries'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --username' -l username -x -d 'the user name of --auth basic (with --webhook, it implies --auth basic)'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --header-key' -l header-key -x -d 'the header name of --auth custom-header (with --webhook, it implies --auth custom-header)'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --secret-file' -l secret-file -r -F -d 'the webhook\'s token, password or header value: a file, or - for stdin (else IDM_WEBHOOK_SECRET, or asked)'
complete -c idm -n '__idm_in "streams update"; and not __idm_given --action' -l action -x -d 'send events to this action'
complete -c idm -n '__idm_arg "streams update" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_arg "streams enable" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_arg "streams disable" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_in "streams delete"; and not __idm_given -y --yes' -s y -l yes -d 'delete without asking'
complete -c idm -n '__idm_arg "streams delete" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_in "streams test"; and not __idm_given --event-type' -l event-type -x -a 'group.created\t group.deleted\t group.member.added\t group.member.deleted\t group.role.assigned\t group.role.deleted\t group.updated\t organization.connection.added\t organization.connection.removed\t organization.connection.updated\t organization.created\t organization.deleted\t organization.group.role.assigned\t organization.group.role.deleted\t organization.member.added\t organization.member.deleted\t organization.member.role.assigned\t organization.member.role.deleted\t organization.updated\t user.created\t user.deleted\t user.updated\t' -d 'the event type to send (asks at a terminal when absent); see the list below'
complete -c idm -n '__idm_in "streams test"; and not __idm_given --data' -l data -x -d 'payload of the event: a JSON object'
complete -c idm -n '__idm_in "streams test"; and not __idm_given --data-file' -l data-file -r -F -d 'read the payload (a JSON object) from a file, or - for stdin'
complete -c idm -n '__idm_in "streams test"; and not __idm_given --wait' -l wait -d 'follow the delivery until its outcome is known (exit 0 delivered, 3 failed, 6 not known in time)'
complete -c idm -n '__idm_in "streams test"; and not __idm_given --wait-timeout' -l wait-timeout -x -d 'how long --wait follows it (default 60)'
complete -c idm -n '__idm_arg "streams test" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_at "streams deliveries"' -a 'list' -d 'List a stream\'s failed deliveries (the service keeps no others)'
complete -c idm -n '__idm_at "streams deliveries"' -a 'show' -d 'Show one delivery: every attempt, and the event envelope'
complete -c idm -n '__idm_at "streams deliveries"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "streams deliveries list"' -l status -x -a '(__idm_commas failed)' -d 'only deliveries with this status, e.g. failed (repeat, or comma-separate)'
complete -c idm -n '__idm_in "streams deliveries list"' -l event-type -x -a '(__idm_commas group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated)' -d 'only these event types (repeat, or comma-separate)'
complete -c idm -n '__idm_in "streams deliveries list"; and not __idm_given --since' -l since -x -d 'from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d)'
complete -c idm -n '__idm_in "streams deliveries list"; and not __idm_given --until' -l until -x -d 'up to this time: RFC 3339, a date, or back from now'
complete -c idm -n '__idm_in "streams deliveries list"; and not __idm_given --take' -l take -x -d 'deliveries per page (1-100; default 50, 100 with --all)'
complete -c idm -n '__idm_in "streams deliveries list"; and not __idm_given --from' -l from -x -d 'start at this cursor (the `next` of a previous page)'
complete -c idm -n '__idm_in "streams deliveries list"; and not __idm_given --all' -l all -d 'follow `next` to the last page'
complete -c idm -n '__idm_arg "streams deliveries list" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_arg "streams deliveries show" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_arg "streams deliveries help" 0' -a 'list show'
complete -c idm -n '__idm_in "streams redeliver"' -l status -x -a '(__idm_commas failed)' -d 'only deliveries with this status, e.g. failed (repeat, or comma-separate)'
complete -c idm -n '__idm_in "streams redeliver"' -l event-type -x -a '(__idm_commas group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated)' -d 'only these event types (repeat, or comma-separate)'
complete -c idm -n '__idm_in "streams redeliver"; and not __idm_given --since' -l since -x -d 'from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d)'
complete -c idm -n '__idm_in "streams redeliver"; and not __idm_given --until' -l until -x -d 'up to this time: RFC 3339, a date, or back from now'
complete -c idm -n '__idm_in "streams redeliver"; and not __idm_given -y --yes' -s y -l yes -d 'with no event id and no filter (or --status failed alone): deliver every failed delivery again without asking'
complete -c idm -n '__idm_arg "streams redeliver" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_in "streams stats"; and not __idm_given --since' -l since -x -d 'from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d); default: 14 days'
complete -c idm -n '__idm_in "streams stats"; and not __idm_given --until' -l until -x -d 'up to this time: RFC 3339, a date, or back from now; default: now (with neither flag, the service\'s window: to the next full hour)'
complete -c idm -n '__idm_arg "streams stats" 0' -a '(__idm_values named-streams)'
complete -c idm -n '__idm_arg "streams help" 0' -a 'list show create update enable disable delete test deliveries redeliver stats'
complete -c idm -n '__idm_at "provisioning"' -a 'list' -d 'List the connections that have directory provisioning, with their settings and last synchronization'
complete -c idm -n '__idm_at "provisioning"' -a 'show' -d 'Show the directory-provisioning configuration of a connection'
complete -c idm -n '__idm_at "provisioning"' -a 'create' -d 'Create the directory-provisioning configuration of a connection'
complete -c idm -n '__idm_at "provisioning"' -a 'update' -d 'Change the directory-provisioning configuration of a connection: mapping, synchronization'
complete -c idm -n '__idm_at "provisioning"' -a 'delete' -d 'Delete the directory-provisioning configuration of a connection (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "provisioning"' -a 'default-mapping' -d 'Show the default mapping of a connection\'s strategy'
complete -c idm -n '__idm_at "provisioning"' -a 'sync' -d 'Synchronize users (and groups) of a connection now, instead of at the next automatic run'
complete -c idm -n '__idm_at "provisioning"' -a 'groups' -d 'The groups synchronized when group synchronization is "selected"'
complete -c idm -n '__idm_at "provisioning"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "provisioning list"; and not __idm_given --take' -l take -x -d 'configurations per page (1-100; default 50, 100 with --all)'
complete -c idm -n '__idm_in "provisioning list"; and not __idm_given --from' -l from -x -d 'start at this cursor (the `next` of a previous page)'
complete -c idm -n '__idm_in "provisioning list"; and not __idm_given --all' -l all -d 'follow `next` to the last page'
complete -c idm -n '__idm_arg "provisioning show" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_in "provisioning create"' -l mapping -x -d 'map a platform user attribute to an identity-provider attribute (repeat for each)'
complete -c idm -n '__idm_in "provisioning create"; and not __idm_given --mapping-file' -l mapping-file -r -F -d 'the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin'
complete -c idm -n '__idm_in "provisioning create"; and not __idm_given --sync-automatically --no-sync-automatically' -l sync-automatically -d 'synchronize users every 30 minutes'
complete -c idm -n '__idm_in "provisioning create"; and not __idm_given --no-sync-automatically --sync-automatically' -l no-sync-automatically -d 'do not synchronize users automatically'
complete -c idm -n '__idm_in "provisioning create"; and not __idm_given --sync-groups' -l sync-groups -x -a 'all\t off\t selected\t' -d 'group synchronization'
complete -c idm -n '__idm_arg "provisioning create" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_in "provisioning update"' -l mapping -x -d 'the whole mapping, one row each (replaces it)'
complete -c idm -n '__idm_in "provisioning update"; and not __idm_given --mapping-file' -l mapping-file -r -F -d 'the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin'
complete -c idm -n '__idm_in "provisioning update"' -l add-mapping -x -d 'map one more attribute (repeat for each)'
complete -c idm -n '__idm_in "provisioning update"' -l remove-mapping -x -d 'stop mapping this platform attribute (repeat for each)'
complete -c idm -n '__idm_in "provisioning update"; and not __idm_given --sync-automatically --no-sync-automatically' -l sync-automatically -d 'synchronize users every 30 minutes'
complete -c idm -n '__idm_in "provisioning update"; and not __idm_given --no-sync-automatically --sync-automatically' -l no-sync-automatically -d 'stop synchronizing users automatically'
complete -c idm -n '__idm_in "provisioning update"; and not __idm_given --sync-groups' -l sync-groups -x -a 'all\t off\t selected\t' -d 'group synchronization'
complete -c idm -n '__idm_arg "provisioning update" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_in "provisioning delete"; and not __idm_given -y --yes' -s y -l yes -d 'delete without asking'
complete -c idm -n '__idm_in "provisioning delete"; and not __idm_given --ignore-not-found' -l ignore-not-found -d 'exit 0 when there is nothing to delete (deleted already, or never set up)'
complete -c idm -n '__idm_arg "provisioning delete" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_arg "provisioning default-mapping" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_arg "provisioning sync" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_at "provisioning groups"' -a 'list' -d 'List the groups synchronized when group synchronization is "selected"'
complete -c idm -n '__idm_at "provisioning groups"' -a 'add' -d 'Add groups to the synchronized groups'
complete -c idm -n '__idm_at "provisioning groups"' -a 'remove' -d 'Remove groups from the synchronized groups'
complete -c idm -n '__idm_at "provisioning groups"' -a 'set' -d 'Replace the synchronized groups with these (--none: no group)'
complete -c idm -n '__idm_at "provisioning groups"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "provisioning groups list"; and not __idm_given --search' -l search -x -d 'only groups whose name starts with this'
complete -c idm -n '__idm_in "provisioning groups list"; and not __idm_given --take' -l take -x -d 'groups per page (1-100; default 50, 100 with --all)'
complete -c idm -n '__idm_in "provisioning groups list"; and not __idm_given --from' -l from -x -d 'start at this cursor (the `next` of a previous page)'
complete -c idm -n '__idm_in "provisioning groups list"; and not __idm_given --all' -l all -d 'follow `next` to the last page'
complete -c idm -n '__idm_arg "provisioning groups list" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_in "provisioning groups add"; and not __idm_given --groups-file' -l groups-file -r -F -d 'whole entries instead of ids: a JSON array of {"id", "name"?, "email"?, "direct_members_count"?} (or {"groups": [...]}, as groups list --json prints it), or - for stdin'
complete -c idm -n '__idm_arg "provisioning groups add" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_arg "provisioning groups remove" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_in "provisioning groups set"; and not __idm_given --groups-file' -l groups-file -r -F -d 'whole entries instead of ids: a JSON array of {"id", "name"?, "email"?, "direct_members_count"?} (or {"groups": [...]}, as groups list --json prints it), or - for stdin'
complete -c idm -n '__idm_in "provisioning groups set"; and not __idm_given --none' -l none -d 'synchronize no group (an empty list)'
complete -c idm -n '__idm_arg "provisioning groups set" 0' -a '(__idm_values connections)'
complete -c idm -n '__idm_arg "provisioning groups help" 0' -a 'list add remove set'
complete -c idm -n '__idm_arg "provisioning help" 0' -a 'list show create update delete default-mapping sync groups'
complete -c idm -n '__idm_at "connections"' -a 'list' -d 'List the tenant\'s connections; for strategies that support directory provisioning, whether it is configured'
complete -c idm -n '__idm_at "connections"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "connections list"' -l strategy -x -a '(__idm_commas (__idm_values strategies))' -d 'only connections of this strategy, e.g. google-apps (repeat, or comma-separate)'
complete -c idm -n '__idm_in "connections list"; and not __idm_given --take' -l take -x -d 'connections per page (1-100; 100 with --all; with neither it nor --from, one unpaged answer, without a next page)'
complete -c idm -n '__idm_in "connections list"; and not __idm_given --from' -l from -x -d 'start at this cursor (the `next` of a previous page)'
complete -c idm -n '__idm_in "connections list"; and not __idm_given --all' -l all -d 'follow `next` to the last page'
complete -c idm -n '__idm_arg "connections help" 0' -a 'list'
complete -c idm -n '__idm_in "api"; and not __idm_given --data' -l data -x -d 'the request body: JSON, @FILE, or @- for stdin (not with GET)'
complete -c idm -n '__idm_in "api"' -l query -x -d 'a query parameter, sent percent-encoded (repeatable)'
complete -c idm -n '__idm_in "api"; and not __idm_given --paginate' -l paginate -d 'GET: follow `next` to the last page and print the pages merged'
complete -c idm -n '__idm_arg "api" 0' -a 'GET POST PATCH PUT DELETE'
complete -c idm -n '__idm_at "sandbox"' -a 'start' -d 'Run a local tenant on 127.0.0.1 until Ctrl-C or SIGTERM; prints its URL and client credentials'
complete -c idm -n '__idm_at "sandbox"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --port' -l port -x -d 'port of the tenant (default: a free one, or the saved one with --state-dir)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --https' -l https -d 'serve the tenant over HTTPS, with a certificate of a CA the sandbox makes (prints the CA file to trust)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --tls-cert' -l tls-cert -r -F -d 'serve HTTPS with this PEM server certificate (for 127.0.0.1) instead of one the sandbox makes (implies --https)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --tls-key' -l tls-key -r -F -d 'the PEM private key of --tls-cert'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --mtls' -l mtls -d 'with --https: mutual-TLS client authentication for an extra client (tls_client_auth; prints its certificate)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --mtls-edge' -l mtls-edge -d 'mutual TLS as behind an edge network: trust its client-certificate headers instead of a handshake'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --state-dir' -l state-dir -x -a '(__idm_directories)' -d 'keep the tenant (clients, keys, CA, data) in this directory and load it at the next start'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --seed' -l seed -r -F -d 'JSON seed: streams, connections, token lifetime, rate limit (default: the demo seed)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --streams' -l streams -x -d 'also generate this many streams (pagination, benchmarks)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --token-lifetime' -l token-lifetime -x -d 'lifetime of issued access tokens (default 86400)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --rate-limit' -l rate-limit -x -d 'token bucket: size/refill per second, e.g. 50/10 (default 10000/10000)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --max-streams' -l max-streams -x -d 'the most streams the tenant holds: a create beyond it answers 409, as on a plan\'s limit (default: no limit)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --delivery' -l delivery -x -a 'async\t sync\t' -d 'test deliveries: async (as the service: 202 pending, then attempts) or sync (delivered before the answer)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --retry-delays' -l retry-delays -x -d 'waits before the retries of a failed delivery, in ms (default 1000,2000,4000, as the service)'
complete -c idm -n '__idm_in "sandbox start"; and not __idm_given --delivery-timeout' -l delivery-timeout -x -d 'how long a webhook attempt waits for an answer before it fails, in ms (default 3000, as the service)'
complete -c idm -n '__idm_in "sandbox start"' -l fault -x -d 'inject a fault, e.g. \'{"kind":"status","status":503,"count":2}\' (repeatable)'
complete -c idm -n '__idm_arg "sandbox help" 0' -a 'start'
complete -c idm -n '__idm_arg "completion" 0' -a 'bash zsh fish'
complete -c idm -n '__idm_at "help"' -a 'login' -d 'Store credentials for a tenant as a profile (checked with a token request first)'
complete -c idm -n '__idm_at "help"' -a 'logout' -d 'Remove a profile\'s secrets and cached tokens'
complete -c idm -n '__idm_at "help"' -a 'auth' -d 'Log in and out, and inspect the stored credentials and token'
complete -c idm -n '__idm_at "help"' -a 'profiles' -d 'The stored profiles: list them, choose the default, remove one'
complete -c idm -n '__idm_at "help"' -a 'streams' -d 'Event streams: list, show, create, change, test, and follow their deliveries'
complete -c idm -n '__idm_at "help"' -a 'provisioning' -d 'Directory provisioning of connections: set it up, change it, synchronize, choose groups'
complete -c idm -n '__idm_at "help"' -a 'connections' -d 'The tenant\'s connections'
complete -c idm -n '__idm_at "help"' -a 'api' -d 'Call any management endpoint with the profile\'s token (like gh api)'
complete -c idm -n '__idm_at "help"' -a 'sandbox' -d 'Run a local tenant on 127.0.0.1 that speaks the management interface'
complete -c idm -n '__idm_at "help"' -a 'completion' -d 'Print the completion script for bash, zsh or fish'
complete -c idm -n '__idm_at "help auth"' -a 'login' -d 'Store credentials for a tenant as a profile (checked with a token request first)'
complete -c idm -n '__idm_at "help auth"' -a 'logout' -d 'Remove a profile\'s secrets and cached tokens'
complete -c idm -n '__idm_at "help auth"' -a 'status' -d 'Show every profile (or one) with its domain, method, token expiry and scopes'
complete -c idm -n '__idm_at "help profiles"' -a 'list' -d 'List the stored profiles: domain, client, method, the default, and what is stored'
complete -c idm -n '__idm_at "help profiles"' -a 'use' -d 'Make a stored profile the default'
complete -c idm -n '__idm_at "help profiles"' -a 'remove' -d 'Remove a stored profile: its settings, secret and cached token (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "help streams"' -a 'list' -d 'List the event streams of the tenant'
complete -c idm -n '__idm_at "help streams"' -a 'show' -d 'Show one event stream: its destination, authorization, event types and times'
complete -c idm -n '__idm_at "help streams"' -a 'create' -d 'Create an event stream: a name, event types and one destination (webhook, event bus or action)'
complete -c idm -n '__idm_at "help streams"' -a 'update' -d 'Change a stream\'s name, event types, webhook (endpoint and secret) or action'
complete -c idm -n '__idm_at "help streams"' -a 'enable' -d 'Enable an event stream: it forwards events again'
complete -c idm -n '__idm_at "help streams"' -a 'disable' -d 'Disable an event stream: it stops forwarding events (and takes no test events)'
complete -c idm -n '__idm_at "help streams"' -a 'delete' -d 'Delete an event stream (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "help streams"' -a 'test' -d 'Send a test event to an event stream and show the delivery record'
complete -c idm -n '__idm_at "help streams"' -a 'deliveries' -d 'A stream\'s failed deliveries: list them, show one'
complete -c idm -n '__idm_at "help streams"' -a 'redeliver' -d 'Deliver failed events again: one by its id, every one the filters match, or all (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "help streams"' -a 'stats' -d 'Show successful and failed deliveries of a stream, per hour or per day'
complete -c idm -n '__idm_at "help streams deliveries"' -a 'list' -d 'List a stream\'s failed deliveries (the service keeps no others)'
complete -c idm -n '__idm_at "help streams deliveries"' -a 'show' -d 'Show one delivery: every attempt, and the event envelope'
complete -c idm -n '__idm_at "help provisioning"' -a 'list' -d 'List the connections that have directory provisioning, with their settings and last synchronization'
complete -c idm -n '__idm_at "help provisioning"' -a 'show' -d 'Show the directory-provisioning configuration of a connection'
complete -c idm -n '__idm_at "help provisioning"' -a 'create' -d 'Create the directory-provisioning configuration of a connection'
complete -c idm -n '__idm_at "help provisioning"' -a 'update' -d 'Change the directory-provisioning configuration of a connection: mapping, synchronization'
complete -c idm -n '__idm_at "help provisioning"' -a 'delete' -d 'Delete the directory-provisioning configuration of a connection (asks first at a terminal; --yes in scripts)'
complete -c idm -n '__idm_at "help provisioning"' -a 'default-mapping' -d 'Show the default mapping of a connection\'s strategy'
complete -c idm -n '__idm_at "help provisioning"' -a 'sync' -d 'Synchronize users (and groups) of a connection now, instead of at the next automatic run'
complete -c idm -n '__idm_at "help provisioning"' -a 'groups' -d 'The groups synchronized when group synchronization is "selected"'
complete -c idm -n '__idm_at "help provisioning groups"' -a 'list' -d 'List the groups synchronized when group synchronization is "selected"'
complete -c idm -n '__idm_at "help provisioning groups"' -a 'add' -d 'Add groups to the synchronized groups'
complete -c idm -n '__idm_at "help provisioning groups"' -a 'remove' -d 'Remove groups from the synchronized groups'
complete -c idm -n '__idm_at "help provisioning groups"' -a 'set' -d 'Replace the synchronized groups with these (--none: no group)'
complete -c idm -n '__idm_at "help connections"' -a 'list' -d 'List the tenant\'s connections; for strategies that support directory provisioning, whether it is configured'
complete -c idm -n '__idm_at "help sandbox"' -a 'start' -d 'Run a local tenant on 127.0.0.1 until Ctrl-C or SIGTERM; prints its URL and client credentials'
