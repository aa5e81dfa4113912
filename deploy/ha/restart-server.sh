#!/usr/bin/env bash
# Restarts Store server S of the reference deployment as a rolling upgrade does, one server at a time: SIGTERM (the
# server drains: readiness 503 while it still serves, until HAProxy has taken it out), waits for it to exit, starts
# it again with the same command line, and waits until it is ready and HAProxy has checked it once more.
#
# usage: deploy/ha/restart-server.sh S         (S: 1 or 2; for a rolling restart: for s in 1 2; do ...; done)
# env:   STORE_HA_DIR (default /tmp/store-ha), STORE_JAR (the jar to start: a new version for an upgrade), JAVA
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=$(cd "${STORE_HA_DIR:-/tmp/store-ha}" && pwd)
jar=${STORE_JAR:-$root/store-examples/target/store-server.jar}
java=${JAVA:-java}
s=${1:-}
case "$s" in 1|2) ;; *) echo "usage: deploy/ha/restart-server.sh 1|2" >&2; exit 2;; esac
. "$here/store-server.sh"

pid=$(head -n 1 "$dir/store$s.pid" | tr -dc '0-9')
if [ -n "$pid" ] && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "--port 1830$s"; then
  echo "store-ha: stopping Store server $s (PID $pid)"
  kill -TERM "$pid"
  for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && { echo "store-ha: Store server $s did not stop within 60 s" >&2; exit 1; }
fi
echo "store-ha: starting Store server $s"
start_store_server "$s"
for _ in $(seq 120); do
  curl -sf "http://127.0.0.1:1831$s/health/ready" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:1831$s/health/ready" >/dev/null || { echo "store-ha: Store server $s not ready within 60 s" >&2; exit 1; }
sleep 2.5 # HAProxy's next check (inter 1s, rise 1) has passed: it sends to this server again
echo "store-ha: Store server $s restarted and back behind HAProxy"
