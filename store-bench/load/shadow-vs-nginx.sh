#!/usr/bin/env bash
# The shadow proxy's own CPU per request against nginx's `mirror`, the anchor for sending each request to a primary and
# a copy to a shadow: two Store servers on loopback (primary, shadow), `store-server shadow` in front of them, and nginx
# with proxy_pass to the primary and mirror to the shadow (keep-alive upstreams, the client's Host passed on), driven
# by the same wrk scenario in turns, round by round, in one run. Each front's CPU is read from /proc/PID/stat (utime +
# stime of the proxy's JVM; of nginx's master and workers) before and after each wrk run, and divided by the requests
# wrk completed.
#
# usage: shadow-vs-nginx.sh JAR [SCENARIOS] [CONNS] [SECONDS] [ROUNDS]
#   JAR        a store-server.jar
#   SCENARIOS  wrk scripts of store-bench/load, without .lua (default "hg hp": HTTP GET and POST WriteString)
#   CONNS      wrk connections (default 16), two wrk threads
#   SECONDS    each measured run (default 10), after a warm-up of each front (WARMUP)
#   ROUNDS     nginx/proxy pairs per scenario (default 5)
# env WARMUP: seconds of warm-up of each front per scenario (default 15; the JIT compiles meanwhile)
# env: JAVA (java), XMX (512m), NGINX (nginx), NGINX_WORKERS (2), PORT_BASE (18700: proxy, +1 primary, +2 shadow,
#      +3 nginx, +4 the proxy's management port, +5 the baseline proxy), PROXY_JAVA_OPTS (extra JVM options for the
#      proxy, e.g. a profiler), BASELINE_JAR (a second store-server.jar whose proxy runs beside, as a third front
#      "baseline" in the same turns: the same-run A/B of a change)
#
# Prints one line per measured run (scenario, round, front, requests/s, CPU microseconds per request), then per
# scenario the medians and the proxy's CPU per request as a multiple of nginx's; then what the proxy made of the copies.
# The two services use the memory storage: their CPU is not measured, only the fronts'. Run it alone if you can:
# flock /tmp/store-heavy.lock ...
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,24p' "$0"; exit 2; }
jar=$1; scenarios=${2:-hg hp}; conns=${3:-16}; secs=${4:-10}; rounds=${5:-5}
JAVA=${JAVA:-java}; xmx=${XMX:-512m}; NGINX=${NGINX:-nginx}; workers=${NGINX_WORKERS:-2}; base=${PORT_BASE:-18700}
here=$(cd "$(dirname "$0")" && pwd)
proxy_port=$base; primary_port=$((base + 1)); shadow_port=$((base + 2)); nginx_port=$((base + 3))
management_port=$((base + 4))
logs=$(mktemp -d /tmp/shadow-vs-nginx.XXXXXX)
[ -r "$jar" ] || { echo "no jar $jar" >&2; exit 2; }
command -v "$NGINX" > /dev/null || { echo "no nginx (apt-get install nginx-light)" >&2; exit 2; }
command -v wrk > /dev/null || { echo "no wrk (apt-get install wrk)" >&2; exit 2; }
hz=$(getconf CLK_TCK)

pids=()
cleanup() {
  [ -f "$logs/nginx.pid" ] && kill -QUIT "$(cat "$logs/nginx.pid")" 2>/dev/null || true
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

"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$primary_port" --storage memory: > "$logs/primary.log" 2>&1 &
pids+=($!)
"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$shadow_port" --storage memory: > "$logs/shadow.log" 2>&1 &
pids+=($!)
await "http://127.0.0.1:$primary_port/API/Store.asmx?WSDL"
await "http://127.0.0.1:$shadow_port/API/Store.asmx?WSDL"
# shellcheck disable=SC2086 # PROXY_JAVA_OPTS is a list of options
"$JAVA" -Xmx"$xmx" ${PROXY_JAVA_OPTS:-} -jar "$jar" shadow --port "$proxy_port" --management-port "$management_port" \
  --primary "http://127.0.0.1:$primary_port/API/Store.asmx" --shadow "http://127.0.0.1:$shadow_port/API/Store.asmx" \
  --differences "$logs/differences.jsonl" --dropped-keys "$logs/dropped-keys.jsonl" > "$logs/proxy.log" 2>&1 &
proxy_pid=$!
pids+=($proxy_pid)
fronts="nginx proxy"
if [ -n "${BASELINE_JAR:-}" ]; then
  "$JAVA" -Xmx"$xmx" -jar "$BASELINE_JAR" shadow --port $((base + 5)) \
    --primary "http://127.0.0.1:$primary_port/API/Store.asmx" --shadow "http://127.0.0.1:$shadow_port/API/Store.asmx" \
    --differences "$logs/baseline-differences.jsonl" --dropped-keys "$logs/baseline-dropped-keys.jsonl" \
    > "$logs/baseline.log" 2>&1 &
  baseline_pid=$!
  pids+=($baseline_pid)
  fronts="nginx proxy baseline"
  await "http://127.0.0.1:$((base + 5))/API/Store.asmx?WSDL"
fi

cat > "$logs/nginx.conf" <<EOF
worker_processes $workers;
daemon off;
pid $logs/nginx.pid;
error_log $logs/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $logs/client_body;
  proxy_temp_path $logs/proxy_temp;
  client_max_body_size 16m;
  upstream primary { server 127.0.0.1:$primary_port; keepalive 64; }
  upstream shadow { server 127.0.0.1:$shadow_port; keepalive 64; }
  server {
    listen 127.0.0.1:$nginx_port;
    location / {
      mirror /mirror;
      mirror_request_body on;
      proxy_pass http://primary;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
    }
    location = /mirror {
      internal;
      proxy_pass http://shadow\$request_uri;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
    }
  }
}
EOF
"$NGINX" -p "$logs" -c "$logs/nginx.conf" > "$logs/nginx.log" 2>&1 &
pids+=($!)
await "http://127.0.0.1:$proxy_port/API/Store.asmx?WSDL"
await "http://127.0.0.1:$nginx_port/API/Store.asmx?WSDL"

ticks() { # PID...: utime + stime of these processes, in clock ticks
  local total=0 pid
  for pid in "$@"; do
    # fields 14 and 15, counted after the command name's closing parenthesis (a name may hold spaces)
    total=$((total + $(sed 's/^.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')))
  done
  echo "$total"
}
front_pids() { # FRONT
  if [ "$1" = proxy ]; then echo "$proxy_pid"; elif [ "$1" = baseline ]; then echo "$baseline_pid"; else
    local master; master=$(cat "$logs/nginx.pid"); echo "$master $(pgrep -P "$master" | tr '\n' ' ')"
  fi
}
front_port() { case "$1" in proxy) echo "$proxy_port";; baseline) echo $((base + 5));; *) echo "$nginx_port";; esac; }
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" "$2" | head -1; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run() { # SCENARIO SECONDS FRONT OUT
  wrk -t2 -c"$conns" -d"${2}s" --timeout 10s -s "$here/$1.lua" "http://127.0.0.1:$(front_port "$3")/API/Store.asmx" > "$4" 2>&1
}

results="$logs/results.txt"
for sc in $scenarios; do
  for front in $fronts; do run "$sc" "${WARMUP:-15}" "$front" "$logs/warmup.txt"; done
  for round in $(seq "$rounds"); do
    for front in $fronts; do
      out="$logs/$sc-r$round-$front.txt"
      # shellcheck disable=SC2046 # the pids are words
      before=$(ticks $(front_pids "$front"))
      run "$sc" "$secs" "$front" "$out"
      # shellcheck disable=SC2046
      after=$(ticks $(front_pids "$front"))
      requests=$(field requests "$out")
      errors=0; for e in err_connect err_read err_write err_status err_timeout; do errors=$((errors + $(field $e "$out"))); done
      cpu_us=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
      line="$sc $round $front rps=$(field rps "$out") cpu_us_per_request=$cpu_us requests=$requests errors=$errors"
      echo "$line"; echo "$line" >> "$results"
    done
  done
  for front in $fronts; do
    for q in rps cpu_us_per_request; do
      eval "${front}_$q=$(grep "^$sc [0-9]* $front " "$results" | sed -n "s/.* $q=\([^ ]*\).*/\1/p" | median)"
    done
  done
  echo "median $sc c=$conns: nginx ${nginx_rps} req/s ${nginx_cpu_us_per_request} us CPU/request;" \
    "proxy ${proxy_rps} req/s ${proxy_cpu_us_per_request} us CPU/request;" \
    "proxy/nginx CPU per request $(awk -v a="$proxy_cpu_us_per_request" -v b="$nginx_cpu_us_per_request" 'BEGIN { printf "%.2f", a / b }')x"
  if [ -n "${BASELINE_JAR:-}" ]; then
    echo "median $sc c=$conns: baseline ${baseline_rps} req/s ${baseline_cpu_us_per_request} us CPU/request;" \
      "baseline/nginx $(awk -v a="$baseline_cpu_us_per_request" -v b="$nginx_cpu_us_per_request" 'BEGIN { printf "%.2f", a / b }')x;" \
      "proxy/baseline $(awk -v a="$proxy_cpu_us_per_request" -v b="$baseline_cpu_us_per_request" 'BEGIN { printf "%.2f", a / b }')x"
  fi
done

sleep 2
curl -s "http://127.0.0.1:$management_port/metrics" | grep '^store_shadow_requests' | sed 's/^/proxy: /'
echo "differences written: $( [ -f "$logs/differences.jsonl" ] && wc -l < "$logs/differences.jsonl" || echo 0 )," \
  "keys listed: $( [ -f "$logs/dropped-keys.jsonl" ] && wc -l < "$logs/dropped-keys.jsonl" || echo 0 ); logs in $logs"
