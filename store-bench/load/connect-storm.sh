#!/usr/bin/env bash
# The connect storm of a switch-over: CONNECTS TCP connects at once to a freshly started store server on its default
# storage (SQLite), ROUNDS times (store-bench's ConnectStorm). Prints the server's listen backlog as the kernel holds
# it (ss's Send-Q of the listening socket), each round's line (connect time p50/p99/max, how many waited for a SYN
# retransmit: about 1 s, or 3 s for two), and the kernel's count of SYNs dropped on a full accept queue during the
# rounds (TcpExtListenOverflows, machine-wide: other listeners count too).
#
# usage: connect-storm.sh JAR [CONNECTS] [ROUNDS] [SERVER OPTION...]
#   JAR       a store-server.jar; CONNECTS 5000, ROUNDS 5 by default
#   options after ROUNDS go to the server, e.g. --accept-queue 50
# env: PORT (18300), BENCH_JAR (store-bench/target/benchmarks.jar), JAVA (java), XMX (1g)
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,12p' "$0"; exit 2; }
jar=$1; connects=${2:-5000}; rounds=${3:-5}; shift $(( $# < 3 ? $# : 3 ))
port=${PORT:-18300}; bench=${BENCH_JAR:-store-bench/target/benchmarks.jar}; JAVA=${JAVA:-java}; xmx=${XMX:-1g}
[ -r "$jar" ] && [ -r "$bench" ] || { echo "no $jar or $bench" >&2; exit 2; }
data=/tmp/bench-data/connect-storm; rm -rf -- "$data"; mkdir -p -- "$data"
log=$(mktemp /tmp/connect-storm.XXXXXX.log)
"$JAVA" -Xmx"$xmx" -jar "$jar" serve --port "$port" --storage "sqlite:$data/store.db" "$@" > "$log" 2>&1 &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 300); do
  kill -0 "$server" 2>/dev/null || { echo "server exited; see $log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$port/API/Store.asmx?wsdl" || true)" = 200 ] && break
  sleep 0.1
done
overflows() { nstat -az TcpExtListenOverflows | awk '$1 == "TcpExtListenOverflows" { print $2 }'; }
echo "jar=$jar options=${*:-none} backlog=$(ss -ltnH "sport = :$port" | awk '{ print $3 }') somaxconn=$(cat /proc/sys/net/core/somaxconn)"
before=$(overflows)
status=0
"$JAVA" -cp "$bench" org.storeservice.bench.ConnectStorm 127.0.0.1 "$port" "$connects" "$rounds" || status=$?
echo "listen_overflows=$(( $(overflows) - before ))"
exit "$status"
