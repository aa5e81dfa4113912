package org.storeservice.jdbc;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.UriQuery;

/**
 * How to open an SQLite storage. Immutable; build one with {@link #builder(Path)} or parse a URI with
 * {@link #fromUri(String)}: {@code sqlite:PATH[?synchronous=FULL|NORMAL][&table=NAME][&maxValueBytes=N]
 * [&busyTimeoutMillis=N][&spoolDirectory=DIR]}.
 *
 * <p>Byte content is read to its end before its write is queued for the writer: the first 64 KiB in memory, the
 * rest to a temporary file ({@code store-jdbc-spool-*.tmp} in {@code spoolDirectory}, by default
 * {@code java.io.tmpdir}), deleted once the write is answered. The writer reads one such value into memory at a
 * time, when it binds it to its statement; so values in flight take about (writers x 64 KiB + one value) of heap.
 */
public final class SqliteStorageConfig {
    /** The URI prefix. */
    public static final String URI_PREFIX = "sqlite:";

    /**
     * Default cap on one byte value: 1,000,000,000 bytes, SQLite's own default maximum length of a
     * string or blob ({@code SQLITE_MAX_LENGTH}). The writer reads the value into one array when it stores
     * it, so this also bounds the heap that takes; a {@code DefaultStore}'s {@code maxValueBytes}
     * (4 MiB by default) applies before it.
     */
    public static final long DEFAULT_MAX_VALUE_BYTES = 1_000_000_000L;
    /** The largest {@code maxValueBytes}: the largest array the JVM reliably allocates. */
    public static final long MAX_VALUE_BYTES_LIMIT = Integer.MAX_VALUE - 8;

    /** Default wait for a write lock held by another process (for example an operator's tool), 5 s. */
    public static final int DEFAULT_BUSY_TIMEOUT_MILLIS = 5_000;

    private static final List<String> PARAMETERS = List.of("synchronous", "table", "maxValueBytes", "busyTimeoutMillis",
            "spoolDirectory");

    private final Path path;
    private final Synchronous synchronous;
    private final String table;
    private final long maxValueBytes;
    private final int busyTimeoutMillis;
    private final Path spoolDirectory;

    private SqliteStorageConfig(Builder builder) {
        this.path = builder.path;
        this.synchronous = builder.synchronous;
        this.table = builder.table;
        this.maxValueBytes = builder.maxValueBytes;
        this.busyTimeoutMillis = builder.busyTimeoutMillis;
        this.spoolDirectory = builder.spoolDirectory;
    }

    public static Builder builder(Path path) {
        return new Builder(path);
    }

    /**
     * Parses {@code sqlite:PATH?...}. The path is a file path (relative to the working directory unless
     * absolute); its parent directories are created on open. A path that starts with {@code //} is refused: it is
     * how a URL names a host, and {@code sqlite://data/x.db} would otherwise be {@code /data/x.db}.
     *
     * @throws IllegalArgumentException if the URI is not an {@code sqlite:} URI or a parameter is unknown or invalid
     */
    public static SqliteStorageConfig fromUri(String uri) {
        if (!uri.regionMatches(true, 0, URI_PREFIX, 0, URI_PREFIX.length())) {
            throw new IllegalArgumentException("Not an SQLite storage URI (sqlite:PATH): '" + uri + "'");
        }
        UriQuery query = UriQuery.parse(uri.substring(URI_PREFIX.length()));
        if (query.base().isEmpty()) {
            throw new IllegalArgumentException("SQLite storage URI has no path: '" + uri + "'");
        }
        if (query.base().startsWith("//")) {
            // Not a path: read as one, sqlite://data/x.db would be /data/x.db, a new directory at the root.
            throw new IllegalArgumentException("sqlite: takes a file path, not a URL with '//': write sqlite:data/store.db"
                    + " (relative to the working directory) or sqlite:/var/lib/store/store.db (absolute), in '" + uri + "'");
        }
        Builder builder = builder(Path.of(query.base()));
        for (String name : query.names()) {
            String value = query.get(name);
            switch (name) {
                case "synchronous" -> builder.synchronous(parseSynchronous(value));
                case "table" -> builder.table(value);
                case "maxValueBytes" -> builder.maxValueBytes(UriQuery.longValue(name, value, 0));
                case "busyTimeoutMillis" -> builder.busyTimeoutMillis(UriQuery.intValue(name, value, 0));
                case "spoolDirectory" -> builder.spoolDirectory(Path.of(value));
                default -> throw new IllegalArgumentException("Unknown parameter '" + name + "' in '" + uri
                        + "'; known: " + PARAMETERS);
            }
        }
        return builder.build();
    }

    private static Synchronous parseSynchronous(String value) {
        try {
            return Synchronous.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("synchronous must be FULL or NORMAL: '" + value + "'", e);
        }
    }

    /** The database file. */
    public Path path() {
        return path;
    }

    public Synchronous synchronous() {
        return synchronous;
    }

    /** The entry table, optionally {@code schema.table}; default {@value TableName#DEFAULT}. */
    public String table() {
        return table;
    }

    /** The largest byte value accepted; larger content fails the write before anything is queued. */
    public long maxValueBytes() {
        return maxValueBytes;
    }

    public int busyTimeoutMillis() {
        return busyTimeoutMillis;
    }

    /** Where byte content past 64 KiB waits for the writer; {@code null}: {@code java.io.tmpdir}. */
    public Path spoolDirectory() {
        return spoolDirectory;
    }

    @Override
    public String toString() {
        return "SqliteStorageConfig{path=" + path + ", synchronous=" + synchronous + ", table=" + table
                + ", maxValueBytes=" + maxValueBytes + ", busyTimeoutMillis=" + busyTimeoutMillis + '}';
    }

    /** Builds a {@link SqliteStorageConfig}. Not thread-safe. */
    public static final class Builder {
        private final Path path;
        private Synchronous synchronous = Synchronous.FULL;
        private String table = TableName.DEFAULT;
        private long maxValueBytes = DEFAULT_MAX_VALUE_BYTES;
        private int busyTimeoutMillis = DEFAULT_BUSY_TIMEOUT_MILLIS;
        private Path spoolDirectory;

        private Builder(Path path) {
            this.path = Objects.requireNonNull(path, "path");
        }

        /** @see Synchronous */
        public Builder synchronous(Synchronous synchronous) {
            this.synchronous = Objects.requireNonNull(synchronous, "synchronous");
            return this;
        }

        public Builder table(String table) {
            TableName.parse(table); // fail here, not at open
            this.table = table;
            return this;
        }

        /** @see #DEFAULT_MAX_VALUE_BYTES */
        public Builder maxValueBytes(long maxValueBytes) {
            if (maxValueBytes < 0 || maxValueBytes > MAX_VALUE_BYTES_LIMIT) {
                throw new IllegalArgumentException("maxValueBytes must be 0.." + MAX_VALUE_BYTES_LIMIT
                        + " (the writer reads a value into one array): " + maxValueBytes);
            }
            this.maxValueBytes = maxValueBytes;
            return this;
        }

        public Builder busyTimeoutMillis(int busyTimeoutMillis) {
            if (busyTimeoutMillis < 0) {
                throw new IllegalArgumentException("busyTimeoutMillis must not be negative: " + busyTimeoutMillis);
            }
            this.busyTimeoutMillis = busyTimeoutMillis;
            return this;
        }

        /** An existing directory for spooled content; {@code null} (the default): {@code java.io.tmpdir}. */
        public Builder spoolDirectory(Path spoolDirectory) {
            this.spoolDirectory = spoolDirectory;
            return this;
        }

        public SqliteStorageConfig build() {
            return new SqliteStorageConfig(this);
        }
    }
}
