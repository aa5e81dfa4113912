#!/usr/bin/env bash
# Small writes beside large uploads, on one freshly started server: two wrk loads at once, ws11 (SOAP 1.1
# WriteString) on SMALL_CONNS connections and wb4m (SOAP 1.1 WriteBytes of 4 MiB) on LARGE_CONNS, while readiness is
# asked every half second.
#
# usage: mixed.sh JAR STORAGE_URI [SECONDS] [PORT]
#   JAR          a store-server.jar
#   STORAGE_URI  memory: | sqlite:/tmp/bench-data/NAME/store.db (wiped first) | jdbc:postgresql://...&table=NAME
#   SECONDS      measured duration (default 20); a WARMUP (default 5) s run of both loads comes first
#   PORT         default 18120; the management port is PORT+1
# env: SMALL (ws11) SMALL_CONNS (8) LARGE (wb4m) LARGE_CONNS (32) THREADS (1 per wrk) WARMUP (5) JAVA XMX (1g)
#      LOAD (the peers' wrk scripts; default /tmp/peers/load, copied from ../shared/bench/peers if missing)
# Prints one line:
#   mixed small_rps=R small_p99_ms=P large_rps=R large_p99_ms=P errors=E ready_not_200=N/M storage=...
# The server is started with --max-request-bytes 8388608 --max-value-bytes 8388608 (a 4 MiB value is a 5.6 MB body).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,16p' "$0"; exit 2; }
jar=$1; storage=$2; secs=${3:-20}; port=${4:-18120}; mport=$((port + 1))
small=${SMALL:-ws11}; small_conns=${SMALL_CONNS:-8}; large=${LARGE:-wb4m}; large_conns=${LARGE_CONNS:-32}
threads=${THREADS:-1}; warmup=${WARMUP:-5}; JAVA=${JAVA:-java}; xmx=${XMX:-1g}
root=$(cd "$(dirname "$0")/../.." && pwd)
load=${LOAD:-/tmp/peers/load}
if [ ! -r "$load/$small.lua" ] && [ "$load" = /tmp/peers/load ]; then
  rm -rf /tmp/peers && cp -r "$root/../shared/bench/peers" /tmp/peers
fi
[ -r "$load/$small.lua" ] && [ -r "$load/$large.lua" ] || { echo "no wrk scripts in $load" >&2; exit 2; }
url="http://127.0.0.1:$port/API/Store.asmx"
logs=${LOGS:-/tmp/bench/logs}; mkdir -p "$logs"
tag="$(date +%Y%m%d-%H%M%S)-mixed-$(basename "$jar" .jar)-$(echo "$storage" | tr -c 'A-Za-z0-9' '_' | cut -c1-40)"

case "$storage" in
  sqlite:/tmp/bench-data/*) d=$(dirname "${storage#sqlite:}"); rm -rf -- "$d"; mkdir -p -- "$d";;
  sqlite:*) echo "warning: $storage is not under /tmp/bench-data/, not wiped" >&2;;
esac
if [ "$(curl -s -o /dev/null -m 1 -w '%{http_code}' "$url?wsdl" || true)" != 000 ]; then
  echo "something already answers on port $port" >&2; exit 1
fi

server=""; poller=""
cleanup() {
  [ -n "$poller" ] && kill "$poller" 2>/dev/null || true
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$server" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$server" 2>/dev/null || true
  fi
}
trap cleanup EXIT

"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$port" --management-port "$mport" --storage "$storage" \
  --max-request-bytes 8388608 --max-value-bytes 8388608 > "$logs/$tag.server.log" 2>&1 &
server=$!
for _ in $(seq 900); do
  kill -0 "$server" 2>/dev/null || { tail -20 "$logs/$tag.server.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$url?wsdl" || true)" != 000 ] && break
  sleep 0.1
done

both() { # seconds prefix
  wrk -t"$threads" -c"$small_conns" -d"${1}s" --timeout 10s -s "$load/$small.lua" "$url" > "$2.small.txt" 2>&1 &
  local a=$!
  wrk -t"$threads" -c"$large_conns" -d"${1}s" --timeout 10s -s "$load/$large.lua" "$url" > "$2.large.txt" 2>&1 &
  local b=$!
  wait "$a" || true; wait "$b" || true
}
[ "$warmup" != 0 ] && both "$warmup" "$logs/$tag.warmup" && sleep 1

ready="$logs/$tag.ready.txt"; : > "$ready"
( while true; do curl -s -o /dev/null -m 2 -w '%{http_code}\n' "http://127.0.0.1:$mport/health/ready" >> "$ready" || echo 000 >> "$ready"; sleep 0.5; done ) &
poller=$!
both "$secs" "$logs/$tag"
kill "$poller" 2>/dev/null || true; poller=""

field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" "$2" | head -1; }
errors() { local n=0 e; for e in err_connect err_read err_write err_status err_timeout; do n=$((n + $(field $e "$1"))); done; echo $n; }
s="$logs/$tag.small.txt"; l="$logs/$tag.large.txt"
[ -n "$(field requests "$s")" ] && [ -n "$(field requests "$l")" ] || { echo "no RESULT line from wrk; see $s $l" >&2; exit 1; }
awk -v srps="$(field rps "$s")" -v sp99="$(field lat_p99_us "$s")" -v lrps="$(field rps "$l")" \
    -v lp99="$(field lat_p99_us "$l")" -v errs=$(( $(errors "$s") + $(errors "$l") )) \
    -v bad="$(grep -vc '^200$' "$ready" || true)" -v asked="$(wc -l < "$ready")" -v st="${storage%%\?*}" 'BEGIN {
  printf "mixed small_rps=%.1f small_p99_ms=%.1f large_rps=%.1f large_p99_ms=%.1f errors=%d ready_not_200=%d/%d storage=%s\n",
    srps, sp99 / 1000, lrps, lp99 / 1000, errs, bad, asked, st }'
