#!/usr/bin/env bash
# Runs what one host of a rendered deployment runs (deploy/ha/render.sh wrote HOST_DIR and its host.env).
#
# usage: deploy/ha/host.sh HOST_DIR start [ROLE...]   start this host's roles (default all, in the order etcd,
#                                                      postgres, store, haproxy), each in the background
#        deploy/ha/host.sh HOST_DIR init-etcd         once, on one etcd host, when every member answers: create etcd's
#                                                      users (root, patroni: /store/ only) and turn authentication on
#        deploy/ha/host.sh HOST_DIR init-database     once, on the primary's host: the store role and database
#        deploy/ha/host.sh HOST_DIR restart-store     SIGTERM the Store server (it drains), start it again, wait ready
#        deploy/ha/host.sh HOST_DIR stop [--purge]    stop what this script started here; --purge then deletes HOST_DIR
#                                                      (only a directory render.sh marked as this host's)
#        deploy/ha/host.sh HOST_DIR ready ROLE        exit 0 if ROLE answers on this host
# env:   STORE_JAR (the ready server's jar; default store-examples/target/store-server.jar), JAVA, STORE_XMX (256m)
# Processes are signalled only if their command line shows this script started them with this directory's files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "store-ha ${HOST_NAME:-}: $*" >&2; exit 1; }
[ $# -ge 2 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
[ -r "$1/host.env" ] || die "no $1/host.env: render the deployment first (deploy/ha/render.sh)"
d=$(cd "$1" && pwd); command=$2; shift 2
. "$d/host.env"
jar=${STORE_JAR:-$root/store-examples/target/store-server.jar}
java=${JAVA:-java}
say() { echo "store-ha $HOST_NAME: $*"; }
has() { case " $HOST_ROLES " in *" $1 "*) return 0;; *) return 1;; esac; }
secret() { cat "$d/secrets/$1.password"; }
# PostgreSQL refuses to run as root: as root, Patroni (and so PostgreSQL) runs as the postgres user.
as_db_user() { if [ "$(id -u)" -eq 0 ]; then (cd "$d" && runuser -u postgres -- "$@"); else "$@"; fi; }
# etcd's JSON API (no etcdctl needed): etcd_api ENDPOINT JSON [TOKEN]
etcd_api() {
  curl -sf -X POST "http://${ETCD_MEMBERS%% *}/v3/$1" -H "Content-Type: application/json" \
    ${3:+-H "Authorization: $3"} -d "$2"
}
b64() { printf '%s' "$1" | base64 -w0; }

# ours PID TEXT...: whether process PID runs and its command line holds every TEXT.
ours() {
  local pid=$1 cmdline; shift
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  cmdline=$(tr '\0' ' ' < "/proc/$pid/cmdline")
  for text in "$@"; do case "$cmdline" in *"$text"*) ;; *) return 1;; esac; done
}
pid_in() { [ -s "$1" ] && head -n 1 "$1" | tr -dc '0-9' || true; }
# stop_process PIDFILE TEXT...: SIGTERM if the process is ours, up to 30 s, then SIGKILL.
stop_process() {
  local pid; pid=$(pid_in "$1"); shift
  [ -n "$pid" ] || return 0
  if ! ours "$pid" "$@"; then
    [ -d "/proc/$pid" ] && echo "store-ha $HOST_NAME: not stopping PID $pid: it is not what host.sh started ($*)" >&2
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 60); do ours "$pid" "$@" || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
}

ready() {
  case "$1" in
    etcd) curl -sf "http://$HOST_ADDRESS:$ETCD_PORT/version" >/dev/null;;
    postgres) curl -sf "http://$HOST_ADDRESS:$PATRONI_PORT/health" >/dev/null;;
    store) curl -sf "http://$HOST_ADDRESS:$MANAGEMENT_PORT/health/ready" >/dev/null;;
    haproxy) curl -sf "http://$HOST_ADDRESS:$HAPROXY_PORT/API/Store.asmx?wsdl" >/dev/null;;
    *) die "unknown role $1";;
  esac
}

start_store() {
  [ -r "$jar" ] || die "no server jar at $jar (mvn -B -ntp package -DskipTests, or set STORE_JAR)"
  # Its settings from store.env (STORE_*); --port on the command line too, so that stop can tell this server's
  # process from another's on the same machine.
  (set -a; . "$d/store.env"; set +a
   exec "$java" "-Xmx${STORE_XMX:-256m}" -jar "$jar" serve --port "$STORE_PORT" >> "$d/store.log" 2>&1) &
  echo $! > "$d/store.pid"
}

start_role() {
  case "$1" in
    etcd)
      say "starting etcd"
      etcd --config-file "$d/etcd.yml" > "$d/etcd.log" 2>&1 &
      echo $! > "$d/etcd.pid";;
    postgres)
      say "starting Patroni (PostgreSQL on $HOST_ADDRESS:$POSTGRES_PORT)"
      mkdir -p -m 700 "$d/data"
      if [ "$(id -u)" -eq 0 ]; then chown postgres: "$d" "$d/data" "$d/secrets" "$d"/secrets/* && chown -R postgres: "$d/tls" 2>/dev/null || true; fi
      # Passwords through the environment, read from secrets/ (never a command line or the YAML file). Patroni takes
      # the etcd credentials from its environment only beside PATRONI_ETCD3_HOSTS.
      PATRONI_SUPERUSER_PASSWORD=$(secret superuser) PATRONI_REPLICATION_PASSWORD=$(secret replicator) \
      PATRONI_REWIND_PASSWORD=$(secret rewinder) PATRONI_RESTAPI_USERNAME=patroni \
      PATRONI_RESTAPI_PASSWORD=$(secret patroni-rest) PATRONI_ETCD3_HOSTS=$(echo $ETCD_MEMBERS | tr ' ' ',') \
      PATRONI_ETCD3_USERNAME=patroni PATRONI_ETCD3_PASSWORD=$(secret etcd-patroni) \
        as_db_user sh -c 'echo $$ > "$1/patroni.pid"; exec patroni "$1/patroni.yml" > "$1/patroni.log" 2>&1' sh "$d" &
      ;;
    store)
      say "starting the Store server on $HOST_ADDRESS:$STORE_PORT (management $MANAGEMENT_PORT)"
      start_store;;
    haproxy)
      say "starting HAProxy on $HOST_ADDRESS:$HAPROXY_PORT"
      haproxy -db -f "$d/haproxy.cfg" > "$d/haproxy.log" 2>&1 &
      echo $! > "$d/haproxy.pid";;
  esac
}

case "$command" in
  start)
    wanted=("$@"); [ ${#wanted[@]} -gt 0 ] || wanted=(etcd postgres store haproxy)
    for role in etcd postgres store haproxy; do
      for w in "${wanted[@]}"; do
        if [ "$w" = "$role" ]; then has "$role" || die "this host has no role $role"; start_role "$role"; fi
      done
    done;;
  init-etcd)
    has etcd || die "init-etcd runs on an etcd host"
    root_password=$(secret etcd-root)
    etcd_api auth/user/add "{\"name\":\"root\",\"password\":\"$root_password\"}" >/dev/null
    etcd_api auth/role/add '{"name":"root"}' >/dev/null
    etcd_api auth/user/grant '{"user":"root","role":"root"}' >/dev/null
    etcd_api auth/user/add "{\"name\":\"patroni\",\"password\":\"$(secret etcd-patroni)\"}" >/dev/null
    etcd_api auth/role/add '{"name":"patroni"}' >/dev/null
    etcd_api auth/role/grant "{\"name\":\"patroni\",\"perm\":{\"permType\":\"READWRITE\",\"key\":\"$(b64 /store/)\",\"range_end\":\"$(b64 /store0)\"}}" >/dev/null
    etcd_api auth/user/grant '{"user":"patroni","role":"patroni"}' >/dev/null
    etcd_api auth/enable '{}' >/dev/null
    # Check: without credentials nothing is readable now.
    if etcd_api kv/range "{\"key\":\"$(b64 /store/)\"}" >/dev/null 2>&1; then die "etcd still answers without credentials"; fi
    say "etcd authentication on: users root and patroni (read-write on /store/ only)";;
  init-database)
    has postgres || die "init-database runs on a database host"
    # The statements on standard input (a password on psql's command line would show in ps); over the local
    # socket, as the postgres system user (pg_hba: "local all postgres peer").
    printf "CREATE ROLE store LOGIN PASSWORD '%s';\nCREATE DATABASE store OWNER store;\n" "$(secret store-app)" \
      | as_db_user psql -q -h "$d" -p "$POSTGRES_PORT" -U postgres -d postgres
    say "created the store role and database";;
  restart-store)
    has store || die "this host runs no Store server"
    pid=$(pid_in "$d/store.pid")
    if ours "$pid" -jar "serve --port $STORE_PORT"; then
      say "stopping the Store server (PID $pid): it drains first"
      kill -TERM "$pid"
      for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -0 "$pid" 2>/dev/null && die "the Store server did not stop within 60 s"
    fi
    say "starting the Store server"
    start_store
    for _ in $(seq 120); do ready store && break; sleep 0.5; done
    ready store || die "the Store server was not ready within 60 s"
    sleep 2.5 # HAProxy's next check (inter 1s, rise 1) has passed: it sends to this server again
    say "the Store server is back";;
  ready)
    ready "${1:?which role}";;
  stop)
    purge=0
    case "${1:-}" in --purge) purge=1;; '') ;; *) die "usage: host.sh HOST_DIR stop [--purge]";; esac
    if [ "$purge" = 1 ] && ! grep -qxF "rendered=$d" "$d/store-ha.deployment" 2>/dev/null; then
      die "not purging $d: render.sh did not mark it as this host's directory (no store-ha.deployment naming it); nothing stopped"
    fi
    stop_process "$d/haproxy.pid" haproxy "$d/haproxy.cfg"
    stop_process "$d/store.pid" -jar "serve --port $STORE_PORT"
    stop_process "$d/patroni.pid" patroni "$d/patroni.yml"
    # A PostgreSQL left behind (its Patroni killed hard): the postmaster's command line names its data directory.
    pid=$(pid_in "$d/data/postmaster.pid")
    if ours "$pid" "$d/data"; then kill -QUIT "$pid" 2>/dev/null || true; fi
    stop_process "$d/etcd.pid" etcd "$d/etcd.yml"
    if [ "$purge" = 1 ]; then
      rm -rf "$d"
      say "deleted $d (this host's files, data, logs and secrets)"
    fi;;
  *) die "unknown command $command (start, init-etcd, init-database, restart-store, ready, stop)";;
esac
