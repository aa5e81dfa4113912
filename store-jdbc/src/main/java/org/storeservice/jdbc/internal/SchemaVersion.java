package org.storeservice.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.storeservice.api.storage.StorageException;

/**
 * Creates the entry table on first start and records its schema version in {@value #TABLE} (one row
 * per entry table), so that a later release can see what it must migrate. A table recorded with a newer
 * version than this release knows is refused rather than written in an old shape.
 */
public final class SchemaVersion {
    /** The table that records each entry table's schema version, in the entry table's schema. */
    public static final String TABLE = "store_schema";

    /** The schema version this release writes: key, key_order, kind, text_value, bytes_value, written_at. */
    public static final int CURRENT = 1;

    private SchemaVersion() {
    }

    /**
     * Creates what is missing and checks the recorded version; {@code connection} is in auto-commit mode, and is left
     * so unless this throws. Where the dialect has a schema lock, all of it is one transaction behind that lock, so
     * that servers starting together on a new database do not race to create the same tables.
     */
    public static void ensure(Connection connection, Dialect dialect, TableName table) throws StorageException {
        Optional<String> lock = dialect.schemaLock();
        try {
            if (lock.isEmpty()) {
                createAndRecord(connection, dialect, table);
                return;
            }
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute(lock.get());
                createAndRecord(connection, dialect, table);
                connection.commit();
            } catch (SQLException | StorageException | RuntimeException e) {
                try {
                    connection.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw new StorageException("Could not create or check table " + table + ": " + e.getMessage(), e);
        }
    }

    private static void createAndRecord(Connection connection, Dialect dialect, TableName table)
            throws SQLException, StorageException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : dialect.createStatements(table)) {
                statement.execute(sql);
            }
        }
        String versions = table.sibling(TABLE);
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + versions
                + " (table_name, version) VALUES (?, ?) ON CONFLICT (table_name) DO NOTHING")) {
            insert.setString(1, table.table());
            insert.setInt(2, CURRENT);
            insert.executeUpdate();
        }
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT version FROM " + versions + " WHERE table_name = ?")) {
            select.setString(1, table.table());
            try (ResultSet row = select.executeQuery()) {
                int version = row.next() ? row.getInt(1) : -1;
                if (version != CURRENT) {
                    throw new StorageException("Table " + table + " has schema version " + version
                            + "; this release reads and writes version " + CURRENT);
                }
            }
        }
    }
}
