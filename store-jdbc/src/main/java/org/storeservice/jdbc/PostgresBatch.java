package org.storeservice.jdbc;

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
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;

/**
 * One batch of writes as PostgreSQL statements on one connection, committed as one transaction, answered exactly as
 * if the writes had run one after another in the order given.
 *
 * <p>The writes go in runs of one kind, in order: upserts, inserts-if-absent, deletions, each run one statement over
 * arrays ({@code unnest}), so that a batch of small writes is one statement, one round trip and one commit (in
 * auto-commit mode when the batch is one run). A value too large to go in an array (over
 * {@link #ARRAY_VALUE_BYTES}, or spooled to a file) is a run of its own, a single-row statement that streams it.
 * Within a run, rows go in key order, so that concurrent batches (other lanes, other servers) lock rows in the same
 * order and never deadlock each other.
 *
 * <p>How one statement answers many writes: in an upsert run, two writes of one key leave the later value (only it is
 * sent) and both are answered {@code true}; in an insert-if-absent run the first write of an absent key is inserted
 * and the statement returns its key ({@code RETURNING key}), every other write of that run is {@code false}; a
 * deletion run likewise.
 */
final class PostgresBatch {
    /** Byte values up to this size go in the arrays; larger ones have a statement of their own. */
    static final int ARRAY_VALUE_BYTES = SpooledContent.MEMORY_BYTES;

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
     * Runs every group of writes in one transaction on {@code connection} and commits.
     *
     * @return for each group, whether every one of its writes wrote (or deleted) a row
     * @throws InDoubtException if the connection failed while the commit was under way: it may have happened
     * @throws SQLException if nothing was committed
     */
    List<Boolean> commit(Connection connection, List<List<WriteRequest>> groups) throws SQLException {
        List<WriteRequest> requests = new ArrayList<>();
        List<Integer> groupOf = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            for (WriteRequest request : groups.get(g)) {
                requests.add(request);
                groupOf.add(g);
            }
        }
        List<Run> runs = runs(requests);
        boolean[] written = new boolean[requests.size()];
        boolean oneStatement = runs.size() == 1;
        connection.setAutoCommit(oneStatement);
        try {
            for (Run run : runs) {
                execute(connection, run, requests, written);
            }
            if (!oneStatement) {
                try {
                    connection.commit();
                } catch (SQLException e) {
                    throw PostgresFailures.lostConnection(e) ? new InDoubtException(e) : e;
                }
            }
        } catch (InDoubtException e) {
            throw e;
        } catch (SQLException | RuntimeException e) {
            if (oneStatement && e instanceof SQLException s && PostgresFailures.lostConnection(s)) {
                throw new InDoubtException(s); // the statement was its own commit
            }
            if (!oneStatement) {
                rollbackQuietly(connection, e);
            }
            throw e;
        }
        List<Boolean> results = new ArrayList<>(groups.size());
        for (int g = 0; g < groups.size(); g++) {
            results.add(true);
        }
        for (int i = 0; i < requests.size(); i++) {
            if (!written[i]) {
                results.set(groupOf.get(i), false);
            }
        }
        return results;
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
            case UPSERT -> {
                // One statement may not touch a row twice; the later write of a key is the one that stands.
                Map<String, WriteRequest> lastPerKey = new TreeMap<>();
                for (int i : run.requests()) {
                    lastPerKey.put(requests.get(i).key(), requests.get(i));
                    written[i] = true;
                }
                try (PreparedStatement statement = connection.prepareStatement(upsertRows)) {
                    bindRows(connection, statement, List.copyOf(lastPerKey.values()));
                    statement.executeUpdate();
                }
            }
            case INSERT_IF_ABSENT -> {
                Map<String, WriteRequest> firstPerKey = firstPerKey(run, requests);
                try (PreparedStatement statement = connection.prepareStatement(insertRowsIfAbsent)) {
                    bindRows(connection, statement, List.copyOf(firstPerKey.values()));
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

    /** Binds the six arrays of {@link #upsertRows}: one element per row, in the order given. */
    private static void bindRows(Connection connection, PreparedStatement statement, List<WriteRequest> rows)
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
        statement.setArray(1, connection.createArrayOf("text", keys));
        statement.setArray(2, connection.createArrayOf("bytea", keyOrders));
        statement.setArray(3, connection.createArrayOf("text", kinds));
        statement.setArray(4, connection.createArrayOf("text", texts));
        statement.setArray(5, connection.createArrayOf("bytea", bytes));
        statement.setArray(6, connection.createArrayOf("int8", micros));
    }

    private static byte[] inMemory(SpooledContent value) throws SQLException {
        try {
            return value.readAll(); // in memory (see kindOf): no file is read
        } catch (java.io.IOException e) {
            throw new SQLException("Could not read the spooled value: " + e.getMessage(), e);
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
