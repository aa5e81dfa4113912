package org.storeservice.jdbc.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer lane's own connection, kept from one batch to the next like SQLite's one write connection, outside the
 * pool: a lane never waits for the pool, so after an outage each lane connects again as soon as the database accepts
 * connections (HikariCP opens connections again only after a back-off that grows to 5 s, and a lane waiting on its
 * empty pool committed seconds after the other lane). A connection that failed is closed and a new one opened for the
 * next try; one unused for a while is checked first, so that a connection the server dropped meanwhile is not taken
 * for an outage. Used by its lane's thread only.
 */
final class LaneConnection implements WriteConnections {
    private static final Logger log = LoggerFactory.getLogger(LaneConnection.class);
    /** A connection idle longer than this is checked before use, as HikariCP checks its own (after 500 ms). */
    private static final long CHECK_AFTER_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int CHECK_TIMEOUT_SECONDS = 2;

    private final ConnectionFactory factory;
    private Connection connection;
    private long lastUsed;

    LaneConnection(ConnectionFactory factory) {
        this.factory = factory;
    }

    @Override
    public Connection get() throws SQLException {
        if (connection != null && System.nanoTime() - lastUsed > CHECK_AFTER_IDLE_NANOS
                && !connection.isValid(CHECK_TIMEOUT_SECONDS)) {
            close();
        }
        if (connection == null) {
            connection = factory.open();
        }
        return connection;
    }

    @Override
    public void done(Connection used, boolean broken) {
        lastUsed = System.nanoTime();
        if (broken) {
            close();
        }
    }

    /** Closes the connection, if one is open; the next {@link #get} opens another. */
    void close() {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing a lane's connection failed", e);
        }
        connection = null;
    }
}
