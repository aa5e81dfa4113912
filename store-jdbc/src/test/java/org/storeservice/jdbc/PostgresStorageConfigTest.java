package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the PostgreSQL password comes from, without a server; the environment is a map, never the real one. */
class PostgresStorageConfigTest {
    private static final String URL = "jdbc:postgresql://db/store?user=u";

    private static UnaryOperator<String> environment(Map<String, String> variables) {
        return variables::get;
    }

    @Test
    void thePasswordComesFromTheUrlThenTheFileThenStoreStoragePasswordThenPgpassword(@TempDir Path directory)
            throws Exception {
        Path file = Files.writeString(directory.resolve("password"), "from-file\nsecond line ignored\n");
        Map<String, String> both = Map.of("STORE_STORAGE_PASSWORD", "from-store", "PGPASSWORD", "from-libpq");

        PostgresStorageConfig inUrl = PostgresStorageConfig.fromUri(URL + "&password=in-url&passwordFile=" + file,
                environment(both));
        assertEquals(Optional.empty(), inUrl.password(), "the URL's own goes to pgjdbc in the URL");
        assertFalse(inUrl.driverProperties().containsKey("password"));

        assertEquals(Optional.of("from-file"),
                PostgresStorageConfig.fromUri(URL + "&passwordFile=" + file, environment(both)).password());
        assertEquals(Optional.of("from-store"), PostgresStorageConfig.fromUri(URL, environment(both)).password());
        assertEquals(Optional.of("from-libpq"),
                PostgresStorageConfig.fromUri(URL, environment(Map.of("PGPASSWORD", "from-libpq"))).password());
        assertEquals(Optional.empty(), PostgresStorageConfig.fromUri(URL, environment(Map.of())).password());

        PostgresStorageConfig fromFile = PostgresStorageConfig.fromUri(URL + "&passwordFile=" + file, environment(both));
        assertEquals(URL, fromFile.jdbcUrl(), "passwordFile is taken out of the URL");
        assertEquals("from-file", fromFile.driverProperties().getProperty("password"));
        assertFalse(fromFile.toString().contains("from-file"), "no password in toString");
        assertEquals(Optional.of("given"), PostgresStorageConfig.builder(URL).password("given").build().password());
    }

    @Test
    void anUnreadablePasswordFileIsAConfigurationError(@TempDir Path directory) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> PostgresStorageConfig.fromUri(URL + "&passwordFile=" + directory.resolve("absent"),
                        environment(Map.of())));
        assertTrue(failure.getMessage().contains("passwordFile"), failure.getMessage());
    }

    /** HikariCP's time-out carries the driver's reason only as its cause; the storage's message shows both. */
    @Test
    void aPoolTimeOutMessageCarriesTheDriversReason() {
        SQLException timedOut = new SQLTransientConnectionException("Connection is not available, request timed out",
                "08001", new SQLException("FATAL: password authentication failed for user \"u\""));
        assertEquals("Connection is not available, request timed out: FATAL: password authentication failed for user"
                + " \"u\"", PooledConnections.withCause(timedOut));
        assertEquals("alone", PooledConnections.withCause(new SQLException("alone")));
    }
}
