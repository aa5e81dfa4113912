#!/usr/bin/env bash
# Peak RSS under one wrk scenario, one fresh server process per run, targets alternating A B C, A B C, ...: a
# process's peak RSS varies a lot from run to run (G1 decides in the first seconds how far to grow the heap), so
# one process per target, as compare.sh runs them, says little; the spread of several does.
#
# usage: store-bench/peak-rss.sh [--runs N] [--scenario wb4m] [--conns 16] [--warmup S] [--duration S]
#            [--out FILE] NAME=COMMAND ...
#   NAME=COMMAND  a server command without --port (the script adds --port 18230); "{dir}" in it becomes a fresh
#                 empty directory for the run (for sqlite:{dir}/store.db)
# env:   PEERS_DIR  the peer harness with load/*.lua (default ../shared/bench/peers from the repository root)
# Prints one line per run (req/s, server CPU ms per request, peak RSS, young collections and how many a humongous
# allocation started) and, per target, the median and range of peak RSS. Needs wrk, curl and /proc.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PEERS_DIR=${PEERS_DIR:-$root/../shared/bench/peers}
runs=5; scenario=wb4m; conns=16; warmup=5; duration=15; out=/dev/null; port=18230
names=(); commands=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2;;
    --scenario) scenario="$2"; shift 2;;
    --conns) conns="$2"; shift 2;;
    --warmup) warmup="$2"; shift 2;;
    --duration) duration="$2"; shift 2;;
    --out) out="$2"; shift 2;;
    *=*) names+=("${1%%=*}"); commands+=("${1#*=}"); shift;;
    *) echo "unknown argument: $1" >&2; exit 2;;
  esac
done
[ ${#names[@]} -gt 0 ] || { echo "no target given" >&2; exit 2; }
script="$PEERS_DIR/load/$scenario.lua"
url="http://127.0.0.1:$port/API/Store.asmx"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clock_ticks=$(getconf CLK_TCK)

measure() { # name command run
  local name=$1 command=$2 run=$3 dir="$work/$1-$3"
  mkdir -p "$dir"
  command=${command//\{dir\}/$dir}
  JDK_JAVA_OPTIONS="-Xlog:gc:file=$dir/gc.log" bash -c "exec $command --port $port" > "$dir/server.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 150); do curl -s -o /dev/null "$url?wsdl" && break; sleep 0.2; done
  wrk -t2 -c"$conns" -d"${warmup}s" --timeout 10s -s "$script" "$url" > /dev/null
  local before after result
  before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  result=$(wrk -t2 -c"$conns" -d"${duration}s" --timeout 10s -s "$script" "$url")
  after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  local requests rate peak gcs humongous errors
  requests=$(echo "$result" | awk '/requests in/ {print $1}')
  rate=$(echo "$result" | awk '/Requests\/sec/ {print $2}')
  errors=$(echo "$result" | grep -cE 'Non-2xx|Socket errors' || true)
  peak=$(awk '/VmHWM/ {printf "%d", $2 / 1024}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  gcs=$(grep -c 'Pause Young' "$dir/gc.log" || true)
  humongous=$(grep -c 'Pause Young.*Humongous' "$dir/gc.log" || true)
  local cpu
  cpu=$(awk -v t="$((after - before))" -v n="$requests" -v hz="$clock_ticks" 'BEGIN {printf "%.3f", t * 1000 / hz / n}')
  echo "$name run $run: $rate req/s, $cpu ms CPU/req, peak RSS $peak MiB, $gcs young GCs ($humongous humongous), error lines $errors" | tee -a "$out"
  echo "$peak" >> "$work/$name.peaks"
  rm -rf "$dir"
}

for run in $(seq 1 "$runs"); do
  for i in "${!names[@]}"; do
    measure "${names[$i]}" "${commands[$i]}" "$run"
  done
done
for name in "${names[@]}"; do
  sort -n "$work/$name.peaks" | awk -v name="$name" '{v[NR] = $1} END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%s: peak RSS median %d MiB, range %d-%d MiB over %d runs\n", name, m, v[1], v[NR], NR}' | tee -a "$out"
done
