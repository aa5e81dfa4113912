#!/usr/bin/env bash
# Import rate, same run: alternates server jars and storages, a fresh target each time (BENCHMARKS.md, "Import").
#
#   store-bench/import-rate.sh [--lines N] [--rounds R] [--storages "memory sqlite postgresql"] [--dir DIR] \
#       LABEL=JAR [LABEL=JAR ...]
#
# Input: N lines (default 1,000,000) in export's format, 100-character text values, keys in export's order,
# generated once into DIR (default store-bench/target/import-rate) by python3. postgresql needs
# STORE_BENCH_POSTGRES_URL (a jdbc:postgresql: URI; the table import_rate in it is dropped before each run) and psql.
# Prints one line per import: round, label, storage, load average before it, the import's own rate line, and the
# JVM's user and system CPU seconds and peak RSS KiB (GNU time).
set -euo pipefail

lines=1000000 rounds=3 storages="memory sqlite" dir=store-bench/target/import-rate
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --lines) lines=$2 ;;
    --rounds) rounds=$2 ;;
    --storages) storages=$2 ;;
    --dir) dir=$2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
[[ $# -gt 0 ]] || { echo "usage: $0 [options] LABEL=JAR ..." >&2; exit 2; }
mkdir -p "$dir"
input=$dir/lines-$lines.jsonl
if [[ ! -s $input ]]; then
  python3 - "$lines" > "$input" <<'EOF'
import random, string, sys
n = int(sys.argv[1])
rnd = random.Random(14)
alphabet = string.ascii_letters + string.digits + " "
for i in range(n):
    value = "".join(rnd.choice(alphabet) for _ in range(100))
    sys.stdout.write('{"key":"import/%08d","type":"string","value":"%s","written":"2026-11-25T12:00:%02d.%06dZ"}\n'
                     % (i, value, i % 60, i % 1000000))
EOF
fi

for round in $(seq 1 "$rounds"); do
  for spec in "$@"; do
    label=${spec%%=*} jar=${spec#*=}
    for storage in $storages; do
      case $storage in
        memory) uri=memory: ;;
        sqlite) rm -rf "$dir/db"; uri=sqlite:$dir/db/store.db ;;
        postgresql)
          uri="${STORE_BENCH_POSTGRES_URL:?set STORE_BENCH_POSTGRES_URL}&table=import_rate"
          psql -q "$(sed 's/^jdbc://' <<< "$STORE_BENCH_POSTGRES_URL")" \
            -c "DROP TABLE IF EXISTS import_rate" -c "DELETE FROM store_schema WHERE table_name = 'import_rate'" \
            2>/dev/null || true ;;
        *) echo "unknown storage $storage" >&2; exit 2 ;;
      esac
      load=$(cut -d' ' -f1-3 /proc/loadavg)
      result=$( { /usr/bin/time -f 'cpu_user_s=%U cpu_sys_s=%S max_rss_kib=%M' \
          java -jar "$jar" import --progress --storage "$uri" < "$input" 2>&1 >/dev/null; } 2>&1 \
          | grep -v '^store-server import: [0-9,]* entries' | tr '\n' ' ')
      echo "round=$round $label $storage load=[$load] $result"
    done
  done
done
