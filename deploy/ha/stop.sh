#!/usr/bin/env bash
# Stops what deploy/ha/start.sh started (HAProxy, the Store servers, Patroni and its PostgreSQL nodes, etcd).
# A process is signalled only if its command line still shows it is the one start.sh started: a PID file can
# outlive its process, and the PID be given to another. The work directory (every node's data, etcd's, the logs)
# is deleted only with --purge. Harmless to run twice.
#
# usage: deploy/ha/stop.sh [--purge]
# env:   STORE_HA_DIR (default /tmp/store-ha)
set -uo pipefail
dir=${STORE_HA_DIR:-/tmp/store-ha}
purge=0
case "${1:-}" in
  --purge) purge=1;;
  '') ;;
  *) echo "usage: deploy/ha/stop.sh [--purge]" >&2; exit 2;;
esac
[ -d "$dir" ] || exit 0
dir=$(cd "$dir" && pwd)

# ours PID TEXT...: whether process PID runs and its command line holds every TEXT.
ours() {
  local pid=$1 cmdline; shift
  [ -r "/proc/$pid/cmdline" ] || return 1
  cmdline=$(tr '\0' ' ' < "/proc/$pid/cmdline")
  for text in "$@"; do
    case "$cmdline" in *"$text"*) ;; *) return 1;; esac
  done
}

# stop PID TEXT...: SIGTERM if the process is ours, up to 30 s, then SIGKILL.
stop() {
  local pid=$1; shift
  [ -n "$pid" ] || return 0
  if ! ours "$pid" "$@"; then
    [ -d "/proc/$pid" ] && echo "store-ha: not stopping PID $pid: it is not what start.sh started ($*)" >&2
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 60); do ours "$pid" "$@" || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
}
pid_in() { [ -s "$1" ] && head -n 1 "$1" | tr -dc '0-9'; }

stop "$(pid_in "$dir/haproxy.pid")" haproxy "$dir/haproxy.cfg"
for s in 1 2; do stop "$(pid_in "$dir/store$s.pid")" -jar "--port 1830$s"; done
for n in 1 2 3; do stop "$(pid_in "$dir/node$n/patroni.pid")" patroni "$dir/node$n/patroni.yml"; done
# A PostgreSQL left behind (its Patroni killed hard) is stopped here: the postmaster's command line names its data.
for n in 1 2 3; do
  pid=$(pid_in "$dir/node$n/data/postmaster.pid")
  if [ -n "$pid" ] && ours "$pid" "$dir/node$n/data"; then kill -QUIT "$pid" 2>/dev/null || true; fi
done
stop "$(pid_in "$dir/etcd.pid")" etcd "--data-dir $dir/etcd"
if [ "$purge" = 1 ]; then rm -rf "$dir"; fi
exit 0
