package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    /**
     * The time-outs reach the driver and the pool from the URI (that the bound holds against a real stalled database is
     * {@code PostgresOutageTest}'s to show), and the server cancels a statement before the driver gives up on it.
     */
    @Test
    void theTimeOutsAreSetInOnePlace() {
        PostgresStorageConfig defaults = PostgresStorageConfig.fromUri(URL, environment(Map.of()));
        assertEquals(PostgresStorageConfig.DEFAULT_FAILOVER_TIMEOUT, defaults.failoverTimeout());
        assertTrue(defaults.socketTimeout().compareTo(defaults.statementTimeout()) > 0,
                "the server cancels a statement before the driver gives up on the server");
        assertEquals("6", defaults.driverProperties().getProperty("socketTimeout"));

        PostgresStorageConfig set = PostgresStorageConfig.fromUri(URL + "&poolTimeoutMillis=1000"
                + "&statementTimeoutMillis=2000&socketTimeoutMillis=2500", environment(Map.of()));
        assertEquals(URL, set.jdbcUrl(), "the store's own parameters are taken out of the URL");
        assertEquals(Duration.ofMillis(1000), set.poolTimeout());
        assertEquals(Duration.ofMillis(2000), set.statementTimeout());
        assertEquals(Duration.ofMillis(4000), PostgresStorageConfig.fromUri(URL + "&failoverTimeoutMillis=4000",
                environment(Map.of())).failoverTimeout());
        assertEquals("3", set.driverProperties().getProperty("socketTimeout"), "whole seconds, rounded up");
        assertEquals("0", PostgresStorageConfig.fromUri(URL + "&socketTimeoutMillis=0", environment(Map.of()))
                .driverProperties().getProperty("socketTimeout"), "0: none");
        assertThrows(IllegalArgumentException.class,
                () -> PostgresStorageConfig.fromUri(URL + "&socketTimeoutMillis=-1", environment(Map.of())));
    }

    @Test
    void anUnreadablePasswordFileIsAConfigurationError(@TempDir Path directory) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> PostgresStorageConfig.fromUri(URL + "&passwordFile=" + directory.resolve("absent"),
                        environment(Map.of())));
        assertTrue(failure.getMessage().contains("passwordFile"), failure.getMessage());
    }
}
