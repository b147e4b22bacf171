#!/usr/bin/env bash
# npm run demo: idm's main job against the bundled sandbox tenant: log in, list streams, a stream's
# whole life (create, test --wait, a failing stream's deliveries, redeliver, stats, update, disable,
# delete), and directory provisioning (connections, create, list, update, groups, sync, show, delete).
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

# The sandbox prints one JSON line first: its URLs and the clients' credential files. Its failed
# deliveries are retried after 0.2, 0.4 and 0.8 s (the service waits 1, 2 and 4 s), and an attempt
# waits up to 30 s for the inbox's answer (the service: 3 s), so that a busy machine does not turn
# the delivery the demo shows succeeding into a timeout.
node bin/idm.js sandbox start --json --streams 1200 --retry-delays 200,400,800 --delivery-timeout 30000 > "$work/sandbox.json" &
sandbox_pid=$!
# Waits for that line, not for a time (a busy machine starts it slowly): until it is there, or the sandbox has ended.
while [ ! -s "$work/sandbox.json" ] && kill -0 "$sandbox_pid" 2>/dev/null; do sleep 0.05; done
field() { node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8").split("\n")[0]); console.log(process.argv[2].split(".").reduce((o, k) => o[k], s))' "$work/sandbox.json" "$1"; }
url="$(field url)"
inbox="$(field inboxUrl)"
bold "Sandbox tenant at $url (demo streams and connections, plus 1,200 generated streams)"

step idm login --domain "$url" --client-id "$(field clients.admin.clientId)" --client-secret-file "$(field clients.admin.clientSecretFile)"
step idm streams list --take 20
bold $'# piped: tab-separated, one stream per line\n$ idm streams list --take 3 | cat'
idm streams list --take 3 | cat
bold $'# every page, one JSON document\n$ idm streams list --all --json | node -e ...'
idm streams list --all --json | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => console.log(JSON.parse(t).eventStreams.length + " streams"))'

bold '# The event-stream lifecycle'
export IDM_WEBHOOK_SECRET=demo-orders-token   # the webhook secret never comes from a flag
created="$(idm streams create --name demo-orders --event-type user.created,user.deleted --webhook "$inbox/orders" --auth bearer --json | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => console.log(JSON.parse(t).id))')"
unset IDM_WEBHOOK_SECRET
echo "\$ IDM_WEBHOOK_SECRET=... idm streams create --name demo-orders --event-type user.created,user.deleted --webhook $inbox/orders --auth bearer"
echo "created $created"
step idm streams show "$created"
step idm streams test "$created" --event-type user.created --data '{"object":{"user_id":"demo|1"}}' --wait
bold "What the sandbox's webhook inbox received (GET $url/sandbox/inbox):"
node -e 'fetch(process.argv[1]).then((r) => r.json()).then((all) => { const last = all.at(-1); console.log(`${last.method} ${last.path}  authorization: ${last.headers.authorization}  type: ${last.body.type}  data: ${JSON.stringify(last.body.data)}`); })' "$url/sandbox/inbox"
step idm streams test est_demoClosedPort00000000 --event-type user.created --wait
step idm streams deliveries list est_demoClosedPort00000000
failed="$(idm streams deliveries list est_demoClosedPort00000000 --take 1 --json | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => console.log(JSON.parse(t).deliveries[0].id))')"
step idm streams redeliver est_demoClosedPort00000000 "$failed"
step idm streams stats est_demoClosedPort00000000 --since 1h
step idm streams update "$created" --remove-event-type user.deleted --name demo-orders-v2
step idm streams disable "$created"
step idm streams delete "$created" --yes

bold '# Directory provisioning'
step idm connections list
step idm provisioning create con_googleAppsDemo01 --mapping external_id=id --mapping email=primaryEmail --sync-groups selected
step idm provisioning list
step idm provisioning update con_googleAppsDemo01 --add-mapping given_name=name.givenName --sync-automatically
step idm provisioning groups add con_googleAppsDemo01 03ep43zb1xk6ay0 03ep43zb2fw2ma9
step idm provisioning groups list con_googleAppsDemo01
step idm provisioning sync con_googleAppsDemo01
bold '# ... the synchronization runs in the background; once it has ended, show has its time and status'
for _ in $(seq 60); do
  idm provisioning show con_googleAppsDemo01 --json | node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => process.exit(JSON.parse(t).last_synchronization_status ? 0 : 1))' && break
  sleep 0.5
done
step idm provisioning show con_googleAppsDemo01
step idm provisioning create con_googleAppsTaken1 --no-input
step idm provisioning delete con_googleAppsDemo01 --yes
bold $'# scripts: a JSON error on stderr\n$ idm --json streams test est_short --event-type user.created'
idm --json streams test est_short --event-type user.created || echo "(exit code $?)"
