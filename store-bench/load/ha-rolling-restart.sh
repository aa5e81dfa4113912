#!/usr/bin/env bash
# Rolling restarts of the reference deployment's two Store servers (deploy/ha) under load: wrk sends SOAP 1.1
# WriteStrings through HAProxy on 8 connections while each server in turn is restarted ROUNDS times with
# deploy/ha/restart-server.sh (SIGTERM, drain, stop, start, ready); prints the requests and every failure wrk saw
# (connect, read, write, time-out errors and non-2xx answers). Starts the deployment in a directory of its own and
# purges it at the end.
#
# usage: store-bench/load/ha-rolling-restart.sh [ROUNDS]      (default 2; needs what deploy/ha/start.sh needs)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-2}
load=${LOAD:-/tmp/peers/load}
[ -r "$load/ws11.lua" ] || { rm -rf /tmp/peers && cp -r "$root/../shared/bench/peers" /tmp/peers; load=/tmp/peers/load; }
export STORE_HA_DIR; STORE_HA_DIR=$(mktemp -d /tmp/store-ha-rolling-XXXXXX)
wrk_pid=""
cleanup() {
  [ -n "$wrk_pid" ] && kill "$wrk_pid" 2>/dev/null || true
  bash "$root/deploy/ha/stop.sh" --purge
}
trap cleanup EXIT

bash "$root/deploy/ha/start.sh"
out=$(mktemp)
wrk -t2 -c8 -d600s --timeout 30s -s "$load/ws11.lua" http://127.0.0.1:18300/API/Store.asmx > "$out" 2>&1 &
wrk_pid=$!
sleep 5
for _ in $(seq "$rounds"); do
  for h in store1 store2; do bash "$root/deploy/ha/restart-server.sh" "$h"; done
done
sleep 5
kill -INT "$wrk_pid"; wait "$wrk_pid" || true; wrk_pid=""
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" "$out" | head -1; }
[ -n "$(field requests)" ] || { cat "$out" >&2; echo "no RESULT line from wrk" >&2; exit 1; }
failed=0; for e in err_connect err_read err_write err_status err_timeout; do failed=$((failed + $(field $e))); done
echo "ha-rolling-restart: $((rounds * 2)) restarts, $(field requests) requests, $failed failed" \
  "(connect $(field err_connect), read $(field err_read), write $(field err_write), status $(field err_status)," \
  "timeout $(field err_timeout))"
rm -f "$out"
