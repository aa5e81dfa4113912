package org.storeservice.jdbc.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteConfig;
import org.storeservice.jdbc.SqliteStorageConfig;
import org.storeservice.jdbc.Synchronous;

/** How SQLite's one write connection is opened: WAL, the synchronous mode, busy time-out, checkpoints. */
public final class SqliteWriterConnection {
    /** WAL frames (pages, 4 KiB by default: about 40 MiB) after which a commit checkpoints the WAL into the database. */
    static final int WAL_AUTOCHECKPOINT_PAGES = 10_000;
    /** Size a WAL is truncated back to after a checkpoint, if it grew beyond it. */
    static final int WAL_SIZE_LIMIT_BYTES = 64 << 20;

    private SqliteWriterConnection() {
    }

    /** The one write connection of {@code config}'s database: WAL, its synchronous mode, busy time-out, checkpoints. */
    public static Connection open(SqliteStorageConfig config) throws SQLException {
        SQLiteConfig writerConfig = new SQLiteConfig();
        writerConfig.setJournalMode(SQLiteConfig.JournalMode.WAL);
        writerConfig.setSynchronous(config.synchronous() == Synchronous.FULL
                ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        writerConfig.setBusyTimeout(config.busyTimeoutMillis());
        // A checkpoint copies every page the WAL changed back into the database and fsyncs it. A batch of 64
        // writes changes up to 64 pages, so at SQLite's default (1,000 frames) the batched path checkpointed
        // every ~15 commits; with a longer WAL a page rewritten many times is copied once: 64 writers went
        // from 39-48k to 51-56k durable writes/s, one writer unchanged (BENCHMARKS.md).
        writerConfig.setWalAutocheckpoint(WAL_AUTOCHECKPOINT_PAGES);
        // A WAL grown past this (one very large value) is cut back after its checkpoint instead of staying on disk.
        writerConfig.setJournalSizeLimit(WAL_SIZE_LIMIT_BYTES);
        // Nothing reads generated keys; with them on, sqlite-jdbc runs a regex and a second statement
        // (SELECT last_insert_rowid()) after every INSERT.
        writerConfig.setGetGeneratedKeys(false);
        return writerConfig.createConnection(url(config));
    }

    /** The JDBC URL of {@code config}'s database file. */
    public static String url(SqliteStorageConfig config) {
        return "jdbc:sqlite:" + config.path().toAbsolutePath();
    }
}
