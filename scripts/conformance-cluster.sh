#!/usr/bin/env bash
# Runs the official MCP conformance suite (both requirement sets and the
# tasks scenarios, as scripts/conformance.sh) against THREE mcp-everything
# replicas sharing one PostgreSQL schema (--cluster), behind a round-robin
# reverse proxy that sends every request to the next replica: nothing is
# sticky, so every session, task, notification and server-to-client
# response must cross replicas through the database.
#
# PostgreSQL comes from $MCP_TEST_POSTGRES (default: the local server,
# postgres://postgres@127.0.0.1:5432/test?sslmode=disable). When it cannot
# be reached the run is skipped with a message, or fails under CI=true.
# The schema is fresh for every run and dropped afterwards.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"
pg=${MCP_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
"$root/scripts/tools.sh" node conformance

if ! psql "$pg" -qAtc 'select 1' >/dev/null 2>&1; then
  echo "conformance-cluster: SKIP: PostgreSQL at ${pg%%\?*} is unreachable (set MCP_TEST_POSTGRES)"
  if [ "${CI:-}" = true ]; then echo "conformance-cluster: FAIL: CI=true needs PostgreSQL"; exit 1; fi
  exit 0
fi

mkdir -p "$tools/bin"
go build -o "$tools/bin/mcp-everything" "$root/cmd/mcp-everything"
go build -o "$tools/bin/rrproxy" "$root/internal/testutil/rrproxy/cmd/rrproxy"

schema="conformance_$$_$RANDOM"
case "$pg" in *\?*) cluster="$pg&schema=$schema" ;; *) cluster="$pg?schema=$schema" ;; esac
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  psql "$pg" -qc "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
backends=()
for i in 1 2 3; do
  port=$(free_port)
  "$tools/bin/mcp-everything" --http "127.0.0.1:$port" --cluster "$cluster" --log-level warn 2>"$tools/mcp-everything-$i.log" &
  pids+=($!)
  backends+=("http://127.0.0.1:$port")
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
done
exec 4< <("$tools/bin/rrproxy" "${backends[@]}" 2>"$tools/rrproxy.log")
pids+=($!)
read -r proxy <&4
echo "conformance-cluster: 3 replicas (${backends[*]}) behind $proxy, schema $schema"

status=0
CONFORMANCE_URL="$proxy/mcp" "$root/scripts/conformance.sh" || status=1
for i in 0 1 2; do
  if ! kill -0 "${pids[$i]}" 2>/dev/null; then
    echo "conformance-cluster: replica $((i+1)) died; its log:"; cat "$tools/mcp-everything-$((i+1)).log"; status=1
  fi
done
exit $status
