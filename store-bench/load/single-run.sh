#!/usr/bin/env bash
# One measured wrk run against a freshly started store server.
#
# usage: single-run.sh JAR STORAGE_URI SCENARIO CONNS SECONDS [PORT]
#   JAR          a store-server.jar (e.g. /tmp/bench/base.jar)
#   STORAGE_URI  memory: | sqlite:/tmp/bench-data/NAME/store.db | files:/tmp/bench-data/NAME | ...
#                sqlite:/files: paths under /tmp/bench-data/ are wiped and recreated before the run
#                (the sqlite file's directory, or the files: directory)
#   SCENARIO     a wrk script in /tmp/peers/load without .lua: ws11 ws12 wb64k wb4m hg hp
#   CONNS        wrk connections (-c); threads are 2 (env THREADS), like compare.sh
#   SECONDS      measured duration; a 5 s warm-up (env WARMUP) runs first on the same server
#   PORT         default 18100
# env: THREADS (2), WARMUP (5), NOPERF=1 (do not count fsyncs), JAVA (java), XMX (1g),
#      DB_PROCESS=postgres (also report the CPU of every process of that name, the database's backends, per request)
#
# Prints one line to stdout:
#   SCENARIO rps=R cpu_ms_per_req=C p99_ms=P req_per_fsync=F vmhwm_mib=M  (+ requests, errors, fsyncs,
#   db_cpu_ms_per_req with DB_PROCESS, storage)
# req_per_fsync: requests / (fsync + fdatasync syscalls of the server during the measured run, perf stat
# tracepoints); "-" if perf could not count, "inf" if there were none (memory:).
# Raw output (server log, wrk output, perf output) goes to ${LOGS:-/tmp/bench/logs}/.
set -euo pipefail

[ $# -ge 5 ] || { sed -n '2,19p' "$0"; exit 2; }
jar=$1; storage=$2; sc=$3; conns=$4; secs=$5; port=${6:-18100}
threads=${THREADS:-2}; warmup=${WARMUP:-5}; JAVA=${JAVA:-java}; xmx=${XMX:-1g}
load=/tmp/peers/load
url="http://127.0.0.1:$port/API/Store.asmx"
hz=$(getconf CLK_TCK)
[ -r "$jar" ] || { echo "no jar $jar" >&2; exit 2; }
[ -r "$load/$sc.lua" ] || { echo "no scenario $load/$sc.lua" >&2; exit 2; }

logs=${LOGS:-/tmp/bench/logs}; mkdir -p "$logs"
tag="$(date +%Y%m%d-%H%M%S)-$(basename "$jar" .jar)-$(echo "$storage" | tr -c 'A-Za-z0-9' '_' | cut -c1-40)-$sc-c$conns"
srvlog="$logs/$tag.server.log"

# Fresh data directory for file-based storage under /tmp/bench-data/ only.
fresh_dir() {
  local d; d=$(realpath -m "$1")
  case "$d/" in /tmp/bench-data/?*) ;; *) echo "refusing to wipe $d (only under /tmp/bench-data/)" >&2; exit 2;; esac
  rm -rf -- "$d"; mkdir -p -- "$d"
}
case "$storage" in
  sqlite:/tmp/bench-data/*) fresh_dir "$(dirname "${storage#sqlite:}")";;
  files:/tmp/bench-data/*) fresh_dir "${storage#files:}";;
  sqlite:*|files:*) echo "warning: $storage is not under /tmp/bench-data/, not wiped" >&2;;
esac

# Nothing may already listen on the port (it would be measured instead of our server).
if [ "$(curl -s -o /dev/null -m 1 -w '%{http_code}' "$url?wsdl" || true)" != 000 ]; then
  echo "something already answers on port $port" >&2; exit 1
fi

server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$server" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$server" 2>/dev/null && { echo "server $server did not stop in 30 s, SIGKILL" >&2; kill -KILL "$server" 2>/dev/null || true; }
    wait "$server" 2>/dev/null || true
  fi
}
trap cleanup EXIT

"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$port" --storage "$storage" \
  --max-request-bytes 8388608 --max-value-bytes 8388608 > "$srvlog" 2>&1 &
server=$!

ready=0
for _ in $(seq 900); do   # up to 90 s
  kill -0 "$server" 2>/dev/null || { echo "server exited early; see $srvlog" >&2; tail -20 "$srvlog" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$url?wsdl" || true)" != 000 ] && { ready=1; break; }
  sleep 0.1
done
[ "$ready" = 1 ] || { echo "server did not answer on $url in 90 s; see $srvlog" >&2; exit 1; }

cpu_ticks() { local s; s=$(cat "/proc/$1/stat"); s=${s##*) }; set -- $s; echo $(( ${12} + ${13} )); }
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" "$2" | head -1; }

run_wrk() { # seconds outfile
  wrk -t"$threads" -c"$conns" -d"${1}s" --timeout 10s -s "$load/$sc.lua" "$url" > "$2" 2>&1 || echo "wrk exit $?" >> "$2"
}

if [ "$warmup" != 0 ]; then run_wrk "$warmup" "$logs/$tag.warmup.txt"; sleep 1; fi

# fsync counting: perf stat on the syscall tracepoints, if perf and the tracepoints work here.
perf_ok=0; perfout="$logs/$tag.perf.txt"; perfpid=""
if [ "${NOPERF:-0}" != 1 ] && command -v perf >/dev/null; then
  [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
  if perf stat -x, -e syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync -- true >/dev/null 2>&1; then perf_ok=1
  else echo "perf syscall tracepoints not usable; fsyncs not counted" >&2; fi
fi

task_ticks() { for t in /proc/$1/task/*; do s=$(cat $t/stat 2>/dev/null) || continue; c=$(cat $t/comm 2>/dev/null); s=${s##*) }; set -- $s; echo "$(basename $t) ${c// /_} ${12} ${13}"; done; }
[ "${THREADCPU:-0}" = 1 ] && task_ticks "$server" > "$logs/$tag.tasks0"
db_ticks() { # summed utime+stime of every process named $DB_PROCESS (0 without it)
  local total=0 p s; [ -n "${DB_PROCESS:-}" ] || { echo 0; return; }
  for p in $(pgrep -x "$DB_PROCESS"); do s=$(cat "/proc/$p/stat" 2>/dev/null) || continue; s=${s##*) }; set -- $s; total=$((total + ${12} + ${13})); done
  echo "$total"
}
c0=$(cpu_ticks "$server"); d0=$(db_ticks)
if [ "$perf_ok" = 1 ]; then
  perf stat -x, -o "$perfout" -e syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync -p "$server" &
  perfpid=$!
  sleep 0.3   # let perf attach to every thread before the load starts
fi
run_wrk "$secs" "$logs/$tag.wrk.txt"
if [ -n "$perfpid" ]; then kill -INT "$perfpid" 2>/dev/null || true; wait "$perfpid" 2>/dev/null || true; fi
c1=$(cpu_ticks "$server"); d1=$(db_ticks)
if [ "${THREADCPU:-0}" = 1 ]; then task_ticks "$server" > "$logs/$tag.tasks1"
  awk -v hz="$hz" -v req="$(field requests "$logs/$tag.wrk.txt")" 'NR==FNR { u[$1]=$3; s[$1]=$4; next }
    { g=$2; gsub(/[0-9]+/, "N", g); du=$3-u[$1]; ds=$4-s[$1]; U[g]+=du; S[g]+=ds }
    END { for (g in U) if (U[g]+S[g] > 0) printf "  %-28s user %.4f sys %.4f ms/req\n", g, U[g]/hz*1000/req, S[g]/hz*1000/req }' \
    "$logs/$tag.tasks0" "$logs/$tag.tasks1" | sort -k3 -nr >&2
fi
hwm_kb=$(awk '$1 == "VmHWM:" {print $2}' "/proc/$server/status")

w="$logs/$tag.wrk.txt"
req=$(field requests "$w"); rps=$(field rps "$w"); p99us=$(field lat_p99_us "$w")
if [ -z "$req" ]; then echo "no RESULT line from wrk; see $w" >&2; cat "$w" >&2; exit 1; fi
errs=0; for e in err_connect err_read err_write err_status err_timeout; do errs=$((errs + $(field $e "$w"))); done

fsyncs="-"; perreq="-"
if [ "$perf_ok" = 1 ] && [ -s "$perfout" ]; then
  fsyncs=$(awk -F, '/syscalls:sys_enter_f(data)?sync/ { if ($1 ~ /^[0-9]+$/) n += $1; else bad = 1 } END { print bad ? "-" : n + 0 }' "$perfout")
  if [ "$fsyncs" = "-" ]; then perreq="-"; elif [ "$fsyncs" = 0 ]; then perreq="inf"
  else perreq=$(awk -v r="$req" -v f="$fsyncs" 'BEGIN { printf "%.1f", r / f }'); fi
fi

awk -v sc="$sc" -v rps="$rps" -v req="$req" -v dt=$((c1 - c0)) -v hz="$hz" -v p99="$p99us" -v pf="$perreq" \
    -v hwm="$hwm_kb" -v errs="$errs" -v fs="$fsyncs" -v st="${storage%%\?*}" -v db="${DB_PROCESS:-}" -v ddt=$((d1 - d0)) 'BEGIN {
  dbcpu = db == "" ? "" : sprintf(" db_cpu_ms_per_req=%.4f", req > 0 ? ddt / hz * 1000 / req : 0)
  printf "%s rps=%.1f cpu_ms_per_req=%.4f p99_ms=%.2f req_per_fsync=%s vmhwm_mib=%.0f  requests=%d errors=%d fsyncs=%s%s storage=%s\n",
    sc, rps, (req > 0 ? dt / hz * 1000 / req : 0), p99 / 1000, pf, hwm / 1024, req, errs, fs, dbcpu, st }'
# cleanup (trap) stops the server with SIGTERM and waits for it
