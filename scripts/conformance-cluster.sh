#!/usr/bin/env bash
# Runs the official MCP conformance suite (both requirement sets and the
# tasks scenarios, as scripts/conformance.sh) against THREE mcp-everything
# replicas sharing one PostgreSQL schema (--cluster), behind a round-robin
# reverse proxy that sends every request to the next replica: nothing is
# sticky, so every session, task, notification and server-to-client
# response must cross replicas through the database.
#
#   scripts/conformance-cluster.sh                   behind internal/testutil/rrproxy, which
#                                                    streams request bodies and keeps two idle
#                                                    connections per replica, as a plain Go
#                                                    httputil.ReverseProxy does
#   BALANCER=nginx scripts/conformance-cluster.sh    behind nginx, from docs/deploy/nginx.conf
#   BALANCER=haproxy scripts/conformance-cluster.sh  behind HAProxy, from docs/deploy/haproxy.cfg
#
# nginx and HAProxy run from the shipped configurations, templated only for
# the addresses (listen, and the three servers), as foreground processes
# with their own config, pid and log files in a temp dir, not the system
# services. Missing binaries are installed from the Debian packages
# (apt-get, as root; skipped when already there); where that cannot be done
# the run is skipped with a message, or fails under CI=true. The replicas
# get the flags the configurations' comments ask for (--allow-host,
# --max-conns-per-ip).
#
# PostgreSQL comes from $MCP_TEST_POSTGRES (default: the local server,
# postgres://postgres@127.0.0.1:5432/test?sslmode=disable). When it cannot
# be reached the run is skipped with a message, or fails under CI=true.
# The schema is fresh for every run and dropped afterwards.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"
balancer=${BALANCER:-rrproxy}
name="conformance-cluster[$balancer]"
pg=${MCP_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
"$root/scripts/tools.sh" node conformance

skip() { # reason
  echo "$name: SKIP: $1"
  if [ "${CI:-}" = true ]; then echo "$name: FAIL: CI=true needs it"; exit 1; fi
  exit 0
}

# ensure_bin BINARY PACKAGE...: installs the Debian packages when BINARY
# is missing (idempotent: nothing is done when it is there).
export PATH="$PATH:/usr/sbin:/sbin"
ensure_bin() {
  local bin=$1; shift
  command -v "$bin" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$name: installing $* (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$@" >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$@" >/dev/null 2>&1; } || true
  fi
  command -v "$bin" >/dev/null 2>&1
}
case "$balancer" in
  rrproxy) ;;
  nginx) ensure_bin nginx nginx-light || ensure_bin nginx nginx ||
    skip "nginx is not installed and could not be (apt-get install nginx-light or nginx, as root)" ;;
  haproxy) ensure_bin haproxy haproxy ||
    skip "haproxy is not installed and could not be (apt-get install haproxy, as root)" ;;
  *) echo "$name: BALANCER must be rrproxy, nginx or haproxy"; exit 2 ;;
esac

if ! psql "$pg" -qAtc 'select 1' >/dev/null 2>&1; then
  skip "PostgreSQL at ${pg%%\?*} is unreachable (set MCP_TEST_POSTGRES)"
fi

mkdir -p "$tools/bin"
go build -o "$tools/bin/mcp-everything" "$root/cmd/mcp-everything"

schema="conformance_$$_$RANDOM"
case "$pg" in *\?*) cluster="$pg&schema=$schema" ;; *) cluster="$pg?schema=$schema" ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/conformance-$balancer.XXXXXX")
chmod 755 "$work" # nginx's workers run as nobody under root
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  psql "$pg" -qc "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { # port
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}
backends=()
ports=()
for i in 1 2 3; do
  port=$(free_port)
  # The flags docs/deploy/nginx.conf and haproxy.cfg ask for: the public
  # host name, and no per-address connection cap (every connection comes
  # from the balancer's address).
  "$tools/bin/mcp-everything" --http "127.0.0.1:$port" --cluster "$cluster" --log-level warn \
    --allow-host mcp.example.com --max-conns-per-ip -1 2>"$tools/mcp-everything-$balancer-$i.log" &
  pids+=($!)
  backends+=("http://127.0.0.1:$port")
  ports+=("$port")
  wait_port "$port"
done

# template FILE: the shipped configuration with the listen address and the
# three servers (10.0.0.11-13:8080) made local; fails when one is missing,
# so that the docs and this script cannot drift apart silently.
lport=$(free_port)
template() {
  local out
  out=$(sed -e "s/10\.0\.0\.11:8080/127.0.0.1:${ports[0]}/" \
            -e "s/10\.0\.0\.12:8080/127.0.0.1:${ports[1]}/" \
            -e "s/10\.0\.0\.13:8080/127.0.0.1:${ports[2]}/" \
            -e "s/^\(    listen \)80;/\1127.0.0.1:$lport;/" \
            -e "s/^\(    bind \):80 /\1127.0.0.1:$lport /" "$1")
  for want in "127.0.0.1:${ports[0]}" "127.0.0.1:${ports[1]}" "127.0.0.1:${ports[2]}" "127.0.0.1:$lport"; do
    if ! grep -q "$want" <<<"$out"; then
      echo "$name: $1 no longer has the address the script replaces by $want" >&2; return 1
    fi
  done
  printf '%s\n' "$out"
}

case "$balancer" in
rrproxy)
  go build -o "$tools/bin/rrproxy" "$root/internal/testutil/rrproxy/cmd/rrproxy"
  exec 4< <("$tools/bin/rrproxy" -stream -max-idle 2 "${backends[@]}" 2>"$tools/rrproxy.log")
  pids+=($!)
  read -r proxy <&4
  ;;
nginx)
  template "$root/docs/deploy/nginx.conf" >"$work/mcp.conf"
  cat >"$work/nginx.conf" <<NGINX
daemon off;
pid $work/nginx.pid;
error_log $work/error.log warn;
worker_processes 2;
events { worker_connections 1024; }
http {
    access_log $work/access.log;
    client_body_temp_path $work/client_body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    include $work/mcp.conf;
}
NGINX
  nginx -t -q -p "$work" -e "$work/error.log" -c "$work/nginx.conf"
  nginx -p "$work" -e "$work/error.log" -c "$work/nginx.conf" 2>>"$work/error.log" &
  pids+=($!)
  proxy="http://127.0.0.1:$lport"
  ;;
haproxy)
  template "$root/docs/deploy/haproxy.cfg" >"$work/haproxy.cfg"
  haproxy -c -q -f "$work/haproxy.cfg"
  haproxy -db -f "$work/haproxy.cfg" -p "$work/haproxy.pid" 2>"$work/haproxy.log" &
  pids+=($!)
  proxy="http://127.0.0.1:$lport"
  ;;
esac
if [ "$balancer" != rrproxy ]; then
  wait_port "$lport" || { echo "$name: $balancer did not start"; cat "$work"/*.log; exit 1; }
  # Through the balancer, the public host name reaches a replica (400: a GET
  # without a session), and a body near the server's 8 MiB limit is not
  # refused on the way (the server answers it, not a 413 from the proxy).
  for _ in 1 2 3; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: mcp.example.com' "$proxy/mcp")
    if [ "$code" != 400 ]; then echo "$name: GET /mcp with Host mcp.example.com: $code, want 400"; cat "$work"/*.log; exit 1; fi
  done
  python3 -c 'import json,sys; sys.stdout.write(json.dumps({"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"x"*(7<<20)}}}))' >"$work/big.json"
  code=$(curl -s -o "$work/big.out" -w '%{http_code}' -H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2026-07-28' \
    -H 'Accept: application/json, text/event-stream' --data-binary "@$work/big.json" "$proxy/mcp")
  if [ "$code" = 413 ] || [ "$code" -ge 500 ] || ! grep -q jsonrpc "$work/big.out"; then
    echo "$name: a 7 MiB POST through $balancer: $code, not answered by the server:"; head -c 500 "$work/big.out"; echo; exit 1
  fi
fi
echo "$name: 3 replicas (${backends[*]}) behind $balancer at $proxy, schema $schema"

status=0
CONFORMANCE_URL="$proxy/mcp" "$root/scripts/conformance.sh" || status=1
for i in 0 1 2; do
  if ! kill -0 "${pids[$i]}" 2>/dev/null; then
    echo "$name: replica $((i+1)) died; its log:"; cat "$tools/mcp-everything-$balancer-$((i+1)).log"; status=1
  fi
done
if [ "$balancer" != rrproxy ] && ! kill -0 "${pids[3]}" 2>/dev/null; then
  echo "$name: $balancer died; its log:"; cat "$work"/*.log; status=1
fi
exit $status
