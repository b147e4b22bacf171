# fish completion for idm. Generated from idm's command tree by scripts/gen-completions.mjs
# (npm run completions); do not edit. `idm completion fish` prints the same text.
# Installation: see README: Shell completion.

# The subcommands of a command path ('' is idm itself).
function __idm_subcommands
    switch $argv[1]
    case ''
      printf '%s\n' 'login' 'logout' 'auth' 'streams' 'provisioning' 'sandbox' 'completion' 'help'
    case 'auth'
      printf '%s\n' 'status' 'help'
    case 'streams'
      printf '%s\n' 'list' 'test' 'help'
    case 'provisioning'
      printf '%s\n' 'create' 'help'
    case 'sandbox'
      printf '%s\n' 'start' 'help'
    end
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
    case 'auth status|-p' 'auth status|--profile' 'auth status|--timeout' 'auth status|--max-wait' 'auth status|--ca-file' 'auth status|--client-cert' 'auth status|--client-key'
      return 0
    case 'streams|-p' 'streams|--profile' 'streams|--timeout' 'streams|--max-wait' 'streams|--ca-file' 'streams|--client-cert' 'streams|--client-key'
      return 0
    case 'streams list|--take' 'streams list|--from' 'streams list|-p' 'streams list|--profile' 'streams list|--timeout' 'streams list|--max-wait' 'streams list|--ca-file' 'streams list|--client-cert' 'streams list|--client-key'
      return 0
    case 'streams test|--event-type' 'streams test|--data' 'streams test|--data-file' 'streams test|-p' 'streams test|--profile' 'streams test|--timeout' 'streams test|--max-wait' 'streams test|--ca-file' 'streams test|--client-cert' 'streams test|--client-key'
      return 0
    case 'provisioning|-p' 'provisioning|--profile' 'provisioning|--timeout' 'provisioning|--max-wait' 'provisioning|--ca-file' 'provisioning|--client-cert' 'provisioning|--client-key'
      return 0
    case 'provisioning create|--mapping' 'provisioning create|--mapping-file' 'provisioning create|--sync-groups' 'provisioning create|-p' 'provisioning create|--profile' 'provisioning create|--timeout' 'provisioning create|--max-wait' 'provisioning create|--ca-file' 'provisioning create|--client-cert' 'provisioning create|--client-key'
      return 0
    case 'sandbox|-p' 'sandbox|--profile' 'sandbox|--timeout' 'sandbox|--max-wait' 'sandbox|--ca-file' 'sandbox|--client-cert' 'sandbox|--client-key'
      return 0
    case 'sandbox start|--port' 'sandbox start|--seed' 'sandbox start|--streams' 'sandbox start|--token-lifetime' 'sandbox start|--rate-limit' 'sandbox start|--fault' 'sandbox start|-p' 'sandbox start|--profile' 'sandbox start|--timeout' 'sandbox start|--max-wait' 'sandbox start|--ca-file' 'sandbox start|--client-cert' 'sandbox start|--client-key'
      return 0
    case 'completion|-p' 'completion|--profile' 'completion|--timeout' 'completion|--max-wait' 'completion|--ca-file' 'completion|--client-cert' 'completion|--client-key'
      return 0
    end
    return 1
end

# Prints the number of positional arguments before the cursor, then the command path ('' for idm).
# (The path comes last: an empty last line is the same whether or not fish keeps it.)
function __idm_state
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path ''
    set -l npos 0
    set -l skip 0
    for word in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case '-*=*'
            case '-*'
                if __idm_flag_takes_value "$path" $word
                    set skip 1
                end
            case '*'
                if test $npos = 0; and contains -- $word (__idm_subcommands "$path")
                    set path (string trim -- "$path $word")
                else
                    set npos (math $npos + 1)
                end
        end
    end
    echo $npos
    echo $path
end

# At command path $argv[1], where a subcommand may follow.
function __idm_at
    set -l state (__idm_state)
    test "$state[2]" = "$argv[1]"; and test "$state[1]" = 0
end

# Anywhere inside command path $argv[1].
function __idm_in
    set -l state (__idm_state)
    test "$state[2]" = "$argv[1]"
end

# At positional argument $argv[2] (from 0) of command path $argv[1].
function __idm_arg
    set -l state (__idm_state)
    test "$state[2]" = "$argv[1]"; and test "$state[1]" = "$argv[2]"
end

function __idm_profiles
    idm completion --profiles 2>/dev/null
end

# No file names unless a flag asks for a file.
complete -c idm -f
complete -c idm -n '__idm_at ""' -a 'login' -d 'Store credentials for a tenant as a profile (checked with a token request first)'
complete -c idm -n '__idm_at ""' -a 'logout' -d 'Remove a profile\'s secrets and cached tokens'
complete -c idm -n '__idm_at ""' -a 'auth' -d 'Inspect the stored credentials and token'
complete -c idm -n '__idm_at ""' -a 'streams' -d 'List event streams and send them test events'
complete -c idm -n '__idm_at ""' -a 'provisioning' -d 'Configure directory provisioning of a connection'
complete -c idm -n '__idm_at ""' -a 'sandbox' -d 'Run a local tenant on 127.0.0.1 that speaks the management interface'
complete -c idm -n '__idm_at ""' -a 'completion' -d 'Print the completion script for bash, zsh or fish'
complete -c idm -n '__idm_at ""' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in ""' -s V -l version -d 'print the version'
complete -c idm -l json -d 'print JSON for scripts (errors too, on stderr)'
complete -c idm -s p -l profile -x -a '(__idm_profiles)' -d 'use this stored profile (default: IDM_PROFILE or the default profile)'
complete -c idm -l no-color -d 'no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
complete -c idm -l no-input -d 'never prompt; a missing value is a usage error'
complete -c idm -l debug -d 'print requests and responses on stderr, secrets redacted'
complete -c idm -l timeout -x -d 'bound on each request (default 30)'
complete -c idm -l max-wait -x -d 'longest total wait for rate limits and retries (default 60)'
complete -c idm -l ca-file -r -F -d 'also trust this PEM certificate authority (a private CA)'
complete -c idm -l client-cert -r -F -d 'PEM client certificate for mutual TLS'
complete -c idm -l client-key -r -F -d 'PEM private key of --client-cert (a path, never the key itself)'
complete -c idm -s h -l help -d 'show help'
complete -c idm -n '__idm_in "login"' -l domain -x -d 'tenant domain: a host (tenant.example.com) or base URL'
complete -c idm -n '__idm_in "login"' -l client-id -x -d 'client (application) id'
complete -c idm -n '__idm_in "login"' -l client-secret-file -r -F -d 'read the client secret from this file, or - for stdin'
complete -c idm -n '__idm_in "login"' -l private-key-file -r -F -d 'PEM private key for private_key_jwt, or - for stdin'
complete -c idm -n '__idm_in "login"' -l signing-alg -x -a 'RS256 RS384 PS256 ES256' -d 'assertion algorithm: RS256, RS384, PS256, ES256 (default: by key type)'
complete -c idm -n '__idm_in "login"' -l auth-method -x -a 'post basic private_key_jwt' -d 'client authentication: post, basic, private_key_jwt (default: post, or private_key_jwt with a key)'
complete -c idm -n '__idm_at "auth"' -a 'status' -d 'Show the profile, domain, method, token expiry and scopes'
complete -c idm -n '__idm_at "auth"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_arg "auth help" 0' -a 'status'
complete -c idm -n '__idm_at "streams"' -a 'list' -d 'List the event streams of the tenant'
complete -c idm -n '__idm_at "streams"' -a 'test' -d 'Send a test event to an event stream and show the delivery record'
complete -c idm -n '__idm_at "streams"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "streams list"' -l take -x -d 'streams per page (1-100; default 50, 100 with --all)'
complete -c idm -n '__idm_in "streams list"' -l from -x -d 'start at this cursor (the `next` of a previous page)'
complete -c idm -n '__idm_in "streams list"' -l all -d 'follow `next` to the last page'
complete -c idm -n '__idm_in "streams test"' -l event-type -x -a 'group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' -d 'the event type to send (asks at a terminal when absent); see the list below'
complete -c idm -n '__idm_in "streams test"' -l data -x -d 'payload of the event: a JSON object'
complete -c idm -n '__idm_in "streams test"' -l data-file -r -F -d 'read the payload (a JSON object) from a file, or - for stdin'
complete -c idm -n '__idm_arg "streams help" 0' -a 'list test'
complete -c idm -n '__idm_at "provisioning"' -a 'create' -d 'Create the directory-provisioning configuration of a connection'
complete -c idm -n '__idm_at "provisioning"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "provisioning create"' -l mapping -x -d 'map a platform user attribute to an identity-provider attribute (repeat for each)'
complete -c idm -n '__idm_in "provisioning create"' -l mapping-file -r -F -d 'the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin'
complete -c idm -n '__idm_in "provisioning create"' -l sync-automatically -d 'synchronize users periodically'
complete -c idm -n '__idm_in "provisioning create"' -l no-sync-automatically -d 'do not synchronize users periodically'
complete -c idm -n '__idm_in "provisioning create"' -l sync-groups -x -a 'all off selected' -d 'group synchronization: all, off, selected'
complete -c idm -n '__idm_arg "provisioning help" 0' -a 'create'
complete -c idm -n '__idm_at "sandbox"' -a 'start' -d 'Run a local tenant on 127.0.0.1 until interrupted (Ctrl-C); prints its URL and client credentials'
complete -c idm -n '__idm_at "sandbox"' -a 'help' -d 'show help for a command'
complete -c idm -n '__idm_in "sandbox start"' -l port -x -d 'port of the tenant; 0 picks a free one'
complete -c idm -n '__idm_in "sandbox start"' -l seed -r -F -d 'JSON seed: streams, connections, token lifetime, rate limit (default: the demo seed)'
complete -c idm -n '__idm_in "sandbox start"' -l streams -x -d 'also generate this many streams (pagination, benchmarks)'
complete -c idm -n '__idm_in "sandbox start"' -l token-lifetime -x -d 'lifetime of issued access tokens (default 86400)'
complete -c idm -n '__idm_in "sandbox start"' -l rate-limit -x -d 'token bucket: size/refill per second, e.g. 50/10 (default 10000/10000)'
complete -c idm -n '__idm_in "sandbox start"' -l fault -x -d 'inject a fault, e.g. \'{"kind":"status","status":503,"count":2}\' (repeatable)'
complete -c idm -n '__idm_arg "sandbox help" 0' -a 'start'
complete -c idm -n '__idm_arg "completion" 0' -a 'bash zsh fish'
complete -c idm -n '__idm_arg "help" 0' -a 'login logout auth streams provisioning sandbox completion'
