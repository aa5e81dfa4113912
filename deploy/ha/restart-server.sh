#!/usr/bin/env bash
# Restarts one Store server of the deployment start.sh started, as a rolling upgrade does, one server at a time:
# SIGTERM (the server drains: readiness 503 while it still serves, until HAProxy has taken it out), waits for it to
# exit, starts it again with the same settings, and waits until it is ready and HAProxy has checked it once more.
#
# usage: deploy/ha/restart-server.sh HOST    (a host with the store role, e.g. store1; for a rolling restart:
#                                             for h in store1 store2; do deploy/ha/restart-server.sh $h; done)
# env:   STORE_HA_DIR (default /tmp/store-ha), STORE_HA_EXEC (as for start.sh), STORE_JAR (the jar to start: a new
#        version for an upgrade), JAVA
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${STORE_HA_DIR:-/tmp/store-ha}" && pwd)
host=${1:-}
[ -n "$host" ] && [ -r "$dir/$host/store.env" ] || { echo "usage: deploy/ha/restart-server.sh HOST (a Store server's host in $dir)" >&2; exit 2; }
exec_template=${STORE_HA_EXEC:-}
if [ -n "$exec_template" ]; then
  exec ${exec_template//\{host\}/$host} bash "$here/host.sh" "$dir/$host" restart-store
fi
exec bash "$here/host.sh" "$dir/$host" restart-store
