package org.storeservice.jdbc.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.storeservice.jdbc.internal.Dialect;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.TableName;

/** SQLite: the write time as INTEGER microseconds since the epoch; TEXT keys compare by UTF-8 bytes. */
final class SqliteDialect implements Dialect {

    @Override
    public List<String> createStatements(TableName table) {
        String t = table.qualified();
        return List.of(
                "CREATE TABLE IF NOT EXISTS " + table.sibling(SchemaVersion.TABLE)
                        + " (table_name TEXT NOT NULL PRIMARY KEY, version INTEGER NOT NULL)",
                "CREATE TABLE IF NOT EXISTS " + t + " ("
                        + "key TEXT NOT NULL PRIMARY KEY, "
                        + "key_order BLOB NOT NULL, "
                        + "kind TEXT NOT NULL CHECK (kind IN ('T', 'B')), "
                        + "text_value TEXT, "
                        + "bytes_value BLOB, "
                        + "written_at INTEGER NOT NULL)",
                "CREATE INDEX IF NOT EXISTS " + table.sibling(table.table() + "_key_order")
                        + " ON " + table.table() + " (key_order)");
    }

    /** SQLite runs one write at a time per file and checks {@code IF NOT EXISTS} under that lock: no race. */
    @Override
    public Optional<String> schemaLock() {
        return Optional.empty();
    }

    @Override
    public InputStream bindBytes(PreparedStatement statement, int index, SpooledContent value)
            throws SQLException, IOException {
        // sqlite-jdbc binds a stream by reading it into a growing buffer; one array of the value's size is less.
        statement.setBytes(index, value.readAll());
        return null;
    }

    @Override
    public void bindTime(PreparedStatement statement, int index, Instant time) throws SQLException {
        statement.setLong(index, ChronoUnit.MICROS.between(Instant.EPOCH, time));
    }

    @Override
    public Instant readTime(ResultSet row, int index) throws SQLException {
        return Instant.EPOCH.plus(row.getLong(index), ChronoUnit.MICROS);
    }

    @Override
    public int scanFetchSize() {
        return 0; // sqlite-jdbc steps through the result row by row anyway
    }

    @Override
    public String name() {
        return "sqlite";
    }
}
