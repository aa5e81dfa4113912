package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.Status;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.postgres.PostgresDialect;

/** PostgreSQL specifics the contract does not see: the rows as stored, the schema version, streaming scans. */
class PostgresStorageTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(90);
    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    @Test
    void textIsStoredAsTextAndTextWithNulAsUtf8Bytes() throws Exception {
        try (Storage storage = Storages.open(postgres.uri("rows", ""))) {
            storage.putText("plain", "h\u00e9llo \ud83d\ude00", OverwritePolicy.REPLACE);
            storage.putText("nul", "a\u0000b", OverwritePolicy.REPLACE);
            assertEquals("a\u0000b", storage.get("nul").orElseThrow().text());
        }
        try (Connection connection = postgres.connection();
                ResultSet rows = connection.createStatement().executeQuery("SELECT key, kind, text_value,"
                        + " bytes_value, written_at FROM " + postgres.schema() + ".rows ORDER BY key")) {
            assertTrue(rows.next());
            assertEquals("nul", rows.getString(1));
            assertEquals("T", rows.getString(2));
            assertNull(rows.getString(3));
            assertEquals("a\u0000b", new String(rows.getBytes(4), java.nio.charset.StandardCharsets.UTF_8));
            assertTrue(rows.next());
            assertEquals("plain", rows.getString(1));
            assertEquals("h\u00e9llo \ud83d\ude00", rows.getString(3));
            assertNull(rows.getBytes(4));
            assertFalse(rows.next());
        }
    }

    @Test
    void aBatchTheDatabaseRefusesStoresNothingAndItsMessageIsTheServersNotTheWholeStatement() throws Exception {
        try (Storage storage = Storages.open(postgres.uri("refused", ""))) {
            storage.putText("kept", "before", OverwritePolicy.REPLACE);
            try (Connection connection = postgres.connection()) {
                connection.createStatement().execute("ALTER TABLE " + postgres.schema()
                        + ".refused ADD CONSTRAINT no_bad_key CHECK (key <> 'bad')");
            }
            List<StoredEntry> batch = new ArrayList<>();
            for (int i = 0; i < 300; i++) { // several multi-row statements
                batch.add(StoredEntry.text("k" + i, "secret-value-" + i, Instant.EPOCH));
            }
            batch.add(StoredEntry.text("kept", "secret-value-replaced", Instant.EPOCH));
            batch.add(StoredEntry.text("bad", "secret-value-bad", Instant.EPOCH));

            StorageException failure = assertThrows(StorageException.class, () -> storage.putAll(batch));

            assertTrue(failure.getMessage().contains("no_bad_key"), failure.getMessage());
            // pgjdbc's own message quotes the statement with every value bound; the server's names one row at most
            assertFalse(failure.getMessage().contains("secret-value-0"), failure.getMessage());
            assertFalse(failure.getMessage().contains("secret-value-replaced"), failure.getMessage());
            assertEquals("before", storage.get("kept").orElseThrow().text());
            assertTrue(storage.get("k0").isEmpty());
        }
    }

    /**
     * A database that answers reads but cannot commit a write (as a standby answers, or a new primary still waiting
     * for its synchronous standby) is not ready: a trigger refusing writes to the schema table with a standby's
     * SQLSTATE stands in for one.
     */
    @Test
    void readinessMeansAWriteCommitsNotOnlyThatReadsAnswer() throws Exception {
        try (Storage storage = Storages.open(postgres.uri("readiness", ""))) {
            storage.putText("k", "v", OverwritePolicy.REPLACE);
            storage.checkWritable();
            try (Connection connection = postgres.connection()) {
                connection.createStatement().execute("CREATE FUNCTION " + postgres.schema() + ".refuse_writes()"
                        + " RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'cannot execute UPDATE in a"
                        + " read-only transaction' USING ERRCODE = '25006'; END $$");
                connection.createStatement().execute("CREATE TRIGGER refuse BEFORE UPDATE ON " + postgres.schema()
                        + ".store_schema FOR EACH ROW EXECUTE FUNCTION " + postgres.schema() + ".refuse_writes()");
            }

            try {
                assertEquals("v", storage.get("k").orElseThrow().text(), "reads still answer");
                StorageException notReady = assertThrows(StorageException.class, storage::checkWritable);
                assertTrue(notReady.getMessage().contains("read-only transaction"), notReady.getMessage());
            } finally { // the schema table is shared by this class's tests
                try (Connection connection = postgres.connection()) {
                    connection.createStatement().execute("DROP TRIGGER refuse ON " + postgres.schema() + ".store_schema");
                }
            }
        }
    }

    @Test
    void recordsTheSchemaVersionAndRefusesANewerOne() throws Exception {
        Storages.open(postgres.uri("versioned", "")).close();
        try (Connection connection = postgres.connection()) {
            ResultSet row = connection.createStatement().executeQuery("SELECT version FROM " + postgres.schema()
                    + ".store_schema WHERE table_name = 'versioned'");
            assertTrue(row.next());
            assertEquals(SchemaVersion.CURRENT, row.getInt(1));
            connection.createStatement().execute("UPDATE " + postgres.schema()
                    + ".store_schema SET version = 99 WHERE table_name = 'versioned'");
        }
        StorageException failure = assertThrows(StorageException.class,
                () -> Storages.open(postgres.uri("versioned", "")));
        assertTrue(failure.getMessage().contains("99"), failure.getMessage());
    }

    @Test
    void scanStreamsManyEntriesInOrderAndWritesGoOnMeanwhile() throws Exception {
        try (Storage storage = Storages.open(postgres.uri("many", "poolSize=3"))) {
            int count = 3 * PostgresDialect.SCAN_FETCH_SIZE + 5; // several fetches through the cursor
            for (int i = 0; i < count; i++) {
                storage.putText(String.format("e%04d", i), "v" + i, OverwritePolicy.REPLACE);
            }
            List<String> keys = new ArrayList<>();
            storage.scan("e", entry -> {
                keys.add(entry.key());
                if (keys.size() == 1) { // a write on the other pooled connection while the cursor is open
                    storage.putText("z-during-scan", "v", OverwritePolicy.REPLACE);
                }
            });
            assertEquals(count, keys.size());
            assertEquals(keys.stream().sorted().toList(), keys);
            assertEquals("v", storage.get("z-during-scan").orElseThrow().text());
        }
    }

    /**
     * Content still arriving (a slow client) holds no pooled connection: it is spooled first (in the storage's
     * spool memory here). With the fewest connections (a lane's, one for reads, one for large values), another large
     * write, a small one and a read go through while the first write's content is blocked; the first is stored whole
     * once its content arrives, and no spool file is left. A held connection would keep the second large write
     * waiting for the failover time-out, far past the hang guard.
     */
    @Test
    void contentStillArrivingHoldsNoPooledConnection(@TempDir Path spool) throws Exception {
        byte[] head = randomBytes(SpooledContent.MEMORY_BYTES + 1000); // past the first 64 KiB
        byte[] tail = randomBytes(1000);
        BlockingContent content = new BlockingContent(head, tail, null);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (JdbcStorage storage = JdbcStorage.postgres(PostgresStorageConfig.fromUri(
                postgres.uri("slow", "poolSize=3&poolTimeoutMillis=10000&failoverTimeoutMillis=600000&spoolDirectory=" + spool)))) {
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                Future<Boolean> slow = caller.submit(() -> storage.putBytes("slow", content, OverwritePolicy.REPLACE));
                content.headRead.await();
                byte[] large = randomBytes(SpooledContent.MEMORY_BYTES + 1);
                assertTrue(storage.putBytes("large", new java.io.ByteArrayInputStream(large), OverwritePolicy.REPLACE));
                assertArrayEquals(large, storage.get("large").orElseThrow().bytes());
                assertTrue(storage.putText("other", "v", OverwritePolicy.REPLACE));
                assertEquals("v", storage.get("other").orElseThrow().text());
                assertFalse(slow.isDone());

                content.release.countDown();
                assertTrue(slow.get());
            });
            byte[] whole = Arrays.copyOf(head, head.length + tail.length);
            System.arraycopy(tail, 0, whole, head.length, tail.length);
            assertArrayEquals(whole, storage.get("slow").orElseThrow().bytes());
            assertEquals(List.of(), spoolFiles(spool), "the spool file is deleted");
        } finally {
            caller.shutdownNow();
        }
    }

    /** The caller's own stream failure propagates unchanged, nothing is stored, and no spool file is left. */
    @Test
    void aFailingContentStreamStoresNothingAndLeavesNoSpoolFile(@TempDir Path spool) throws Exception {
        try (JdbcStorage storage = JdbcStorage.postgres(PostgresStorageConfig.fromUri(
                postgres.uri("broken", "spoolDirectory=" + spool)))) {
            storage.putText("k", "previous", OverwritePolicy.REPLACE);
            IOException broken = new IOException("client went away");
            BlockingContent content = new BlockingContent(randomBytes(SpooledContent.MEMORY_BYTES + 1000), null, broken);
            content.release.countDown();
            assertSame(broken, assertThrows(IOException.class,
                    () -> storage.putBytes("k", content, OverwritePolicy.REPLACE)));
            assertEquals("previous", storage.get("k").orElseThrow().text());
            assertEquals(List.of(), spoolFiles(spool));
        }
    }

    /** Serves {@code head}, then waits for {@code release}, then serves {@code tail} or throws {@code failure}. */
    private static final class BlockingContent extends InputStream {
        final CountDownLatch headRead = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final byte[] head;
        private final byte[] tail;
        private final IOException failure;
        private int position;

        BlockingContent(byte[] head, byte[] tail, IOException failure) {
            this.head = head;
            this.tail = tail;
            this.failure = failure;
        }

        @Override
        public int read() throws IOException {
            if (position == head.length) {
                headRead.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
                if (failure != null) {
                    throw failure;
                }
            }
            int index = position - head.length;
            if (index >= (tail == null ? 0 : tail.length)) {
                return -1;
            }
            position++;
            return index < 0 ? head[position - 1] & 0xff : tail[index] & 0xff;
        }
    }

    private static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static List<Path> spoolFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        }
    }

    @Test
    void keysPostgresCannotHoldGiveError() throws Exception {
        try (Storage storage = Storages.open(postgres.uri("refused", ""))) {
            DefaultStore store = DefaultStore.of(storage);
            assertEquals(Status.ERROR, store.writeString("nul\u0000key", "v"));
            assertEquals(Status.ERROR, store.writeString("k", "lone \ud800"));
            assertEquals(Status.SUCCESS, store.writeString("k", "fine"));
        }
    }

    @Test
    void parsesUrisTakingOutItsOwnParameters() {
        PostgresStorageConfig config = PostgresStorageConfig.fromUri("jdbc:postgresql://db:5433/store?user=u"
                + "&table=s.entries&password=p%26w&poolSize=3&poolTimeoutMillis=750&statementTimeoutMillis=1"
                + "&socketTimeout=9");
        assertEquals("jdbc:postgresql://db:5433/store?user=u&password=p%26w&socketTimeout=9", config.jdbcUrl());
        assertEquals("s.entries", config.table());
        assertEquals(3, config.poolSize());
        assertEquals(Duration.ofMillis(750), config.poolTimeout());
        assertEquals(Duration.ofMillis(1), config.statementTimeout());
        assertFalse(config.toString().contains("p%26w"), "no password in toString");
        assertEquals("jdbc:postgresql://db:5433/store", config.jdbcUrlWithoutParameters());

        PostgresStorageConfig defaults = PostgresStorageConfig.fromUri("jdbc:postgresql://db/store");
        assertEquals("jdbc:postgresql://db/store", defaults.jdbcUrl());
        assertEquals("store_entries", defaults.table());
        assertEquals(PostgresStorageConfig.DEFAULT_POOL_SIZE, defaults.poolSize());
        assertEquals(PostgresStorageConfig.DEFAULT_STATEMENT_TIMEOUT, defaults.statementTimeout());
        for (String bad : List.of("jdbc:postgresql://db/s?table=a-b", "jdbc:postgresql://db/s?poolSize=2",
                "jdbc:postgresql://db/s?statementTimeoutMillis=0",
                "jdbc:postgresql://db/s?poolTimeoutMillis=10", "jdbc:mysql://db/s")) {
            assertThrows(IllegalArgumentException.class, () -> PostgresStorageConfig.fromUri(bad), bad);
        }
    }
}
