#!/usr/bin/env bash
# Stops what deploy/ha/start.sh started, host by host (deploy/ha/host.sh HOST_DIR stop): HAProxy, the Store servers,
# Patroni and its PostgreSQL nodes, etcd. A process is signalled only if its command line still shows it is the one
# host.sh started with that host's files: a PID file can outlive its process, and the PID be given to another. The
# work directory (every node's data, etcd's, the logs, the secrets) is deleted only with --purge, and only if render.sh
# marked it as a deployment (its store-ha.deployment names the directory): any other directory is refused before
# anything is stopped. Says what it deleted. Harmless to run twice.
#
# usage: deploy/ha/stop.sh [--purge]
# env:   STORE_HA_DIR (default /tmp/store-ha), STORE_HA_EXEC (as for start.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${STORE_HA_DIR:-/tmp/store-ha}
exec_template=${STORE_HA_EXEC:-}
purge=0
case "${1:-}" in
  --purge) purge=1;;
  '') ;;
  *) echo "usage: deploy/ha/stop.sh [--purge]" >&2; exit 2;;
esac
[ -d "$dir" ] || exit 0
dir=$(cd "$dir" && pwd)
if [ "$purge" = 1 ] && ! grep -qxF "rendered=$dir" "$dir/store-ha.deployment" 2>/dev/null; then
  echo "stop.sh: not purging $dir: render.sh did not mark it as a deployment (no store-ha.deployment naming it); nothing stopped or deleted" >&2
  exit 1
fi
on() {
  local host=$1; shift
  if [ -n "$exec_template" ]; then ${exec_template//\{host\}/$host} "$@"; else "$@"; fi
}
# Balancers and servers first, then the databases, etcd last (host.sh stops a host's roles in that order too).
order() { local role=$1 h; for h in "$dir"/*/host.env; do grep -q "^HOST_ROLES=.*$role" "$h" && basename "$(dirname "$h")"; done; }
done_hosts=" "
for role in haproxy store postgres etcd; do
  for host in $(order "$role"); do
    case "$done_hosts" in *" $host "*) continue;; esac
    done_hosts+="$host "
    on "$host" bash "$here/host.sh" "$dir/$host" stop
  done
done
if [ "$purge" = 1 ]; then
  contents=$(cd "$dir" && ls -A | tr '\n' ' ')
  rm -rf "$dir"
  echo "stop.sh: deleted $dir (the deployment render.sh marked: ${contents% })"
fi
exit 0
