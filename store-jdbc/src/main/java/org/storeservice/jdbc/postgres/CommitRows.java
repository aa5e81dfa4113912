package org.storeservice.jdbc.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.storeservice.jdbc.internal.TableName;

/**
 * The commit-row protocol, its one owner: each batch's transaction inserts a row named by the batch's id into
 * {@value #TABLE}, and the batch committed exactly when that row exists and says so. The row also holds which writes of
 * the batch wrote nothing (an insert-if-absent that found its key, a deletion that found none), as indexes into the
 * batch as it was committed, so that a batch whose answer was lost is answered as its commit decided, on another
 * connection, perhaps to a promoted standby, without writing anything again.
 *
 * <p>{@link #decide} first inserts the same id as "not committed" (a fence): that insert waits for a commit of the
 * batch still under way, and once in, no later commit of the batch can happen, since its row is taken. A transaction id
 * ({@code pg_xact_status}) would not do: a promoted standby hands out again the ids whose commit records it never
 * received. Rows older than the retention are {@link #prune pruned}; the retention must outlast the longest a batch's
 * statement can still run (see {@code PostgresWriter.Settings}), so that no fence is gone before its batch can no
 * longer commit.
 */
final class CommitRows {
    /** The table of the batches' commit rows, in the entry table's schema (shared by every entry table there). */
    static final String TABLE = "store_commits";

    /** What a batch's commit decided: committed (with the indexes of its writes that wrote nothing), or never will. */
    record Decision(boolean committed, Set<Integer> notWritten) {
        static final Decision NOT_COMMITTED = new Decision(false, Set.of());
    }

    private final String insertInWith;
    private final String insert;
    private final String fence;
    private final String select;
    private final String prune;

    CommitRows(TableName table) {
        String commits = table.sibling(TABLE);
        // A data-modifying WITH runs exactly once, to completion, whatever the statement it belongs to does.
        this.insertInWith = "WITH commit_row AS (INSERT INTO " + commits + " (id, committed) VALUES (?, true)) ";
        this.insert = "INSERT INTO " + commits + " (id, committed, not_written) VALUES (?, true, ?)";
        this.fence = "INSERT INTO " + commits + " (id, committed) VALUES (?, false) ON CONFLICT (id) DO NOTHING";
        this.select = "SELECT committed, not_written FROM " + commits + " WHERE id = ?";
        this.prune = "DELETE FROM " + commits + " WHERE created_at < now() - make_interval(secs => ?)";
    }

    /** The statements that create {@value #TABLE}, for {@link PostgresDialect#createStatements}. */
    static List<String> createStatements(TableName table) {
        String commits = table.sibling(TABLE);
        // BRIN: the rows arrive in created_at order, and pruning reads them by it; a BRIN index costs next to nothing.
        return List.of("CREATE TABLE IF NOT EXISTS " + commits + " (id uuid NOT NULL PRIMARY KEY,"
                        + " committed boolean NOT NULL, not_written int4[],"
                        + " created_at timestamptz NOT NULL DEFAULT now())",
                PostgresDialect.createIndexIfMissing(table, TABLE + "_created_at", commits + " USING brin (created_at)"));
    }

    /**
     * {@code statement} with the commit row inserted by a {@code WITH} clause ahead of it, for a batch that is that one
     * statement in auto-commit mode (upserts alone: every write wrote). The batch's id is the first parameter.
     */
    String withCommitRow(String statement) {
        return insertInWith + statement;
    }

    /** Inserts the commit row {@code id} as the last statement of the batch's transaction. */
    void insert(Connection connection, UUID id, Integer[] notWritten) throws SQLException {
        try (PreparedStatement row = connection.prepareStatement(insert)) {
            row.setObject(1, id);
            row.setArray(2, notWritten.length == 0 ? null : connection.createArrayOf("int4", notWritten));
            row.executeUpdate();
        }
    }

    /**
     * What the batch {@code id} decided, asked after its commit was in doubt: fences the id (waiting for a commit of it
     * still under way), then reads its row. Not committed means never: the fence holds its place.
     */
    Decision decide(Connection connection, UUID id) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement statement = connection.prepareStatement(fence)) {
            statement.setObject(1, id);
            if (statement.executeUpdate() == 1) {
                return Decision.NOT_COMMITTED;
            }
        }
        // The row was there: the batch's own, or a fence of an earlier decide() whose answer was lost.
        try (PreparedStatement statement = connection.prepareStatement(select)) {
            statement.setObject(1, id);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next() || !row.getBoolean(1)) {
                    return Decision.NOT_COMMITTED;
                }
                Array notWritten = row.getArray(2);
                return new Decision(true, notWritten == null ? Set.of() : Set.of((Integer[]) notWritten.getArray()));
            }
        }
    }

    /** Deletes the commit rows older than {@code age}: no batch that old can still commit. */
    int prune(Connection connection, Duration age) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement statement = connection.prepareStatement(prune)) {
            statement.setDouble(1, age.toMillis() / 1000.0);
            return statement.executeUpdate();
        }
    }
}
