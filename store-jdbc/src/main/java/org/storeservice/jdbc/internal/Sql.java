package org.storeservice.jdbc.internal;

/**
 * The statements every dialect shares. {@code INSERT ... ON CONFLICT} is understood by SQLite (3.24+),
 * PostgreSQL (9.5+), CockroachDB and YugabyteDB, so a rewrite replaces the row atomically in one statement.
 */
public final class Sql {
    public static final String COLUMNS = "key, kind, text_value, bytes_value, written_at";

    public final String upsert;
    public final String insertIfAbsent;
    public final String get;
    public final String delete;
    public final String scanAll;
    public final String scanFrom;
    public final String scanRange;

    public Sql(TableName table) {
        String t = table.qualified();
        String insert = "INSERT INTO " + t + " (key, key_order, kind, text_value, bytes_value, written_at)"
                + " VALUES (?, ?, ?, ?, ?, ?)";
        // key_order is a function of the key, so a rewrite leaves it (and its index) alone.
        upsert = insert + " ON CONFLICT (key) DO UPDATE SET kind = excluded.kind,"
                + " text_value = excluded.text_value, bytes_value = excluded.bytes_value,"
                + " written_at = excluded.written_at";
        insertIfAbsent = insert + " ON CONFLICT (key) DO NOTHING";
        get = "SELECT " + COLUMNS + " FROM " + t + " WHERE key = ?";
        delete = "DELETE FROM " + t + " WHERE key = ?";
        String select = "SELECT " + COLUMNS + " FROM " + t;
        scanAll = select + " ORDER BY key_order";
        scanFrom = select + " WHERE key_order >= ? ORDER BY key_order";
        scanRange = select + " WHERE key_order >= ? AND key_order < ? ORDER BY key_order";
    }
}
