package org.storeservice.jdbc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How to open a PostgreSQL storage. Immutable; build one with {@link #builder(String)} or parse a URI
 * with {@link #fromUri(String)}: a pgjdbc URL {@code jdbc:postgresql://host:port/db?user=...} plus
 * optional {@code table}, {@code poolSize}, {@code poolTimeoutMillis}, {@code statementTimeoutMillis} and
 * {@code spoolDirectory} parameters, which are taken out before the URL reaches the driver. Every other parameter is pgjdbc's.
 *
 * <p>Time-outs are bounded by default so that a dead database turns into {@code Error} within seconds,
 * not a hung request: pgjdbc's {@code connectTimeout} (5 s), {@code loginTimeout} (10 s) and
 * {@code socketTimeout} (30 s, longer than the statement time-out so that the server cancels first)
 * unless the URL sets them, the pool's wait for a connection ({@link #DEFAULT_POOL_TIMEOUT}) and the
 * server's {@code statement_timeout} ({@link #DEFAULT_STATEMENT_TIMEOUT}).
 *
 * <p>Byte content is read whole before a pooled connection is borrowed, since it may still be arriving
 * from a slow client: the first 64 KiB in memory, the rest to a temporary file
 * ({@code store-jdbc-spool-*.tmp} in {@code spoolDirectory}, by default {@code java.io.tmpdir}, deleted after
 * the write, failed or not).
 * Content over 1 GB - 1 byte, PostgreSQL's largest field, is refused while it is read.
 */
public final class PostgresStorageConfig {
    /** The URI prefix. */
    public static final String URI_PREFIX = "jdbc:postgresql:";

    public static final int DEFAULT_POOL_SIZE = 10;
    /** How long a call waits for a pooled connection (including opening one) before it fails, 5 s. */
    public static final Duration DEFAULT_POOL_TIMEOUT = Duration.ofSeconds(5);
    /** The server cancels a statement that runs longer, 10 s. */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(10);
    /** PostgreSQL's largest field (1 GB - 1): longer content could never be stored, so reading stops there. */
    static final long MAX_VALUE_BYTES = (1L << 30) - 1;

    /** pgjdbc properties (seconds) applied unless the URL gives its own. */
    static final List<String[]> DRIVER_DEFAULTS = List.of(
            new String[] {"connectTimeout", "5"},
            new String[] {"loginTimeout", "10"},
            new String[] {"socketTimeout", "30"},
            new String[] {"tcpKeepAlive", "true"});

    private static final List<String> PARAMETERS =
            List.of("table", "poolSize", "poolTimeoutMillis", "statementTimeoutMillis", "spoolDirectory");

    private final String jdbcUrl;
    private final String table;
    private final int poolSize;
    private final Duration poolTimeout;
    private final Duration statementTimeout;
    private final Path spoolDirectory;

    private PostgresStorageConfig(Builder builder) {
        this.jdbcUrl = builder.jdbcUrl;
        this.table = builder.table;
        this.poolSize = builder.poolSize;
        this.poolTimeout = builder.poolTimeout;
        this.statementTimeout = builder.statementTimeout;
        this.spoolDirectory = builder.spoolDirectory;
    }

    /** A builder for the pgjdbc URL {@code jdbcUrl} (without this class's own parameters). */
    public static Builder builder(String jdbcUrl) {
        return new Builder(jdbcUrl);
    }

    /**
     * Parses a {@code jdbc:postgresql:} URI, taking out this class's parameters.
     *
     * @throws IllegalArgumentException if it is not such a URI or one of this class's parameters is invalid
     */
    public static PostgresStorageConfig fromUri(String uri) {
        if (!uri.regionMatches(true, 0, URI_PREFIX, 0, URI_PREFIX.length())) {
            throw new IllegalArgumentException("Not a PostgreSQL storage URI (jdbc:postgresql://...): '" + uri + "'");
        }
        UriQuery query = UriQuery.parse(uri);
        Builder builder = builder(query.rebuiltWithout(PARAMETERS));
        for (String name : PARAMETERS) {
            String value = query.get(name);
            if (value == null) {
                continue;
            }
            switch (name) {
                case "table" -> builder.table(value);
                case "poolSize" -> builder.poolSize(UriQuery.intValue(name, value, 1));
                case "poolTimeoutMillis" -> builder.poolTimeout(Duration.ofMillis(UriQuery.longValue(name, value, 250)));
                case "spoolDirectory" -> builder.spoolDirectory(Path.of(value));
                default -> builder.statementTimeout(Duration.ofMillis(UriQuery.longValue(name, value, 0)));
            }
        }
        return builder.build();
    }

    /** The URL handed to pgjdbc. */
    public String jdbcUrl() {
        return jdbcUrl;
    }

    /** The entry table, optionally {@code schema.table}; default {@value TableName#DEFAULT}. */
    public String table() {
        return table;
    }

    public int poolSize() {
        return poolSize;
    }

    public Duration poolTimeout() {
        return poolTimeout;
    }

    /** Zero means no statement time-out. */
    public Duration statementTimeout() {
        return statementTimeout;
    }

    /** Where byte content past 64 KiB waits for a connection; {@code null}: {@code java.io.tmpdir}. */
    public Path spoolDirectory() {
        return spoolDirectory;
    }

    /** The URL without its parameters, which may hold a password: for logs and descriptions. */
    String jdbcUrlWithoutParameters() {
        int question = jdbcUrl.indexOf('?');
        return question < 0 ? jdbcUrl : jdbcUrl.substring(0, question);
    }

    /** Without the URL's parameters, which may hold a password. */
    @Override
    public String toString() {
        return "PostgresStorageConfig{url=" + jdbcUrlWithoutParameters() + ", table="
                + table + ", poolSize=" + poolSize + ", poolTimeout=" + poolTimeout + ", statementTimeout="
                + statementTimeout + '}';
    }

    /** Builds a {@link PostgresStorageConfig}. Not thread-safe. */
    public static final class Builder {
        private final String jdbcUrl;
        private String table = TableName.DEFAULT;
        private int poolSize = DEFAULT_POOL_SIZE;
        private Duration poolTimeout = DEFAULT_POOL_TIMEOUT;
        private Duration statementTimeout = DEFAULT_STATEMENT_TIMEOUT;
        private Path spoolDirectory;

        private Builder(String jdbcUrl) {
            if (!Objects.requireNonNull(jdbcUrl, "jdbcUrl").regionMatches(true, 0, URI_PREFIX, 0, URI_PREFIX.length())) {
                throw new IllegalArgumentException("Not a pgjdbc URL (jdbc:postgresql://...)");
            }
            this.jdbcUrl = jdbcUrl;
        }

        public Builder table(String table) {
            TableName.parse(table); // fail here, not at open
            this.table = table;
            return this;
        }

        public Builder poolSize(int poolSize) {
            if (poolSize < 1) {
                throw new IllegalArgumentException("poolSize must be at least 1: " + poolSize);
            }
            this.poolSize = poolSize;
            return this;
        }

        /** At least 250 ms, HikariCP's minimum. */
        public Builder poolTimeout(Duration poolTimeout) {
            if (poolTimeout.toMillis() < 250) {
                throw new IllegalArgumentException("poolTimeout must be at least 250 ms: " + poolTimeout);
            }
            this.poolTimeout = poolTimeout;
            return this;
        }

        public Builder statementTimeout(Duration statementTimeout) {
            if (statementTimeout.isNegative()) {
                throw new IllegalArgumentException("statementTimeout must not be negative: " + statementTimeout);
            }
            this.statementTimeout = statementTimeout;
            return this;
        }

        /** An existing directory for spooled content; {@code null} (the default): {@code java.io.tmpdir}. */
        public Builder spoolDirectory(Path spoolDirectory) {
            this.spoolDirectory = spoolDirectory;
            return this;
        }

        public PostgresStorageConfig build() {
            return new PostgresStorageConfig(this);
        }
    }
}
