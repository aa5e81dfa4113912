package org.storeservice.jdbc.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.jdbc.PostgresStorageConfig;
import org.storeservice.jdbc.internal.ReadConnections;

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
     * How many lanes of the {@link PostgresWriter} commit at once: up to {@link PostgresWriter#MAX_LANES},
     * leaving one connection of the pool for reads (the readiness probe among them) when it has more than one.
     */
    static int writerLanes(PostgresStorageConfig config) {
        return Math.max(1, Math.min(PostgresWriter.MAX_LANES, config.poolSize() - 1));
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
    public String describe(SQLException failure) {
        return withCause(failure);
    }

    @Override
    public Connection acquire() throws SQLException {
        return borrowOrOpen(pool);
    }

    /**
     * A connection from {@code pool}, but while the pool holds none at all (each was lost in an outage), a new one of
     * the same settings, for the caller to close. HikariCP opens connections again only after a back-off that doubles
     * up to 5 s while the database is away, so after an outage of a few seconds writes waiting on the pool committed
     * about 2 s after the database accepted connections again (BENCHMARKS.md, eighteenth round); these go as soon as
     * it does. Only the writer's lanes, the readiness probe and reads ask, so few are open at once, and only until
     * the pool has a connection again.
     */
    static Connection borrowOrOpen(HikariDataSource pool) throws SQLException {
        HikariPoolMXBean state = pool.getHikariPoolMXBean();
        if (state == null || state.getTotalConnections() > 0) {
            return pool.getConnection();
        }
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        Connection connection = DriverManager.getConnection(pool.getJdbcUrl(), properties);
        try {
            String initSql = pool.getConnectionInitSql();
            if (initSql != null) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute(initSql);
                }
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
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
