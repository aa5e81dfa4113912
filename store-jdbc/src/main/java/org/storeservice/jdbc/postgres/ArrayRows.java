package org.storeservice.jdbc.postgres;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.storeservice.jdbc.internal.KeyOrder;
import org.storeservice.jdbc.internal.LocalWriteFailure;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * Rows as the six arrays an {@code unnest} statement reads ({@link #UNNEST}): one element per row, in order, so that a
 * run of writes is one statement and one round trip.
 */
final class ArrayRows {
    /** The rows, as the six parameters {@link #bind} sets. */
    static final String UNNEST = "unnest(?::text[], ?::bytea[], ?::text[], ?::text[], ?::bytea[], ?::int8[])"
            + " AS u(k, o, kind, tv, bv, w)";

    private ArrayRows() {
    }

    /** Binds {@code rows} to the six arrays of {@link #UNNEST}, from parameter {@code first} on. */
    static void bind(Connection connection, PreparedStatement statement, int first, List<WriteRequest> rows)
            throws SQLException {
        int n = rows.size();
        String[] keys = new String[n];
        byte[][] keyOrders = new byte[n][];
        String[] kinds = new String[n];
        String[] texts = new String[n];
        byte[][] bytes = new byte[n][];
        Long[] micros = new Long[n];
        for (int i = 0; i < n; i++) {
            WriteRequest row = rows.get(i);
            keys[i] = row.key();
            keyOrders[i] = KeyOrder.of(row.key());
            kinds[i] = Rows.kindCode(row.kind());
            texts[i] = row.text();
            bytes[i] = row.bytes() == null ? null : inMemory(row.bytes());
            micros[i] = ChronoUnit.MICROS.between(Instant.EPOCH, row.writtenAt());
        }
        statement.setArray(first, connection.createArrayOf("text", keys));
        statement.setArray(first + 1, connection.createArrayOf("bytea", keyOrders));
        statement.setArray(first + 2, connection.createArrayOf("text", kinds));
        statement.setArray(first + 3, connection.createArrayOf("text", texts));
        statement.setArray(first + 4, connection.createArrayOf("bytea", bytes));
        statement.setArray(first + 5, connection.createArrayOf("int8", micros));
    }

    private static byte[] inMemory(SpooledContent value) throws SQLException {
        try {
            return value.readAll(); // in memory (see Run.large): no file is read
        } catch (IOException e) {
            throw new LocalWriteFailure("Could not read the spooled value: " + e.getMessage(), e);
        }
    }
}
