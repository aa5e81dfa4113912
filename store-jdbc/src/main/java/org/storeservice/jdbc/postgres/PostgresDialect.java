package org.storeservice.jdbc.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.storeservice.jdbc.internal.Dialect;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.TableName;

/**
 * PostgreSQL (and the engines that speak its dialect): {@code text COLLATE "C"} keys, so equality and
 * the primary-key index work on bytes whatever the database's default collation; {@code bytea} values;
 * the write time as {@code timestamptz}.
 */
public final class PostgresDialect implements Dialect {
    /**
     * Rows per round trip while scanning. Small because each row may hold a value of several MiB and
     * the driver holds a whole fetch in memory.
     */
    public static final int SCAN_FETCH_SIZE = 16;

    @Override
    public List<String> createStatements(TableName table) {
        String t = table.qualified();
        List<String> statements = new ArrayList<>(List.of(
                "CREATE TABLE IF NOT EXISTS " + table.sibling(SchemaVersion.TABLE)
                        + " (table_name text NOT NULL PRIMARY KEY, version integer NOT NULL)",
                "CREATE TABLE IF NOT EXISTS " + t + " ("
                        + "key text COLLATE \"C\" NOT NULL PRIMARY KEY, "
                        + "key_order bytea NOT NULL, "
                        + "kind text NOT NULL CHECK (kind IN ('T', 'B')), "
                        + "text_value text, "
                        + "bytes_value bytea, "
                        + "written_at timestamptz NOT NULL)",
                createIndexIfMissing(table, table.table() + "_key_order", t + " (key_order)")));
        statements.addAll(CommitRows.createStatements(table)); // the batches' commit rows: exactly once
        return statements;
    }

    /**
     * Creates index {@code name} {@code ON definition} unless it exists. Not {@code CREATE INDEX IF NOT EXISTS}: that
     * locks the table against writes before it finds the index there, and a server starting beside others that write
     * (to this table, and to the commit rows every table shares) would deadlock with them.
     */
    static String createIndexIfMissing(TableName table, String name, String definition) {
        return "DO $$ BEGIN IF to_regclass('" + table.sibling(name) + "') IS NULL THEN CREATE INDEX " + name + " ON "
                + definition + "; END IF; END $$";
    }

    /**
     * Two servers creating one table at once both pass {@code IF NOT EXISTS}, and the later one fails on the
     * catalog's unique index, once per statement: held to the end of the creating transaction, this lock lets the
     * later server find everything created instead.
     */
    @Override
    public Optional<String> schemaLock() {
        return Optional.of("SELECT pg_advisory_xact_lock(hashtext('org.storeservice.schema'))");
    }

    @Override
    public InputStream bindBytes(PreparedStatement statement, int index, SpooledContent value)
            throws SQLException, IOException {
        if (value.inMemory()) {
            statement.setBytes(index, value.readAll());
            return null;
        }
        // With the length known, pgjdbc sends the stream as it reads it, without a copy of its own.
        InputStream stream = value.open();
        statement.setBinaryStream(index, stream, value.length());
        return stream;
    }

    @Override
    public void bindTime(PreparedStatement statement, int index, Instant time) throws SQLException {
        statement.setObject(index, OffsetDateTime.ofInstant(time, ZoneOffset.UTC));
    }

    @Override
    public Instant readTime(ResultSet row, int index) throws SQLException {
        return row.getObject(index, OffsetDateTime.class).toInstant();
    }

    @Override
    public int scanFetchSize() {
        return SCAN_FETCH_SIZE;
    }

    @Override
    public String name() {
        return "postgresql";
    }
}
