#!/usr/bin/env bash
# The Debian package's whole life on this machine, as an operator lives it: install, serve as the systemd unit
# would, write, upgrade (reinstall) with the data and the edited settings kept, read the value back, remove (data
# kept), purge (data, settings and user gone). Needs root and Debian (dpkg, adduser, a Java 17+ runtime package);
# CI runs it after the release build (.ci/run). These machines run no systemd, so the service is started the way
# its unit says: its User, EnvironmentFile, WorkingDirectory and ExecStart, read from the installed unit file.
# The first start runs the default java; with STORE_JDK25_HOME set (.ci/run sets it), the settings then name that
# JDK's java (JAVA=), and the start after the upgrade runs on it. Neither start may print a JVM warning.
#
# usage: release/package-test.sh [DEB]      DEB defaults to store-examples/target/store_*_all.deb
set -euo pipefail
cd "$(dirname "$0")/.."
deb=${1:-$(ls store-examples/target/store_*_all.deb 2>/dev/null | head -n 1)}
[ -f "$deb" ] || { echo "package-test: no .deb (build it with: mvn -B -ntp -Prelease -DskipTests package)" >&2; exit 1; }
unit=/lib/systemd/system/store.service
work=$(mktemp -d)
server_pid=""

say() { echo "package-test: $*"; }
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if dpkg -s store >/dev/null 2>&1; then
  fail "a package named store is installed already; this test installs and purges its own"
fi
unit_value() { sed -n "s/^$1=//p" "$unit" | head -n 1; }

# Starts the service as its unit would, and waits until it answers; sets server_pid.
start_as_unit() {
  local user envfile directory exec
  user=$(unit_value User); envfile=$(unit_value EnvironmentFile); directory=$(unit_value WorkingDirectory)
  exec=$(unit_value ExecStart)
  [ -n "$user" ] && [ -n "$envfile" ] && [ -n "$directory" ] && [ -n "$exec" ] || fail "the unit lacks User, EnvironmentFile, WorkingDirectory or ExecStart"
  # systemd reads EnvironmentFile as KEY=VALUE lines (comments and blank lines skipped), with no shell in between.
  local -a environment=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="$directory" LANG=C.UTF-8)
  while IFS= read -r line; do
    case "$line" in ''|'#'*) continue;; esac
    environment+=("$line")
  done < "$envfile"
  # shellcheck disable=SC2086 # ExecStart is a command line: split as systemd splits it (no quotes in ours)
  # setpriv, not runuser: it only changes the user and execs, so the server is the process signalled, as under systemd.
  (cd "$directory" && exec setpriv --reuid="$user" --regid="$user" --init-groups -- env -i "${environment[@]}" $exec) \
      > "$work/server.out" 2> "$work/server.err" &
  server_pid=$!
  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/API/Store.asmx?WSDL" 2>/dev/null; then return 0; fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; fail "the service exited before it answered"; }
    sleep 0.5
  done
  cat "$work/server.err" >&2; fail "the service did not answer within 60 s"
}

stop_service() {
  kill -TERM "$server_pid"
  local status=0
  wait "$server_pid" || status=$?
  server_pid=""
  [ "$status" -eq 0 ] || { cat "$work/server.err" >&2; fail "the service exited with $status on SIGTERM (0 expected)"; }
  if grep -q '^WARNING' "$work/server.err"; then cat "$work/server.err" >&2; fail "the service printed a JVM warning"; fi
}

say "installing $deb"
DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" >/dev/null
getent passwd store >/dev/null || fail "no store user after install"
[ -d /var/lib/store ] || fail "no /var/lib/store after install"
[ "$(stat -c %U /var/lib/store)" = store ] || fail "/var/lib/store is not the store user's"
dpkg-query -W -f='${Conffiles}\n' store | grep -q '/etc/store/store.env' || fail "/etc/store/store.env is not a conffile"
say "systemd-analyze verify $unit"
systemd-analyze verify "$unit" || fail "systemd-analyze does not accept the unit"

# The operator's edit of the settings: a port of this test's own; the upgrade must keep it.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -i "s/^STORE_PORT=.*/STORE_PORT=$port/" /etc/store/store.env

say "serving as the unit would, on port $port"
start_as_unit
answer=$(curl -fsS "http://127.0.0.1:$port/API/Store.asmx/WriteString?key=package-test&value=kept%20across%20upgrade")
echo "$answer" | grep -q '>Success<' || fail "the write was answered: $answer"
stop_service

java25=""
if [ -n "${STORE_JDK25_HOME:-}" ]; then
  java25=$(readlink -f "$STORE_JDK25_HOME/bin/java")
  echo "JAVA=$java25" >> /etc/store/store.env
fi
say "upgrading (reinstalling the package over itself)"
DEBIAN_FRONTEND=noninteractive dpkg --force-confold -i "$deb" >/dev/null
grep -q "^STORE_PORT=$port\$" /etc/store/store.env || fail "the upgrade did not keep the edited settings"
start_as_unit
if [ -n "$java25" ]; then
  [ "$(readlink -f "/proc/$server_pid/exe")" = "$java25" ] || fail "the service does not run the JAVA its settings name"
  say "serving on the settings' JAVA, $java25"
fi
value=$(cd /var/lib/store && setpriv --reuid=store --regid=store --init-groups -- env -i PATH="$PATH" HOME=/var/lib/store \
    /usr/bin/store-server get --storage sqlite:/var/lib/store/store.db package-test)
[ "$value" = "kept across upgrade" ] || fail "after the upgrade the value reads '$value'"
stop_service
say "the value is there after the upgrade: $value"

say "removing: the data stays"
DEBIAN_FRONTEND=noninteractive dpkg -r store >/dev/null
[ -f /var/lib/store/store.db ] || fail "remove deleted the data"
[ ! -e /usr/share/store/store-server.jar ] || fail "remove left the jar"

say "purging: data, settings and user go"
DEBIAN_FRONTEND=noninteractive dpkg -P store >/dev/null
[ ! -e /var/lib/store ] || fail "purge left /var/lib/store"
[ ! -e /etc/store ] || fail "purge left /etc/store"
! getent passwd store >/dev/null || fail "purge left the store user"
say "install, serve, upgrade with data kept, remove, purge: all passed"
