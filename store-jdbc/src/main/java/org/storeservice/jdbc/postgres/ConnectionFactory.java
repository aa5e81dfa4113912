package org.storeservice.jdbc.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.storeservice.jdbc.PostgresStorageConfig;

/**
 * Opens PostgreSQL connections of their own, outside the pool, with the pool's settings (the URL, the driver's
 * properties, the statement time-out set on each): each writer lane's, and, while the pool holds none, a few for reads
 * and the readiness probe.
 */
final class ConnectionFactory {
    private final String url;
    private final Properties properties;
    private final String initSql;

    ConnectionFactory(PostgresStorageConfig config) {
        this.url = config.jdbcUrl();
        this.properties = config.driverProperties();
        this.initSql = initSql(config);
    }

    /** What each connection runs first: the statement time-out (never zero: see {@link PostgresStorageConfig}). */
    static String initSql(PostgresStorageConfig config) {
        return "SET statement_timeout = " + config.statementTimeout().toMillis();
    }

    /** A new connection in auto-commit mode, connecting within the driver's {@code connectTimeout} and {@code loginTimeout}. */
    Connection open() throws SQLException {
        return open(properties);
    }

    /**
     * A new connection, given up on after {@code within} (rounded up to whole seconds, pgjdbc's unit) unless the URL
     * sets its own {@code loginTimeout}: a call that would have waited that long for a pooled connection waits no longer
     * for one of its own.
     */
    Connection open(Duration within) throws SQLException {
        Properties bounded = new Properties();
        bounded.putAll(properties);
        long seconds = Math.max(1, (within.toMillis() + 999) / 1000);
        bounded.setProperty("loginTimeout", Long.toString(seconds));
        bounded.setProperty("connectTimeout", Long.toString(Math.min(seconds,
                Long.parseLong(properties.getProperty("connectTimeout", Long.toString(seconds))))));
        return open(bounded);
    }

    private Connection open(Properties with) throws SQLException {
        Connection connection = DriverManager.getConnection(url, with);
        try (Statement statement = connection.createStatement()) {
            statement.execute(initSql);
            return connection;
        } catch (SQLException | RuntimeException e) {
            try {
                connection.close();
            } catch (SQLException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }
}
