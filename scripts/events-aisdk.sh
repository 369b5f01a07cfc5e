#!/usr/bin/env bash
# Drives mcp-memory's events with the AI SDK's MCP client (@ai-sdk/mcp,
# experimental_events, pinned in scripts/tools.sh): events/list, webhook
# subscribe with the verification handshake, deliveries verified by the
# SDK's own signature code, retries after a failing receiver, delivery
# after a SIGKILL, poll resumed across the restart, refresh and
# unsubscribe, on SQLite; and three replicas on PostgreSQL where a change
# on one replica reaches a webhook subscribed through another exactly once
# (cmd/mcp-memory/events_aisdk_test.go).
#
# PostgreSQL comes from $MCP_TEST_POSTGRES (default: the local server);
# when it cannot be reached the replica test skips, or fails under CI=true.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/tools.sh" node ai-sdk
cd "$root"
# The SDK is installed now: the tests must not skip for want of it.
AISDK_REQUIRED=1 go test -count=1 -run '^TestAISDKEvents' -v ./cmd/mcp-memory/
