#!/usr/bin/env bash
# Stops everything deploy/ha/start.sh started (HAProxy, the Store servers, Patroni and its PostgreSQL nodes,
# etcd), then deletes its work directory, unless KEEP=1 (to read the logs). Harmless to run twice.
# env: STORE_HA_DIR (default /tmp/store-ha), KEEP
set -uo pipefail
dir=${STORE_HA_DIR:-/tmp/store-ha}
[ -d "$dir" ] || exit 0

# stop PIDFILE: SIGTERM, up to 30 s, then SIGKILL.
stop() {
  local pid
  [ -s "$1" ] || return 0
  pid=$(cat "$1")
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
}

stop "$dir/haproxy.pid"
stop "$dir/store1.pid"; stop "$dir/store2.pid"
for n in 1 2 3; do stop "$dir/node$n/patroni.pid"; done   # Patroni stops its PostgreSQL as it exits
# A PostgreSQL left behind (its Patroni killed hard) is stopped here.
for n in 1 2 3; do
  data="$dir/node$n/data"
  if [ -s "$data/postmaster.pid" ]; then
    pid=$(head -n 1 "$data/postmaster.pid")
    kill -QUIT "$pid" 2>/dev/null || true
  fi
done
stop "$dir/etcd.pid"
if [ "${KEEP:-0}" != 1 ]; then rm -rf "$dir"; fi
exit 0
