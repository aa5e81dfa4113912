#!/usr/bin/env bash
# The server's container image, as an OCI image archive that `podman load` (or `docker load`) takes, named
# store-server:VERSION, made from Debian's packages and the project's own jar only, with no registry:
#   - a root file system of five Debian packages, extracted by mmdebstrap (libc6, libgcc-s1, libstdc++6,
#     gcc-12-base, zlib1g: what the JVM and SQLite's native library link against); no shell, no package manager;
#   - a Java runtime made by jlink from the build's JDK (its jmods), with only the modules the server jar needs
#     (jdeps) and the TLS ones (about 80 MB, against 189 MB for Debian's openjdk-17-jre-headless alone, whose
#     dependencies add fonts, sound, printing and NSS libraries, and whose maintainer scripts need a shell);
#   - store-server.jar and sqlite-jdbc's native library for this architecture, taken out of it, so that nothing is
#     extracted at run time (the root file system may be read-only);
#   - a user, store (10001), who owns the volume /var/lib/store, the working directory.
# Reproducible: every file's time is SOURCE_DATE_EPOCH (default: the commit's time, as the jar's outputTimestamp),
# owners and order are fixed, and the layer and archive are written by this script; so two builds of one commit,
# with the same Debian packages and JDK, give the same archive and the same image id. Needs mmdebstrap, python3 and
# a JDK with jmods (JAVA_HOME, else the one javac runs); root, or mmdebstrap's unshare mode. Runs in seconds.
#
# usage: release/image.sh OUT.tar [JAR]       JAR defaults to store-examples/target/store-server.jar
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: release/image.sh OUT.tar [JAR]" >&2; exit 2; }
out=$(realpath -m "$1")
jar=$(realpath -m "${2:-$root/store-examples/target/store-server.jar}")
say() { echo "image: $*" >&2; }
fail() { echo "image: FAILED: $*" >&2; exit 1; }
[ -f "$jar" ] || fail "no $jar (build it with: mvn -B -ntp -q package -DskipTests)"
command -v mmdebstrap >/dev/null || fail "no mmdebstrap (apt-get install mmdebstrap)"

# jlink needs a JDK with jmods: JAVA_HOME's, else the one javac runs, else the first under /usr/lib/jvm.
java_home=""
for candidate in "${JAVA_HOME:-}" "$(dirname "$(dirname "$(readlink -f "$(command -v javac || echo /)")")")" /usr/lib/jvm/*; do
  if [ -n "$candidate" ] && [ -f "$candidate/jmods/java.base.jmod" ] && [ -x "$candidate/bin/jlink" ]; then
    java_home=$candidate
    break
  fi
done
[ -n "$java_home" ] || fail "no JDK with jmods for jlink (Debian's openjdk-17-jdk-headless has them)"
version=$(unzip -p "$jar" store-server-version.properties | sed -n 's/^version=//p' | tr -d '\r')
[ -n "$version" ] || fail "no version in $jar"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$root" log -1 --format=%ct) || fail "no commit to take the time from; set SOURCE_DATE_EPOCH"
fi
export SOURCE_DATE_EPOCH
case "$(uname -m)" in
  x86_64) arch=amd64 sqlite_dir=Linux/x86_64 ;;
  aarch64) arch=arm64 sqlite_dir=Linux/aarch64 ;;
  *) fail "no image for $(uname -m)" ;;
esac
# Debian's release the root file system comes from; the JDK's libraries must link against its glibc.
suite=${STORE_IMAGE_SUITE:-bookworm}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say "root file system from Debian $suite (mmdebstrap)"
mmdebstrap --quiet --variant=extract --include=libc6,libgcc-s1,libstdc++6,gcc-12-base,zlib1g \
    "$suite" "$work/rootfs.tar"

# The modules the jar uses (jdeps), and those a client may need at run time that no class names: TLS's elliptic
# curves and the JDK's DNS name service (a PostgreSQL host name). jdk.unsupported: sun.misc.Unsafe (Jetty, HikariCP).
modules=$("$java_home/bin/jdeps" --ignore-missing-deps --multi-release 17 --print-module-deps "$jar")
modules="$modules,jdk.crypto.ec,jdk.naming.dns,jdk.unsupported"
say "Java runtime (jlink from $java_home): $modules"
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --output "$work/java"
unzip -q -d "$work/sqlite" "$jar" "org/sqlite/native/$sqlite_dir/libsqlitejdbc.so"

python3 "$root/release/oci-archive.py" --out "$out" --rootfs "$work/rootfs.tar" --java "$work/java" --jar "$jar" \
    --sqlite "$work/sqlite/org/sqlite/native/$sqlite_dir/libsqlitejdbc.so" --version "$version" --arch "$arch" \
    --epoch "$SOURCE_DATE_EPOCH"
say "$out: store-server:$version, $(stat -c %s "$out") bytes"
