#!/usr/bin/env bash
# Two clean builds of the committed HEAD give byte-identical release artifacts: every jar (sources and javadoc
# included), the server's tar.gz and .deb, and the SBOMs. Each build runs in a fresh clone with the release command
# (mvn -B -ntp -Prelease -DskipTests package); then each build's container image (release/image.sh, from that
# build's jar) must have the same image id. The first build's artifacts and image are kept in target/release/ of this
# repository (for release/package-test.sh and the image's test). CI runs it (.ci/run).
#
# usage: release/reproducible.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

artifacts() { # the release artifacts under $1, one path per line, relative to $1
  (cd "$1" && find . -path '*/target/*' -maxdepth 3 -type f \
      \( -name '*.jar' -o -name '*.tar.gz' -o -name '*.deb' -o -name '*.cdx.json' -o -name 'bom.json' \) \
      -not -path './store-bench/*' -not -path './store-interop/*' | sort)
}

for build in first second; do
  git clone -q "$root" "$work/$build"
  echo "reproducible: $build build of $(git -C "$work/$build" rev-parse --short HEAD)"
  (cd "$work/$build" && mvn -B -ntp -q -Prelease -DskipTests package)
done

list=$(artifacts "$work/first")
[ -n "$list" ] || { echo "reproducible: the build made no artifacts" >&2; exit 1; }
[ "$list" = "$(artifacts "$work/second")" ] || { echo "reproducible: the two builds made different files" >&2; exit 1; }
differ=0
while IFS= read -r file; do
  if ! cmp -s "$work/first/$file" "$work/second/$file"; then
    echo "reproducible: DIFFERS: $file" >&2
    differ=$((differ + 1))
  fi
done <<< "$list"
count=$(wc -l <<< "$list")
if [ "$differ" -gt 0 ]; then
  echo "reproducible: $differ of $count artifacts differ between two builds of one commit" >&2
  exit 1
fi
echo "reproducible: $count artifacts, byte-identical in two clean builds"

for build in first second; do
  (cd "$work/$build" && bash release/image.sh "$work/$build-image.tar" > "$work/$build-image.id")
done
image_id=$(cat "$work/first-image.id")
[ "$image_id" = "$(cat "$work/second-image.id")" ] \
    || { echo "reproducible: two images: $image_id, $(cat "$work/second-image.id")" >&2; exit 1; }
cmp -s "$work/first-image.tar" "$work/second-image.tar" || { echo "reproducible: the image archives differ" >&2; exit 1; }
echo "reproducible: the container image, built twice: one $image_id"

rm -rf "$root/target/release" && mkdir -p "$root/target/release"
while IFS= read -r file; do cp "$work/first/$file" "$root/target/release/"; done <<< "$list"
cp "$work/first-image.tar" "$root/target/release/store-server-image.tar"
(cd "$root/target/release" && sha256sum -- * > SHA256SUMS)
echo "reproducible: kept in target/release/ with SHA256SUMS"
