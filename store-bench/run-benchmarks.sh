#!/usr/bin/env bash
# Runs every Store benchmark and writes the results under one folder (default
# store-bench/target/bench-results/YYYYmmdd-HHMMSS; summary.md there has every table):
#   1. build   the server jar, the bench jar and target/benchmarks.jar (JMH)
#   2. jmh     codec microbenchmarks, -prof gc (time and bytes allocated per request)
#   3. load    wrk over loopback: ours (the runnable server, -Xmx1g, memory:) first, then the floor, CXF and
#              Metro peers, scenarios ws11 ws12 wb64k wb4m, alternating A B C D per round (the peer harness's
#              compare.sh); then HTTP GET / POST WriteString (hg, hp: ours only, the peers do not serve them)
#   4. large   one 1 GiB WriteBytes (1.43 GB of base64) to BenchServer at -Xmx64m (discard: storage), then the
#              same request to the CXF peer at -Xmx64m
#   5. startup JVM start to first 200 answer, N times, median; plain and with an AppCDS archive
#   6. storage StorageWriteBenchmark (memory, SQLite FULL/NORMAL, PostgreSQL if reachable)
#
# usage: store-bench/run-benchmarks.sh [--only "build jmh load large startup storage"] [--rounds N] [--duration S]
#            [--warmup S] [--out DIR] [--no-wait]
# env:   PEERS_DIR  the peer harness (default ../shared/bench/peers from the repository root); it is copied to a
#                   temporary folder, this module's hg.lua/hp.lua are added to its load/, and peers whose jar is
#                   not in the copy are built there (mvn). Point it at an already built copy to skip the builds.
#        JAVA       java launcher (default java)
# Before each measured step it waits (up to QUIET_MAX_SECONDS, default 20 min, unless --no-wait) for a quiet
# machine: no other Maven or test JVM, CPUs >= 90% idle over 3 s, 1-minute load average under 2; it records the
# load average before and after each step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
JAVA=${JAVA:-java}
PEERS_DIR=${PEERS_DIR:-$root/../shared/bench/peers}
only="build jmh load large startup storage"
rounds=3; duration=10; warmup=10; out=""; wait_quiet=1; startup_runs=10
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="$2"; shift 2;;
    --rounds) rounds="$2"; shift 2;;
    --duration) duration="$2"; shift 2;;
    --warmup) warmup="$2"; shift 2;;
    --out) out="$2"; shift 2;;
    --no-wait) wait_quiet=0; shift;;
    --startup-runs) startup_runs="$2"; shift 2;;
    -h|--help) sed -n '2,24p' "$0"; exit 0;;
    *) echo "unknown argument $1 (try --help)" >&2; exit 2;;
  esac
done
want() { case " $only " in *" $1 "*) return 0;; esac; return 1; }
out=${out:-$root/store-bench/target/bench-results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
summary="$out/summary.md"
log() { echo "[$(date +%T)] $*"; }

declare -a mine=()          # PIDs this script started
cleanup() {
  for p in "${mine[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${work:-}" ] && rm -rf "$work"
}
trap cleanup EXIT

idle_pct() { # share of CPU time idle over the next 3 s, from /proc/stat
  local a b
  a=($(head -1 /proc/stat)); sleep 3; b=($(head -1 /proc/stat))
  local total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  echo $(( 100 * (b[4] - a[4] + b[5] - a[5]) / (total > 0 ? total : 1) ))
}
quiet() { # wait for a quiet machine before a measured step
  local step=$1 waited=0
  if [ "$wait_quiet" = 1 ]; then
    while :; do
      local others load idle
      others=$(pgrep -f 'plexus-classworlds|surefire|failsafe' | grep -v "^$$\$" || true)
      load=$(cut -d' ' -f1 /proc/loadavg)
      idle=$(idle_pct)
      # Quiet: nobody else's build or tests, and the CPUs idle now (>= 90% over 3 s). The 1-minute load
      # average lags (it stays up for a minute after our own previous step), so it only has to be under 2
      # when the instant idle share says the machine is quiet; it is recorded before and after each step.
      if [ -z "$others" ] && [ "$idle" -ge 90 ] && awk -v l="$load" 'BEGIN { exit !(l < 2) }'; then break; fi
      if [ "$waited" -ge "${QUIET_MAX_SECONDS:-1200}" ]; then log "machine still busy after ${waited}s (load $load, idle $idle%); measuring anyway"; break; fi
      log "waiting for a quiet machine (others: $(echo $others | wc -w), load $load, idle $idle%)"
      sleep 12; waited=$((waited + 15))
    done
  fi
  echo "- $step: load average before: $(cut -d' ' -f1-3 /proc/loadavg) (waited ${waited}s)" >> "$out/loadavg.md"
}
after() { echo "- $1: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/loadavg.md"; }

bench_jar=$(ls store-bench/target/store-bench-*.jar 2>/dev/null | grep -v sources | head -1 || true)
server_jar=store-examples/target/store-server.jar

{
  echo "# Store benchmark run $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "- host: $(uname -srm), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "- java: $("$JAVA" -version 2>&1 | tr '\n' ' ')"
  echo "- commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"
  echo
} > "$summary"

if want build; then
  log "build"
  mvn -B -ntp -q -pl store-examples,store-bench -am package -DskipTests
  bench_jar=$(ls store-bench/target/store-bench-*.jar | grep -v sources | head -1)
fi

if want jmh; then
  quiet jmh
  log "JMH (about 7 minutes)"
  "$JAVA" -jar store-bench/target/benchmarks.jar CodecBenchmark -prof gc -rf json -rff "$out/jmh.json" \
    | tee "$out/jmh.txt"
  after jmh
  { echo "## JMH: codec alone (decode + dispatch + encode, discarding store)"; echo; echo '```';
    grep -E '^Benchmark|avgt' "$out/jmh.txt" | grep -E 'Benchmark |alloc.rate.norm|^CodecBenchmark\.[a-zA-Z]+ '; echo '```'; echo; } >> "$summary"
fi

if want load || want large; then
  work=$(mktemp -d)
  cp -r "$PEERS_DIR" "$work/peers"
  rm -rf "$work/peers/load/out"
  cp store-bench/load/*.lua "$work/peers/load/"
  for p in floor cxf metro; do
    if [ ! -f "$work/peers/$p/target/$p-peer.jar" ]; then
      log "building the $p peer"
      (cd "$work/peers/$p" && mvn -q -B package)
    fi
  done
  peers="$work/peers"
fi

if want load; then
  quiet load
  log "load: ws11 ws12 wb64k wb4m, ours floor cxf metro, $rounds x ${duration}s after ${warmup}s warm-up"
  "$peers/load/compare.sh" --rounds "$rounds" --duration "$duration" --warmup "$warmup" --out "$out/load-soap" \
    --start "ours=$JAVA -Xmx1g -jar $root/$server_jar --port 18100 --storage memory: --max-request-bytes 8388608" \
    --start "floor=$JAVA -Xmx1g -jar $peers/floor/target/floor-peer.jar --port 18090" \
    --start "cxf=$JAVA -Xmx1g -jar $peers/cxf/target/cxf-peer.jar --port 18081" \
    --start "metro=$JAVA -Xmx1g -jar $peers/metro/target/metro-peer.jar --port 18082" \
    ours=http://127.0.0.1:18100 floor=http://127.0.0.1:18090 cxf=http://127.0.0.1:18081 metro=http://127.0.0.1:18082
  log "load: hg hp, ours only"
  "$peers/load/compare.sh" --rounds "$rounds" --duration "$duration" --warmup "$warmup" --out "$out/load-http" \
    --scenarios "hg hp" --conns "hg=32 hp=32" --no-verify \
    --start "ours=$JAVA -Xmx1g -jar $root/$server_jar --port 18100 --storage memory:" ours=http://127.0.0.1:18100
  after load
  { echo "## Load: SOAP scenarios (ratios are target / ours)"; echo; cat "$out/load-soap/summary.md"; echo;
    echo "## Load: HTTP GET / POST WriteString (ours only)"; echo; cat "$out/load-http/summary.md"; echo; } >> "$summary"
fi

vmhwm() { awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' "/proc/$1/status" 2>/dev/null || echo "-"; }
wait_up() { for _ in $(seq 300); do curl -s -o /dev/null -m 1 "$1" && return 0; sleep 0.1; done; return 1; }

if want large; then
  quiet large
  gib=$((1 << 30))
  log "large: 1 GiB WriteBytes to BenchServer -Xmx64m"
  "$JAVA" -Xmx64m -cp "$bench_jar:$(cat store-bench/target/classpath.txt)" org.storeservice.bench.BenchServer \
    --port 18110 --storage discard: --max-request-bytes 2000000000 --max-value-bytes $gib > "$out/large-ours-server.log" 2>&1 &
  spid=$!; mine+=("$spid")
  wait_up "http://127.0.0.1:18110/API/Store.asmx?wsdl"
  "$JAVA" -cp "$bench_jar" org.storeservice.bench.LargeWriteClient http://127.0.0.1:18110/API/Store.asmx $gib \
    > "$out/large-ours.txt" 2>&1 || true
  echo "server peak RSS (VmHWM): $(vmhwm $spid)" >> "$out/large-ours.txt"
  kill "$spid"; wait "$spid" 2>/dev/null || true
  log "large: the same request to CXF -Xmx64m"
  "$JAVA" -Xmx64m -jar "$peers/cxf/target/cxf-peer.jar" --port 18111 > "$out/large-cxf-server.log" 2>&1 &
  cpid=$!; mine+=("$cpid")
  wait_up "http://127.0.0.1:18111/API/Store.asmx?wsdl"
  timeout 300 "$JAVA" -cp "$bench_jar" org.storeservice.bench.LargeWriteClient http://127.0.0.1:18111/API/Store.asmx $gib \
    > "$out/large-cxf.txt" 2>&1 || true
  echo "server peak RSS (VmHWM): $(vmhwm $cpid); server alive afterwards: $(kill -0 $cpid 2>/dev/null && echo yes || echo no)" >> "$out/large-cxf.txt"
  kill "$cpid" 2>/dev/null; wait "$cpid" 2>/dev/null || true
  after large
  { echo "## 1 GiB WriteBytes, server at -Xmx64m"; echo; echo '```'; echo "ours (BenchServer, discard:):";
    grep -v '^<' "$out/large-ours.txt" | tail -6; echo; echo "CXF peer:"; tail -6 "$out/large-cxf.txt";
    echo "CXF server log (last lines):"; tail -5 "$out/large-cxf-server.log"; echo '```'; echo; } >> "$summary"
fi

if want startup; then
  quiet startup
  log "startup: $startup_runs runs each, plain and AppCDS"
  cds="$out/store-server.jsa"
  # The archive: classes loaded by one run that answered a request, dumped at exit.
  "$JAVA" -XX:ArchiveClassesAtExit="$cds" -jar "$server_jar" --port 18120 > "$out/cds-dump.log" 2>&1 &
  dpid=$!; mine+=("$dpid")
  wait_up "http://127.0.0.1:18120/API/Store.asmx?wsdl"
  curl -s -o /dev/null "http://127.0.0.1:18120/API/Store.asmx/WriteString?key=a&value=b"
  curl -s -o /dev/null -H 'Content-Type: text/xml; charset=utf-8' -H 'SOAPAction: "http://tempuri.org/WriteString"' \
    --data-binary '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><WriteString xmlns="http://tempuri.org/"><key>k</key><value>v</value></WriteString></soap:Body></soap:Envelope>' \
    http://127.0.0.1:18120/API/Store.asmx
  kill "$dpid"; wait "$dpid" 2>/dev/null || true
  # jetty.flag: Jetty's MemoryUtils otherwise starts the JMX platform MBean server (~150 ms) only to ask
  # whether oops are compressed; 16 references per 64-byte cache line is the answer for any heap under 32 GiB.
  jflag=-Dorg.eclipse.jetty.util.referencesPerCacheLine=16
  for mode in plain appcds appcds-jettyflag; do
    flags=(-Xmx1g)
    case $mode in
      appcds) flags+=(-XX:SharedArchiveFile="$cds");;
      appcds-jettyflag) flags+=(-XX:SharedArchiveFile="$cds" "$jflag");;
    esac
    store-bench/startup-time.sh --runs "$startup_runs" -- "$JAVA" "${flags[@]}" -jar "$server_jar" --port 18121 \
      > "$out/startup-$mode.txt"
  done
  after startup
  { echo "## Start to first answered request (ms; $startup_runs runs)"; echo; echo '```';
    echo "plain:                 $(tail -1 "$out/startup-plain.txt")"; echo "AppCDS:                $(tail -1 "$out/startup-appcds.txt")";
    echo "AppCDS + $jflag: $(tail -1 "$out/startup-appcds-jettyflag.txt")"; echo '```'; echo; } >> "$summary"
fi

if want storage; then
  quiet storage
  log "storage: StorageWriteBenchmark"
  "$JAVA" -Xms512m -Xmx2g -cp "$bench_jar:$(cat store-bench/target/classpath.txt)" \
    org.storeservice.bench.StorageWriteBenchmark --seconds 5 --warmup-seconds 2 | tee "$out/storage.txt"
  after storage
  { echo "## Storage: durable writes/s"; echo; cat "$out/storage.txt"; echo; } >> "$summary"
fi

{ echo "## Load average around each step"; echo; cat "$out/loadavg.md" 2>/dev/null; } >> "$summary"
log "done: $summary"
