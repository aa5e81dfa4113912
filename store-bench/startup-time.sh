#!/usr/bin/env bash
# Time from launching a server to its first 200 answer, repeated; prints each run and then the median, in ms.
# The probe is a WriteString over HTTP GET (a real request through the codec and the store, not a static page),
# polled with curl every ~5 ms from the moment the process is launched.
#
# usage: store-bench/startup-time.sh [--runs N] [--port P] -- COMMAND...   (COMMAND must listen on 127.0.0.1:P)
set -euo pipefail
runs=10; port=18121
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2;;
    --port) port="$2"; shift 2;;
    --) shift; break;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
done
url="http://127.0.0.1:$port/API/Store.asmx/WriteString?key=startup&value=v"
times=()
for i in $(seq "$runs"); do
  t0=$(date +%s%N)
  "$@" > /dev/null 2>&1 &
  pid=$!
  code=000
  while [ "$code" != 200 ]; do
    code=$(curl -s -o /dev/null -m 1 -w '%{http_code}' "$url" || true)
    [ "$code" = 200 ] && break
    kill -0 "$pid" 2>/dev/null || { echo "server exited" >&2; exit 1; }
    sleep 0.005
  done
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  times+=("$ms")
  echo "run $i: $ms ms"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  sleep 0.5
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
if [ $((n % 2)) = 1 ]; then median=${sorted[$((n / 2))]}; else median=$(( (sorted[n / 2 - 1] + sorted[n / 2]) / 2 )); fi
echo "median ${median} ms (min ${sorted[0]}, max ${sorted[$((n - 1))]}, $n runs)"
