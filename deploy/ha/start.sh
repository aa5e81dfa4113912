#!/usr/bin/env bash
# Renders an inventory and starts the whole deployment from this machine, host by host, in order: the etcd members
# (clients on 127.0.0.1 only), etcd's authentication, the members reopened on their hosts' addresses, the PostgreSQL nodes under Patroni (the first bootstraps the cluster, the others clone it),
# the Store database, the Store servers, HAProxy. By default the one-machine inventory (deploy/ha/inventory.loopback:
# everything on 127.0.0.1, nothing on port 5432). On separate hosts follow docs/operating.md instead, which runs the
# same deploy/ha/host.sh steps on each host.
#
# usage: deploy/ha/start.sh [INVENTORY]      (deploy/ha/stop.sh stops everything it started; --purge also deletes the data)
# env:   STORE_HA_DIR   work directory: every host's directory, the secrets (default /tmp/store-ha; must not exist or be empty)
#        STORE_HA_EXEC  how to run a command on host {host}, e.g. "ip netns exec ha-{host}" (default: here, as is)
#        STORE_JAR      the ready server's jar (default store-examples/target/store-server.jar: mvn package)
#        JAVA           java (default: java)
# Packages: apt-get install postgresql patroni etcd-server haproxy jq curl (and a JDK 17).
# A step that fails stops what the steps before it started (deploy/ha/stop.sh), keeping the work directory's logs.
# With the default inventory the endpoint is http://127.0.0.1:18300/API/Store.asmx.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
inventory=${1:-$here/inventory.loopback}
dir=${STORE_HA_DIR:-/tmp/store-ha}
exec_template=${STORE_HA_EXEC:-}

say() { echo "store-ha: $*"; }
die() { echo "store-ha: $*" >&2; exit 1; }
for tool in etcd patroni haproxy curl psql jq base64 "${JAVA:-java}"; do
  command -v "$tool" >/dev/null || die "missing $tool (apt-get install postgresql patroni etcd-server haproxy jq curl)"
done
if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
  die "$dir is not empty: stop the deployment first (deploy/ha/stop.sh), or set STORE_HA_DIR"
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)   # as host.sh and stop.sh name it when they check a process's command line
chmod 755 "$dir"
# From here on, a failed step stops what was started; the logs stay in $dir.
started=0
undo() { if [ "$started" != 1 ]; then STORE_HA_DIR="$dir" STORE_HA_EXEC="$exec_template" bash "$here/stop.sh"; fi; }
trap undo EXIT

bash "$here/render.sh" "$inventory" "$dir"
hosts=(); for h in "$dir"/*/host.env; do hosts+=("$(basename "$(dirname "$h")")"); done
roles_of() { (. "$dir/$1/host.env"; echo " $HOST_ROLES "); }
with_role() { local h; for h in "${hosts[@]}"; do case "$(roles_of "$h")" in *" $1 "*) echo "$h";; esac; done; }
# on HOST COMMAND...: runs COMMAND on HOST (through STORE_HA_EXEC).
on() {
  local host=$1; shift
  if [ -n "$exec_template" ]; then ${exec_template//\{host\}/$host} "$@"; else "$@"; fi
}
hostsh() { local host=$1; shift; on "$host" bash "$here/host.sh" "$dir/$host" "$@"; }
# wait_for SECONDS DESCRIPTION COMMAND...: runs COMMAND every 0.5 s until it succeeds.
wait_for() {
  local seconds=$1 what=$2; shift 2
  for _ in $(seq $((seconds * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  die "$what did not happen within $seconds s; logs in $dir"
}
mapfile -t etcds < <(with_role etcd)
mapfile -t databases < <(with_role postgres)
mapfile -t stores < <(with_role store)
mapfile -t balancers < <(with_role haproxy)

# 1. etcd, every member with its clients on 127.0.0.1, then its authentication, then every member on its host's
#    address (before any Patroni connects).
for h in "${etcds[@]}"; do hostsh "$h" start etcd; done
for h in "${etcds[@]}"; do wait_for 30 "etcd on $h answering" hostsh "$h" ready etcd; done
if [ ${#etcds[@]} -gt 0 ]; then
  hostsh "${etcds[0]}" init-etcd
  for h in "${etcds[@]}"; do hostsh "$h" open-etcd; done
fi

# 2. PostgreSQL nodes under Patroni: the first bootstraps the cluster; the others clone it once it runs.
first=${databases[0]:-}
for h in "${databases[@]}"; do
  hostsh "$h" start postgres
  if [ "$h" = "$first" ]; then wait_for 120 "$h becoming the primary" hostsh "$h" ready primary; fi
done
if [ -n "$first" ]; then
  wait_for 120 "a synchronous standby, every node streaming" hostsh "$first" ready replicated
  # 3. The Store database and its account, on the primary's host.
  primary=$(for h in "${databases[@]}"; do hostsh "$h" ready primary > /dev/null 2>&1 && echo "$h" && break; done)
  hostsh "$primary" init-database
fi

# 4. The Store servers.
for h in "${stores[@]}"; do hostsh "$h" start store; done
for h in "${stores[@]}"; do
  for _ in $(seq 120); do hostsh "$h" ready store >/dev/null 2>&1 && break; sleep 0.5; done
  if ! hostsh "$h" ready store >/dev/null 2>&1; then
    echo "store-ha: the end of $h/store.log:" >&2; tail -n 30 "$dir/$h/store.log" >&2
    die "the Store server on $h was not ready within 60 s; logs in $dir"
  fi
done

# 5. HAProxy in front.
for h in "${balancers[@]}"; do hostsh "$h" start haproxy; done
for h in "${balancers[@]}"; do wait_for 30 "HAProxy on $h serving the endpoint" hostsh "$h" ready haproxy; done
started=1
for h in "${balancers[@]}"; do
  (. "$dir/$h/host.env"; say "ready: http://$HOST_ADDRESS:$HAPROXY_PORT/API/Store.asmx (work directory $dir)")
done
