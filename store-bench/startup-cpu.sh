#!/usr/bin/env bash
# CPU time (user + system, all the JVM's threads, in ms) a server spends from launch until it prints its endpoint URL,
# for each jar given, the jars taking turns, RUNS times; then each jar's median, minimum and mean. CPU time rather than
# wall-clock time, so that a same-run A/B says something on a machine others are using too (it is still noisier there).
#
# usage: store-bench/startup-cpu.sh RUNS JAR...      (SQLite storage in a temporary directory, --port 0)
set -euo pipefail
runs=$1; shift
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cpu_ms() { # jar, database
  java -jar "$1" --port 0 --storage "sqlite:$2" > "$work/out" 2>/dev/null &
  local pid=$!
  until [ -s "$work/out" ]; do kill -0 "$pid" 2>/dev/null || { echo "startup-cpu: $1 exited" >&2; exit 1; }; sleep 0.01; done
  local -a stat
  read -r -a stat < "/proc/$pid/stat"
  echo $(( (stat[13] + stat[14]) * 1000 / $(getconf CLK_TCK) ))
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; rm -f "$work/out"
}
for _ in $(seq 1 "$runs"); do
  for jar in "$@"; do echo "$jar $(cpu_ms "$jar" "$work/$(basename "$jar").db")"; done
done > "$work/runs"
for jar in "$@"; do
  grep -F "$jar " "$work/runs" | awk '{print $2}' | sort -n | awk -v jar="$jar" \
      '{a[NR]=$1; s+=$1} END {printf "%s: median %d ms, min %d, mean %d, %d runs\n", jar, a[int((NR+1)/2)], a[1], s/NR, NR}'
done
