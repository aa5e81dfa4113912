#!/usr/bin/env bash
# Renders the highly available deployment for every host of an inventory: DIRECTORY/NAME/ holds all that host NAME
# runs (its configuration files, the secrets and TLS files it needs, and later its data and logs). On separate hosts,
# copy DIRECTORY/NAME/ to DIRECTORY/NAME/ on host NAME (the files name that path) and run deploy/ha/host.sh there;
# on one machine (deploy/ha/start.sh) every host's directory is already where it belongs.
#
# usage: deploy/ha/render.sh INVENTORY DIRECTORY     (DIRECTORY: new, empty, or rendered before; render it at the path
#                                                    where the hosts will keep it: the files name that path)
#
# The inventory, one item per line ("#" starts a comment):
#   cluster NAME         the Patroni scope and etcd token (default store-ha)
#   network CIDR         the hosts' network: pg_hba.conf admits it (scram-sha-256), nothing wider
#   secrets DIR          one password file per role; missing ones are made here (random, mode 600); default DIRECTORY/secrets
#   tls DIR              optional: ca.crt, and NAME.crt / NAME.key per database (and etcd) host, each naming the host's
#                        address (subjectAltName) and good for serverAuth and clientAuth; then PostgreSQL takes only
#                        TLS connections (hostssl), verified by name by the Store servers and the replicas
#                        (verify-full), and etcd (clients and peers) and Patroni's REST API speak HTTPS, verified
#                        against ca.crt (etcd's peers present their certificates to each other too)
#   host NAME ADDRESS ROLE... [PORT=N...]
#                        ROLE: etcd, postgres, store, haproxy; PORT (to set when hosts share an address): etcd (2379),
#                        etcd-peer (2380), postgres (5432), patroni (8008), store (8080), management (8081), haproxy (80)
# Per host it writes host.env (for host.sh), and by role: etcd.yml and etcd-init.yml, patroni.yml, store.env (the
# ready server's STORE_* settings, as the Debian package's /etc/store/store.env takes them), haproxy.cfg; secrets/
# and tls/ with only the files that host's roles read. DIRECTORY and each host's directory get a marker,
# store-ha.deployment, naming their path: stop.sh --purge and host.sh stop --purge delete only such a directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "render: $*" >&2; exit 1; }
[ $# -eq 2 ] || { sed -n '2,25p' "$0" >&2; exit 2; }
inventory=$1
[ -r "$inventory" ] || die "cannot read $inventory"
mkdir -p "$2"
out=$(cd "$2" && pwd)
marker=store-ha.deployment
# A directory render.sh marks may later be deleted whole (--purge): never mark one that holds anything else.
if [ ! -f "$out/$marker" ] && [ -n "$(ls -A "$out")" ]; then
  die "$out holds files render.sh did not write: render into a new or empty directory"
fi
# mark DIR WHAT: the marker stop.sh --purge and host.sh stop --purge look for.
mark() {
  printf '%s\n' "# deploy/ha/render.sh rendered this directory ($2). stop.sh --purge and host.sh stop --purge" \
    "# delete a directory only if it holds this file, naming that directory's own path." "rendered=$1" > "$1/$marker"
}

cluster=store-ha; network=; secrets=; tls=
names=(); declare -A address roles port
while read -r kind rest; do
  case "$kind" in
    '') ;;
    cluster) cluster=$rest;;
    network) network=$rest;;
    secrets) secrets=$rest;;
    tls) tls=$rest;;
    host)
      read -r name addr words <<< "$rest"
      [ -n "${addr:-}" ] || die "host line without an address: host $rest"
      [[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] && [ "$name" != secrets ] || die "host $name: not a usable name"
      [ -z "${address[$name]:-}" ] || die "host $name twice"
      names+=("$name"); address[$name]=$addr; roles[$name]=" "
      for word in $words; do
        case "$word" in
          etcd|postgres|store|haproxy) roles[$name]+="$word ";;
          etcd=*|etcd-peer=*|postgres=*|patroni=*|store=*|management=*|haproxy=*) port[$name:${word%%=*}]=${word#*=};;
          *) die "host $name: unknown role or port '$word'";;
        esac
      done;;
    *) die "unknown line: $kind $rest";;
  esac
done < <(sed 's/#.*//' "$inventory")
[ -n "$network" ] || die "no network line: pg_hba.conf admits that network only"
secrets=${secrets:-$out/secrets}
has() { case "${roles[$1]}" in *" $2 "*) return 0;; *) return 1;; esac; }
hosts_with() { local n; for n in "${names[@]}"; do if has "$n" "$1"; then echo "$n"; fi; done; }
portof() {
  local default
  case "$2" in etcd) default=2379;; etcd-peer) default=2380;; postgres) default=5432;; patroni) default=8008;;
    store) default=8080;; management) default=8081;; haproxy) default=80;; esac
  echo "${port[$1:$2]:-$default}"
}
mapfile -t etcds < <(hosts_with etcd)
mapfile -t databases < <(hosts_with postgres)
mapfile -t stores < <(hosts_with store)
count=${#etcds[@]}
if [ "${#databases[@]}" -gt 0 ] && [ $((count % 2)) -ne 1 ]; then
  die "$count etcd members: the leader lock needs an odd number (one per database host: three, or five)"
fi
if [ -n "$tls" ]; then
  [ -r "$tls/ca.crt" ] || die "no $tls/ca.crt"
  for n in "${databases[@]}" "${etcds[@]}"; do [ -r "$tls/$n.crt" ] && [ -r "$tls/$n.key" ] || die "no $tls/$n.crt and $tls/$n.key"; done
fi
# etcd and Patroni's REST API speak HTTPS when the inventory gives TLS files.
scheme=http; [ -n "$tls" ] && scheme=https

# The passwords: one file per role, made once, kept across renders.
mkdir -p -m 700 "$secrets"
for role in superuser replicator rewinder store-app patroni-rest etcd-root etcd-patroni; do
  if [ ! -s "$secrets/$role.password" ]; then
    (umask 077; head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32 > "$secrets/$role.password")
  fi
done

etcd_cluster=$(for n in "${etcds[@]}"; do printf '%s=%s://%s:%s,' "$n" "$scheme" "${address[$n]}" "$(portof "$n" etcd-peer)"; done)
etcd_hosts=$(for n in "${etcds[@]}"; do printf '%s:%s,' "${address[$n]}" "$(portof "$n" etcd)"; done)
etcd_cluster=${etcd_cluster%,}; etcd_hosts=${etcd_hosts%,}
pg_hosts=$(for n in "${databases[@]}"; do printf '%s:%s,' "${address[$n]}" "$(portof "$n" postgres)"; done)
pg_hosts=${pg_hosts%,}
hba=host; [ -n "$tls" ] && hba=hostssl
mark "$out" "the deployment of ${#names[@]} hosts: ${names[*]}"

# etcd_config HOST CLIENT_ADDRESS: etcd's configuration for member HOST, serving clients on CLIENT_ADDRESS.
etcd_config() {
  local n=$1 client=$2 d="$out/$1" a=${address[$1]}
  cat <<EOF
name: $n
data-dir: $d/etcd
listen-client-urls: $scheme://$client:$(portof "$n" etcd)
advertise-client-urls: $scheme://$client:$(portof "$n" etcd)
listen-peer-urls: $scheme://$a:$(portof "$n" etcd-peer)
initial-advertise-peer-urls: $scheme://$a:$(portof "$n" etcd-peer)
initial-cluster: $etcd_cluster
initial-cluster-token: $cluster
initial-cluster-state: new
# Patroni speaks etcd's v3 API through this JSON gateway (the command line's default; a configuration file's is off).
enable-grpc-gateway: true
EOF
  if [ -n "$tls" ]; then
    # Clients verify the member against ca.crt; they authenticate with a password, not a certificate (etcd 3.4's
    # JSON gateway, which Patroni uses, refuses every request once client certificates are required and
    # authentication is on). Peers present their certificates to each other: only a host with a certificate from
    # this CA can take part in the cluster.
    cat <<EOF
client-transport-security:
  cert-file: $d/tls/server.crt
  key-file: $d/tls/server.key
peer-transport-security:
  cert-file: $d/tls/server.crt
  key-file: $d/tls/server.key
  trusted-ca-file: $d/tls/ca.crt
  client-cert-auth: true
EOF
  fi
}

for n in "${names[@]}"; do
  d="$out/$n"; a=${address[$n]}
  if [ -e "$d" ] && [ ! -f "$d/$marker" ]; then die "$d exists and render.sh did not write it"; fi
  mkdir -p "$d"; chmod 755 "$d"
  mark "$d" "host $n"
  # Each host holds the secrets and TLS files its roles read, and no others (nor any left from an earlier render).
  mkdir -p -m 700 "$d/secrets"; rm -f "$d"/secrets/*.password; rm -rf "$d/tls"
  if [ -n "$tls" ] && { has "$n" etcd || has "$n" postgres || has "$n" store; }; then
    mkdir -p "$d/tls"; cp "$tls/ca.crt" "$d/tls/ca.crt"
  fi
  if [ -n "$tls" ] && { has "$n" etcd || has "$n" postgres; }; then
    cp "$tls/$n.crt" "$d/tls/server.crt"; (umask 077; cp "$tls/$n.key" "$d/tls/server.key"); chmod 600 "$d/tls/server.key"
  fi
  {
    echo "# Rendered by deploy/ha/render.sh from $(basename "$inventory"); read by deploy/ha/host.sh."
    echo "HOST_NAME=$n"; echo "HOST_ADDRESS=$a"; echo "HOST_ROLES='${roles[$n]# }'"; echo "HOST_DIR=$d"
    for key in etcd postgres patroni store management haproxy; do
      echo "$(echo "$key" | tr a-z A-Z)_PORT=$(portof "$n" "$key")"
    done
    echo "ETCD_MEMBERS='$(for e in "${etcds[@]}"; do printf '%s:%s ' "${address[$e]}" "$(portof "$e" etcd)"; done)'"
    echo "ETCD_INIT_HOST=${etcds[0]:-}"
    echo "DATABASE_COUNT=${#databases[@]}"
    echo "SCHEME=$scheme"
  } > "$d/host.env"

  if has "$n" etcd; then
    {
      echo "# etcd member $n of $count: the DCS where Patroni keeps the leader lock. A lock needs a majority of the"
      echo "# members, so three members survive the loss of one. Clients (Patroni) authenticate with a password. Used"
      echo "# once host.sh open-etcd has seen authentication on: clients on the host's own address."
      etcd_config "$n" "$a"
    } > "$d/etcd.yml"
    {
      echo "# etcd member $n before authentication is on: clients on 127.0.0.1 only, so that nobody on the network can"
      echo "# reach it while it has no users (peers on the host's address, to form the cluster). host.sh start etcd uses"
      echo "# it until host.sh init-etcd (on ${etcds[0]}) has turned authentication on and host.sh open-etcd has"
      echo "# restarted the member with etcd.yml. Keep it as etcd.yml is but for the client URLs."
      etcd_config "$n" 127.0.0.1
    } > "$d/etcd-init.yml"
    # The first member's host creates etcd's users (host.sh init-etcd): it alone holds root's password.
    if [ "$n" = "${etcds[0]}" ]; then cp "$secrets/etcd-root.password" "$secrets/etcd-patroni.password" "$d/secrets/"; fi
  fi

  if has "$n" postgres; then
    bin_dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    ssl_parameters=""; ssl_client=""; restapi_tls=""; etcd_tls=""
    if [ -n "$tls" ]; then
      restapi_tls="
  # HTTPS; Patroni verifies the other members' API against the CA (and presents its certificate to them).
  certfile: $d/tls/server.crt
  keyfile: $d/tls/server.key
  cafile: $d/tls/ca.crt"
      etcd_tls="
  protocol: https
  cacert: $d/tls/ca.crt"
      ssl_parameters="
    ssl: \"on\"
    ssl_cert_file: $d/tls/server.crt
    ssl_key_file: $d/tls/server.key
    ssl_ca_file: $d/tls/ca.crt"
      ssl_client="
      sslmode: verify-full
      sslrootcert: $d/tls/ca.crt"
    fi
    cat > "$d/patroni.yml" <<EOF
# Patroni-managed PostgreSQL node $n (rendered by deploy/ha/render.sh). Passwords are not in this file: host.sh
# gives Patroni its own from secrets/ through its environment (PATRONI_SUPERUSER_PASSWORD, _REPLICATION_, _REWIND_,
# PATRONI_RESTAPI_PASSWORD, PATRONI_ETCD3_PASSWORD).
# What must stay:
#   - synchronous_mode: true and synchronous_mode_strict: true with synchronous_commit "on": a write Store
#     acknowledged is on two nodes, so a failover (which promotes only the synchronous standby) loses none. Strict
#     is what makes that true when both standbys are down: writes then wait for one to come back, and are answered
#     Error after Store's failoverTimeoutMillis, instead of committing on the primary alone. To prefer availability
#     over that promise, set synchronous_mode_strict: false (patronictl edit-config): with no standby, writes then
#     commit on one node, and a failover while it is so loses them;
#   - ttl / loop_wait / retry_timeout: how long a dead primary keeps its lock. Store's failoverTimeoutMillis
#     (30 s by default) must stay above ttl + loop_wait, so that writes wait out a failover instead of failing;
#   - pg_hba: the superuser only over the local socket as the postgres system user, refused from any address; from
#     the hosts' network only, with scram-sha-256 (hostssl when TLS is given), each role to what it needs:
#     replicator to replicate, rewinder to the postgres database (pg_rewind), store to the store database.
scope: $cluster
namespace: /store/
name: $n

restapi:
  listen: $a:$(portof "$n" patroni)
  connect_address: $a:$(portof "$n" patroni)$restapi_tls
  # Changing requests (switchover, restart, reload, ...) need these credentials; reading requests (GET /primary,
  # /health, /cluster, /config, ...) do not: docs/operating.md, "What is protected".
  authentication:
    username: patroni

etcd3:
  hosts: $etcd_hosts$etcd_tls
  username: patroni

bootstrap:
  dcs:
    ttl: 10               # a primary that stops renewing its lock loses it after 10 s
    loop_wait: 2          # each Patroni checks its node every 2 s
    retry_timeout: 5      # DCS and PostgreSQL operations give up after 5 s
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true   # no synchronous standby: writes wait rather than commit on one node
    postgresql:
      use_pg_rewind: true
      pg_hba:
        # The superuser over the local socket as the postgres system user (Patroni, host.sh init-database), and
        # from no address at all, whatever the password.
        - local all postgres peer
        - host all postgres all reject
        - host replication postgres all reject
        # From the hosts' network, each role to what it needs: replication and cloning, pg_rewind after a
        # failover (it reads the postgres database), the Store servers.
        - $hba replication replicator $network scram-sha-256
        - $hba postgres rewinder $network scram-sha-256
        - $hba store store $network scram-sha-256
      parameters:
        synchronous_commit: "on"
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 100   # servers x poolSize + 3 reserved + replication: see docs/storage.md, "Pool size against max_connections"
  initdb:
    - encoding: UTF8
    - locale: C
    - data-checksums

postgresql:
  listen: $a:$(portof "$n" postgres)
  connect_address: $a:$(portof "$n" postgres)
  use_unix_socket: true
  data_dir: $d/data
  bin_dir: $bin_dir
  pgpass: $d/pgpass
  authentication:
    superuser:
      username: postgres
    replication:
      username: replicator$ssl_client
    rewind:
      username: rewinder$ssl_client
  parameters:
    unix_socket_directories: $d
    password_encryption: scram-sha-256$ssl_parameters

tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
EOF
    # Patroni's own (superuser, replicator, rewinder, patroni-rest, etcd-patroni) and store-app for init-database.
    cp "$secrets"/{superuser,replicator,rewinder,store-app,patroni-rest,etcd-patroni}.password "$d/secrets/"
  fi

  if has "$n" store; then
    url="jdbc:postgresql://$pg_hosts/store?user=store&targetServerType=primary&hostRecheckSeconds=1&connectTimeout=2"
    url="$url&poolSize=4&passwordFile=$d/secrets/store-app.password"
    if [ -n "$tls" ]; then
      url="$url&ssl=true&sslmode=verify-full&sslrootcert=$d/tls/ca.crt"
    fi
    cat > "$d/store.env" <<EOF
# Store server $n (rendered by deploy/ha/render.sh): the ready server's settings, as its STORE_* variables.
# The endpoint and the management port listen on this host's address, for HAProxy; keep the management port
# (/metrics, /health) to the hosts' network: docs/operating.md, "Firewall".
STORE_HOST=$a
STORE_PORT=$(portof "$n" store)
STORE_MANAGEMENT_HOST=$a
STORE_MANAGEMENT_PORT=$(portof "$n" management)
EOF
    if [ "${#databases[@]}" -gt 0 ]; then
      # Every node: pgjdbc connects to the one that is primary now, and checks again every second which one that
      # is. The password from a file, never on a command line.
      # Quoted: read by a shell (host.sh) the &s would end the line; systemd's EnvironmentFile drops the quotes.
      echo "STORE_STORAGE=\"$url\"" >> "$d/store.env"
      cp "$secrets/store-app.password" "$d/secrets/"
    fi
  fi

  if has "$n" haproxy; then
    {
      cat <<EOF
# HAProxy in front of the Store servers (rendered by deploy/ha/render.sh).
# What must stay:
#   - the check asks each server's readiness (GET /health/ready on its management port), which answers 200 only
#     where a write would commit now, and takes at most the server's readiness time-out (2 s by default): the
#     check's own time-out ("timeout check") must be longer, or every server is taken out whenever the probe waits;
#   - "timeout server" above Store's failoverTimeoutMillis (30 s) plus one attempt: a write that arrived while
#     there was no primary is answered once a new one commits it;
#   - the backup lines: when no server is ready (no primary anywhere, for the seconds of a failover), requests still
#     go to the servers, where they wait for the new primary, instead of HAProxy answering 503 at once: to a legacy
#     client, which does not retry, a 503 is a lost write.
global
    maxconn 2000
    # One line per request on standard output (host.sh keeps it in haproxy.log; under systemd, the journal).
    log stdout format raw local0

defaults
    mode http
    log global
    option httplog
    # A server that is stopping refuses new connections before its readiness check has failed twice: such a
    # connection is tried again on another server.
    retries 3
    option redispatch
    timeout connect 2s
    timeout client 120s
    timeout server 60s
    timeout check 3s

frontend store
    bind $a:$(portof "$n" haproxy)
    default_backend store_servers

backend store_servers
    balance roundrobin
    option httpchk GET /health/ready
    http-check expect status 200
    default-server inter 1s fall 2 rise 1
EOF
      for s in "${stores[@]}"; do
        echo "    server $s ${address[$s]}:$(portof "$s" store) check port $(portof "$s" management)"
      done
      echo "    option allbackups"
      for s in "${stores[@]}"; do
        echo "    server $s-wait ${address[$s]}:$(portof "$s" store) backup"
      done
    } > "$d/haproxy.cfg"
  fi
  chmod 600 "$d"/secrets/* 2>/dev/null || true
done
echo "render: ${#names[@]} hosts in $out (${names[*]})"
