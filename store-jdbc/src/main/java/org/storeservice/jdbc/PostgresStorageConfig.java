package org.storeservice.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.UriQuery;

/**
 * How to open a PostgreSQL storage. Immutable; build one with {@link #builder(String)} or parse a URI
 * with {@link #fromUri(String)}: a pgjdbc URL {@code jdbc:postgresql://host:port/db?user=...} plus
 * optional {@code table}, {@code poolSize}, {@code poolTimeoutMillis}, {@code statementTimeoutMillis},
 * {@code socketTimeoutMillis}, {@code failoverTimeoutMillis}, {@code spoolDirectory} and {@code passwordFile} parameters, which are taken out before the URL reaches the driver. Every other parameter is pgjdbc's.
 *
 * <p><b>Time-outs.</b> Every wait of a read or write is bounded, here in one place, so that a dead or stalled
 * database never hangs a request. A read (and the readiness probe, and a large value) waits for a pooled connection
 * ({@link #DEFAULT_POOL_TIMEOUT}, which includes opening one, also when the pool holds none and it opens one of its
 * own), then for the statement: the server cancels it after {@link #DEFAULT_STATEMENT_TIMEOUT}
 * ({@code statement_timeout}), and if the server itself does not answer the driver gives up after
 * {@link #DEFAULT_SOCKET_TIMEOUT} (longer than the statement time-out, so that the server cancels first; it is also
 * how soon a vanished host is noticed). A read fails after one try. Small writes are committed by the writer's lanes,
 * each on a connection of its own, opened within pgjdbc's {@code connectTimeout} (5 s a host) and {@code loginTimeout}
 * (10 s in all), which also bound the pool's own attempts to connect. A write is tried again while the database cannot
 * commit, and answered {@code Error} once {@link #DEFAULT_FAILOVER_TIMEOUT} has passed since it arrived, plus at most
 * the try under way then. A pgjdbc parameter in the URL ({@code socketTimeout=}, in seconds) wins over these.
 *
 * <p><b>Password.</b> So that it need not show in the command line ({@code ps}), the password may come from
 * elsewhere than the URL's {@code password=}: a file named by {@code passwordFile=} (its first line), else the
 * environment variable {@value #PASSWORD_VARIABLE}, else libpq's {@code PGPASSWORD}. The first of these that is
 * given is used; the URL's own {@code password=} beats them all.
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
    /** The environment variable a password is taken from when the URL has none and names no file. */
    public static final String PASSWORD_VARIABLE = "STORE_STORAGE_PASSWORD";
    /** libpq's own, the fallback after {@link #PASSWORD_VARIABLE}. */
    static final String LIBPQ_PASSWORD_VARIABLE = "PGPASSWORD";

    /** Connections a server holds at most: its writer lanes' own and the pool's, 10. */
    public static final int DEFAULT_POOL_SIZE = 10;
    /** The fewest connections: a writer lane's, one for reads and the readiness probe, one for large values. */
    public static final int MIN_POOL_SIZE = 3;
    /** How long a call waits for a pooled connection (including opening one) before it fails, 3 s. */
    public static final Duration DEFAULT_POOL_TIMEOUT = Duration.ofSeconds(3);
    /**
     * The server cancels a statement that runs longer, 5 s: ample for a 4 MiB value on a working database. Never zero:
     * it also bounds how long a batch whose answer was lost could still commit, which the commit rows must outlast.
     */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * The driver gives up on a server that sends nothing for this long, 6 s: after the statement time-out, so that
     * the server cancels first. A host that vanished (no reset, no answer) is noticed this long after the last byte.
     */
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(6);
    /**
     * How long a write waits for a database that commits before it answers {@code Error}, 30 s: a write that arrives
     * while there is no primary (a failover, a restart) waits for one instead of failing. Patroni's defaults (ttl 30 s,
     * loop_wait 10 s) promote a standby within about 30 s of losing a primary's node, and restart a killed postmaster
     * in a few seconds; a switchover takes one or two. A legacy .NET client waits 100 s for its answer by default.
     */
    public static final Duration DEFAULT_FAILOVER_TIMEOUT = Duration.ofSeconds(30);
    /** PostgreSQL's largest field (1 GB - 1): longer content could never be stored, so reading stops there. */
    public static final long MAX_VALUE_BYTES = (1L << 30) - 1;

    /**
     * pgjdbc properties (times in seconds) applied unless the URL gives its own. A batch of writes needs no
     * {@code reWriteBatchedInserts}: a batch goes as one statement over arrays.
     */
    static final List<String[]> DRIVER_DEFAULTS = List.of(
            new String[] {"connectTimeout", "5"},
            new String[] {"loginTimeout", "10"},
            new String[] {"tcpKeepAlive", "true"});

    private static final List<String> PARAMETERS =
            List.of("table", "poolSize", "poolTimeoutMillis", "statementTimeoutMillis",
            "socketTimeoutMillis", "failoverTimeoutMillis", "spoolDirectory", "passwordFile");

    private final String jdbcUrl;
    private final String table;
    private final int poolSize;
    private final Duration poolTimeout;
    private final Duration statementTimeout;
    private final Duration socketTimeout;
    private final Duration failoverTimeout;
    private final Path spoolDirectory;
    /** The password to hand the driver beside the URL, or null (none, or the URL has its own). */
    private final String password;

    private PostgresStorageConfig(Builder builder, String password) {
        this.password = password;
        this.jdbcUrl = builder.jdbcUrl;
        this.table = builder.table;
        this.poolSize = builder.poolSize;
        this.poolTimeout = builder.poolTimeout;
        this.statementTimeout = builder.statementTimeout;
        this.socketTimeout = builder.socketTimeout;
        this.failoverTimeout = builder.failoverTimeout;
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
        return fromUri(uri, System::getenv);
    }

    /** The same, reading environment variables through {@code environment} (for tests). */
    static PostgresStorageConfig fromUri(String uri, UnaryOperator<String> environment) {
        if (!uri.regionMatches(true, 0, URI_PREFIX, 0, URI_PREFIX.length())) {
            throw new IllegalArgumentException("Not a PostgreSQL storage URI (jdbc:postgresql://...): '" + uri + "'");
        }
        UriQuery query = UriQuery.parse(uri);
        Builder builder = builder(query.rebuiltWithout(PARAMETERS)).environment(environment);
        for (String name : PARAMETERS) {
            String value = query.get(name);
            if (value == null) {
                continue;
            }
            switch (name) {
                case "table" -> builder.table(value);
                case "poolSize" -> builder.poolSize(UriQuery.intValue(name, value, MIN_POOL_SIZE));
                case "poolTimeoutMillis" -> builder.poolTimeout(Duration.ofMillis(UriQuery.longValue(name, value, 250)));
                case "socketTimeoutMillis" -> builder.socketTimeout(Duration.ofMillis(UriQuery.longValue(name, value, 0)));
                case "failoverTimeoutMillis" -> builder.failoverTimeout(Duration.ofMillis(UriQuery.longValue(name, value, 0)));
                case "spoolDirectory" -> builder.spoolDirectory(Path.of(value));
                case "passwordFile" -> builder.passwordFile(Path.of(value));
                case "statementTimeoutMillis" -> builder.statementTimeout(Duration.ofMillis(UriQuery.longValue(name, value, 1)));
                default -> throw new IllegalStateException("PARAMETERS names " + name + ", which has no case here");
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

    /** The connections this server holds at most: its writer lanes' own (two, or one at the minimum of 3) and the pool's. */
    public int poolSize() {
        return poolSize;
    }

    public Duration poolTimeout() {
        return poolTimeout;
    }

    /** The server's {@code statement_timeout} on each connection; always positive. */
    public Duration statementTimeout() {
        return statementTimeout;
    }

    /** Zero means none. */
    public Duration socketTimeout() {
        return socketTimeout;
    }

    /** How long a write waits for a database that commits; zero: it fails at the first failed attempt. */
    public Duration failoverTimeout() {
        return failoverTimeout;
    }

    /** Where byte content past 64 KiB waits for a connection; {@code null}: {@code java.io.tmpdir}. */
    public Path spoolDirectory() {
        return spoolDirectory;
    }

    /** The password to give the driver beside the URL; empty if none was found or the URL holds its own. */
    Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /**
     * What pgjdbc is given beside the URL (a new copy each call): {@code connectTimeout} 5 s, {@code loginTimeout}
     * 10 s, {@code tcpKeepAlive}, the socket time-out, and the password when it came from elsewhere than the URL. The
     * URL's own parameters win over these.
     */
    public Properties driverProperties() {
        Properties properties = new Properties();
        for (String[] property : DRIVER_DEFAULTS) {
            properties.setProperty(property[0], property[1]);
        }
        // pgjdbc counts whole seconds; round up, so that it never gives up before the statement time-out
        long socketSeconds = (socketTimeout.toMillis() + 999) / 1000;
        properties.setProperty("socketTimeout", Long.toString(socketSeconds));
        if (password != null) {
            properties.setProperty("password", password);
        }
        return properties;
    }

    /** The URL without its parameters, which may hold a password: for logs and descriptions. */
    public String jdbcUrlWithoutParameters() {
        int question = jdbcUrl.indexOf('?');
        return question < 0 ? jdbcUrl : jdbcUrl.substring(0, question);
    }

    /** Without the URL's parameters, which may hold a password. */
    @Override
    public String toString() {
        return "PostgresStorageConfig{url=" + jdbcUrlWithoutParameters() + ", table="
                + table + ", poolSize=" + poolSize + ", poolTimeout=" + poolTimeout + ", statementTimeout="
                + statementTimeout + ", socketTimeout=" + socketTimeout + ", failoverTimeout=" + failoverTimeout + '}';
    }

    /** Builds a {@link PostgresStorageConfig}. Not thread-safe. */
    public static final class Builder {
        private final String jdbcUrl;
        private String table = TableName.DEFAULT;
        private int poolSize = DEFAULT_POOL_SIZE;
        private Duration poolTimeout = DEFAULT_POOL_TIMEOUT;
        private Duration statementTimeout = DEFAULT_STATEMENT_TIMEOUT;
        private Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
        private Duration failoverTimeout = DEFAULT_FAILOVER_TIMEOUT;
        private Path spoolDirectory;
        private String password;
        private Path passwordFile;
        private UnaryOperator<String> environment = System::getenv;

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

        /**
         * The connections this server holds at most ({@link #DEFAULT_POOL_SIZE}), at least {@link #MIN_POOL_SIZE}: the
         * writer's lanes (two, or one at the minimum of 3) own theirs, and large values take at most the rest less one, which stays
         * for reads and the readiness probe.
         */
        public Builder poolSize(int poolSize) {
            if (poolSize < MIN_POOL_SIZE) {
                throw new IllegalArgumentException("poolSize must be at least " + MIN_POOL_SIZE + " (a writer lane, a"
                        + " connection for reads and readiness, one for large values): " + poolSize);
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

        /** The server's {@code statement_timeout} ({@link #DEFAULT_STATEMENT_TIMEOUT}): positive, at least 1 ms. */
        public Builder statementTimeout(Duration statementTimeout) {
            if (statementTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("statementTimeout must be at least 1 ms (a statement without one"
                        + " could commit after its batch was written again): " + statementTimeout);
            }
            this.statementTimeout = statementTimeout;
            return this;
        }

        /** How long the driver waits for a server that sends nothing ({@link #DEFAULT_SOCKET_TIMEOUT}); zero for none. */
        public Builder socketTimeout(Duration socketTimeout) {
            if (socketTimeout.isNegative()) {
                throw new IllegalArgumentException("socketTimeout must not be negative: " + socketTimeout);
            }
            this.socketTimeout = socketTimeout;
            return this;
        }

        /**
         * How long a write waits for a database that commits ({@link #DEFAULT_FAILOVER_TIMEOUT}); zero: a write fails
         * at its first failed attempt.
         */
        public Builder failoverTimeout(Duration failoverTimeout) {
            if (failoverTimeout.isNegative()) {
                throw new IllegalArgumentException("failoverTimeout must not be negative: " + failoverTimeout);
            }
            this.failoverTimeout = failoverTimeout;
            return this;
        }

        /** An existing directory for spooled content; {@code null} (the default): {@code java.io.tmpdir}. */
        public Builder spoolDirectory(Path spoolDirectory) {
            this.spoolDirectory = spoolDirectory;
            return this;
        }

        /** The password, instead of one in the URL (which would show in {@code ps}). */
        public Builder password(String password) {
            this.password = password;
            return this;
        }

        /** A file whose first line is the password, unless {@link #password} or the URL gives one. */
        public Builder passwordFile(Path passwordFile) {
            this.passwordFile = passwordFile;
            return this;
        }

        Builder environment(UnaryOperator<String> environment) {
            this.environment = environment;
            return this;
        }

        /**
         * @throws IllegalArgumentException if the password file cannot be read
         */
        public PostgresStorageConfig build() {
            return new PostgresStorageConfig(this, resolvePassword());
        }

        /** The URL's own, then {@link #password}, then the file, then the environment; null if none. */
        private String resolvePassword() {
            if (UriQuery.parse(jdbcUrl).get("password") != null) {
                return null; // pgjdbc reads it from the URL, where it wins over properties anyway
            }
            if (password != null) {
                return password;
            }
            if (passwordFile != null) {
                try (var lines = Files.lines(passwordFile)) {
                    return lines.findFirst().orElse("");
                } catch (IOException | UncheckedIOException e) {
                    throw new IllegalArgumentException("Cannot read passwordFile " + passwordFile + ": " + e, e);
                }
            }
            String fromEnvironment = environment.apply(PASSWORD_VARIABLE);
            return fromEnvironment != null ? fromEnvironment : environment.apply(LIBPQ_PASSWORD_VARIABLE);
        }
    }
}
