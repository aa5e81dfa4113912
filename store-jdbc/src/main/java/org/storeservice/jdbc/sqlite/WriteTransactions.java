package org.storeservice.jdbc.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * SQLite's one write connection and its prepared statements: runs a batch of writes in one transaction and commits
 * it, or rolls all of it back. Used by the {@link GroupCommitWriter}'s thread only (the statements are confined to it).
 */
final class WriteTransactions implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WriteTransactions.class);
    /** SQLite's primary result code for a lock held by another connection (its extended codes share the low byte). */
    private static final int SQLITE_BUSY = 5;

    /** Runs one write's prepared statement inside the writer's transaction: {@link Rows#write} in production. */
    @FunctionalInterface
    interface RowWriter {
        /** {@code true} if a row was written. */
        boolean write(PreparedStatement statement, WriteRequest request) throws SQLException;
    }

    private final Connection connection;
    private final Sql sql;
    private final RowWriter rows;
    private PreparedStatement upsert;
    private PreparedStatement insertIfAbsent;
    private PreparedStatement delete;
    /**
     * BEGIN and COMMIT prepared once: run as plain statements, SQLite parsed and freed them in every transaction, about
     * 8 % of the writer thread's CPU at the batches of 64 connections (BENCHMARKS.md, twenty-second round).
     */
    private PreparedStatement begin;
    private PreparedStatement commit;

    WriteTransactions(Connection connection, Sql sql, RowWriter rows) throws SQLException {
        this.connection = connection;
        this.sql = sql;
        this.rows = rows;
        prepareStatements();
    }

    /** Whether {@code t} is SQLITE_BUSY: another connection (another process) holds the database's write lock. */
    static boolean isBusy(Throwable t) {
        return t instanceof SQLException e && (e.getErrorCode() & 0xff) == SQLITE_BUSY;
    }

    /**
     * Runs every group of writes in one transaction and commits; on any failure rolls back and rethrows.
     *
     * @return for each group, whether every one of its writes wrote a row
     */
    List<Boolean> commit(List<List<WriteRequest>> groups) throws SQLException {
        try {
            // IMMEDIATE takes the write lock up front; another process holding it is waited for (busy_timeout).
            begin.execute();
        } catch (SQLException e) {
            if (!isBusy(e)) {
                rollback(e); // in case a transaction was left open (a failed ROLLBACK): BEGIN would fail for ever
            }
            resetStatements(e);
            throw e;
        }
        try {
            List<Boolean> results = new ArrayList<>(groups.size());
            for (List<WriteRequest> group : groups) {
                boolean written = true;
                for (WriteRequest request : group) {
                    written &= execute(request);
                }
                results.add(written);
            }
            commit.execute();
            return results;
        } catch (Throwable t) {
            // An Error too: a transaction left open would fail every later BEGIN until a restart.
            rollback(t);
            resetStatements(t);
            throw t;
        }
    }

    private boolean execute(WriteRequest request) throws SQLException {
        if (request.deletes()) {
            return Rows.delete(delete, request);
        }
        return rows.write(request.policy() == OverwritePolicy.REJECT ? insertIfAbsent : upsert, request);
    }

    private void rollback(Throwable cause) {
        try (Statement control = connection.createStatement()) {
            control.execute("ROLLBACK");
        } catch (SQLException e) {
            // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL); nothing more to undo.
            cause.addSuppressed(e);
        }
    }

    private void prepareStatements() throws SQLException {
        upsert = connection.prepareStatement(sql.upsert);
        insertIfAbsent = connection.prepareStatement(sql.insertIfAbsent);
        delete = connection.prepareStatement(sql.delete);
        begin = connection.prepareStatement("BEGIN IMMEDIATE");
        commit = connection.prepareStatement("COMMIT");
    }

    /**
     * sqlite-jdbc can leave a prepared statement unusable after a failed step ("statement is not
     * executing"), so after any failure the writer prepares fresh ones.
     */
    private void resetStatements(Throwable cause) {
        for (PreparedStatement statement : new PreparedStatement[] {upsert, insertIfAbsent, delete, begin, commit}) {
            try {
                statement.close();
            } catch (SQLException e) {
                cause.addSuppressed(e);
            }
        }
        try {
            prepareStatements();
        } catch (SQLException e) {
            cause.addSuppressed(e); // the next write fails and tries again
        }
    }

    /** Closes the connection, and with it the prepared statements; a failure is logged. */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            log.warn("Closing the SQLite write connection failed", e);
        }
    }
}
