package org.storeservice.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.StoredEntry;

/** Binds a {@link WriteRequest} to the insert statements of {@link Sql}, and turns a row into a {@link StoredEntry}. */
public final class Rows {
    private static final String TEXT = "T";
    private static final String BYTES = "B";

    private Rows() {
    }

    /** Executes the prepared delete of {@code request}'s key; {@code true} if a row was deleted. */
    public static boolean delete(PreparedStatement statement, WriteRequest request) throws SQLException {
        statement.setString(1, request.key());
        return statement.executeUpdate() > 0;
    }

    /** Executes the prepared upsert or insert-if-absent; {@code true} if a row was written. */
    public static boolean write(PreparedStatement statement, WriteRequest request, Dialect dialect) throws SQLException {
        InputStream streamed = null;
        try {
            streamed = bind(statement, request, dialect);
            return statement.executeUpdate() > 0;
        } finally {
            clearQuietly(statement);
            if (streamed != null) {
                closeQuietly(streamed);
            }
        }
    }

    /** Binds the six parameters of {@link Sql#upsert}; returns a stream the driver reads while it runs, or null. */
    private static InputStream bind(PreparedStatement statement, WriteRequest request, Dialect dialect)
            throws SQLException {
        try {
            statement.setString(1, request.key());
            statement.setBytes(2, KeyOrder.of(request.key()));
            statement.setString(3, kindCode(request.kind()));
            if (request.text() != null) {
                statement.setString(4, request.text());
            } else {
                statement.setNull(4, Types.VARCHAR);
            }
            InputStream streamed = null;
            if (request.bytes() != null) {
                streamed = dialect.bindBytes(statement, 5, request.bytes());
            } else {
                statement.setNull(5, Types.BINARY);
            }
            dialect.bindTime(statement, 6, request.writtenAt());
            return streamed;
        } catch (IOException e) {
            throw new LocalWriteFailure("Could not read the spooled value: " + e.getMessage(), e);
        }
    }

    /** The {@code kind} column's code for {@code kind}. */
    public static String kindCode(EntryKind kind) {
        return kind == EntryKind.TEXT ? TEXT : BYTES;
    }

    /** A reused statement (SQLite's writer) would otherwise keep the last value it bound alive. */
    private static void clearQuietly(PreparedStatement statement) {
        try {
            statement.clearParameters();
        } catch (SQLException e) {
            // a failed statement (sqlite-jdbc: "statement is not executing"); its own failure is the one thrown
        }
    }

    private static void closeQuietly(InputStream stream) {
        try {
            stream.close();
        } catch (IOException e) {
            // only read from; the spool file is deleted by its owner
        }
    }

    /** The entry in the current row of a query that selected {@link Sql#COLUMNS}. */
    public static StoredEntry read(ResultSet row, Dialect dialect) throws SQLException {
        String key = row.getString(1);
        String kind = row.getString(2);
        String text = row.getString(3);
        byte[] bytes = row.getBytes(4);
        var writtenAt = dialect.readTime(row, 5);
        if (TEXT.equals(kind)) {
            // Text lives in text_value, unless it held U+0000 and went to bytes_value as UTF-8.
            String value = text != null ? text : bytes != null ? TextValues.fromUtf8(bytes) : "";
            return StoredEntry.text(key, value, writtenAt);
        }
        // sqlite-jdbc reads a zero-length blob back as null.
        return StoredEntry.bytes(key, bytes != null ? bytes : new byte[0], writtenAt);
    }
}
