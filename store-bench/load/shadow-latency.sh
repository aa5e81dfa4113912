#!/usr/bin/env bash
# The latency the shadow proxy adds: wrk against a Store server directly, then through `store-server shadow` in front
# of it (a second Store server as its shadow, getting every copy), the two targets alternating round by round in one run.
#
# usage: shadow-latency.sh JAR [STORAGE] [SCENARIOS] [CONNS] [SECONDS] [ROUNDS]
#   JAR        a store-server.jar
#   STORAGE    sqlite (default: each server its own fresh SQLite file under /tmp/bench-data/shadow-*) or memory
#   SCENARIOS  wrk scripts of store-bench/load, without .lua (default "hg hp": HTTP GET and POST WriteString)
#   CONNS      wrk connections, one measurement each (default "1 16"); one wrk thread per connection up to 2
#   SECONDS    each measured run (default 10), after a 3 s warm-up of the same target
#   ROUNDS     direct/proxied pairs per scenario and connection count (default 3)
# env: JAVA (java), XMX (512m), PORT_BASE (18600: proxy, +1 primary, +2 shadow, +3 the proxy's management port)
#
# Prints one line per measured run: scenario, connections, round, target, p50/p90/p99 in microseconds, requests/s;
# then, per scenario and connection count, the medians over the rounds and what the proxy added (proxied - direct);
# then the proxy's own counts (every copy matched, none dropped). Run it alone: flock /tmp/store-heavy.lock ...
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
jar=$1; storage=${2:-sqlite}; scenarios=${3:-hg hp}; conns_list=${4:-1 16}; secs=${5:-10}; rounds=${6:-3}
JAVA=${JAVA:-java}; xmx=${XMX:-512m}; base=${PORT_BASE:-18600}
here=$(cd "$(dirname "$0")" && pwd)
proxy_port=$base; primary_port=$((base + 1)); shadow_port=$((base + 2)); management_port=$((base + 3))
logs=$(mktemp -d /tmp/shadow-latency.XXXXXX)
[ -r "$jar" ] || { echo "no jar $jar" >&2; exit 2; }

storage_uri() { # NAME
  case "$storage" in
    sqlite) rm -rf "/tmp/bench-data/shadow-$1"; mkdir -p "/tmp/bench-data/shadow-$1"; echo "sqlite:/tmp/bench-data/shadow-$1/store.db";;
    memory) echo "memory:";;
    *) echo "STORAGE is sqlite or memory: $storage" >&2; exit 2;;
  esac
}

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

await() { # URL
  for _ in $(seq 600); do
    [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" || true)" = 200 ] && return 0
    sleep 0.1
  done
  echo "nothing answered $1 in 60 s; logs in $logs" >&2; exit 1
}

"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$primary_port" --storage "$(storage_uri primary)" > "$logs/primary.log" 2>&1 &
pids+=($!)
"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$shadow_port" --storage "$(storage_uri shadow)" > "$logs/shadow.log" 2>&1 &
pids+=($!)
await "http://127.0.0.1:$primary_port/API/Store.asmx?WSDL"
await "http://127.0.0.1:$shadow_port/API/Store.asmx?WSDL"
"$JAVA" -Xmx"$xmx" -jar "$jar" shadow --port "$proxy_port" --management-port "$management_port" \
  --primary "http://127.0.0.1:$primary_port/API/Store.asmx" --shadow "http://127.0.0.1:$shadow_port/API/Store.asmx" \
  --differences "$logs/differences.jsonl" --dropped-keys "$logs/dropped-keys.jsonl" > "$logs/proxy.log" 2>&1 &
pids+=($!)
await "http://127.0.0.1:$proxy_port/API/Store.asmx?WSDL"

field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" "$2" | head -1; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run() { # SCENARIO CONNS SECONDS PORT OUT
  local threads=$(( $2 < 2 ? $2 : 2 ))
  wrk -t"$threads" -c"$2" -d"${3}s" --timeout 10s -s "$here/$1.lua" "http://127.0.0.1:$4/API/Store.asmx" > "$5" 2>&1
}

results="$logs/results.txt"
for sc in $scenarios; do
  for conns in $conns_list; do
    for target in direct proxied; do
      port=$primary_port; [ "$target" = proxied ] && port=$proxy_port
      run "$sc" "$conns" 3 "$port" "$logs/warmup.txt"
    done
    for round in $(seq "$rounds"); do
      for target in direct proxied; do
        port=$primary_port; [ "$target" = proxied ] && port=$proxy_port
        out="$logs/$sc-c$conns-r$round-$target.txt"
        run "$sc" "$conns" "$secs" "$port" "$out"
        errors=0; for e in err_connect err_read err_write err_status err_timeout; do errors=$((errors + $(field $e "$out"))); done
        line="$sc $conns $round $target p50_us=$(field lat_p50_us "$out") p90_us=$(field lat_p90_us "$out") p99_us=$(field lat_p99_us "$out") rps=$(field rps "$out") errors=$errors"
        echo "$line"; echo "$line" >> "$results"
      done
    done
    for target in direct proxied; do
      for q in p50_us p99_us rps; do
        eval "${target}_$q=$(grep "^$sc $conns [0-9]* $target " "$results" | sed -n "s/.* $q=\([^ ]*\).*/\1/p" | median)"
      done
    done
    echo "median $sc c=$conns: direct p50 ${direct_p50_us} us p99 ${direct_p99_us} us ${direct_rps} req/s;" \
      "proxied p50 ${proxied_p50_us} us p99 ${proxied_p99_us} us ${proxied_rps} req/s;" \
      "added p50 $(awk -v a="$proxied_p50_us" -v b="$direct_p50_us" 'BEGIN { print a - b }') us" \
      "p99 $(awk -v a="$proxied_p99_us" -v b="$direct_p99_us" 'BEGIN { print a - b }') us"
  done
done

# What the proxy made of the copies: every one compared and matched, none dropped, no difference written.
sleep 2
curl -s "http://127.0.0.1:$management_port/metrics" | grep '^store_shadow_' | sed 's/^/proxy: /'
echo "differences written: $( [ -f "$logs/differences.jsonl" ] && wc -l < "$logs/differences.jsonl" || echo 0 )," \
  "keys listed: $( [ -f "$logs/dropped-keys.jsonl" ] && wc -l < "$logs/dropped-keys.jsonl" || echo 0 ); logs in $logs"
