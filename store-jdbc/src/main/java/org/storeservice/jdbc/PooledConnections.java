package org.storeservice.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.StorageException;

/**
 * The PostgreSQL path for reads and writes: each call borrows a pooled connection in auto-commit mode,
 * so a single upsert statement is its own transaction. HikariCP drops connections that fail with a
 * connection error and opens new ones, so writes succeed again once the database is back.
 */
final class PooledConnections implements ReadConnections, WritePath {
    private static final Logger log = LoggerFactory.getLogger(PooledConnections.class);

    private final HikariDataSource pool;
    private final Sql sql;
    private final Dialect dialect;

    PooledConnections(HikariDataSource pool, Sql sql, Dialect dialect) {
        this.pool = pool;
        this.sql = sql;
        this.dialect = dialect;
    }

    @Override
    public boolean write(WriteRequest request) throws IOException {
        String statementSql = request.deletes() ? sql.delete
                : request.policy() == OverwritePolicy.REJECT ? sql.insertIfAbsent : sql.upsert;
        try (Connection connection = pool.getConnection();
                var statement = connection.prepareStatement(statementSql)) {
            return request.deletes() ? Rows.delete(statement, request) : Rows.write(statement, request, dialect);
        } catch (SQLException e) {
            throw new StorageException("Write to " + dialect.name() + " failed: " + withCause(e), e);
        }
    }

    /**
     * One connection, one transaction, one JDBC batch: pgjdbc sends the upserts without waiting for each answer, as
     * multi-row INSERTs unless the URL turned {@code reWriteBatchedInserts} off. One INSERT ... ON CONFLICT may not
     * touch a row twice, so only the last write of each key is sent: within one transaction the earlier ones would
     * be overwritten before anyone could see them.
     */
    @Override
    public void writeAll(List<WriteRequest> requests) throws IOException {
        Map<String, WriteRequest> lastPerKey = new LinkedHashMap<>();
        for (WriteRequest request : requests) {
            lastPerKey.put(request.key(), request);
        }
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try (var statement = connection.prepareStatement(sql.upsert)) {
                Rows.writeBatch(statement, List.copyOf(lastPerKey.values()), dialect);
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection, e);
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            // pgjdbc's BatchUpdateException quotes the statement with every value bound (a multi-row INSERT: up to
            // 128 rows of them); the server's own reason is the next exception.
            SQLException reason = e instanceof BatchUpdateException && e.getNextException() != null ? e.getNextException() : e;
            throw new StorageException("Write to " + dialect.name() + " failed: " + withCause(reason), e);
        }
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

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e); // a broken connection: Hikari evicts it
        }
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
