package org.storeservice.jdbc.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.jdbc.internal.Dialect;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * One batch of writes as PostgreSQL statements on one connection, committed as one transaction with its commit row
 * ({@link CommitRows}), answered exactly as if the writes had run one after another in the order given.
 *
 * <p>The writes go in {@linkplain Run runs} of one kind, in order: upserts, inserts-if-absent, deletions, each run one
 * statement over arrays ({@link ArrayRows}), so that a batch of small upserts is one statement, one round trip and one
 * commit (in auto-commit mode, its commit row inserted by a {@code WITH} clause of that statement); any other batch is
 * one transaction that inserts its commit row last, with the writes that wrote nothing. A value too large to go in an
 * array is a run of its own, a single-row statement that streams it. Within a run, rows go in key order, so that
 * concurrent batches (other lanes, other servers) lock rows in the same order and never deadlock each other.
 *
 * <p>How one statement answers many writes: in an upsert run, two writes of one key leave the later value (only it is
 * sent) and both are answered {@code true}; in an insert-if-absent run the first write of an absent key is inserted
 * and the statement returns its key ({@code RETURNING key}), every other write of that run is {@code false}; a
 * deletion run likewise.
 */
final class PostgresBatch {
    /** A failure after which the transaction may have committed: the commit was sent and no answer came back. */
    static final class InDoubtException extends SQLException {
        private static final long serialVersionUID = 1L;

        InDoubtException(SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
        }
    }

    private final Sql sql;
    private final Dialect dialect;
    private final CommitRows commitRows;
    private final String upsertRows;
    private final String upsertRowsWithCommitRow;
    private final String insertRowsIfAbsent;
    private final String deleteRows;
    private final String touchSchemaRow;
    private final String tableName;

    PostgresBatch(TableName table, Sql sql, Dialect dialect, CommitRows commitRows) {
        this.sql = sql;
        this.dialect = dialect;
        this.commitRows = commitRows;
        String t = table.qualified();
        String insert = "INSERT INTO " + t + " (key, key_order, kind, text_value, bytes_value, written_at)"
                + " SELECT k, o, kind, tv, bv, timestamptz 'epoch' + w * interval '1 microsecond' FROM "
                + ArrayRows.UNNEST;
        this.upsertRows = insert + " ON CONFLICT (key) DO UPDATE SET kind = excluded.kind,"
                + " text_value = excluded.text_value, bytes_value = excluded.bytes_value,"
                + " written_at = excluded.written_at";
        this.upsertRowsWithCommitRow = commitRows.withCommitRow(upsertRows);
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
     * Runs every group of writes in one transaction on {@code connection} and commits it, with its commit row named
     * {@code id}.
     *
     * @return for each group, whether every one of its writes wrote (or deleted) a row
     * @throws InDoubtException if the connection failed while the commit was under way: it may have happened, and
     *     {@link CommitRows#decide} finds out
     * @throws SQLException if nothing was committed
     */
    List<Boolean> commit(Connection connection, List<List<WriteRequest>> groups, UUID id) throws SQLException {
        BatchWrites batch = new BatchWrites(groups);
        List<WriteRequest> requests = batch.requests();
        List<Run> runs = Run.of(requests);
        boolean[] written = new boolean[requests.size()];
        if (runs.size() == 1 && runs.get(0).kind() == Run.Kind.UPSERT) {
            connection.setAutoCommit(true); // one statement, its own commit
            try {
                upsert(connection, upsertRowsWithCommitRow, id, runs.get(0), requests, written);
            } catch (SQLException e) {
                throw PostgresFailures.inDoubt(e) ? new InDoubtException(e) : e;
            }
            return batch.results(written);
        }
        connection.setAutoCommit(false);
        try {
            for (Run run : runs) {
                execute(connection, run, requests, written);
            }
            commitRows.insert(connection, id, notWritten(written));
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(connection, e); // COMMIT was not sent: nothing of it can commit
            throw e;
        }
        try {
            connection.commit();
        } catch (SQLException e) {
            throw PostgresFailures.inDoubt(e) ? new InDoubtException(e) : e;
        }
        return batch.results(written);
    }

    /** The indexes of the writes that wrote nothing. */
    private static Integer[] notWritten(boolean[] written) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < written.length; i++) {
            if (!written[i]) {
                indexes.add(i);
            }
        }
        return indexes.toArray(new Integer[0]);
    }

    private void execute(Connection connection, Run run, List<WriteRequest> requests, boolean[] written)
            throws SQLException {
        switch (run.kind()) {
            case SINGLE -> {
                int i = run.indexes().get(0);
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
                    ArrayRows.bind(connection, statement, 1, List.copyOf(firstPerKey.values()));
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

    /** The upsert run as one statement, {@code statementSql}: with the commit row {@code id} first if not null. */
    private static void upsert(Connection connection, String statementSql, UUID id, Run run, List<WriteRequest> requests,
            boolean[] written) throws SQLException {
        // One statement may not touch a row twice; the later write of a key is the one that stands.
        Map<String, WriteRequest> lastPerKey = new TreeMap<>();
        for (int i : run.indexes()) {
            lastPerKey.put(requests.get(i).key(), requests.get(i));
        }
        try (PreparedStatement statement = connection.prepareStatement(statementSql)) {
            int first = 1;
            if (id != null) {
                statement.setObject(first++, id);
            }
            ArrayRows.bind(connection, statement, first, List.copyOf(lastPerKey.values()));
            statement.executeUpdate();
        }
        for (int i : run.indexes()) {
            written[i] = true;
        }
    }

    /** The first write of each key, in key order: only it can insert (or delete) a row; the others find it done. */
    private static Map<String, WriteRequest> firstPerKey(Run run, List<WriteRequest> requests) {
        Map<String, WriteRequest> first = new TreeMap<>();
        for (int i : run.indexes()) {
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
        for (int i : run.indexes()) {
            WriteRequest request = requests.get(i);
            written[i] = firstPerKey.get(request.key()) == request && returned.contains(request.key());
        }
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e); // a broken connection: it is not used again
        }
    }
}
