package org.storeservice.jdbc.internal;

import java.util.regex.Pattern;

/**
 * A validated table name, optionally schema-qualified ({@code schema.table}). Table names are spliced
 * into SQL text (they cannot be bind parameters), so only plain identifiers are accepted.
 */
public final class TableName {
    /** The default table. */
    public static final String DEFAULT = "store_entries";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final String schema;
    private final String table;

    private TableName(String schema, String table) {
        this.schema = schema;
        this.table = table;
    }

    public static TableName parse(String name) {
        int dot = name.indexOf('.');
        String schema = dot < 0 ? null : name.substring(0, dot);
        String table = dot < 0 ? name : name.substring(dot + 1);
        if ((schema != null && !IDENTIFIER.matcher(schema).matches()) || !IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("Table name must be [schema.]table, each a letter or '_' followed by"
                    + " up to 62 letters, digits or '_': '" + name + "'");
        }
        return new TableName(schema, table);
    }

    /** The name to use in SQL, qualified if a schema was given. */
    public String qualified() {
        return schema == null ? table : schema + '.' + table;
    }

    /** The unqualified table name, as recorded in the schema-version table. */
    public String table() {
        return table;
    }

    /** Another table in the same schema. */
    public String sibling(String name) {
        return schema == null ? name : schema + '.' + name;
    }

    /** The schema, or {@code null} for the connection's default. */
    public String schema() {
        return schema;
    }

    @Override
    public String toString() {
        return qualified();
    }
}
