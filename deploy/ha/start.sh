#!/usr/bin/env bash
# Starts the reference highly available deployment on this machine, over loopback, from Debian's packages:
# etcd (one member), three PostgreSQL nodes managed by Patroni in synchronous mode, two Store servers with a
# multi-host URL, and HAProxy in front of the servers. Nothing here uses or touches a PostgreSQL on port 5432.
#
# usage: deploy/ha/start.sh            (deploy/ha/stop.sh stops everything it started; --purge also deletes the data)
# env:   STORE_HA_DIR   work directory: data, logs, pid files (default /tmp/store-ha; must not exist or be empty)
#        STORE_JAR      the ready server's jar (default store-examples/target/store-server.jar: mvn package)
#        JAVA           java (default: java)
# Packages: apt-get install postgresql patroni etcd-server haproxy jq (and a JDK 17).
# A step that fails stops what the steps before it started (deploy/ha/stop.sh), keeping the work directory's logs.
#
# Ports (all on 127.0.0.1): HAProxy 18300 (the endpoint clients use: http://127.0.0.1:18300/API/Store.asmx);
# Store servers 18301, 18302 (management: 18311, 18312); PostgreSQL 5441-5443; Patroni REST 8441-8443;
# etcd 2479 (clients), 2480 (peers).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${STORE_HA_DIR:-/tmp/store-ha}
jar=${STORE_JAR:-$root/store-examples/target/store-server.jar}
java=${JAVA:-java}

say() { echo "store-ha: $*"; }
die() { echo "store-ha: $*" >&2; exit 1; }

for tool in etcd patroni haproxy curl psql jq "$java"; do
  command -v "$tool" >/dev/null || die "missing $tool (apt-get install postgresql patroni etcd-server haproxy jq)"
done
bin_dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin_dir" ] || die "no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)"
[ -r "$jar" ] || die "no server jar at $jar (mvn -B -ntp package -DskipTests, or set STORE_JAR)"
if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
  die "$dir is not empty: stop the deployment first (deploy/ha/stop.sh), or set STORE_HA_DIR"
fi
for port in 18300 18301 18302 18311 18312 5441 5442 5443 8441 8442 8443 2479 2480; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is in use on 127.0.0.1"; fi
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)   # as stop.sh names it when it checks a process's command line
chmod 755 "$dir"
# From here on, a failed step stops what was started; the logs stay in $dir.
started=0
undo() { if [ "$started" != 1 ]; then STORE_HA_DIR="$dir" bash "$here/stop.sh"; fi; }
trap undo EXIT   # the postgres user (below) must reach its node's directory
# PostgreSQL refuses to run as root: as root, Patroni (and so PostgreSQL) runs as the postgres user.
# From the work directory: the caller's may be closed to the postgres user (a checkout under a 0700 mktemp
# directory), and Patroni's PostgreSQL then never finished bootstrapping.
as_db_user() { if [ "$(id -u)" -eq 0 ]; then (cd "$dir" && runuser -u postgres -- "$@"); else "$@"; fi; }

# wait_for SECONDS DESCRIPTION COMMAND...: runs COMMAND every 0.5 s until it succeeds.
wait_for() {
  local seconds=$1 what=$2; shift 2
  for _ in $(seq $((seconds * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  die "$what did not happen within $seconds s; logs in $dir"
}

# 0. Secrets: a random password per role, each in a file of its own (mode 600), never in a configuration file or on a
#    command line. Patroni gets its three through its environment; the Store servers read theirs with passwordFile=.
secrets="$dir/secrets"
mkdir -m 700 "$secrets"
for role in superuser replicator rewinder store-app; do
  (umask 077; head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32 > "$secrets/$role.password")
done
PATRONI_SUPERUSER_PASSWORD=$(cat "$secrets/superuser.password")
PATRONI_REPLICATION_PASSWORD=$(cat "$secrets/replicator.password")
PATRONI_REWIND_PASSWORD=$(cat "$secrets/rewinder.password")
export PATRONI_SUPERUSER_PASSWORD PATRONI_REPLICATION_PASSWORD PATRONI_REWIND_PASSWORD

# 1. etcd: the DCS, where Patroni keeps the leader lock. One member here; three or five on real hosts.
say "starting etcd"
etcd --name store-ha --data-dir "$dir/etcd" \
  --listen-client-urls http://127.0.0.1:2479 --advertise-client-urls http://127.0.0.1:2479 \
  --listen-peer-urls http://127.0.0.1:2480 --initial-advertise-peer-urls http://127.0.0.1:2480 \
  --initial-cluster store-ha=http://127.0.0.1:2480 > "$dir/etcd.log" 2>&1 &
echo $! > "$dir/etcd.pid"
wait_for 30 "etcd answering" bash -c "curl -sf http://127.0.0.1:2479/health | jq -e '.health == \"true\"'"

# 2. Three PostgreSQL nodes under Patroni.
for n in 1 2 3; do
  mkdir -p "$dir/node$n"
  sed -e "s|@NAME@|node$n|g" -e "s|@REST_PORT@|844$n|g" -e "s|@PG_PORT@|544$n|g" -e "s|@ETCD_PORT@|2479|g" \
      -e "s|@DIR@|$dir|g" -e "s|@BIN_DIR@|$bin_dir|g" "$here/patroni.yml.template" > "$dir/node$n/patroni.yml"
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$dir/node$n"; fi
  chmod 700 "$dir/node$n"
  say "starting Patroni node$n (PostgreSQL on 544$n)"
  # The shell writes its own PID, then becomes Patroni: stop.sh signals Patroni itself, not runuser.
  as_db_user sh -c 'echo $$ > "$1/patroni.pid"; exec patroni "$1/patroni.yml" > "$1/patroni.log" 2>&1' \
    sh "$dir/node$n" &
  if [ "$n" = 1 ]; then  # node1 bootstraps the cluster; the others clone it once it runs
    wait_for 120 "node1 becoming the primary" curl -sf http://127.0.0.1:8441/primary
  fi
done
wait_for 120 "a synchronous standby" bash -c \
  "curl -sf http://127.0.0.1:8441/cluster | jq -e '[.members[] | select(.role == \"sync_standby\")] | length >= 1'"
wait_for 120 "both standbys streaming" bash -c \
  "curl -sf http://127.0.0.1:8441/cluster | jq -e '[.members[] | select(.state == \"streaming\" or .state == \"running\")] | length >= 3'"

# 3. The Store database and its account, on the primary.
leader=$(for n in 1 2 3; do curl -sf -o /dev/null "http://127.0.0.1:844$n/primary" && echo "544$n" && break; done)
# The statements on standard input: a password on psql's command line would show in ps.
printf "CREATE ROLE store LOGIN PASSWORD '%s';\nCREATE DATABASE store OWNER store;\n" "$(cat "$secrets/store-app.password")" \
  | PGPASSWORD=$PATRONI_SUPERUSER_PASSWORD psql -q -h 127.0.0.1 -p "$leader" -U postgres -d postgres

# 4. Two Store servers (store-server.sh: their command line, also for restart-server.sh).
. "$here/store-server.sh"
for s in 1 2; do
  say "starting Store server $s on 1830$s (management 1831$s)"
  start_store_server "$s"
done
# wait_for_server S: until Store server S is ready. A server that exited is said at once; either way the end of
# its log and its last readiness answer are shown, since the work directory may be gone by the time anyone reads it.
wait_for_server() {
  local s=$1 pid
  pid=$(cat "$dir/store$s.pid")
  for _ in $(seq 120); do
    curl -sf "http://127.0.0.1:1831$s/health/ready" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "store-ha: Store server $s's readiness: $(curl -s "http://127.0.0.1:1831$s/health/ready" 2>&1)" >&2
  fi
  echo "store-ha: the end of store$s.log:" >&2
  tail -n 30 "$dir/store$s.log" >&2
  kill -0 "$pid" 2>/dev/null || die "Store server $s exited before it was ready; logs in $dir"
  die "Store server $s was not ready within 60 s; logs in $dir"
}
for s in 1 2; do
  wait_for_server "$s"
done

# 5. HAProxy in front.
sed -e "s|@HAPROXY_PORT@|18300|g" -e "s|@SERVER1_PORT@|18301|g" -e "s|@SERVER2_PORT@|18302|g" \
    -e "s|@SERVER1_MANAGEMENT_PORT@|18311|g" -e "s|@SERVER2_MANAGEMENT_PORT@|18312|g" \
    "$here/haproxy.cfg.template" > "$dir/haproxy.cfg"
haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid" > "$dir/haproxy.log" 2>&1
wait_for 30 "HAProxy serving the endpoint" curl -sf "http://127.0.0.1:18300/API/Store.asmx?wsdl"
started=1
say "ready: http://127.0.0.1:18300/API/Store.asmx (work directory $dir)"
