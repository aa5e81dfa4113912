package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.storeservice.jdbc.internal.UriQuery;

/**
 * The real PostgreSQL server the tests use, and a schema of this run's own inside it (random name,
 * dropped afterwards), so that runs on a shared server never collide. A test class registers it with
 * {@code @RegisterExtension static final TestPostgres postgres = new TestPostgres();}: the schema is created
 * before its tests and dropped after them. A test that needs PostgreSQL in only some of its methods uses
 * {@code try (TestPostgres postgres = TestPostgres.connect()) { ... }} there instead. Published in this
 * module's test-jar for store-examples' tests.
 *
 * <p>The server is {@code $STORE_TEST_POSTGRES_URL}. Without it the PostgreSQL tests are skipped, and each skipped
 * test class prints one line saying how to enable them; nothing probes a server no one named. When
 * {@code $STORE_TEST_POSTGRES_REQUIRED} is {@code true} (CI's {@code .ci/run} sets it), a missing or unreachable
 * server fails the tests instead.
 */
public final class TestPostgres implements BeforeAllCallback, AfterAllCallback, AutoCloseable {
    static final String URL_VARIABLE = "STORE_TEST_POSTGRES_URL";
    static final String REQUIRED_VARIABLE = "STORE_TEST_POSTGRES_REQUIRED";
    static final String EXAMPLE_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=postgres";
    /** The test classes whose skip was said: once per class, so that each skipped class says why in the output. */
    private static final Set<String> SKIPS_SAID = ConcurrentHashMap.newKeySet();

    private static final Pattern HOST_PORT = Pattern.compile("jdbc:postgresql://([^:/?]+)(?::(\\d+))?(/.*)");

    private final String baseUrl;
    private final boolean required;
    private final PrintStream out;
    private final String schema = "store_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private volatile boolean created;

    /** For {@code @RegisterExtension}: the schema is created before the class's tests. */
    public TestPostgres() {
        this(System.getenv(URL_VARIABLE), Boolean.parseBoolean(System.getenv(REQUIRED_VARIABLE)), System.out);
    }

    /** A server named {@code baseUrl} (or none), required or not, a skip said on {@code out}; for its own test. */
    TestPostgres(String baseUrl, boolean required, PrintStream out) {
        this.baseUrl = baseUrl;
        this.required = required;
        this.out = out;
    }

    /** Connects and creates a schema of its own now; fails or skips (see the class doc) if there is no server. */
    public static TestPostgres connect() {
        TestPostgres postgres = new TestPostgres();
        postgres.createSchema(StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass());
        return postgres;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        createSchema(context.getRequiredTestClass());
    }

    /**
     * Connects and creates this run's schema; fails or skips (see the class doc) if there is no server, saying so once
     * for {@code testClass}.
     */
    void createSchema(Class<?> testClass) {
        if (baseUrl == null) {
            String message = "PostgreSQL tests skipped: no server named; to run them set " + URL_VARIABLE + "="
                    + EXAMPLE_URL;
            if (required) {
                fail(message + " (" + REQUIRED_VARIABLE + "=true, so this fails rather than skips)");
            }
            if (SKIPS_SAID.add(testClass.getName())) {
                out.println(testClass.getSimpleName() + ": " + message);
            }
            Assumptions.abort(message);
        }
        try (Connection connection = open(baseUrl); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
            created = true;
        } catch (SQLException e) {
            String message = "No PostgreSQL server at " + withoutParameters(baseUrl) + " (" + e.getMessage()
                    + "); set " + URL_VARIABLE + " to one";
            if (required) {
                fail(message + ". " + REQUIRED_VARIABLE + "=true, so this fails rather than skips.", e);
            }
            message += ", or set " + REQUIRED_VARIABLE + "=true to fail instead of skipping.";
            if (SKIPS_SAID.add(testClass.getName())) {
                out.println(testClass.getSimpleName() + ": " + message);
            }
            Assumptions.abort(message);
        }
    }

    private static Connection open(String url) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("connectTimeout", "5");
        properties.setProperty("loginTimeout", "10");
        return DriverManager.getConnection(url, properties);
    }

    /** A storage URI for {@code table} in this run's schema. */
    public String uri(String table) {
        return uri(table, "");
    }

    /** A storage URI for {@code table} in this run's schema, plus {@code parameters} ("a=b&c=d" or empty). */
    public String uri(String table, String parameters) {
        return uri(baseUrl, table, parameters);
    }

    /** The same, through {@code host:port} instead of the server's own address (a proxy in front of it). */
    public String uriVia(String host, int port, String table, String parameters) {
        Matcher matcher = HOST_PORT.matcher(baseUrl);
        if (!matcher.matches()) {
            throw new IllegalStateException("Cannot find host and port in " + withoutParameters(baseUrl));
        }
        return uri("jdbc:postgresql://" + host + ":" + port + matcher.group(3), table, parameters);
    }

    private String uri(String url, String table, String parameters) {
        String separator = url.contains("?") ? "&" : "?";
        return url + separator + "table=" + schema + "." + table + (parameters.isEmpty() ? "" : "&" + parameters);
    }

    /** A storage URI for {@code table} in this run's schema with {@code user} and {@code password} instead of the server's. */
    public String uriAs(String user, String password, String table) {
        String url = UriQuery.parse(baseUrl).rebuiltWithout(List.of("user", "password"));
        return uri(url, table, "user=" + user + "&password=" + password);
    }

    /** The server's host and port, for a proxy to forward to. */
    public String host() {
        Matcher matcher = HOST_PORT.matcher(baseUrl);
        return matcher.matches() ? matcher.group(1) : "127.0.0.1";
    }

    public int port() {
        Matcher matcher = HOST_PORT.matcher(baseUrl);
        return matcher.matches() && matcher.group(2) != null ? Integer.parseInt(matcher.group(2)) : 5432;
    }

    public String schema() {
        return schema;
    }

    /** A plain connection to the server, for checks behind the storage's back. */
    public Connection connection() throws SQLException {
        return open(baseUrl);
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        close();
    }

    /** Drops this run's schema and everything in it. */
    @Override
    public void close() throws SQLException {
        if (!created) {
            return; // skipped or failed before: nothing to drop
        }
        try (Connection connection = open(baseUrl); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    private static String withoutParameters(String url) {
        int question = url.indexOf('?');
        return question < 0 ? url : url.substring(0, question);
    }
}
