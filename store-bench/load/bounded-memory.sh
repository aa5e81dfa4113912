#!/usr/bin/env bash
# The bounded-memory check: a -Xmx96m server takes CLIENTS concurrent SOAP 1.1 writes of SIZE (4 MiB) each for SECONDS,
# on SQLite or on PostgreSQL; on PostgreSQL the server reaches the database through a socat proxy that is stopped
# for OUTAGE seconds from 10 s in (connections cut, new ones refused), so the writes wait out an outage. Then every
# acknowledged key is read back and compared, and the server's log is searched for OutOfMemoryError.
#
# usage: bounded-memory.sh JAR BENCH_JAR sqlite|postgres text|bytes [SECONDS] [CLIENTS] [SIZE]
#   JAR        a store-server.jar;  BENCH_JAR  store-bench/target/benchmarks.jar (its classpath.txt beside it)
#   text       WriteString of SIZE chars;  bytes  WriteBytes of SIZE bytes
# env: PG (default jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=postgres) OUTAGE (15) PORT (18200)
# Prints the answers by kind, the readiness answers seen each second, the read-back, and the OutOfMemoryError count;
# exits 1 if any answer was not Success, any acknowledged value differs, or the server ran out of memory.
set -uo pipefail
[ $# -ge 4 ] || { sed -n '2,13p' "$0"; exit 2; }
jar=$1; bench=$2; backend=$3; kind=$4; secs=${5:-40}; clients=${6:-64}; size=${7:-4194304}
pg=${PG:-jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=postgres}
outage=${OUTAGE:-15}; port=${PORT:-18200}; mport=$((port + 10)); proxy_port=$((port + 3300))
out=$(mktemp -d /tmp/bounded-memory.XXXXXX)
mode=(); [ "$kind" = text ] && mode=(text)
case "$backend" in
  sqlite) storage="sqlite:$out/store.db";;
  postgres)
    table="bounded_memory_$kind"
    storage="${pg/127.0.0.1:5432/127.0.0.1:$proxy_port}&table=$table"
    psql -q "postgresql://postgres:postgres@127.0.0.1:5432/test" -c "DROP TABLE IF EXISTS $table" ;;
  *) echo "sqlite or postgres, not $backend" >&2; exit 2;;
esac
proxy() { socat "TCP-LISTEN:$proxy_port,reuseaddr,fork" TCP:127.0.0.1:5432 & echo $! > "$out/socat.pid"; }
stop_proxy() { kill "$(cat "$out/socat.pid")" 2>/dev/null; pkill -f "socat TCP-LISTEN:$proxy_port" 2>/dev/null; }
[ "$backend" = postgres ] && proxy

java -Xmx96m -jar "$jar" serve --port "$port" --management-port "$mport" --storage "$storage" \
  --max-request-bytes 8388608 --max-value-bytes 8388608 > "$out/server.log" 2>&1 &
server=$!
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$mport/health/ready" >/dev/null && break; sleep 0.5; done
if [ "$backend" = postgres ]; then
  ( sleep 10; stop_proxy; echo "outage from $(date +%T.%N | cut -c1-12)"; sleep "$outage"; proxy
    echo "outage until $(date +%T.%N | cut -c1-12)" ) &
fi
( for _ in $(seq $((secs + 5))); do
    echo "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "http://127.0.0.1:$mport/health/ready")"; sleep 1
  done ) > "$out/ready.log" &
ready_loop=$!
java -cp "$bench" org.storeservice.bench.ConcurrentUploadCheck send "http://127.0.0.1:$port/API/Store.asmx" \
  "$clients" "$size" "$secs" "$out/acked.txt" "${mode[@]}"
sent=$?
kill "$ready_loop" 2>/dev/null
kill "$server"; wait "$server"
[ "$backend" = postgres ] && { stop_proxy; storage="$pg&table=$table"; }
echo "readiness answers: $(sort "$out/ready.log" | uniq -c | tr -s ' ' | tr '\n' ';')"
java -cp "$bench:$(cat "$(dirname "$bench")/classpath.txt")" org.storeservice.bench.ConcurrentUploadCheck verify \
  "$storage" "$size" "$out/acked.txt" "${mode[@]}" | tail -n 1
verified=${PIPESTATUS[0]}
oom=$(grep -c OutOfMemoryError "$out/server.log")
echo "OutOfMemoryError lines: $oom (server log: $out/server.log)"
[ "$sent" = 0 ] && [ "$verified" = 0 ] && [ "$oom" = 0 ]
