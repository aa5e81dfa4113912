#!/usr/bin/env bash
# The mutation check (TESTING.md): each planted bug under store-jdbc/src/test/mutations/*/NN-name.patch is applied
# with `git apply`, the test its header names ("# Test: Name") is run as CI runs it, and the patch is reverted. A
# patch is caught when an assertion of that test fails (an error, such as a connection that timed out on a busy
# machine, is no catch); one whose test passes survived, and the schedules need improving. Prints a score table;
# exits 1 if any patch was not caught.
#
#   store-jdbc/src/test/mutations/run.sh [PATTERN]    # only the patches whose path (postgres/03-...) contains PATTERN
#
# A header may also name "# Module: m" (default store-jdbc) and "# Properties: -Dx=y ..." for the test's run. Each
# run's log is kept in store-jdbc/target/mutations/. The tests need what they need in CI: for postgres/,
# STORE_TEST_POSTGRES_URL.
set -uo pipefail
cd "$(git rev-parse --show-toplevel)"
pattern="${1:-}"
dir=store-jdbc/src/test/mutations
logs=store-jdbc/target/mutations
mkdir -p "$logs"
if ! git diff --quiet HEAD -- '*/src/main'; then
  echo "mutations: uncommitted changes under src/main; commit or stash them first" >&2
  exit 2
fi
applied=""
trap '[ -n "$applied" ] && git apply -R "$applied"' EXIT
rows=()
survivors=0
for patch in $(find "$dir" -name '*.patch' | sort); do
  name="${patch#"$dir"/}"
  [[ -n "$pattern" && "$name" != *"$pattern"* ]] && continue
  # Header lines before the diff: "# Test: Name" (postgres/) or "Test: Name" (sqlite/), likewise Module, Properties.
  test="$(sed -n 's/^\(# \)\{0,1\}Test: *//p' "$patch" | head -n 1)"
  module="$(sed -n 's/^\(# \)\{0,1\}Module: *//p' "$patch" | head -n 1)"
  properties="$(sed -n 's/^\(# \)\{0,1\}Properties: *//p' "$patch" | head -n 1)"
  log="$logs/${name//\//_}.log"
  if ! git apply "$patch"; then
    rows+=("$name|$test|did not apply")
    survivors=$((survivors + 1))
    continue
  fi
  applied="$patch"
  started=$(date +%s)
  # shellcheck disable=SC2086 # properties: several words
  if mvn -B -ntp -o -q -pl "${module:-store-jdbc}" -am test -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
      $properties >"$log" 2>&1; then
    verdict="SURVIVED"
    survivors=$((survivors + 1))
  elif grep -q 'COMPILATION ERROR' "$log"; then
    verdict="does not compile"
    survivors=$((survivors + 1))
  elif ! grep -Eq 'Tests run: [0-9]+, Failures: [1-9]' "$log"; then
    verdict="test errored, no failed assertion: not a catch (see $log)"
    survivors=$((survivors + 1))
  else
    verdict="caught"
  fi
  git apply -R "$patch"
  applied=""
  found="$(grep -o '[0-9]* violations' "$log" | head -n 1)"
  rows+=("$name|$test|$verdict${found:+ ($found)}, $(( $(date +%s) - started )) s")
  echo "mutations: $name: $verdict${found:+ ($found)}" >&2
done
echo
echo "| patch | test | result |"
echo "|---|---|---|"
for row in "${rows[@]}"; do
  IFS='|' read -r name test result <<<"$row"
  echo "| $name | $test | $result |"
done
caught=$(( ${#rows[@]} - survivors ))
echo
echo "score: $caught of ${#rows[@]} caught, at $(git rev-parse --short HEAD)"
[ "$survivors" -eq 0 ]
