package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

class WalCheckpointerTest {
    private static final Duration HANG_GUARD = Duration.ofMinutes(1);

    @TempDir
    Path directory;

    private String url() {
        return "jdbc:sqlite:" + directory.resolve("log.db");
    }

    /** A writer that never checkpoints by itself, so whatever is checkpointed was the checkpointer's doing. */
    private Connection writer() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setPragma(SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, "0");
        Connection connection = config.createConnection(url());
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (v BLOB)");
        }
        return connection;
    }

    private static void commitRows(Connection writer, int rows) throws SQLException {
        try (Statement statement = writer.createStatement()) {
            for (int i = 0; i < rows; i++) {
                statement.execute("INSERT INTO t VALUES (randomblob(4000))");
            }
        }
    }

    /** Frames in the log, and how many of them are in the database file (a PASSIVE checkpoint with nothing to add). */
    private int[] logAndCheckpointed(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
            row.next();
            return new int[] {row.getInt(2), row.getInt(3)};
        }
    }

    @Test
    void afterCommitsTheWholeLogIsCopiedIntoTheDatabase() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            try (Connection writer = writer();
                    WalCheckpointer checkpointer = new WalCheckpointer(new SQLiteConfig().createConnection(url()), "t")) {
                commitRows(writer, 50);
                checkpointer.committed();
                while (checkpointer.checkpoints() == 0) {
                    Thread.sleep(5); // bounded by the hang guard
                }
                int[] log = logAndCheckpointed(writer);
                assertTrue(log[0] >= 50, "the 50 rows are in the log: " + log[0] + " frames");
                assertEquals(log[0], log[1], "every frame of the log was checkpointed");
            }
        });
    }

    @Test
    void closeEndsTheThreadAndClosesTheConnection() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Connection connection = new SQLiteConfig().createConnection(url());
            WalCheckpointer checkpointer = new WalCheckpointer(connection, "closing");
            checkpointer.committed();

            checkpointer.close();
            checkpointer.close();

            assertTrue(connection.isClosed());
            assertFalse(Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(thread -> thread.isAlive() && thread.getName().equals("store-checkpoint-closing")));
        });
    }
}
