#!/usr/bin/env bash
# PostgreSQL's own ceiling for the statements the PostgreSQL storage sends, measured with pgbench on the same
# machine, without the server: the batched small-write upsert (one unnest statement of ROWS rows with its commit row
# in the same statement, as store-jdbc's PostgresBatch sends it: WITH commit_row AS (INSERT INTO the commits table)
# INSERT ... SELECT FROM unnest ... ON CONFLICT DO UPDATE, one commit) and the large-value upsert (one 4 MiB bytea
# per statement, the value taken from a table on the server, so no client builds or sends it). The arrays are built
# on the server from generate_series, where the storage binds them from the client.
#
# usage: pg-ceiling.sh [ROWS] [SECONDS] [CLIENTS]
#   ROWS     rows per batch (default 12, what the ws11 load produces)
#   CLIENTS  the small-write clients, default "2 8" (2 = the storage's lanes)
# env:   PGHOST (127.0.0.1) PGUSER (postgres) PGDATABASE (test); NOLARGE=1 skips the 4 MiB upsert;
#        creates and drops the tables pgc_blob, pgc_store, pgc_commits
set -euo pipefail
rows=${1:-12}; secs=${2:-10}; small_clients=${3:-2 8}
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres} PGDATABASE=${PGDATABASE:-test}
export PGOPTIONS=${PGOPTIONS:--c client_min_messages=warning}
dir=$(mktemp -d); trap 'rm -rf "$dir"; psql -q -c "DROP TABLE IF EXISTS pgc_blob, pgc_store, pgc_commits" >/dev/null 2>&1 || true' EXIT

psql -q -v ON_ERROR_STOP=1 <<SQL
DROP TABLE IF EXISTS pgc_blob, pgc_store, pgc_commits;
CREATE TABLE pgc_blob (v bytea);
INSERT INTO pgc_blob SELECT decode(string_agg(lpad(to_hex((random() * 255)::int), 2, '0'), ''), 'hex')
  FROM generate_series(1, 4194304);
CREATE TABLE pgc_store (key text COLLATE "C" NOT NULL PRIMARY KEY, key_order bytea NOT NULL,
  kind text NOT NULL CHECK (kind IN ('T', 'B')), text_value text, bytes_value bytea, written_at timestamptz NOT NULL);
CREATE INDEX pgc_store_key_order ON pgc_store (key_order);
CREATE TABLE pgc_commits (id uuid NOT NULL PRIMARY KEY, committed boolean NOT NULL, not_written int4[],
  created_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX pgc_commits_created_at ON pgc_commits USING brin (created_at);
SQL

upsert="ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, text_value = excluded.text_value,
  bytes_value = excluded.bytes_value, written_at = excluded.written_at"
cat > "$dir/batch.sql" <<SQL
\set b random(1, 100000)
WITH commit_row AS (INSERT INTO pgc_commits (id, committed) VALUES (gen_random_uuid(), true))
INSERT INTO pgc_store (key, key_order, kind, text_value, bytes_value, written_at)
  SELECT k, o, kind, tv, bv, timestamptz 'epoch' + w * interval '1 microsecond'
  FROM unnest((SELECT array_agg('k' || (:b * $rows + g)) FROM generate_series(1, $rows) g),
              (SELECT array_agg(convert_to('k' || (:b * $rows + g), 'UTF8')) FROM generate_series(1, $rows) g),
              array_fill('T'::text, ARRAY[$rows]), array_fill(repeat('x', 40), ARRAY[$rows]),
              array_fill(NULL::bytea, ARRAY[$rows]), array_fill(1764000000000000::int8, ARRAY[$rows]))
  AS u(k, o, kind, tv, bv, w) $upsert;
SQL
cat > "$dir/large.sql" <<SQL
\set id random(1, 64)
INSERT INTO pgc_store (key, key_order, kind, text_value, bytes_value, written_at)
  SELECT 'big' || :id, convert_to('big' || :id, 'UTF8'), 'B', NULL, v, now() FROM pgc_blob $upsert;
SQL

hz=$(getconf CLK_TCK)
# utime+stime of every postgres process (the backends, the WAL writer, ...), plus cutime+cstime: the postmaster's
# reaped children, the backends of connections that closed meanwhile (pgbench's); in clock ticks
db_ticks() {
  local total=0 p s
  for p in $(pgrep -x postgres); do s=$(cat "/proc/$p/stat" 2>/dev/null) || continue; s=${s##*) }; set -- $s; total=$((total + ${12} + ${13} + ${14} + ${15})); done
  echo "$total"
}
for clients in $small_clients; do
  t0=$(db_ticks)
  out=$(pgbench -n -M prepared -c "$clients" -j 2 -T "$secs" -f "$dir/batch.sql" 2>&1) || { echo "$out" >&2; exit 1; }
  sleep 1 # pgbench's backends are reaped, and counted in the postmaster's, once they have exited
  t1=$(db_ticks)
  tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
  awk -v c="$clients" -v t="$tps" -v r="$rows" -v s="$secs" -v d=$((t1 - t0)) -v hz="$hz" 'BEGIN {
    printf "batch of %d rows, %d clients: %.0f commits/s, %.0f rows/s, PostgreSQL CPU %.1f µs per row\n",
      r, c, t, t * r, d / hz * 1e6 / (t * r * s) }'
done
[ "${NOLARGE:-0}" = 1 ] && exit 0
tps=$(pgbench -n -M prepared -c 16 -j 2 -T "$secs" -f "$dir/large.sql" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
echo "4 MiB upsert, 16 clients: $tps commits/s"
