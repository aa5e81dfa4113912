#!/usr/bin/env bash
# What the server jar would weigh with fewer of sqlite-jdbc's native libraries, to decide between one package for
# every platform and one per platform (docs/install.md, "Platforms"): each variant is the built jar with the other
# platforms' libraries deleted (zip -d, so the entries kept are not recompressed). Needs zip and unzip.
#
# usage: release/native-library-sizes.sh [JAR]    JAR defaults to store-examples/target/store-server.jar
set -euo pipefail
cd "$(dirname "$0")/.."
jar=${1:-store-examples/target/store-server.jar}
[ -f "$jar" ] || { echo "native-library-sizes: no $jar (build it with: mvn -B -ntp -q package -DskipTests)" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
variant() { # name, then the native directories to keep
  local name=$1; shift
  cp "$jar" "$work/$name.jar"
  local drop=()
  while IFS= read -r entry; do
    local keep=false
    for dir in "$@"; do case "$entry" in "org/sqlite/native/$dir/"*) keep=true;; esac; done
    $keep || drop+=("$entry")
  done < <(unzip -Z1 "$jar" | grep -E '^org/sqlite/native/.+\.(so|dll|dylib)$')
  [ "${#drop[@]}" -eq 0 ] || zip -q -d "$work/$name.jar" "${drop[@]}"
  printf '%-44s %10d bytes  (%d native libraries)\n' "$name" "$(stat -c %s "$work/$name.jar")" \
      "$(unzip -Z1 "$work/$name.jar" | grep -cE '^org/sqlite/native/.+\.(so|dll|dylib)$' || true)"
}
variant all-platforms FreeBSD Linux Linux-Musl Mac Windows
variant linux-all-arch Linux Linux-Musl
variant linux-glibc+musl-x86_64+aarch64 Linux/x86_64 Linux/aarch64 Linux-Musl/x86_64 Linux-Musl/aarch64
variant linux-glibc-x86_64+aarch64 Linux/x86_64 Linux/aarch64
variant linux-glibc-x86_64 Linux/x86_64
variant no-native
