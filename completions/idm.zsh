#compdef idm
# zsh completion for idm. Generated from idm's command tree by scripts/gen-completions.mjs
# (npm run completions); do not edit. `idm completion zsh` prints the same text.
# Installation: see README: Shell completion.

# The names of the subcommands of a command path ('' is idm itself), space-separated in REPLY.
_idm_subcommand_names() {
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

# The subcommands of a command path as name:description, in reply.
_idm_subcommands() {
  case "$1" in
    '') reply=(
      'login:Store credentials for a tenant as a profile (checked with a token request first)'
      'logout:Remove a profile'\''s secrets and cached tokens'
      'auth:Log in and out, and inspect the stored credentials and token'
      'profiles:The stored profiles: list them, choose the default, remove one'
      'streams:Event streams: list, show, create, change, test, and follow their deliveries'
      'provisioning:Directory provisioning of connections: set it up, change it, synchronize, choose groups'
      'connections:The tenant'\''s connections'
      'api:Call any management endpoint with the profile'\''s token (like gh api)'
      'sandbox:Run a local tenant on 127.0.0.1 that speaks the management interface'
      'completion:Print the completion script for bash, zsh or fish'
      'help:show help for a command'
    ) ;;
    'auth') reply=(
      'login:Store credentials for a tenant as a profile (checked with a token request first)'
      'logout:Remove a profile'\''s secrets and cached tokens'
      'status:Show every profile (or one) with its domain, method, token expiry and scopes'
      'help:show help for a command'
    ) ;;
    'profiles') reply=(
      'list:List the stored profiles: domain, client, method, the default, and what is stored'
      'use:Make a stored profile the default'
      'remove:Remove a stored profile: its settings, secret and cached token (asks first at a terminal; --yes in scripts)'
      'help:show help for a command'
    ) ;;
    'streams') reply=(
      'list:List the event streams of the tenant'
      'show:Show one event stream: its destination, authorization, event types and times'
      'create:Create an event stream: a name, event types and one destination (webhook, event bus or action)'
      'update:Change a stream'\''s name, event types, webhook (endpoint and secret) or action'
      'enable:Enable an event stream: it forwards events again'
      'disable:Disable an event stream: it stops forwarding events (and takes no test events)'
      'delete:Delete an event stream (asks first at a terminal; --yes in scripts)'
      'test:Send a test event to an event stream and show the delivery record'
      'deliveries:A stream'\''s failed deliveries: list them, show one'
      'redeliver:Deliver failed events again: one by its id, every one the filters match, or all (asks first at a terminal; --yes in scripts)'
      'stats:Show successful and failed deliveries of a stream, per hour or per day'
      'help:show help for a command'
    ) ;;
    'streams deliveries') reply=(
      'list:List a stream'\''s failed deliveries (the service keeps no others)'
      'show:Show one delivery: every attempt, and the event envelope'
      'help:show help for a command'
    ) ;;
    'provisioning') reply=(
      'list:List the connections that have directory provisioning, with their settings and last synchronization'
      'show:Show the directory-provisioning configuration of a connection'
      'create:Create the directory-provisioning configuration of a connection'
      'update:Change the directory-provisioning configuration of a connection: mapping, synchronization'
      'delete:Delete the directory-provisioning configuration of a connection (asks first at a terminal; --yes in scripts)'
      'default-mapping:Show the default mapping of a connection'\''s strategy'
      'sync:Synchronize users (and groups) of a connection now, instead of at the next automatic run'
      'groups:The groups synchronized when group synchronization is "selected"'
      'help:show help for a command'
    ) ;;
    'provisioning groups') reply=(
      'list:List the groups synchronized when group synchronization is "selected"'
      'add:Add groups to the synchronized groups'
      'remove:Remove groups from the synchronized groups'
      'set:Replace the synchronized groups with these (--none: no group)'
      'help:show help for a command'
    ) ;;
    'connections') reply=(
      'list:List the tenant'\''s connections; for strategies that support directory provisioning, whether it is configured'
      'help:show help for a command'
    ) ;;
    'sandbox') reply=(
      'start:Run a local tenant on 127.0.0.1 until Ctrl-C or SIGTERM; prints its URL and client credentials'
      'help:show help for a command'
    ) ;;
    'help') reply=(
      'login:Store credentials for a tenant as a profile (checked with a token request first)'
      'logout:Remove a profile'\''s secrets and cached tokens'
      'auth:Log in and out, and inspect the stored credentials and token'
      'profiles:The stored profiles: list them, choose the default, remove one'
      'streams:Event streams: list, show, create, change, test, and follow their deliveries'
      'provisioning:Directory provisioning of connections: set it up, change it, synchronize, choose groups'
      'connections:The tenant'\''s connections'
      'api:Call any management endpoint with the profile'\''s token (like gh api)'
      'sandbox:Run a local tenant on 127.0.0.1 that speaks the management interface'
      'completion:Print the completion script for bash, zsh or fish'
    ) ;;
    'help auth') reply=(
      'login:Store credentials for a tenant as a profile (checked with a token request first)'
      'logout:Remove a profile'\''s secrets and cached tokens'
      'status:Show every profile (or one) with its domain, method, token expiry and scopes'
    ) ;;
    'help profiles') reply=(
      'list:List the stored profiles: domain, client, method, the default, and what is stored'
      'use:Make a stored profile the default'
      'remove:Remove a stored profile: its settings, secret and cached token (asks first at a terminal; --yes in scripts)'
    ) ;;
    'help streams') reply=(
      'list:List the event streams of the tenant'
      'show:Show one event stream: its destination, authorization, event types and times'
      'create:Create an event stream: a name, event types and one destination (webhook, event bus or action)'
      'update:Change a stream'\''s name, event types, webhook (endpoint and secret) or action'
      'enable:Enable an event stream: it forwards events again'
      'disable:Disable an event stream: it stops forwarding events (and takes no test events)'
      'delete:Delete an event stream (asks first at a terminal; --yes in scripts)'
      'test:Send a test event to an event stream and show the delivery record'
      'deliveries:A stream'\''s failed deliveries: list them, show one'
      'redeliver:Deliver failed events again: one by its id, every one the filters match, or all (asks first at a terminal; --yes in scripts)'
      'stats:Show successful and failed deliveries of a stream, per hour or per day'
    ) ;;
    'help streams deliveries') reply=(
      'list:List a stream'\''s failed deliveries (the service keeps no others)'
      'show:Show one delivery: every attempt, and the event envelope'
    ) ;;
    'help provisioning') reply=(
      'list:List the connections that have directory provisioning, with their settings and last synchronization'
      'show:Show the directory-provisioning configuration of a connection'
      'create:Create the directory-provisioning configuration of a connection'
      'update:Change the directory-provisioning configuration of a connection: mapping, synchronization'
      'delete:Delete the directory-provisioning configuration of a connection (asks first at a terminal; --yes in scripts)'
      'default-mapping:Show the default mapping of a connection'\''s strategy'
      'sync:Synchronize users (and groups) of a connection now, instead of at the next automatic run'
      'groups:The groups synchronized when group synchronization is "selected"'
    ) ;;
    'help provisioning groups') reply=(
      'list:List the groups synchronized when group synchronization is "selected"'
      'add:Add groups to the synchronized groups'
      'remove:Remove groups from the synchronized groups'
      'set:Replace the synchronized groups with these (--none: no group)'
    ) ;;
    'help connections') reply=(
      'list:List the tenant'\''s connections; for strategies that support directory provisioning, whether it is configured'
    ) ;;
    'help sandbox') reply=(
      'start:Run a local tenant on 127.0.0.1 until Ctrl-C or SIGTERM; prints its URL and client credentials'
    ) ;;
    *) reply=() ;;
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
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
      '-h:show help'
      '--help:show help'
    ) ;;
    'login') reply=(
      '--domain:tenant domain: a host (tenant.example.com) or base URL (else IDM_DOMAIN, or asked)'
      '--client-id:client (application) id (else IDM_CLIENT_ID, or asked)'
      '--client-secret-file:read the client secret from this file, or - for stdin (else IDM_CLIENT_SECRET, or asked)'
      '--private-key-file:PEM private key for private_key_jwt, or - for stdin (else IDM_PRIVATE_KEY, or asked)'
      '--signing-alg:assertion algorithm (default: the profile'\''s when the key can make it, else by key type)'
      '--auth-method:client authentication (default: private_key_jwt with a key; with a secret, post, or basic when the profile has it already)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'logout') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'auth') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'auth login') reply=(
      '--domain:tenant domain: a host (tenant.example.com) or base URL (else IDM_DOMAIN, or asked)'
      '--client-id:client (application) id (else IDM_CLIENT_ID, or asked)'
      '--client-secret-file:read the client secret from this file, or - for stdin (else IDM_CLIENT_SECRET, or asked)'
      '--private-key-file:PEM private key for private_key_jwt, or - for stdin (else IDM_PRIVATE_KEY, or asked)'
      '--signing-alg:assertion algorithm (default: the profile'\''s when the key can make it, else by key type)'
      '--auth-method:client authentication (default: private_key_jwt with a key; with a secret, post, or basic when the profile has it already)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'auth logout') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'auth status') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'profiles') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'profiles list') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'profiles use') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'profiles remove') reply=(
      '-y:remove without asking'
      '--yes:remove without asking'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
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
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams show') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams create') reply=(
      '--name:the stream'\''s name (1-128 characters)'
      '--event-type:an event type to subscribe to (repeat, or comma-separate)'
      '--disabled:create it disabled (default: enabled)'
      '--from-file:the whole body as JSON (as the API takes it), or - for stdin; flags override its fields'
      '--webhook:send events to this https:// endpoint (with --auth)'
      '--auth:how the webhook authenticates deliveries'
      '--username:the user name of --auth basic (with --webhook, it implies --auth basic)'
      '--header-key:the header name of --auth custom-header (with --webhook, it implies --auth custom-header)'
      '--secret-file:the webhook'\''s token, password or header value: a file, or - for stdin (else IDM_WEBHOOK_SECRET, or asked)'
      '--eventbus-account:send events to the event bus of this 12-digit account (with --eventbus-region)'
      '--eventbus-region:the event bus region (e.g. us-east-1)'
      '--action:send events to this action'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams update') reply=(
      '--name:a new name'
      '--event-type:the event types, replacing the list (repeat, or comma-separate)'
      '--add-event-type:subscribe to these too'
      '--remove-event-type:unsubscribe from these'
      '--from-file:a PATCH body as JSON, or - for stdin; flags override its fields'
      '--webhook:send events to this https:// endpoint (with --auth)'
      '--auth:how the webhook authenticates deliveries'
      '--username:the user name of --auth basic (with --webhook, it implies --auth basic)'
      '--header-key:the header name of --auth custom-header (with --webhook, it implies --auth custom-header)'
      '--secret-file:the webhook'\''s token, password or header value: a file, or - for stdin (else IDM_WEBHOOK_SECRET, or asked)'
      '--action:send events to this action'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams enable') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams disable') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams delete') reply=(
      '-y:delete without asking'
      '--yes:delete without asking'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams test') reply=(
      '--event-type:the event type to send (asks at a terminal when absent); see the list below'
      '--data:payload of the event: a JSON object'
      '--data-file:read the payload (a JSON object) from a file, or - for stdin'
      '--wait:follow the delivery until its outcome is known (exit 0 delivered, 3 failed, 6 not known in time)'
      '--wait-timeout:how long --wait follows it (default 60)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams deliveries') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams deliveries list') reply=(
      '--status:only deliveries with this status, e.g. failed (repeat, or comma-separate)'
      '--event-type:only these event types (repeat, or comma-separate)'
      '--since:from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d)'
      '--until:up to this time: RFC 3339, a date, or back from now'
      '--take:deliveries per page (1-100; default 50, 100 with --all)'
      '--from:start at this cursor (the `next` of a previous page)'
      '--all:follow `next` to the last page'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams deliveries show') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams redeliver') reply=(
      '--status:only deliveries with this status, e.g. failed (repeat, or comma-separate)'
      '--event-type:only these event types (repeat, or comma-separate)'
      '--since:from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d)'
      '--until:up to this time: RFC 3339, a date, or back from now'
      '-y:with no event id and no filter (or --status failed alone): deliver every failed delivery again without asking'
      '--yes:with no event id and no filter (or --status failed alone): deliver every failed delivery again without asking'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'streams stats') reply=(
      '--since:from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d); default: 14 days'
      '--until:up to this time: RFC 3339, a date, or back from now; default: now (with neither flag, the service'\''s window: to the next full hour)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning list') reply=(
      '--take:configurations per page (1-100; default 50, 100 with --all)'
      '--from:start at this cursor (the `next` of a previous page)'
      '--all:follow `next` to the last page'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning show') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning create') reply=(
      '--mapping:map a platform user attribute to an identity-provider attribute (repeat for each)'
      '--mapping-file:the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin'
      '--sync-automatically:synchronize users every 30 minutes'
      '--no-sync-automatically:do not synchronize users automatically'
      '--sync-groups:group synchronization'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning update') reply=(
      '--mapping:the whole mapping, one row each (replaces it)'
      '--mapping-file:the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin'
      '--add-mapping:map one more attribute (repeat for each)'
      '--remove-mapping:stop mapping this platform attribute (repeat for each)'
      '--sync-automatically:synchronize users every 30 minutes'
      '--no-sync-automatically:stop synchronizing users automatically'
      '--sync-groups:group synchronization'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning delete') reply=(
      '-y:delete without asking'
      '--yes:delete without asking'
      '--ignore-not-found:exit 0 when there is nothing to delete (deleted already, or never set up)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning default-mapping') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning sync') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning groups') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning groups list') reply=(
      '--search:only groups whose name starts with this'
      '--take:groups per page (1-100; default 50, 100 with --all)'
      '--from:start at this cursor (the `next` of a previous page)'
      '--all:follow `next` to the last page'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning groups add') reply=(
      '--groups-file:whole entries instead of ids: a JSON array of {"id", "name"?, "email"?, "direct_members_count"?} (or {"groups": [...]}, as groups list --json prints it), or - for stdin'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning groups remove') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'provisioning groups set') reply=(
      '--groups-file:whole entries instead of ids: a JSON array of {"id", "name"?, "email"?, "direct_members_count"?} (or {"groups": [...]}, as groups list --json prints it), or - for stdin'
      '--none:synchronize no group (an empty list)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'connections') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'connections list') reply=(
      '--strategy:only connections of this strategy, e.g. google-apps (repeat, or comma-separate)'
      '--take:connections per page (1-100; 100 with --all; with neither it nor --from, one unpaged answer, without a next page)'
      '--from:start at this cursor (the `next` of a previous page)'
      '--all:follow `next` to the last page'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'api') reply=(
      '--data:the request body: JSON, @FILE, or @- for stdin (not with GET)'
      '--query:a query parameter, sent percent-encoded (repeatable)'
      '--paginate:GET: follow `next` to the last page and print the pages merged'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'sandbox') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'sandbox start') reply=(
      '--port:port of the tenant (default: a free one, or the saved one with --state-dir)'
      '--https:serve the tenant over HTTPS, with a certificate of a CA the sandbox makes (prints the CA file to trust)'
      '--tls-cert:serve HTTPS with this PEM server certificate (for 127.0.0.1) instead of one the sandbox makes (implies --https)'
      '--tls-key:the PEM private key of --tls-cert'
      '--mtls:with --https: mutual-TLS client authentication for an extra client (tls_client_auth; prints its certificate)'
      '--mtls-edge:mutual TLS as behind an edge network: trust its client-certificate headers instead of a handshake'
      '--state-dir:keep the tenant (clients, keys, CA, data) in this directory and load it at the next start'
      '--seed:JSON seed: streams, connections, token lifetime, rate limit (default: the demo seed)'
      '--streams:also generate this many streams (pagination, benchmarks)'
      '--token-lifetime:lifetime of issued access tokens (default 86400)'
      '--rate-limit:token bucket: size/refill per second, e.g. 50/10 (default 10000/10000)'
      '--max-streams:the most streams the tenant holds: a create beyond it answers 409, as on a plan'\''s limit (default: no limit)'
      '--delivery:test deliveries: async (as the service: 202 pending, then attempts) or sync (delivered before the answer)'
      '--retry-delays:waits before the retries of a failed delivery, in ms (default 1000,2000,4000, as the service)'
      '--delivery-timeout:how long a webhook attempt waits for an answer before it fails, in ms (default 3000, as the service)'
      '--fault:inject a fault, e.g. '\''{"kind":"status","status":503,"count":2}'\'' (repeatable)'
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    'completion') reply=(
      '-h:show help'
      '--help:show help'
      '--json:print JSON for scripts (errors too, on stderr)'
      '-p:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--profile:use this stored profile (default: IDM_PROFILE or the default profile)'
      '--no-color:no colour (also NO_COLOR, TERM=dumb, or output not a terminal)'
      '--no-input:never prompt (also CI set, or not at a terminal); a missing value is a usage error'
      '--debug:print requests and responses on stderr, secrets redacted'
      '--timeout:bound on each request (default 30) (env: IDM_TIMEOUT)'
      '--max-wait:longest total wait for rate limits and retries (default 60) (env: IDM_MAX_WAIT)'
      '--ca-file:also trust this PEM certificate authority (a private CA) (env: IDM_CA_FILE)'
      '--client-cert:PEM client certificate for mutual TLS (env: IDM_CLIENT_CERT)'
      '--client-key:PEM private key of --client-cert (a path, never the key itself) (env: IDM_CLIENT_KEY)'
    ) ;;
    *) reply=() ;;
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

# Offers the values of kind $1; ids are those of the tenant of profile $2 (the command line's
# --profile), else of IDM_PROFILE's, else of the default profile's.
_idm_complete_value() {
  local -a values
  local list
  case "$1" in
    ,*) compset -P '*,'; _idm_complete_value "${1#,}" "$2" ;;  # comma-separated: what follows the last comma
    list:*) list=${1#list:}; values=(${=list}); compadd -a values ;;
    files) _files ;;
    dirs) _files -/ ;;
    ask:streams)
      # Each id with the stream's name (id<TAB>name) as its description; _describe drops a single
      # backslash, so each is doubled (a name's \x1b, as idm escapes it, is shown as it is).
      local line
      local -a described
      for line in ${(f)"$(IDM_PROFILE=${2:-$IDM_PROFILE} ${words[1]} completion --values named-streams 2>/dev/null)"}; do
        if [[ $line == *$'\t'* ]]; then described+=("${line%%$'\t'*}:${${line#*$'\t'}//\\/\\\\}"); else described+=("$line"); fi
      done
      _describe -t streams 'stream id' described ;;
    ask:*) values=(${(f)"$(IDM_PROFILE=${2:-$IDM_PROFILE} ${words[1]} completion --values ${1#ask:} 2>/dev/null)"}); compadd -a values ;;
  esac
}

_idm() {
  local cmdpath='' cmdprofile='' given=' ' word cur=${words[CURRENT]} prev=${words[CURRENT-1]} REPLY
  local -a reply offered
  integer i=2 npos=0 ddash=0
  # The words before the cursor give the command path; flags and their values are skipped.
  while (( i < CURRENT )); do
    word=${words[i]}
    # After --, every word is an argument, one with a dash too.
    if (( ddash )) && [[ $word == -* ]]; then (( npos += 1, i += 1 )); continue; fi
    case "$word" in
      --) ddash=1 ;;
      '--profile'=*) cmdprofile=${(Q)word#*=}; _idm_given_names "$cmdpath" "${word%%=*}" && given+="$REPLY " ;;
      # The profile glued to the short flag (-pprod), as idm reads it.
      '-p'?*) cmdprofile=${(Q)word#-p}; _idm_given_names "$cmdpath" '-p' && given+="$REPLY " ;;
      -*=*) _idm_given_names "$cmdpath" "${word%%=*}" && given+="$REPLY " ;;
      -*)
        if _idm_flag_value "$cmdpath" "$word"; then
          (( i += 1 ))
          case "$word" in '-p'|'--profile') cmdprofile=${(Q)words[i]} ;; esac
        fi
        _idm_given_names "$cmdpath" "$word" && given+="$REPLY " ;;
      *)
        _idm_subcommand_names "$cmdpath"
        if (( npos == 0 )) && [[ " $REPLY " == *" $word "* ]]; then
          cmdpath=${cmdpath:+$cmdpath }$word
        elif (( npos == 0 )) && _idm_alias "$cmdpath" "$word"; then
          cmdpath=${cmdpath:+$cmdpath }$REPLY
        else
          (( npos += 1 ))
        fi ;;
    esac
    (( i += 1 ))
  done

  if (( ! ddash )) && [[ $cur == --*=* ]] && _idm_flag_value "$cmdpath" "${cur%%=*}"; then
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
    for word in $reply; do [[ $given == *" ${word%%:*} "* ]] || offered+=("$word"); done
    _describe -t options 'option' offered
    return
  fi
  if (( npos == 0 )); then
    _idm_subcommands "$cmdpath"
    if (( ${#reply} )); then
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
