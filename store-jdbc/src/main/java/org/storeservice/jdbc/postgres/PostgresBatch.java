package org.storeservice.jdbc.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.jdbc.internal.Dialect;
import org.storeservice.jdbc.internal.KeyOrder;
import org.storeservice.jdbc.internal.LocalWriteFailure;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * One batch of writes as PostgreSQL statements on one connection, committed as one transaction, answered exactly as
 * if the writes had run one after another in the order given.
 *
 * <p>The writes go in runs of one kind, in order: upserts, inserts-if-absent, deletions, each run one statement over
 * arrays ({@code unnest}), so that a batch of small upserts is one statement, one round trip and one commit (in
 * auto-commit mode); any other batch is one transaction. A value too large to go in an array (over
 * {@link #ARRAY_VALUE_BYTES}, or spooled to a file) is a run of its own, a single-row statement that streams it.
 * Within a run, rows go in key order, so that concurrent batches (other lanes, other servers) lock rows in the same
 * order and never deadlock each other.
 *
 * <p>How one statement answers many writes: in an upsert run, two writes of one key leave the later value (only it is
 * sent) and both are answered {@code true}; in an insert-if-absent run the first write of an absent key is inserted
 * and the statement returns its key ({@code RETURNING key}), every other write of that run is {@code false}; a
 * deletion run likewise.
 *
 * <p><b>Exactly once.</b> Every batch's transaction also inserts a row of its own, named by a random id, into
 * {@value #COMMITS_TABLE}: the batch committed exactly when that row exists. The row also says which writes did not
 * write (an insert-if-absent that found its key, a deletion that found none), so that a batch whose answer was lost
 * (the connection broke during its commit) can be answered as its commit decided by {@link #outcome}, on another
 * connection, perhaps to a promoted standby, without writing anything again. {@code outcome} first inserts the same
 * id as "not committed": that insert waits for a commit of the batch still under way, and once in, no later commit
 * of the batch can happen. A transaction id ({@code pg_xact_status}) would not do: a promoted standby hands out again
 * the ids whose commit records it never received, so a status looked up there may describe another transaction. A
 * batch of upserts alone (the usual one) stays one statement in auto-commit mode: its row goes in through a
 * {@code WITH} clause of that statement; any other batch is a transaction that inserts its row last.
 */
final class PostgresBatch {
    /** Byte values up to this size go in the arrays; larger ones have a statement of their own. */
    static final int ARRAY_VALUE_BYTES = SpooledContent.MEMORY_BYTES;
    /** The table of the batches' commit rows, in the entry table's schema (shared by every entry table there). */
    static final String COMMITS_TABLE = "store_commits";

    /** What became of a batch: committed, with whether each group wrote; or not, and never will. */
    record Outcome(boolean committed, List<Boolean> results) {
    }

    /** A failure after which the transaction may have committed: the commit was sent and no answer came back. */
    static final class InDoubtException extends SQLException {
        private static final long serialVersionUID = 1L;

        InDoubtException(SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
        }
    }

    private enum RunKind { UPSERT, INSERT_IF_ABSENT, DELETE, SINGLE }

    private record Run(RunKind kind, List<Integer> requests) {
    }

    private final Sql sql;
    private final Dialect dialect;
    private final String upsertRows;
    private final String insertRowsIfAbsent;
    private final String deleteRows;
    private final String touchSchemaRow;
    private final String tableName;
    private final String upsertRowsWithCommitRow;
    private final String insertCommitRow;
    private final String fenceCommitRow;
    private final String selectCommitRow;
    private final String pruneCommitRows;

    PostgresBatch(TableName table, Sql sql, Dialect dialect) {
        this.sql = sql;
        this.dialect = dialect;
        String t = table.qualified();
        String insert = "INSERT INTO " + t + " (key, key_order, kind, text_value, bytes_value, written_at)"
                + " SELECT k, o, kind, tv, bv, timestamptz 'epoch' + w * interval '1 microsecond'"
                + " FROM unnest(?::text[], ?::bytea[], ?::text[], ?::text[], ?::bytea[], ?::int8[])"
                + " AS u(k, o, kind, tv, bv, w)";
        this.upsertRows = insert + " ON CONFLICT (key) DO UPDATE SET kind = excluded.kind,"
                + " text_value = excluded.text_value, bytes_value = excluded.bytes_value,"
                + " written_at = excluded.written_at";
        this.insertRowsIfAbsent = insert + " ON CONFLICT (key) DO NOTHING RETURNING key";
        this.deleteRows = "DELETE FROM " + t + " WHERE key = ANY (?::text[]) RETURNING key";
        this.touchSchemaRow = "UPDATE " + table.sibling(SchemaVersion.TABLE) + " SET version = version WHERE table_name = ?";
        this.tableName = table.table();
        String commits = table.sibling(COMMITS_TABLE);
        // A data-modifying WITH runs exactly once, to completion, whatever the statement it belongs to does.
        this.upsertRowsWithCommitRow = "WITH commit_row AS (INSERT INTO " + commits + " (id, committed) VALUES (?, true))"
                + " " + upsertRows;
        this.insertCommitRow = "INSERT INTO " + commits + " (id, committed, not_written) VALUES (?, true, ?)";
        this.fenceCommitRow = "INSERT INTO " + commits + " (id, committed) VALUES (?, false) ON CONFLICT (id) DO NOTHING";
        this.selectCommitRow = "SELECT committed, not_written FROM " + commits + " WHERE id = ?";
        this.pruneCommitRows = "DELETE FROM " + commits + " WHERE created_at < now() - make_interval(secs => ?)";
    }

    /** The statements that create {@value #COMMITS_TABLE}, for {@link PostgresDialect#createStatements}. */
    static List<String> createCommitsTable(TableName table) {
        String commits = table.sibling(COMMITS_TABLE);
        // BRIN: the rows arrive in created_at order, and pruning reads them by it; a BRIN index costs next to nothing.
        return List.of("CREATE TABLE IF NOT EXISTS " + commits + " (id uuid NOT NULL PRIMARY KEY,"
                        + " committed boolean NOT NULL, not_written int4[],"
                        + " created_at timestamptz NOT NULL DEFAULT now())",
                PostgresDialect.createIndexIfMissing(table, COMMITS_TABLE + "_created_at", commits + " USING brin (created_at)"));
    }

    /**
     * Commits a one-row update that changes nothing but is a write all the same: it commits only where a write of
     * the table would (a primary, with its synchronous standby if it has one).
     */
    void commitProbe(Connection connection) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement statement = connection.prepareStatement(touchSchemaRow)) {
            statement.setString(1, tableName);
            statement.executeUpdate();
        }
    }

    /**
     * Runs every group of writes in one transaction on {@code connection} and commits it, with its commit row named
     * {@code id}.
     *
     * @return for each group, whether every one of its writes wrote (or deleted) a row
     * @throws InDoubtException if the connection failed while the commit was under way: it may have happened, and
     *     {@link #outcome} finds out
     * @throws SQLException if nothing was committed
     */
    List<Boolean> commit(Connection connection, List<List<WriteRequest>> groups, UUID id) throws SQLException {
        Flattened batch = new Flattened(groups);
        List<WriteRequest> requests = batch.requests;
        List<Run> runs = runs(requests);
        boolean[] written = new boolean[requests.size()];
        if (runs.size() == 1 && runs.get(0).kind() == RunKind.UPSERT) {
            connection.setAutoCommit(true); // one statement, its own commit
            try {
                upsert(connection, upsertRowsWithCommitRow, id, runs.get(0), requests, written);
            } catch (SQLException e) {
                throw PostgresFailures.lostConnection(e) ? new InDoubtException(e) : e;
            }
            return batch.results(written);
        }
        connection.setAutoCommit(false);
        try {
            for (Run run : runs) {
                execute(connection, run, requests, written);
            }
            try (PreparedStatement commitRow = connection.prepareStatement(insertCommitRow)) {
                commitRow.setObject(1, id);
                commitRow.setArray(2, connection.createArrayOf("int4", notWritten(written)));
                commitRow.executeUpdate();
            }
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(connection, e); // COMMIT was not sent: nothing of it can commit
            throw e;
        }
        try {
            connection.commit();
        } catch (SQLException e) {
            throw PostgresFailures.lostConnection(e) ? new InDoubtException(e) : e;
        }
        return batch.results(written);
    }

    /**
     * Whether the batch {@code id} of {@code groups} committed, asked after its commit was in doubt: committed, with
     * what each group's writes did; or not committed, and then never will be, since its commit row is taken. Waits for
     * a commit of it still under way.
     */
    Outcome outcome(Connection connection, UUID id, List<List<WriteRequest>> groups) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement fence = connection.prepareStatement(fenceCommitRow)) {
            fence.setObject(1, id);
            if (fence.executeUpdate() == 1) {
                return new Outcome(false, List.of());
            }
        }
        // The row was there: the batch's own, or a fence of an earlier outcome() whose answer was lost.
        try (PreparedStatement select = connection.prepareStatement(selectCommitRow)) {
            select.setObject(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next() || !row.getBoolean(1)) {
                    return new Outcome(false, List.of());
                }
                Flattened batch = new Flattened(groups);
                boolean[] written = new boolean[batch.requests.size()];
                java.util.Arrays.fill(written, true);
                java.sql.Array notWritten = row.getArray(2);
                if (notWritten != null) {
                    for (Integer index : (Integer[]) notWritten.getArray()) {
                        written[index] = false;
                    }
                }
                return new Outcome(true, batch.results(written));
            }
        }
    }

    /** Deletes the commit rows older than {@code age}: no batch that old can still be in doubt. */
    int prune(Connection connection, java.time.Duration age) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement prune = connection.prepareStatement(pruneCommitRows)) {
            prune.setDouble(1, age.toMillis() / 1000.0);
            return prune.executeUpdate();
        }
    }

    /** The indexes of the writes that wrote nothing, or {@code null} if every one wrote. */
    private static Integer[] notWritten(boolean[] written) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < written.length; i++) {
            if (!written[i]) {
                indexes.add(i);
            }
        }
        return indexes.isEmpty() ? null : indexes.toArray(new Integer[0]);
    }

    /** A batch's groups of writes, one after another, and each write's group. */
    private static final class Flattened {
        final List<WriteRequest> requests = new ArrayList<>();
        private final List<Integer> groupOf = new ArrayList<>();
        private final int groups;

        Flattened(List<List<WriteRequest>> groups) {
            this.groups = groups.size();
            for (int g = 0; g < groups.size(); g++) {
                for (WriteRequest request : groups.get(g)) {
                    requests.add(request);
                    groupOf.add(g);
                }
            }
        }

        /** For each group, whether every one of its writes wrote. */
        List<Boolean> results(boolean[] written) {
            List<Boolean> results = new ArrayList<>(java.util.Collections.nCopies(groups, true));
            for (int i = 0; i < written.length; i++) {
                if (!written[i]) {
                    results.set(groupOf.get(i), false);
                }
            }
            return results;
        }
    }

    /** Consecutive writes of one kind, in order; a large value alone. */
    private static List<Run> runs(List<WriteRequest> requests) {
        List<Run> runs = new ArrayList<>();
        Run current = null;
        for (int i = 0; i < requests.size(); i++) {
            RunKind kind = kindOf(requests.get(i));
            if (current == null || current.kind() != kind || kind == RunKind.SINGLE) {
                current = new Run(kind, new ArrayList<>());
                runs.add(current);
            }
            current.requests().add(i);
        }
        return runs;
    }

    /** Whether {@code request} carries a value too large for the arrays: it has a statement of its own. */
    static boolean large(WriteRequest request) {
        SpooledContent bytes = request.bytes();
        return bytes != null && !(bytes.inMemory() && bytes.length() <= ARRAY_VALUE_BYTES);
    }

    private static RunKind kindOf(WriteRequest request) {
        if (request.deletes()) {
            return RunKind.DELETE;
        }
        if (large(request)) {
            return RunKind.SINGLE;
        }
        return request.policy() == OverwritePolicy.REJECT ? RunKind.INSERT_IF_ABSENT : RunKind.UPSERT;
    }

    private void execute(Connection connection, Run run, List<WriteRequest> requests, boolean[] written)
            throws SQLException {
        switch (run.kind()) {
            case SINGLE -> {
                int i = run.requests().get(0);
                WriteRequest request = requests.get(i);
                String statementSql = request.policy() == OverwritePolicy.REJECT ? sql.insertIfAbsent : sql.upsert;
                try (PreparedStatement statement = connection.prepareStatement(statementSql)) {
                    written[i] = Rows.write(statement, request, dialect);
                }
            }
            case UPSERT -> upsert(connection, upsertRows, null, run, requests, written);
            case INSERT_IF_ABSENT -> {
                Map<String, WriteRequest> firstPerKey = firstPerKey(run, requests);
                try (PreparedStatement statement = connection.prepareStatement(insertRowsIfAbsent)) {
                    bindRows(connection, statement, 1, List.copyOf(firstPerKey.values()));
                    markReturnedKeys(statement, run, requests, firstPerKey, written);
                }
            }
            case DELETE -> {
                Map<String, WriteRequest> firstPerKey = firstPerKey(run, requests);
                try (PreparedStatement statement = connection.prepareStatement(deleteRows)) {
                    statement.setArray(1, connection.createArrayOf("text", firstPerKey.keySet().toArray(new String[0])));
                    markReturnedKeys(statement, run, requests, firstPerKey, written);
                }
            }
        }
    }

    /** The upsert run as one statement, {@code sql}: with the commit row {@code id} first if not null. */
    private void upsert(Connection connection, String sql, UUID id, Run run, List<WriteRequest> requests,
            boolean[] written) throws SQLException {
        // One statement may not touch a row twice; the later write of a key is the one that stands.
        Map<String, WriteRequest> lastPerKey = new TreeMap<>();
        for (int i : run.requests()) {
            lastPerKey.put(requests.get(i).key(), requests.get(i));
        }
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int first = 1;
            if (id != null) {
                statement.setObject(first++, id);
            }
            bindRows(connection, statement, first, List.copyOf(lastPerKey.values()));
            statement.executeUpdate();
        }
        for (int i : run.requests()) {
            written[i] = true;
        }
    }

    /** The first write of each key, in key order: only it can insert (or delete) a row; the others find it done. */
    private static Map<String, WriteRequest> firstPerKey(Run run, List<WriteRequest> requests) {
        Map<String, WriteRequest> first = new TreeMap<>();
        for (int i : run.requests()) {
            first.putIfAbsent(requests.get(i).key(), requests.get(i));
        }
        return first;
    }

    /** Marks as written the first write of each key the statement returned. */
    private static void markReturnedKeys(PreparedStatement statement, Run run, List<WriteRequest> requests,
            Map<String, WriteRequest> firstPerKey, boolean[] written) throws SQLException {
        Set<String> returned = new HashSet<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                returned.add(rows.getString(1));
            }
        }
        for (int i : run.requests()) {
            WriteRequest request = requests.get(i);
            written[i] = firstPerKey.get(request.key()) == request && returned.contains(request.key());
        }
    }

    /** Binds the six arrays of {@link #upsertRows}, from parameter {@code first} on: one element per row, in order. */
    private static void bindRows(Connection connection, PreparedStatement statement, int first, List<WriteRequest> rows)
            throws SQLException {
        int n = rows.size();
        String[] keys = new String[n];
        byte[][] keyOrders = new byte[n][];
        String[] kinds = new String[n];
        String[] texts = new String[n];
        byte[][] bytes = new byte[n][];
        Long[] micros = new Long[n];
        for (int i = 0; i < n; i++) {
            WriteRequest row = rows.get(i);
            keys[i] = row.key();
            keyOrders[i] = KeyOrder.of(row.key());
            kinds[i] = Rows.kindCode(row.kind());
            texts[i] = row.text();
            bytes[i] = row.bytes() == null ? null : inMemory(row.bytes());
            micros[i] = ChronoUnit.MICROS.between(Instant.EPOCH, row.writtenAt());
        }
        statement.setArray(first, connection.createArrayOf("text", keys));
        statement.setArray(first + 1, connection.createArrayOf("bytea", keyOrders));
        statement.setArray(first + 2, connection.createArrayOf("text", kinds));
        statement.setArray(first + 3, connection.createArrayOf("text", texts));
        statement.setArray(first + 4, connection.createArrayOf("bytea", bytes));
        statement.setArray(first + 5, connection.createArrayOf("int8", micros));
    }

    private static byte[] inMemory(SpooledContent value) throws SQLException {
        try {
            return value.readAll(); // in memory (see kindOf): no file is read
        } catch (java.io.IOException e) {
            throw new LocalWriteFailure("Could not read the spooled value: " + e.getMessage(), e);
        }
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e); // a broken connection: the pool evicts it
        }
    }
}
