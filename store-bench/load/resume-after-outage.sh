#!/usr/bin/env bash
# How soon writes resume when PostgreSQL comes back: a server reaches PostgreSQL through a socat proxy; WRITERS loops
# send HTTP GET WriteString, each one at a time; the proxy is stopped from 5 s to 5 + OUTAGE s (connections cut, new
# ones refused), ROUNDS times. Prints, per round, how long after the proxy accepted connections again the first
# write was answered Success, and the answers by kind.
#
# usage: resume-after-outage.sh JAR [ROUNDS] [OUTAGE]
# env: PG (default jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=postgres) WRITERS (4) PORT (18230)
set -uo pipefail
[ $# -ge 1 ] || { sed -n '2,8p' "$0"; exit 2; }
jar=$1; rounds=${2:-5}; outage=${3:-8}
pg=${PG:-jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=postgres}
writers=${WRITERS:-4}; port=${PORT:-18230}; mport=$((port + 10)); proxy_port=$((port + 3300))
out=$(mktemp -d /tmp/resume-after-outage.XXXXXX)
proxy() { socat "TCP-LISTEN:$proxy_port,reuseaddr,fork" TCP:127.0.0.1:5432 & echo $! > "$out/socat.pid"; }
stop_proxy() { kill "$(cat "$out/socat.pid")" 2>/dev/null; pkill -f "socat TCP-LISTEN:$proxy_port" 2>/dev/null; }
proxy
java -Xmx256m -jar "$jar" serve --port "$port" --management-port "$mport" \
  --storage "${pg/127.0.0.1:5432/127.0.0.1:$proxy_port}&table=resume_after_outage" > "$out/server.log" 2>&1 &
server=$!
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$mport/health/ready" >/dev/null && break; sleep 0.5; done
# Each writer: one request at a time; a line "<epoch seconds> <answer>" per answer.
for w in $(seq "$writers"); do
  ( i=0; while [ ! -e "$out/done" ]; do
      i=$((i + 1))
      answer=$(curl -s --max-time 60 "http://127.0.0.1:$port/API/Store.asmx/WriteString?key=w$w-$i&value=v" \
        | grep -o 'Success\|Error' || echo failed)
      echo "$(date +%s.%N) $answer"
    done ) > "$out/writer$w.log" &
done
for r in $(seq "$rounds"); do
  sleep 5; stop_proxy; sleep "$outage"; proxy; date +%s.%N >> "$out/back.txt"
done
sleep 5; touch "$out/done"; sleep 2
kill "$server"; wait "$server" 2>/dev/null; stop_proxy
cat "$out"/writer*.log | sort -n > "$out/answers.log"
while read -r back; do
  first=$(awk -v b="$back" '$1 >= b && $2 == "Success" { print $1; exit }' "$out/answers.log")
  awk -v b="$back" -v f="$first" 'BEGIN { printf "first Success %.0f ms after PostgreSQL was reachable again\n", (f - b) * 1000 }'
done < "$out/back.txt"
echo "answers: $(awk '{ print $2 }' "$out/answers.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';') (logs in $out)"
