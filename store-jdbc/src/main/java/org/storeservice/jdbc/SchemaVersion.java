package org.storeservice.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;

/**
 * Creates the entry table on first start and records its schema version in {@value #TABLE} (one row
 * per entry table), so that a later release can see what it must migrate. A table recorded with a newer
 * version than this release knows is refused rather than written in an old shape.
 */
final class SchemaVersion {
    /** The table that records each entry table's schema version, in the entry table's schema. */
    static final String TABLE = "store_schema";

    /** The schema version this release writes: key, key_order, kind, text_value, bytes_value, written_at. */
    static final int CURRENT = 1;

    private static final Logger log = LoggerFactory.getLogger(SchemaVersion.class);

    /** Several servers may start at once on one database; a lost race shows up as a failed CREATE. */
    private static final int ATTEMPTS = 3;

    private SchemaVersion() {
    }

    /** Creates what is missing and checks the recorded version; {@code connection} is in auto-commit mode. */
    static void ensure(Connection connection, Dialect dialect, TableName table) throws StorageException {
        SQLException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                createAndRecord(connection, dialect, table);
                return;
            } catch (SQLException e) {
                last = e;
                log.debug("Creating table {} failed (attempt {}), retrying", table, attempt, e);
            }
        }
        throw new StorageException("Could not create or check table " + table, last);
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
