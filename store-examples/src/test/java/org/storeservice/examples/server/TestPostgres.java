package org.storeservice.examples.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The real PostgreSQL server these tests use, found as store-jdbc's tests find it, and a schema of this test's
 * own in it (random name, dropped on close), so that runs on a shared server never collide.
 *
 * <p>The server is {@code $STORE_TEST_POSTGRES_URL}, by default {@value #DEFAULT_URL}. When
 * {@code $STORE_TEST_POSTGRES_REQUIRED} is {@code true} (CI's {@code .ci/run} sets it) an unreachable server
 * fails the test; otherwise (a developer's machine without PostgreSQL) the test is skipped, saying why.
 */
final class TestPostgres implements AutoCloseable {
    static final String URL_VARIABLE = "STORE_TEST_POSTGRES_URL";
    static final String REQUIRED_VARIABLE = "STORE_TEST_POSTGRES_REQUIRED";
    static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    private final String baseUrl;
    private final String schema;

    private TestPostgres(String baseUrl, String schema) {
        this.baseUrl = baseUrl;
        this.schema = schema;
    }

    /** Connects and creates this test's schema; fails or skips (see the class doc) if there is no server. */
    static TestPostgres connect() {
        String url = System.getenv().getOrDefault(URL_VARIABLE, DEFAULT_URL);
        String schema = "store_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection connection = open(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            String message = "No PostgreSQL server at " + withoutParameters(url) + " (" + e.getMessage() + "); set "
                    + URL_VARIABLE + " to one";
            if (Boolean.parseBoolean(System.getenv(REQUIRED_VARIABLE))) {
                fail(message + ". " + REQUIRED_VARIABLE + "=true, so this fails rather than skips.", e);
            }
            Assumptions.abort(message + ", or set " + REQUIRED_VARIABLE + "=true to fail instead of skipping.");
        }
        return new TestPostgres(url, schema);
    }

    /** A storage URI for {@code table} in this test's schema. */
    String uri(String table) {
        return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "table=" + schema + "." + table;
    }

    /** Drops this test's schema and everything in it. */
    @Override
    public void close() throws SQLException {
        try (Connection connection = open(baseUrl); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    private static Connection open(String url) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("connectTimeout", "5");
        properties.setProperty("loginTimeout", "10");
        properties.setProperty("socketTimeout", "60");
        return DriverManager.getConnection(url, properties);
    }

    private static String withoutParameters(String url) {
        int question = url.indexOf('?');
        return question < 0 ? url : url.substring(0, question);
    }
}
