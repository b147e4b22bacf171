#!/usr/bin/env bash
# npm run demo: idm against a local sandbox tenant, from login to listing. Nothing leaves 127.0.0.1;
# settings go to a temporary IDM_CONFIG_DIR that is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

idm() { node bin/idm.js "$@"; }
show() {
  printf '\n\033[1m$ %s\033[0m\n' "$*"
  "$@"
}

work="$(mktemp -d)"
export IDM_CONFIG_DIR="$work/config"
sandbox_pid=""
cleanup() {
  [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null && wait "$sandbox_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# The sandbox prints one JSON line first: its URL and the clients' credential files.
node bin/idm.js sandbox start --json --streams 120 > "$work/sandbox.json" &
sandbox_pid=$!
for _ in $(seq 100); do [ -s "$work/sandbox.json" ] && break; sleep 0.05; done
field() { node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").split("\n")[0]); console.log(process.argv[2].split(".").reduce((o, k) => o[k], s))' "$work/sandbox.json" "$1"; }
url="$(field url)"
client_id="$(field clients.admin.clientId)"
secret_file="$(field clients.admin.clientSecretFile)"
echo "Sandbox tenant at $url"

show idm login --domain "$url" --client-id "$client_id" --client-secret-file "$secret_file"
show idm auth status
# At a terminal the list is a table; IDM_FORCE_TTY shows that here even when the demo is piped.
printf '\n\033[1m$ idm streams list --take 5\033[0m\n'
IDM_FORCE_TTY=stdout idm streams list --take 5
printf '\n\033[1m$ idm streams list --take 5 | cat    # piped: one stream per line, tab-separated\033[0m\n'
idm streams list --take 5 | cat
printf '\n\033[1m$ idm streams list --all | wc -l\033[0m\n'
idm streams list --all | wc -l
printf '\n\033[1m$ idm streams list --take 2 --json\033[0m\n'
idm streams list --take 2 --json
printf '\n\033[1m$ idm streams list --from garbage --json   # errors: one JSON object on stderr, exit code 1\033[0m\n'
idm streams list --from garbage --json || echo "exit code $?"
