#!/usr/bin/env bash
# The CPU each thread of the durable write path spends per write under ws11, beside the database's own CPU per write
# at the batch size that load produced, measured in the same run without the server. A thread's CPU per write is what
# caps the rate on a machine with cores to spare: 1 s / (CPU per write). See ../shared/notes/many-core.md for why a
# 2-core machine shows it too.
#   SQLite (default): the writer and answering threads beside SqliteBatchCeiling (one thread, same schema, upsert,
#     synchronous=FULL, 40-character text, 1,000 keys) at the load's writes per commit.
#   PostgreSQL (STORAGE=jdbc:postgresql://...&table=NAME, the table dropped first): the lanes beside pg-ceiling.sh
#     (the lanes' statement with its commit row, 2 clients as the 2 lanes) at the load's rows per commit; both with
#     PostgreSQL's own CPU per write (every postgres process).
#
# usage: write-path-cpu.sh JAR [CONNS] [SECONDS]      from the repository root, after
#        mvn -B -ntp -q package -DskipTests -pl store-examples,store-bench -am
#   JAR      a store-server.jar
#   CONNS    wrk connections (default 64), 2 wrk threads (env THREADS)
#   SECONDS  measured (default 10), after a warm-up on the same server (env WARMUP, default 15 s)
# env: STORAGE, PORT (18150), JAVA (java), XMX (1g), CEILING_SECONDS (5 SQLite, 10 PostgreSQL), PEERS_LOAD
#
# Each thread's CPU comes from `jcmd PID Thread.print` (its cpu= field, by the thread's full name) before and after
# the measured run. Writes per commit: SQLite, perf's count of the server's fsync and fdatasync calls over the same
# run (one per commit with WAL and synchronous=FULL, and a few for checkpoints, so it errs low); PostgreSQL, the
# commit rows the batches wrote during the run (store_commits' created_at between the run's start and end, by the
# database's clock: one per batch). The PostgreSQL database and host are the PG* defaults below, not the URL's.
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,22p' "$0"; exit 2; }
jar=$1; conns=${2:-64}; secs=${3:-10}
port=${PORT:-18150}; warmup=${WARMUP:-15}; threads=${THREADS:-2}; JAVA=${JAVA:-java}; xmx=${XMX:-1g}
load=${PEERS_LOAD:-../shared/bench/peers/load}
url="http://127.0.0.1:$port/API/Store.asmx"
data=/tmp/bench-data/write-path-cpu
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
[ -r "$load/ws11.lua" ] || { echo "no $load/ws11.lua (set PEERS_LOAD)" >&2; exit 2; }
work=$(mktemp -d)

storage=${STORAGE:-sqlite:$data/store.db}
rm -rf "$data"; mkdir -p "$data"
case "$storage" in
  jdbc:postgresql:*)
    engine=postgres
    table=$(echo "$storage" | sed -n 's/.*[?&]table=\([A-Za-z0-9_]*\).*/\1/p')
    [ -n "$table" ] || { echo "a PostgreSQL STORAGE needs &table=NAME (dropped first)" >&2; exit 2; }
    export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres} PGPASSWORD=${PGPASSWORD:-postgres} PGDATABASE=${PGDATABASE:-test}
    export PGOPTIONS=${PGOPTIONS:--c client_min_messages=warning}
    psql -q -c "DROP TABLE IF EXISTS $table" ;;
  sqlite:*) engine=sqlite ;;
  *) echo "STORAGE: sqlite:... or jdbc:postgresql:..." >&2; exit 2 ;;
esac
"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$port" --storage "$storage" > "$work/server.log" 2>&1 &
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
hz=$(getconf CLK_TCK)
# utime+stime of every postgres process, plus cutime+cstime: the postmaster's reaped children (closed connections'
# backends); in clock ticks
db_ticks() {
  local total=0 p t
  for p in $(pgrep -x postgres); do t=$(cat "/proc/$p/stat" 2>/dev/null) || continue; t=${t##*) }; set -- $t; total=$((total + ${12} + ${13} + ${14} + ${15})); done
  echo "$total"
}
db_now() { psql -Atc "SELECT now()"; }
if [ "$engine" = sqlite ]; then
  [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
  perf stat -x, -o "$work/perf.txt" -e syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync -p $server &
  perf=$!
  sleep 0.3
else
  from=$(db_now); db0=$(db_ticks)
fi
thread_cpu > "$work/cpu0"
run_wrk "$secs" > "$work/wrk.txt"
thread_cpu > "$work/cpu1"
if [ "$engine" = sqlite ]; then
  kill -INT $perf 2>/dev/null || true; wait $perf || true
  [ -s "$work/perf.txt" ] || { echo "perf counted nothing (perf stat -e syscalls:... must work here)" >&2; exit 1; }
  commits=$(awk -F, '/syscalls:sys_enter_f(data)?sync/ { n += $1 } END { print n + 0 }' "$work/perf.txt")
  unit=fsyncs
else
  db1=$(db_ticks); to=$(db_now)
  commits=$(psql -Atc "SELECT count(*) FROM store_commits WHERE created_at >= '$from' AND created_at < '$to'")
  unit="commit rows"
fi

writes=$(sed -n 's/.*RESULT.* requests=\([0-9]*\).*/\1/p' "$work/wrk.txt")
errors=$(sed -n 's/.*RESULT.*err_status=\([0-9]*\).*/\1/p' "$work/wrk.txt")
[ -n "$writes" ] && [ "$commits" -gt 0 ] || { echo "no writes or no commits counted" >&2; cat "$work/wrk.txt" >&2; exit 1; }
batch=$(awk -v w="$writes" -v f="$commits" 'BEGIN { b = int(w / f + 0.5); print b < 1 ? 1 : b }')
kill -TERM $server; wait $server 2>/dev/null || true

printf 'ws11, %d connections, %d s measured after %d s: %s writes (%s/s, %s errors), %s %s: %s writes per commit\n' \
  "$conns" "$secs" "$warmup" "$writes" "$(awk -v w="$writes" -v s="$secs" 'BEGIN { printf "%.0f", w / s }')" \
  "${errors:-0}" "$commits" "$unit" "$(awk -v w="$writes" -v f="$commits" 'BEGIN { printf "%.1f", w / f }')"
if [ "$engine" = sqlite ]; then
  bench_cp="store-bench/target/store-bench-0.1.0-SNAPSHOT.jar:$(cat store-bench/target/classpath.txt)"
  "$JAVA" -cp "$bench_cp" org.storeservice.bench.SqliteBatchCeiling --value text40 --keys 1000 --synchronous FULL \
    --batches "$batch" --seconds "${CEILING_SECONDS:-5}" --dir "$data/ceiling" > "$work/ceiling.txt"
  ceiling=$(sed -n 's/^| storage | FULL | \([0-9,]*\), \([0-9.]*\) µs |$/\1 \2/p' "$work/ceiling.txt")
  [ -n "$ceiling" ] || { cat "$work/ceiling.txt" >&2; exit 1; }
  set -- $ceiling; ceiling_us=$2
  printf 'SQLite alone at B = %s (SqliteBatchCeiling, same run): %s writes/s, %s µs CPU per write\n\n' "$batch" "$1" "$2"
else
  server_db_us=$(awk -v d=$((db1 - db0)) -v hz="$hz" -v w="$writes" 'BEGIN { printf "%.1f", d / hz * 1e6 / w }')
  NOLARGE=1 "$(dirname "$0")/pg-ceiling.sh" "$batch" "${CEILING_SECONDS:-10}" 2 > "$work/ceiling.txt"
  ceiling=$(sed -n 's/^batch of .* clients: \([0-9]*\) commits\/s, \([0-9]*\) rows\/s, PostgreSQL CPU \([0-9.]*\) µs per row$/\2 \3/p' "$work/ceiling.txt")
  [ -n "$ceiling" ] || { cat "$work/ceiling.txt" >&2; exit 1; }
  set -- $ceiling; ceiling_us=$2
  printf 'PostgreSQL alone at %s rows a commit, 2 clients (pg-ceiling.sh, same run): %s rows/s, %s µs PostgreSQL CPU per row\n' "$batch" "$1" "$2"
  printf 'PostgreSQL under the server: %s µs CPU per write; the server reached %s of its rate alone\n\n' "$server_db_us" \
    "$(awk -v w="$writes" -v s="$secs" -v c="$1" 'BEGIN { printf "%.2fx", w / s / c }')"
fi
echo "| thread | CPU µs per write | x the database alone |"
echo "|---|---:|---:|"
awk -F'\t' -v w="$writes" -v c="$ceiling_us" 'NR == FNR { before[$1] = $2; next }
  { d = $2 - before[$1]; if ($1 ~ /^store-(writer|answers|pg-writer)-/) printf "| %s | %.1f | %.2f |\n", $1, d * 1000 / w, d * 1000 / w / c
    else other += d }
  END { printf "| every other thread (HTTP, codec, GC, JIT), together | %.1f | |\n", other * 1000 / w }' \
  "$work/cpu0" "$work/cpu1"
