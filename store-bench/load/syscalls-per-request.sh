#!/usr/bin/env bash
# usage: syscalls-per-request.sh JAR STORAGE_URI SCENARIO SECONDS
# Starts the ready server (port 18150), warms it up with 10 s of wrk, then counts the system calls of every
# thread during SECONDS more (perf stat on the syscall tracepoints; needs perf and tracefs mounted) and prints
# them per request, threads grouped by name (qtpN = Jetty's pool and selectors, store = SQLite's writer and
# answering thread). The scenario is a wrk script in /tmp/peers/load (../shared/bench/peers/load plus
# store-bench/load/*.lua).
jar=$1; st=$2; sc=$3; secs=$4; port=18150
mkdir -p "${LOGS:-/tmp/bench/logs}"
case "$st" in sqlite:/tmp/bench-data/*) d=$(dirname ${st#sqlite:}); rm -rf $d; mkdir -p $d;; esac
java -Xmx1g -jar $jar serve --port $port --storage $st > ${LOGS:-/tmp/bench/logs}/sys.log 2>&1 & srv=$!
for i in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/API/Store.asmx?wsdl" && break; sleep 0.2; done
wrk -t2 -c32 -d10s -s /tmp/peers/load/$sc.lua http://127.0.0.1:$port/API/Store.asmx > /dev/null 2>&1
ev=$(for s in write writev read readv futex epoll_wait epoll_ctl pwrite64 fsync fdatasync sendto recvfrom; do echo -n "syscalls:sys_enter_$s,"; done)
perf stat -x, --per-thread -e ${ev%,} -p $srv -o ${LOGS:-/tmp/bench/logs}/sys.perf & pp=$!
sleep 0.3
wrk -t2 -c32 -d${secs}s -s /tmp/peers/load/$sc.lua http://127.0.0.1:$port/API/Store.asmx > ${LOGS:-/tmp/bench/logs}/sys.wrk 2>&1
kill -INT $pp; wait $pp
req=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' ${LOGS:-/tmp/bench/logs}/sys.wrk | head -1)
echo "requests=$req"
awk -F, -v req=$req '$1 ~ /-/ && $2+0 > 0 { split($1,a,"-"); t=a[1]; gsub(/[0-9]+/,"N",t); e=$4; sub("syscalls:sys_enter_","",e); c[t" "e]+=$2 } END { for (k in c) if (c[k]/req > 0.01) printf "%-40s %.3f\n", k, c[k]/req }' ${LOGS:-/tmp/bench/logs}/sys.perf | sort
kill -TERM $srv; wait $srv 2>/dev/null
