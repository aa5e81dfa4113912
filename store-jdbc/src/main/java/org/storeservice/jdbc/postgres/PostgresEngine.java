package org.storeservice.jdbc.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.PostgresStorageConfig;
import org.storeservice.jdbc.internal.Dialect;
import org.storeservice.jdbc.internal.Engine;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;

/** PostgreSQL's parts of a storage: the lanes committing batches, the pool for reads and large values. */
public final class PostgresEngine {
    private PostgresEngine() {
    }

    /**
     * Connects to the database of {@code config} once, creating the table if absent, then opens the pool and starts
     * the writer's lanes.
     *
     * @throws StorageException if the database cannot be reached or refuses the login, with the driver's own
     *     message (a wrong password, a refused connection), at once rather than after the pool's time-out
     */
    public static Engine open(PostgresStorageConfig config, long spoolMemoryBytes) throws IOException {
        return open(config, spoolMemoryBytes, PostgresWriter.Settings.of(config));
    }

    /** The same, with the writer's settings given; for tests that prune often. */
    static Engine open(PostgresStorageConfig config, long spoolMemoryBytes, PostgresWriter.Settings settings)
            throws IOException {
        TableName table = TableName.parse(config.table());
        Dialect dialect = new PostgresDialect();
        Sql sql = new Sql(table);
        // One plain connection first: the pool would retry until its time-out and then report only that it timed out.
        ConnectionFactory connections = new ConnectionFactory(config);
        try (Connection connection = connections.open()) {
            SchemaVersion.ensure(connection, dialect, table);
        } catch (SQLException e) {
            throw new StorageException("Could not connect to PostgreSQL at " + config.jdbcUrlWithoutParameters()
                    + ": " + PooledConnections.withCause(e), e);
        }
        HikariDataSource hikari;
        try {
            hikari = new HikariDataSource(PooledConnections.hikariConfig(config));
        } catch (RuntimeException e) {
            throw new StorageException("Could not open PostgreSQL storage " + config + ": " + e.getMessage(), e);
        }
        PooledConnections pool = new PooledConnections(hikari, connections, config.poolTimeout());
        CommitRows commitRows = new CommitRows(table);
        PostgresWriter writer = new PostgresWriter(pool, connections, new PostgresBatch(table, sql, dialect, commitRows),
                commitRows, settings, hikari.getPoolName());
        return new Engine(dialect, sql, writer, pool, PostgresStorageConfig.MAX_VALUE_BYTES,
                config.spoolDirectory(), spoolMemoryBytes,
                config.jdbcUrlWithoutParameters() + " (table " + table + ")", Optional.empty());
    }
}
