package org.storeservice.jdbc.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.storeservice.jdbc.internal.ReadConnections;

/**
 * SQLite's read connections, apart from the one writer: WAL lets readers run while the writer commits,
 * each seeing the last committed state. Connections are opened on demand and up to {@code maxIdle} are
 * kept for reuse; every one is query-only, so a read can never take the write lock.
 */
final class SqliteReaders implements ReadConnections {
    private static final Logger log = LoggerFactory.getLogger(SqliteReaders.class);

    private final String url;
    private final SQLiteConfig config;
    private final BlockingQueue<Connection> idle;
    private volatile boolean closed;

    SqliteReaders(String url, int busyTimeoutMillis, int maxIdle) {
        this.url = url;
        this.config = new SQLiteConfig();
        config.setBusyTimeout(busyTimeoutMillis);
        this.idle = new LinkedBlockingQueue<>(maxIdle);
    }

    @Override
    public Connection acquire() throws SQLException {
        if (closed) {
            throw new SQLException("Storage is closed");
        }
        Connection connection = idle.poll();
        if (connection != null) {
            return connection;
        }
        connection = config.createConnection(url);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA query_only = 1");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /**
     * A connection of its own that is not query-only, for {@code VACUUM INTO} (which writes another file, and which
     * SQLite refuses on a query-only connection); it reads the database like any reader and never takes its write
     * lock. The caller closes it.
     */
    Connection openForCopy() throws SQLException {
        if (closed) {
            throw new SQLException("Storage is closed");
        }
        return config.createConnection(url);
    }

    @Override
    public void release(Connection connection, boolean broken) {
        if (broken || closed || !idle.offer(connection)) {
            closeQuietly(connection);
        } else if (closed && idle.remove(connection)) {
            closeQuietly(connection); // close() ran while we were offering
        }
    }

    @Override
    public void close() {
        closed = true;
        Connection connection;
        while ((connection = idle.poll()) != null) {
            closeQuietly(connection);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing an SQLite read connection failed", e);
        }
    }
}
