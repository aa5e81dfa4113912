#!/usr/bin/env bash
# Runs what one host of a rendered deployment runs (deploy/ha/render.sh wrote HOST_DIR and its host.env).
#
# usage: deploy/ha/host.sh HOST_DIR start [ROLE...]   start this host's roles (default all, in the order etcd,
#                                                      postgres, store, haproxy), each detached in the background
#        deploy/ha/host.sh HOST_DIR init-etcd         once, on the first etcd host, when every member answers: create
#                                                      etcd's users (root, patroni: /store/ only), turn authentication on
#        deploy/ha/host.sh HOST_DIR open-etcd         then on every etcd host: restart the member with its clients on
#                                                      the host's address (until then on 127.0.0.1 only)
#        deploy/ha/host.sh HOST_DIR add-etcd-member PEER_URL    on the first etcd host: announce a new member
#        deploy/ha/host.sh HOST_DIR init-database     once, on the primary's host: the store role and database (waits
#                                                      up to 2 minutes for a synchronous standby)
#        deploy/ha/host.sh HOST_DIR restart-store     SIGTERM the Store server (it drains), start it again, wait ready
#        deploy/ha/host.sh HOST_DIR stop [--purge]    stop what this script started here; --purge then deletes HOST_DIR
#                                                      (only a directory render.sh marked as this host's)
#        deploy/ha/host.sh HOST_DIR ready WHAT        exit 0 if WHAT answers on this host: etcd, postgres (Patroni runs
#                                                      its node), primary (that node is the primary), replicated (a
#                                                      synchronous standby, every node streaming), store, haproxy
# env:   STORE_JAR (the ready server's jar; default store-examples/target/store-server.jar), JAVA, STORE_XMX (256m)
# Processes are signalled only if their command line shows this script started them with this directory's files.
# No secret is ever on a command line: request bodies go to curl on standard input, headers from a file of mode 600.
# Every network call has a time limit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "store-ha ${HOST_NAME:-}: $*" >&2; exit 1; }
[ $# -ge 2 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
[ -r "$1/host.env" ] || die "no $1/host.env: render the deployment first (deploy/ha/render.sh)"
d=$(cd "$1" && pwd); command=$2; shift 2
. "$d/host.env"
[ -n "${SCHEME:-}" ] || die "$d/host.env is from an older render.sh: render the deployment again"
# The rendered files name HOST_DIR: elsewhere they would point at files that are not there.
if [ "$(cd "$HOST_DIR" 2>/dev/null && pwd -P)" != "$(cd "$d" && pwd -P)" ]; then
  die "$d was rendered for $HOST_DIR: copy it to that path on this host (or render with the directory it will have)"
fi
jar=${STORE_JAR:-$root/store-examples/target/store-server.jar}
java=${JAVA:-java}
say() { echo "store-ha $HOST_NAME: $*"; }
has() { case " $HOST_ROLES " in *" $1 "*) return 0;; *) return 1;; esac; }
secret_file() {
  [ -r "$d/secrets/$1.password" ] || die "no secrets/$1.password here: render.sh gives it only to the hosts that read it"
  echo "$d/secrets/$1.password"
}
secret() { cat "$(secret_file "$1")"; }
db_user=(); if [ "$(id -u)" -eq 0 ]; then db_user=(runuser -u postgres --); fi
# PostgreSQL refuses to run as root: as root, Patroni (and so PostgreSQL) and psql run as the postgres user.
as_db_user() { (cd "$d" && "${db_user[@]}" "$@"); }

# curl with a time limit, verifying the server against the deployment's CA when it has one.
tls_args=(); if [ "$SCHEME" = https ]; then tls_args=(--cacert "$d/tls/ca.crt"); fi
fetch() { curl -sS --connect-timeout 3 --max-time "${FETCH_SECONDS:-5}" "${tls_args[@]}" "$@"; }

# An etcd member serves clients on 127.0.0.1 only until open-etcd has seen authentication on: etcd_fetch connects
# there until then, verifying the certificate for the host's address all the same.
etcd_open() { [ -e "$d/etcd.open" ]; }
etcd_fetch() { local via=(); etcd_open || via=(--connect-to "::127.0.0.1:"); fetch "${via[@]}" "$@"; }
etcd_url() { echo "$SCHEME://$HOST_ADDRESS:$ETCD_PORT$1"; }
# etcd_api ENDPOINT [HEADER_FILE]: POSTs standard input (JSON) to this member's JSON API (no etcdctl needed).
etcd_api() {
  etcd_fetch -f -X POST -H "Content-Type: application/json" ${2:+-H "@$2"} --data-binary @- "$(etcd_url "/v3/$1")"
}
b64() { printf '%s' "$1" | base64 -w0; }
# credentials NAME ROLE: etcd's JSON for user NAME with the password in secrets/ROLE.password, built by jq from the
# file (so never on a command line).
credentials() {
  jq -n --arg name "$1" --rawfile password "$d/secrets/$2.password" '{name: $name, password: ($password | rtrimstr("\n"))}'
}
# root_token FILE: writes a header carrying etcd's root token to FILE (mode 600).
root_token() {
  local token; token=$(credentials root etcd-root | etcd_api auth/authenticate | jq -r .token)
  [ -n "$token" ] && [ "$token" != null ] || die "etcd refused root's password"
  (umask 077; printf 'Authorization: %s\n' "$token" > "$1")
}
# Whether this member refuses an unauthenticated read (authentication on).
etcd_refuses_anonymous() {
  local answer
  answer=$(printf '{"key":"%s"}' "$(b64 /store/)" | FETCH_SECONDS=3 etcd_fetch -X POST --data-binary @- "$(etcd_url /v3/kv/range)" 2>/dev/null || true)
  case "$answer" in *"user name is empty"*) return 0;; *) return 1;; esac
}

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
# What stop looks for in each process's command line.
etcd_marks=(etcd "--config-file $d/etcd")
store_marks=(-jar "serve --port $STORE_PORT")

# launch NAME COMMAND...: runs COMMAND in the background (as the user run_as names, if any), detached: in a session
# of its own (setsid: a terminal's Ctrl-C, or a timeout around host.sh, does not reach it), standard input from
# /dev/null, output appended to NAME.log, and none of the caller's other files open (a lock such as flock's, a pipe
# someone reads to its end); the process writes its own PID to NAME.pid before it becomes COMMAND.
run_as=()
launch() {
  local name=$1; shift
  rm -f "$d/$name.pid"
  (cd "$d" || exit 1
   for fd in /proc/$BASHPID/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi; done
   exec setsid "${run_as[@]}" sh -c 'echo $$ > "$0"; exec "$@"' "$d/$name.pid" "$@") \
    >> "$d/$name.log" 2>&1 < /dev/null &
  for _ in $(seq 100); do [ -s "$d/$name.pid" ] && return 0; sleep 0.1; done
  die "$name did not start: see $d/$name.log"
}

ready() {
  case "$1" in
    etcd) etcd_fetch -f -o /dev/null "$(etcd_url /version)";;
    postgres) fetch -f -o /dev/null "$SCHEME://$HOST_ADDRESS:$PATRONI_PORT/health";;
    primary) fetch -f -o /dev/null "$SCHEME://$HOST_ADDRESS:$PATRONI_PORT/primary";;
    replicated) fetch -f "$SCHEME://$HOST_ADDRESS:$PATRONI_PORT/cluster" | jq -e --argjson nodes "$DATABASE_COUNT" \
      '([.members[] | select(.role == "sync_standby")] | length >= 1)
       and ([.members[] | select(.state == "streaming" or .state == "running")] | length >= $nodes)' > /dev/null;;
    store) curl -sf --connect-timeout 3 --max-time 5 -o /dev/null "http://$HOST_ADDRESS:$MANAGEMENT_PORT/health/ready";;
    haproxy) curl -sf --connect-timeout 3 --max-time 5 -o /dev/null "http://$HOST_ADDRESS:$HAPROXY_PORT/API/Store.asmx?wsdl";;
    *) die "unknown: ready $1 (etcd, postgres, primary, replicated, store, haproxy)";;
  esac
}
# await SECONDS WHAT: ready WHAT, tried every half second for SECONDS.
await() {
  for _ in $(seq $(($1 * 2))); do ready "$2" 2>/dev/null && return 0; sleep 0.5; done
  ready "$2"
}

# The Store server's jar and Java, checked before anything is stopped: java -jar JAR --version must work.
check_store() {
  [ -r "$jar" ] || die "no server jar at $jar (mvn -B -ntp package -DskipTests, or set STORE_JAR)"
  command -v "$java" > /dev/null || die "no $java here (set JAVA)"
  "$java" -jar "$jar" --version > /dev/null 2>&1 || die "$java cannot run $jar (java -jar $jar --version fails)"
}
start_store() {
  check_store
  # Its settings from store.env (STORE_*); --port on the command line too, so that stop can tell this server's
  # process from another's on the same machine.
  (set -a; . "$d/store.env"; set +a
   launch store "$java" "-Xmx${STORE_XMX:-256m}" -jar "$jar" serve --port "$STORE_PORT")
}

# Patroni (with the interpreter its script names), with urllib3's own TLS put back: python-etcd (which Patroni imports) swaps it for pyOpenSSL, whose sockets
# refuse shutdown(how), so Debian 12's Patroni 3.0.2 cannot end its etcd watch when it moves to another member over
# HTTPS (patroni/patroni#3420). A watch left on a member that went away then keeps the node's view of the leader lock
# stale until TCP gives up (about 20 s): a failover took 29 s instead of 17 when the primary's host was cut off.
patroni_main='import sys
try:
    import etcd, urllib3.contrib.pyopenssl as pyopenssl
    pyopenssl.extract_from_urllib3()
except ImportError:
    pass
from patroni.__main__ import main
sys.argv[0] = "patroni"
sys.exit(main())'

start_role() {
  case "$1" in
    etcd)
      config=etcd-init.yml; etcd_open && config=etcd.yml
      if ! etcd_open && timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$ETCD_PORT" 2>/dev/null; then
        die "something already listens on 127.0.0.1:$ETCD_PORT (Debian's etcd service? systemctl disable --now etcd)"
      fi
      if etcd_open; then say "starting etcd (clients on $HOST_ADDRESS:$ETCD_PORT)"
      else say "starting etcd (clients on 127.0.0.1:$ETCD_PORT until authentication is on; peers on $HOST_ADDRESS)"; fi
      launch etcd etcd --config-file "$d/$config";;
    postgres)
      say "starting Patroni (PostgreSQL on $HOST_ADDRESS:$POSTGRES_PORT)"
      for s in superuser replicator rewinder patroni-rest etcd-patroni; do secret_file "$s" > /dev/null; done
      mkdir -p -m 700 "$d/data"
      if [ "$(id -u)" -eq 0 ]; then chown postgres: "$d" "$d/data" "$d/secrets" "$d"/secrets/* && chown -R postgres: "$d/tls" 2>/dev/null || true; fi
      # Passwords through the environment, read from secrets/ (never a command line or the YAML file). Patroni takes
      # the etcd credentials from its environment only beside PATRONI_ETCD3_HOSTS.
      command -v patroni > /dev/null || die "no patroni here (apt-get install patroni)"
      local run_as=("${db_user[@]}") python; read -r -a python < <(sed -n '1s/^#! *//p' "$(command -v patroni)")
      PATRONI_SUPERUSER_PASSWORD=$(secret superuser) PATRONI_REPLICATION_PASSWORD=$(secret replicator) \
      PATRONI_REWIND_PASSWORD=$(secret rewinder) PATRONI_RESTAPI_USERNAME=patroni \
      PATRONI_RESTAPI_PASSWORD=$(secret patroni-rest) PATRONI_ETCD3_HOSTS=$(echo $ETCD_MEMBERS | tr ' ' ',') \
      PATRONI_ETCD3_USERNAME=patroni PATRONI_ETCD3_PASSWORD=$(secret etcd-patroni) \
        launch patroni "${python[@]}" -c "$patroni_main" "$d/patroni.yml";;
    store)
      say "starting the Store server on $HOST_ADDRESS:$STORE_PORT (management $MANAGEMENT_PORT)"
      start_store;;
    haproxy)
      say "starting HAProxy on $HOST_ADDRESS:$HAPROXY_PORT"
      launch haproxy haproxy -db -f "$d/haproxy.cfg";;
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
    has etcd && [ "$HOST_NAME" = "$ETCD_INIT_HOST" ] || die "init-etcd runs on $ETCD_INIT_HOST (it holds etcd's root password)"
    ! etcd_open || die "etcd here already serves the network: init-etcd runs before open-etcd"
    secret_file etcd-root > /dev/null; secret_file etcd-patroni > /dev/null
    await 30 etcd || die "etcd does not answer on 127.0.0.1:$ETCD_PORT"
    # Users are made only once the members have elected a leader.
    for _ in $(seq 60); do etcd_fetch -f "$(etcd_url /health)" 2>/dev/null | jq -e '.health == "true"' > /dev/null && break; sleep 0.5; done
    # Bodies on standard input: the passwords never reach a command line.
    credentials root etcd-root | etcd_api auth/user/add > /dev/null
    echo '{"name":"root"}' | etcd_api auth/role/add > /dev/null
    echo '{"user":"root","role":"root"}' | etcd_api auth/user/grant > /dev/null
    credentials patroni etcd-patroni | etcd_api auth/user/add > /dev/null
    echo '{"name":"patroni"}' | etcd_api auth/role/add > /dev/null
    printf '{"name":"patroni","perm":{"permType":"READWRITE","key":"%s","range_end":"%s"}}' "$(b64 /store/)" "$(b64 /store0)" \
      | etcd_api auth/role/grant > /dev/null
    echo '{"user":"patroni","role":"patroni"}' | etcd_api auth/user/grant > /dev/null
    echo '{}' | etcd_api auth/enable > /dev/null
    # Check: without credentials nothing is readable now.
    etcd_refuses_anonymous || die "etcd still answers without credentials"
    say "etcd authentication on: users root and patroni (read-write on /store/ only); now open-etcd on every etcd host";;
  open-etcd)
    has etcd || die "open-etcd runs on an etcd host"
    if etcd_open; then say "etcd already serves clients on $HOST_ADDRESS:$ETCD_PORT"; exit 0; fi
    # Only once authentication is on (init-etcd turned it on for the whole cluster; this member may apply it later).
    for _ in $(seq 20); do etcd_refuses_anonymous && break; sleep 0.5; done
    etcd_refuses_anonymous || die "etcd answers without credentials here: run init-etcd on $ETCD_INIT_HOST first"
    stop_process "$d/etcd.pid" "${etcd_marks[@]}"
    touch "$d/etcd.open"
    start_role etcd
    await 30 etcd || die "etcd did not answer on $HOST_ADDRESS:$ETCD_PORT within 30 s"
    say "etcd serves clients on $HOST_ADDRESS:$ETCD_PORT";;
  add-etcd-member)
    has etcd && [ "$HOST_NAME" = "$ETCD_INIT_HOST" ] || die "add-etcd-member runs on $ETCD_INIT_HOST (it holds etcd's root password)"
    peer=${1:?add-etcd-member PEER_URL, e.g. $SCHEME://192.0.2.14:2380}
    secret_file etcd-root > /dev/null
    scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
    root_token "$scratch/authorization"
    jq -n --arg peer "$peer" '{peerURLs: [$peer]}' | etcd_api cluster/member/add "$scratch/authorization" | jq -c '.member'
    say "member $peer announced: start etcd on it with initial-cluster-state: existing";;
  init-database)
    has postgres || die "init-database runs on a database host"
    # Under synchronous_mode_strict a commit waits for a synchronous standby: wait for one first.
    ready primary 2>/dev/null || die "this node is not the primary: run init-database on the primary's host"
    await 120 replicated > /dev/null || die "no synchronous standby within 2 minutes (start postgres on the other database hosts)"
    # The statements on standard input, the password read by psql from its file (a password on psql's command line
    # would show in ps); over the local socket, as the postgres system user (pg_hba: "local all postgres peer").
    # Run again, it sets the password from the file and keeps the database.
    password_file=$(secret_file store-app)
    printf '%s\n' '\set ON_ERROR_STOP on' "\\set password \`cat '$password_file'\`" \
      "SELECT format(CASE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = 'store') THEN 'ALTER ROLE store LOGIN PASSWORD %L'" \
      "  ELSE 'CREATE ROLE store LOGIN PASSWORD %L' END, :'password') \\gexec" \
      "SELECT 'CREATE DATABASE store OWNER store' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'store') \\gexec" \
      | PGCONNECT_TIMEOUT=10 as_db_user timeout 120 psql -q -X -h "$d" -p "$POSTGRES_PORT" -U postgres -d postgres > /dev/null
    say "created the store role and database";;
  restart-store)
    has store || die "this host runs no Store server"
    check_store
    pid=$(pid_in "$d/store.pid")
    if ours "$pid" "${store_marks[@]}"; then
      say "stopping the Store server (PID $pid): it drains first"
      kill -TERM "$pid"
      for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -0 "$pid" 2>/dev/null && die "the Store server did not stop within 60 s"
    fi
    say "starting the Store server"
    start_store
    await 60 store || die "the Store server was not ready within 60 s"
    sleep 2.5 # HAProxy's next check (inter 1s, rise 1) has passed: it sends to this server again
    say "the Store server is back";;
  ready)
    ready "${1:?which: etcd, postgres, primary, replicated, store, haproxy}";;
  stop)
    purge=0
    case "${1:-}" in --purge) purge=1;; '') ;; *) die "usage: host.sh HOST_DIR stop [--purge]";; esac
    if [ "$purge" = 1 ] && ! grep -qxF "rendered=$d" "$d/store-ha.deployment" 2>/dev/null; then
      die "not purging $d: render.sh did not mark it as this host's directory (no store-ha.deployment naming it); nothing stopped"
    fi
    stop_process "$d/haproxy.pid" haproxy "$d/haproxy.cfg"
    stop_process "$d/store.pid" "${store_marks[@]}"
    stop_process "$d/patroni.pid" patroni "$d/patroni.yml"
    # A PostgreSQL left behind (its Patroni killed hard): the postmaster's command line names its data directory.
    pid=$(pid_in "$d/data/postmaster.pid")
    if ours "$pid" "$d/data"; then kill -QUIT "$pid" 2>/dev/null || true; fi
    stop_process "$d/etcd.pid" "${etcd_marks[@]}"
    if [ "$purge" = 1 ]; then
      rm -rf "$d"
      say "deleted $d (this host's files, data, logs and secrets)"
    fi;;
  *) die "unknown command $command (start, init-etcd, open-etcd, add-etcd-member, init-database, restart-store, ready, stop)";;
esac
