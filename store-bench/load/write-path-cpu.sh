#!/usr/bin/env bash
# The CPU each thread of the durable write path spends per write under ws11, beside SQLite's own CPU per write at the
# batch size that load produced, measured in the same run by SqliteBatchCeiling (one thread, same schema, upsert,
# synchronous=FULL, 40-character text, 1,000 keys). A thread's CPU per write is what caps the rate on a machine with
# cores to spare: 1 s / (CPU per write). See ../shared/notes/many-core.md for why a 2-core machine shows it too.
#
# usage: write-path-cpu.sh JAR [CONNS] [SECONDS]      from the repository root, after
#        mvn -B -ntp -q package -DskipTests -pl store-examples,store-bench -am
#   JAR      a store-server.jar
#   CONNS    wrk connections (default 64), 2 wrk threads (env THREADS)
#   SECONDS  measured (default 10), after a warm-up on the same server (env WARMUP, default 15 s)
# env: PORT (18150), JAVA (java), XMX (1g), CEILING_SECONDS (5)
#
# Each thread's CPU comes from `jcmd PID Thread.print` (its cpu= field, by the thread's full name) before and after
# the measured run; writes per commit from perf's count of the server's fsync and fdatasync calls over the same run
# (one per commit with WAL and synchronous=FULL, and a few for checkpoints, so it errs low).
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
jar=$1; conns=${2:-64}; secs=${3:-10}
port=${PORT:-18150}; warmup=${WARMUP:-15}; threads=${THREADS:-2}; JAVA=${JAVA:-java}; xmx=${XMX:-1g}
load=${PEERS_LOAD:-../shared/bench/peers/load}
url="http://127.0.0.1:$port/API/Store.asmx"
data=/tmp/bench-data/write-path-cpu
bench_cp="store-bench/target/store-bench-0.1.0-SNAPSHOT.jar:$(cat store-bench/target/classpath.txt)"
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
[ -r "$load/ws11.lua" ] || { echo "no $load/ws11.lua (set PEERS_LOAD)" >&2; exit 2; }
work=$(mktemp -d)

rm -rf "$data"; mkdir -p "$data"
"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$port" --storage "sqlite:$data/store.db" > "$work/server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 300); do
  curl -s -o /dev/null -m 1 "$url?wsdl" && break
  kill -0 $server 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.2
done

run_wrk() { wrk -t"$threads" -c"$conns" -d"$1"s --timeout 10s -s "$load/ws11.lua" "$url"; }
# Thread name and cpu= (ms) of every thread of the server.
thread_cpu() {
  jcmd $server Thread.print | sed -n 's/^"\(.*\)" .* cpu=\([0-9.]*\)ms .*/\1\t\2/p'
}

run_wrk "$warmup" > "$work/warmup.txt"
sleep 1
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
perf stat -x, -o "$work/perf.txt" -e syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync -p $server &
perf=$!
sleep 0.3
thread_cpu > "$work/cpu0"
run_wrk "$secs" > "$work/wrk.txt"
thread_cpu > "$work/cpu1"
kill -INT $perf; wait $perf || true

writes=$(sed -n 's/.*RESULT.* requests=\([0-9]*\).*/\1/p' "$work/wrk.txt")
errors=$(sed -n 's/.*RESULT.*err_status=\([0-9]*\).*/\1/p' "$work/wrk.txt")
fsyncs=$(awk -F, '/syscalls:sys_enter_f(data)?sync/ { n += $1 } END { print n + 0 }' "$work/perf.txt")
[ -n "$writes" ] && [ "$fsyncs" -gt 0 ] || { echo "no writes or no fsyncs counted" >&2; cat "$work/wrk.txt" "$work/perf.txt" >&2; exit 1; }
batch=$(awk -v w="$writes" -v f="$fsyncs" 'BEGIN { b = int(w / f + 0.5); print b < 1 ? 1 : b }')
kill -TERM $server; wait $server 2>/dev/null || true

"$JAVA" -cp "$bench_cp" org.storeservice.bench.SqliteBatchCeiling --value text40 --keys 1000 --synchronous FULL \
  --batches "$batch" --seconds "${CEILING_SECONDS:-5}" --dir "$data/ceiling" > "$work/ceiling.txt"
ceiling=$(sed -n 's/^| storage | FULL | \([0-9,]*\), \([0-9.]*\) µs |$/\1 \2/p' "$work/ceiling.txt")
[ -n "$ceiling" ] || { cat "$work/ceiling.txt" >&2; exit 1; }
set -- $ceiling; ceiling_rate=$1; ceiling_us=$2

printf 'ws11, %d connections, %d s measured after %d s: %s writes (%s/s, %s errors), %s fsyncs: %s writes per commit\n' \
  "$conns" "$secs" "$warmup" "$writes" "$(awk -v w="$writes" -v s="$secs" 'BEGIN { printf "%.0f", w / s }')" \
  "${errors:-0}" "$fsyncs" "$(awk -v w="$writes" -v f="$fsyncs" 'BEGIN { printf "%.1f", w / f }')"
printf 'SQLite alone at B = %s (SqliteBatchCeiling, same run): %s writes/s, %s µs CPU per write\n\n' \
  "$batch" "$ceiling_rate" "$ceiling_us"
echo "| thread | CPU µs per write | x SQLite alone |"
echo "|---|---:|---:|"
awk -F'\t' -v w="$writes" -v c="$ceiling_us" 'NR == FNR { before[$1] = $2; next }
  { d = $2 - before[$1]; if ($1 ~ /^store-(writer|answers)-/) printf "| %s | %.1f | %.2f |\n", $1, d * 1000 / w, d * 1000 / w / c
    else other += d }
  END { printf "| every other thread (HTTP, codec, GC, JIT), together | %.1f | |\n", other * 1000 / w }' \
  "$work/cpu0" "$work/cpu1"
