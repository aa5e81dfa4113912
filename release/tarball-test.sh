#!/usr/bin/env bash
# The server tarball used as its own README.md says: unpacked under /opt/store-like directory with a `current` link,
# started from a data directory outside it with the example settings loaded (edited to a port of this test's own),
# written to, backed up, stopped (exit 0), then upgraded (the new version unpacked beside the old, `current` pointed
# at it) and started again, with the value read back. Nothing may be written inside an unpacked directory, and
# standard error holds nothing but the server's log (no JVM warning). The README must be the tarball's own, and the
# example settings must not be the Debian package's. Needs no root; CI runs it after the release build (.ci/run).
#
# usage: release/tarball-test.sh [TARBALL]    TARBALL defaults to store-examples/target/store-server-*.tar.gz
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=${1:-$(ls store-examples/target/store-server-*.tar.gz 2>/dev/null | head -n 1)}
[ -f "$tarball" ] || { echo "tarball-test: no tarball (build it with: mvn -B -ntp -Prelease -DskipTests package)" >&2; exit 1; }
tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
name=$(basename "$tarball" .tar.gz)
work=$(mktemp -d)
server_pid=""

say() { echo "tarball-test: $*"; }
fail() { echo "tarball-test: FAILED: $*" >&2; exit 1; }
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

opt=$work/opt/store
srv=$work/srv/store
mkdir -p "$opt" "$srv"
say "unpacking $tarball"
tar xzf "$tarball" -C "$opt"
for file in bin/store-server lib/store-server.jar store.env.example README.md LICENSE NOTICE; do
  [ -e "$opt/$name/$file" ] || fail "the tarball has no $name/$file"
done
[ -x "$opt/$name/bin/store-server" ] || fail "bin/store-server is not executable"
grep -q '^## Upgrade' "$opt/$name/README.md" || fail "README.md is not the tarball's own (no Upgrade section)"
! grep -q 'mvn \|store-examples/target' "$opt/$name/README.md" || fail "README.md speaks of building from source"
grep -q "$name.tar.gz" "$opt/$name/README.md" || fail "README.md does not name this version's tarball"
! grep -q '/var/lib/store\|/etc/store' "$opt/$name/store.env.example" || fail "store.env.example names the Debian package's paths"
ln -sfn "$name" "$opt/current"
unpacked_state() { (cd "$opt/$1" && find . -printf '%p %s %T@\n' | sort); }
before=$(unpacked_state "$name")

# The README's steps: the example settings copied beside the data, edited, loaded; the server started from there.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cp "$opt/current/store.env.example" "$srv/store.env"
sed -i "s/^STORE_PORT=.*/STORE_PORT=$port/" "$srv/store.env"
start() {
  (cd "$srv" && set -a && . ./store.env && set +a && exec "$opt/current/bin/store-server") \
      > "$work/server.out" 2> "$work/server.err" &
  server_pid=$!
  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/API/Store.asmx?WSDL" 2>/dev/null; then return 0; fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; fail "the server exited before it answered"; }
    sleep 0.5
  done
  cat "$work/server.err" >&2; fail "the server did not answer within 60 s"
}
stop() {
  kill -TERM "$server_pid"
  local status=0
  wait "$server_pid" || status=$?
  server_pid=""
  [ "$status" -eq 0 ] || { cat "$work/server.err" >&2; fail "the server exited with $status on SIGTERM (0 expected)"; }
  [ "$(cat "$work/server.out")" = "http://127.0.0.1:$port/API/Store.asmx" ] || fail "standard output: $(cat "$work/server.out")"
  if grep -qv '^[0-9-]*T[0-9:.+-]* [A-Z]* ' "$work/server.err"; then
    cat "$work/server.err" >&2; fail "standard error holds more than the server's log"
  fi
}

say "serving from $srv on port $port"
start
answer=$(curl -fsS "http://127.0.0.1:$port/API/Store.asmx/WriteString?key=tarball-test&value=kept%20across%20upgrade")
echo "$answer" | grep -q '>Success<' || fail "the write was answered: $answer"
"$opt/current/bin/store-server" backup --storage "sqlite:$srv/data/store.db" "$srv/before-upgrade.db" >/dev/null 2>&1 \
    || fail "backup failed"
stop
[ -f "$srv/data/store.db" ] && [ -f "$srv/before-upgrade.db" ] || fail "no data/store.db or backup under $srv"
[ "$(unpacked_state "$name")" = "$before" ] || fail "the server wrote inside the unpacked directory"

say "upgrading: a new version unpacked beside the old one, current pointed at it"
mkdir "$work/next" && tar xzf "$tarball" -C "$work/next" && mv "$work/next/$name" "$opt/$name-next"
ln -sfn "$name-next" "$opt/current"
start
value=$("$opt/current/bin/store-server" get --storage "sqlite:$srv/data/store.db" tarball-test)
[ "$value" = "kept across upgrade" ] || fail "after the upgrade the value reads '$value'"
stop
say "unpack, start with the example settings, write, back up, upgrade, read back: all passed"
