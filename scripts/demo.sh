#!/usr/bin/env bash
# npm run demo: idm's main job against the bundled sandbox tenant — log in, list streams, send a
# test event that is delivered and one that fails, create a provisioning configuration from flags.
# Nothing leaves 127.0.0.1; settings go to a temporary IDM_CONFIG_DIR removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

idm() { node bin/idm.js "$@"; }
bold() { if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then printf '\n\033[1m%s\033[0m\n' "$*"; else printf '\n%s\n' "$*"; fi; }
# Quotes an argument for display only where the shell would need it.
shown() { local a out=""; for a in "$@"; do if [[ "$a" =~ ^[A-Za-z0-9_./:=@,+-]+$ ]]; then out+="$a "; else out+="'$a' "; fi; done; printf '%s' "${out% }"; }
# Prints the command, runs it, and reports a non-zero exit code without stopping the demo.
step() {
  bold "\$ $(shown "$@")"
  local code=0
  "$@" || code=$?
  [ "$code" -eq 0 ] || echo "(exit code $code)"
}

work="$(mktemp -d)"
export IDM_CONFIG_DIR="$work/config"
sandbox_pid=""
cleanup() {
  if [ -n "$sandbox_pid" ]; then kill -INT "$sandbox_pid" 2>/dev/null || true; wait "$sandbox_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The sandbox prints one JSON line first: its URLs and the clients' credential files.
node bin/idm.js sandbox start --json --streams 1200 > "$work/sandbox.json" &
sandbox_pid=$!
for _ in $(seq 200); do [ -s "$work/sandbox.json" ] && break; sleep 0.05; done
field() { node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").split("\n")[0]); console.log(process.argv[2].split(".").reduce((o, k) => o[k], s))' "$work/sandbox.json" "$1"; }
url="$(field url)"
bold "Sandbox tenant at $url (demo streams and connections, plus 1,200 generated streams)"

step idm login --domain "$url" --client-id "$(field clients.admin.clientId)" --client-secret-file "$(field clients.admin.clientSecretFile)"
step idm streams list --take 20
bold '$ idm streams list --take 3 | cat        # piped: tab-separated, one stream per line'
idm streams list --take 3 | cat
bold '$ idm streams list --all --json | node -e ...   # every page, one JSON document'
idm streams list --all --json | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => console.log(JSON.parse(t).eventStreams.length + " streams"))'

step idm streams test est_demoInboxBearer0000000 --event-type user.created --data '{"object":{"user_id":"demo|1"}}'
bold "What the sandbox's webhook inbox received (GET $url/sandbox/inbox):"
node -e 'fetch(process.argv[1]).then((r) => r.json()).then((all) => { const last = all.at(-1); console.log(`${last.method} ${last.path}  authorization: ${last.headers.authorization}  type: ${last.body.type}  data: ${JSON.stringify(last.body.data)}`); })' "$url/sandbox/inbox"
step idm streams test est_demoClosedPort00000000 --event-type user.deleted

step idm provisioning create con_googleAppsDemo01 --mapping external_id=id --mapping email=primaryEmail --sync-groups all
step idm provisioning create con_googleAppsTaken1 --no-input
bold '$ idm --json streams test est_short --event-type user.created   # scripts: a JSON error on stderr'
idm --json streams test est_short --event-type user.created || echo "(exit code $?)"
