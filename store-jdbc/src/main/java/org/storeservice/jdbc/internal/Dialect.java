package org.storeservice.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What differs between the SQL databases: column types in the DDL, how the write time is kept, how
 * byte content is bound, and how a scan streams. The statements themselves ({@link Sql}) are shared.
 */
public interface Dialect {

    /** Statements that create the entry table, its index and the schema-version table if absent. */
    List<String> createStatements(TableName table);

    /**
     * A statement that, run first in the transaction that creates the tables, makes servers starting together on one
     * database create them one after another instead of racing; empty where the database does so by itself.
     */
    Optional<String> schemaLock();

    void bindTime(PreparedStatement statement, int index, Instant time) throws SQLException;

    /**
     * Binds a byte value, reading it from its spool if it was spooled. Returns a stream the driver reads while the
     * statement runs, to be closed after it ran, or {@code null}.
     */
    InputStream bindBytes(PreparedStatement statement, int index, SpooledContent value)
            throws SQLException, IOException;

    Instant readTime(ResultSet row, int index) throws SQLException;

    /**
     * Rows a scan fetches per round trip; 0 lets the driver decide. A driver that otherwise reads the
     * whole result into memory (pgjdbc) needs a positive value and a transaction to stream.
     */
    int scanFetchSize();

    /** A short name for logs and {@code toString}. */
    String name();
}
