package org.storeservice.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL's pool (HikariCP) and the read path over it: each read borrows a pooled connection in auto-commit mode.
 * HikariCP drops connections that fail with a connection error and opens new ones, so reads and writes (the
 * {@link PostgresWriter}, which borrows from the same pool) succeed again once the database is back.
 */
final class PooledConnections implements ReadConnections {
    private static final Logger log = LoggerFactory.getLogger(PooledConnections.class);

    private final HikariDataSource pool;

    PooledConnections(HikariDataSource pool) {
        this.pool = pool;
    }

    /**
     * How many lanes of the {@link PostgresWriter} commit at once: up to {@link PostgresStorageConfig#MAX_WRITER_LANES},
     * leaving one connection of the pool for reads (the readiness probe among them) when it has more than one.
     */
    static int writerLanes(PostgresStorageConfig config) {
        return Math.max(1, Math.min(PostgresStorageConfig.MAX_WRITER_LANES, config.poolSize() - 1));
    }

    /** The pool for {@code config}: sized, timed out and initialised as the config says. */
    static HikariConfig hikariConfig(PostgresStorageConfig config) {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("store-" + config.table());
        hikari.setDriverClassName("org.postgresql.Driver");
        hikari.setJdbcUrl(config.jdbcUrl());
        hikari.setDataSourceProperties(config.driverProperties());
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setMinimumIdle(1); // the database is shared by many servers: open connections only when used
        long poolTimeout = config.poolTimeout().toMillis();
        hikari.setConnectionTimeout(poolTimeout);
        hikari.setValidationTimeout(Math.max(250, poolTimeout / 2));
        hikari.setInitializationFailTimeout(-1); // postgres() checked the database itself, with the driver's message
        hikari.setAutoCommit(true);
        long statementTimeout = config.statementTimeout().toMillis();
        if (statementTimeout > 0) {
            hikari.setConnectionInitSql("SET statement_timeout = " + statementTimeout);
        }
        return hikari;
    }

    /**
     * The message and, if it has one, the cause's: HikariCP's "Connection is not available, request timed out"
     * carries the driver's own reason (a refused connection, a failed login) only as its cause.
     */
    static String withCause(SQLException e) {
        Throwable cause = e.getCause();
        return cause == null || cause.getMessage() == null ? e.getMessage() : e.getMessage() + ": " + cause.getMessage();
    }

    @Override
    public Connection acquire() throws SQLException {
        return pool.getConnection();
    }

    @Override
    public void release(Connection connection, boolean broken) {
        try {
            connection.close(); // back to the pool; Hikari itself evicts connections that failed
        } catch (SQLException e) {
            log.debug("Returning a connection to the pool failed", e);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
