#compdef idm
# zsh completion for idm. Generated from idm's command tree by scripts/gen-completions.mjs
# (npm run completions); do not edit. `idm completion zsh` prints the same text.
# Installation: see README: Shell completion.

# The names of the subcommands of a command path ('' is idm itself), space-separated in REPLY.
_idm_subcommand_names() {
  case "$1" in
    '') REPLY='login logout auth streams provisioning sandbox completion help' ;;
    'auth') REPLY='status help' ;;
    'streams') REPLY='list test help' ;;
    'provisioning') REPLY='create help' ;;
    'sandbox') REPLY='start help' ;;
    *) REPLY='' ;;
  esac
}

# The subcommands of a command path as name:description, in reply.
_idm_subcommands() {
  case "$1" in
    '') reply=(
      'login:Store credentials for a tenant as a profile (checked with a token request first)'
      'logout:Remove a profile'\''s secrets and cached tokens'
      'auth:Inspect the stored credentials and token'
      'streams:List event streams and send them test events'
      'provisioning:Configure directory provisioning of a connection'
      'sandbox:Run a local tenant on 127.0.0.1 that speaks the management interface'
      'completion:Print the completion script for bash, zsh or fish'
      'help:show help for a command'
    ) ;;
    'auth') reply=(
      'status:Show the profile, domain, method, token expiry and scopes'
      'help:show help for a command'
    ) ;;
    'streams') reply=(
      'list:List the event streams of the tenant'
      'test:Send a test event to an event stream and show the delivery record'
      'help:show help for a command'
    ) ;;
    'provisioning') reply=(
      'create:Create the directory-provisioning configuration of a connection'
      'help:show help for a command'
    ) ;;
    'sandbox') reply=(
      'start:Run a local tenant on 127.0.0.1 until interrupted (Ctrl-C); prints its URL and client credentials'
      'help:show help for a command'
    ) ;;
    *) reply=() ;;
  esac
}

# Every flag a command path accepts, as name:description, in reply.
_idm_flags() {
  case "$1" in
    '') reply=(
      '-V:print the version'
      '--version:print the version'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
      '-h:show help'
      '--help:show help'
    ) ;;
    'login') reply=(
      '--domain:tenant domain: a host (tenant.example.com) or base URL'
      '--client-id:client (application) id'
      '--client-secret-file:read the client secret from this file, or - for stdin'
      '--private-key-file:PEM private key for private_key_jwt, or - for stdin'
      '--signing-alg:assertion algorithm: RS256, RS384, PS256, ES256 (default: by key type)'
      '--auth-method:client authentication: post, basic, private_key_jwt (default: post, or private_key_jwt with a key)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'logout') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'auth') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'auth status') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'streams') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'streams list') reply=(
      '--take:streams per page (1-100; default 50, 100 with --all)'
      '--from:start at this cursor (the `next` of a previous page)'
      '--all:follow `next` to the last page'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'streams test') reply=(
      '--event-type:the event type to send (asks at a terminal when absent); see the list below'
      '--data:payload of the event: a JSON object'
      '--data-file:read the payload (a JSON object) from a file, or - for stdin'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'provisioning') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'provisioning create') reply=(
      '--mapping:map a platform user attribute to an identity-provider attribute (repeat for each)'
      '--mapping-file:the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin'
      '--sync-automatically:synchronize users periodically'
      '--no-sync-automatically:do not synchronize users periodically'
      '--sync-groups:group synchronization: all, off, selected'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'sandbox') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'sandbox start') reply=(
      '--port:port of the tenant; 0 picks a free one'
      '--seed:JSON seed: streams, connections, token lifetime, rate limit (default: the demo seed)'
      '--streams:also generate this many streams (pagination, benchmarks)'
      '--token-lifetime:lifetime of issued access tokens (default 86400)'
      '--rate-limit:token bucket: size/refill per second, e.g. 50/10 (default 10000/10000)'
      '--fault:inject a fault, e.g. '\''{"kind":"status","status":503,"count":2}'\'' (repeatable)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    'completion') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt; a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30)'
      '--max-wait:longest total wait for rate limits and retries (default 60)'
      '--ca-file:also trust this PEM certificate authority (a private CA)'
      '--client-cert:PEM client certificate for mutual TLS'
      '--client-key:PEM private key of --client-cert (a path, never the key itself)'
    ) ;;
    *) reply=() ;;
  esac
}

# Succeeds when flag $2 of command path $1 takes a value; REPLY says what it completes to.
_idm_flag_value() {
  case "$1|$2" in
    *'|-p'|*'|--profile') REPLY='profiles' ;;
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
    'login|--auth-method') REPLY='list:post basic private_key_jwt' ;;
    'streams list|--take') REPLY='none' ;;
    'streams list|--from') REPLY='none' ;;
    'streams test|--event-type') REPLY='list:group.created group.deleted group.member.added group.member.deleted group.role.assigned group.role.deleted group.updated organization.connection.added organization.connection.removed organization.connection.updated organization.created organization.deleted organization.group.role.assigned organization.group.role.deleted organization.member.added organization.member.deleted organization.member.role.assigned organization.member.role.deleted organization.updated user.created user.deleted user.updated' ;;
    'streams test|--data') REPLY='none' ;;
    'streams test|--data-file') REPLY='files' ;;
    'provisioning create|--mapping') REPLY='none' ;;
    'provisioning create|--mapping-file') REPLY='files' ;;
    'provisioning create|--sync-groups') REPLY='list:all off selected' ;;
    'sandbox start|--port') REPLY='none' ;;
    'sandbox start|--seed') REPLY='files' ;;
    'sandbox start|--streams') REPLY='none' ;;
    'sandbox start|--token-lifetime') REPLY='none' ;;
    'sandbox start|--rate-limit') REPLY='none' ;;
    'sandbox start|--fault') REPLY='none' ;;
    *) return 1 ;;
  esac
}

# Succeeds when positional argument $2 (from 0) of command path $1 completes to something.
_idm_arg_value() {
  case "$1|$2" in
    'auth help|0') REPLY='list:status' ;;
    'streams help|0') REPLY='list:list test' ;;
    'provisioning help|0') REPLY='list:create' ;;
    'sandbox help|0') REPLY='list:start' ;;
    'completion|0') REPLY='list:bash zsh fish' ;;
    'help|0') REPLY='list:login logout auth streams provisioning sandbox completion' ;;
    *) return 1 ;;
  esac
}

# Offers the values of kind $1.
_idm_complete_value() {
  local -a values
  local list
  case "$1" in
    list:*) list=${1#list:}; values=(${=list}); compadd -a values ;;
    files) _files ;;
    profiles) values=(${(f)"$(${words[1]} completion --profiles 2>/dev/null)"}); compadd -a values ;;
  esac
}

_idm() {
  local cmdpath='' word cur=${words[CURRENT]} prev=${words[CURRENT-1]} REPLY
  local -a reply
  integer i=2 npos=0
  # The words before the cursor give the command path; flags and their values are skipped.
  while (( i < CURRENT )); do
    word=${words[i]}
    case "$word" in
      -*=*) ;;
      -*) _idm_flag_value "$cmdpath" "$word" && (( i += 1 )) ;;
      *)
        _idm_subcommand_names "$cmdpath"
        if (( npos == 0 )) && [[ " $REPLY " == *" $word "* ]]; then
          cmdpath=${cmdpath:+$cmdpath }$word
        else
          (( npos += 1 ))
        fi ;;
    esac
    (( i += 1 ))
  done

  if [[ $cur == --*=* ]] && _idm_flag_value "$cmdpath" "${cur%%=*}"; then
    compset -P '*='
    _idm_complete_value "$REPLY"
    return
  fi
  if (( CURRENT > 2 )) && [[ $prev == -* ]] && _idm_flag_value "$cmdpath" "$prev"; then
    _idm_complete_value "$REPLY"
    return
  fi
  if [[ $cur == -* ]]; then
    _idm_flags "$cmdpath"
    _describe -t options 'option' reply
    return
  fi
  if (( npos == 0 )); then
    _idm_subcommands "$cmdpath"
    if (( ${#reply} )); then
      _describe -t commands 'command' reply
      return
    fi
  fi
  _idm_arg_value "$cmdpath" "$npos" && _idm_complete_value "$REPLY"
}

if [ "$funcstack[1]" = "_idm" ]; then
  _idm "$@"
else
  compdef _idm idm
fi
