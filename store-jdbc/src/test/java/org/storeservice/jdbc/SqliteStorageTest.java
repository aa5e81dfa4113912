package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.Status;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.Storages;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpoolMemory;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.sqlite.SqliteWriterConnection;

/** What the contract does not cover: pragmas, schema, URIs, limits (group commit: {@code sqlite.GroupCommitWriterTest}). */
class SqliteStorageTest {

    @TempDir
    Path directory;

    private final List<Storage> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws IOException {
        for (Storage storage : opened) {
            storage.close();
        }
    }

    private Path file() {
        return directory.resolve("store.db");
    }

    private JdbcStorage open() throws IOException {
        JdbcStorage storage = JdbcStorage.sqlite(SqliteStorageConfig.builder(file()).build());
        opened.add(storage);
        return storage;
    }

    @Test
    void writerUsesWalAndTheConfiguredSynchronousMode() throws Exception {
        for (Synchronous mode : Synchronous.values()) {
            Path path = directory.resolve(mode + ".db");
            try (Connection writer = SqliteWriterConnection.open(
                    SqliteStorageConfig.builder(path).synchronous(mode).build());
                    Statement statement = writer.createStatement()) {
                assertEquals(mode == Synchronous.FULL ? 2 : 1, intPragma(statement, "synchronous"), mode.toString());
                assertEquals("10000 pages, 67108864 bytes", intPragma(statement, "wal_autocheckpoint") + " pages, "
                        + intPragma(statement, "journal_size_limit") + " bytes", mode.toString());
            }
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + path);
                    ResultSet row = connection.createStatement().executeQuery("PRAGMA journal_mode")) {
                assertEquals("wal", row.getString(1));
            }
        }
    }

    private static int intPragma(Statement statement, String name) throws SQLException {
        try (ResultSet row = statement.executeQuery("PRAGMA " + name)) {
            return row.getInt(1);
        }
    }

    @Test
    void opensByUriThroughServiceLoaderCreatingParentDirectories() throws Exception {
        Path path = directory.resolve("a/b/c/store.db");
        try (Storage storage = Storages.open("sqlite:" + path + "?synchronous=normal&table=my_entries")) {
            assertInstanceOf(JdbcStorage.class, storage);
            assertTrue(storage.toString().contains("NORMAL"), storage.toString());
            storage.putText("k", "v", OverwritePolicy.REPLACE);
        }
        assertTrue(Files.exists(path));
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + path);
                ResultSet row = connection.createStatement().executeQuery(
                        "SELECT version FROM store_schema WHERE table_name = 'my_entries'")) {
            assertTrue(row.next());
            assertEquals(SchemaVersion.CURRENT, row.getInt(1));
        }
    }

    @Test
    void refusesATableOfANewerSchemaVersion() throws Exception {
        open().close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file())) {
            connection.createStatement().execute("UPDATE store_schema SET version = 99");
        }
        StorageException failure = assertThrows(StorageException.class, () -> open());
        assertTrue(failure.getMessage().contains("99"), failure.getMessage());
    }

    @Test
    void refusesWhatSqlTextCannotHoldExactly() throws Exception {
        JdbcStorage storage = open();
        assertThrows(StorageException.class, () -> storage.putText("nul\u0000key", "v", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class, () -> storage.putText("lone\ud800", "v", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class, () -> storage.putText("k", "lone \udc00", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class,
                () -> storage.putBytes("k\u0000", new ByteArrayInputStream(new byte[1]), OverwritePolicy.REPLACE));
        assertFalse(storage.get("k").isPresent());
        assertEquals(Status.ERROR, DefaultStore.of(storage).writeString("k", "lone \ud800"));
    }

    @Test
    void putTextAsyncQueuesWithoutATaskAndCompletesOnceCommittedOrWithTheReasonItCannotBe() throws Exception {
        JdbcStorage storage = open();
        Executor noBlockingWork = task -> {
            throw new AssertionError("SQLite queues text writes: nothing needs a thread that may block");
        };
        List<CompletableFuture<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 200; i++) { // one caller thread, 200 writes in flight
            results.add(storage.putTextAsync("k" + i, "v" + i, OverwritePolicy.REPLACE, noBlockingWork)
                    .toCompletableFuture());
        }
        for (CompletableFuture<Boolean> result : results) {
            assertTrue(result.join());
        }
        assertEquals("v199", storage.get("k199").orElseThrow().text());
        assertFalse(storage.putTextAsync("k0", "other", OverwritePolicy.REJECT, noBlockingWork)
                .toCompletableFuture().join(), "REJECT keeps an existing key");

        CompletionException refused = assertThrows(CompletionException.class, () -> storage
                .putTextAsync("nul\u0000key", "v", OverwritePolicy.REPLACE, noBlockingWork).toCompletableFuture().join());
        assertInstanceOf(StorageException.class, refused.getCause());
        storage.close();
        CompletionException closed = assertThrows(CompletionException.class, () -> storage
                .putTextAsync("late", "v", OverwritePolicy.REPLACE, noBlockingWork).toCompletableFuture().join());
        assertInstanceOf(StorageException.class, closed.getCause());
    }

    @Test
    void putBytesAsyncQueuesAValueOfUpTo64KibWithoutATaskAndHoldsItsMemoryOnlyUntilAnswered() throws Exception {
        JdbcStorage storage = open();
        Executor noBlockingWork = task -> {
            throw new AssertionError("a value of up to 64 KiB is queued: nothing needs a thread that may block");
        };
        Random random = new Random(27);
        List<byte[]> values = new ArrayList<>();
        List<CompletableFuture<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 60; i++) { // one caller thread, 60 writes in flight
            byte[] value = new byte[i % 3 == 0 ? SpooledContent.MEMORY_BYTES : i % 3 == 1 ? 0 : 1000 + i];
            random.nextBytes(value);
            values.add(value);
            results.add(storage.putBytesAsync("b" + i, new ByteArrayInputStream(value), OverwritePolicy.REPLACE,
                    noBlockingWork).toCompletableFuture());
        }
        for (int i = 0; i < results.size(); i++) {
            assertTrue(results.get(i).join());
            assertArrayEquals(values.get(i), storage.get("b" + i).orElseThrow().bytes(), "b" + i);
        }
        assertEquals(0, storage.spoolMemoryReserved(), "the memory of queued values is given back once answered");
        assertFalse(storage.putBytesAsync("b1", new ByteArrayInputStream(new byte[1]), OverwritePolicy.REJECT,
                noBlockingWork).toCompletableFuture().join(), "REJECT keeps an existing key");

        CompletionException broken = assertThrows(CompletionException.class, () -> storage.putBytesAsync("broken",
                new SequenceInputStream(new ByteArrayInputStream(new byte[100]), new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("the client's stream broke");
                    }
                }), OverwritePolicy.REPLACE, noBlockingWork).toCompletableFuture().join());
        assertEquals("the client's stream broke", broken.getCause().getMessage(), "the stream's own failure");
        assertFalse(storage.get("broken").isPresent());
        storage.close();
        CompletionException closed = assertThrows(CompletionException.class, () -> storage.putBytesAsync("late",
                new ByteArrayInputStream(new byte[1]), OverwritePolicy.REPLACE, noBlockingWork).toCompletableFuture().join());
        assertInstanceOf(StorageException.class, closed.getCause());
    }

    @Test
    void putBytesAsyncReadsAndWritesAValueOver64KibOnTheBlockingExecutor() throws Exception {
        JdbcStorage storage = open();
        List<Runnable> blockingWork = new ArrayList<>();
        byte[] value = new byte[SpooledContent.MEMORY_BYTES + 1];
        new Random(1).nextBytes(value);

        CompletableFuture<Boolean> written = storage.putBytesAsync("large", new ByteArrayInputStream(value),
                OverwritePolicy.REPLACE, blockingWork::add).toCompletableFuture();

        assertEquals(1, blockingWork.size(), "handed to the blocking executor");
        assertFalse(written.isDone());
        blockingWork.get(0).run();
        assertTrue(written.join());
        assertArrayEquals(value, storage.get("large").orElseThrow().bytes());
    }

    @Test
    void bytesOverTheStoragesLimitAreRefusedBeforeQueueing() throws Exception {
        try (JdbcStorage storage = JdbcStorage.sqlite(
                SqliteStorageConfig.builder(file()).maxValueBytes(1000).build())) {
            assertTrue(storage.putBytes("k", new ByteArrayInputStream(new byte[1000]), OverwritePolicy.REPLACE));
            assertThrows(StorageException.class,
                    () -> storage.putBytes("k", new ByteArrayInputStream(new byte[1001]), OverwritePolicy.REPLACE));
            assertEquals(1000, storage.get("k").orElseThrow().size());
        }
    }

    /** The largest limit is the largest array the writer can read a value into; content over a limit is refused. */
    @Test
    void maxValueBytesIsBoundedAndEnforcedExactly(@TempDir Path spool) throws Exception {
        assertEquals(Integer.MAX_VALUE - 8, SqliteStorageConfig.builder(file())
                .maxValueBytes(SqliteStorageConfig.MAX_VALUE_BYTES_LIMIT).build().maxValueBytes());
        assertThrows(IllegalArgumentException.class,
                () -> SqliteStorageConfig.builder(file()).maxValueBytes(Integer.MAX_VALUE - 7));
        assertThrows(IllegalArgumentException.class, () -> SqliteStorageConfig.fromUri(
                "sqlite:x.db?maxValueBytes=" + (Integer.MAX_VALUE - 7)));

        int large = SpooledContent.MEMORY_BYTES + 1000; // spooled to a file: no spool memory
        SpoolMemory none = new SpoolMemory(0);
        for (int limit : new int[] {0, 10, large}) {
            try (SpooledContent exact = SpooledContent.read(new ByteArrayInputStream(new byte[limit]), spool, limit, none)) {
                assertEquals(limit, exact.length());
                assertEquals(limit, exact.readAll().length);
            }
            assertThrows(StorageException.class,
                    () -> SpooledContent.read(new ByteArrayInputStream(new byte[limit + 1]), spool, limit, none));
            try (var files = Files.list(spool)) {
                assertEquals(0, files.count(), "no spool file left by limit " + limit);
            }
        }
    }

    /** A large value stays in memory while the storage's spool memory has room, goes to a file when not. */
    @Test
    void largeValuesStayInMemoryWithinTheSpoolMemory(@TempDir Path spool) throws Exception {
        byte[] value = new byte[1 << 20];
        new java.util.Random(7).nextBytes(value);
        // Room for one such value as it grows (its array doubles: 1 MiB reserved, plus the 512 KiB one it grows from,
        // for a moment), not for two.
        SpoolMemory memory = new SpoolMemory((1 << 20) + (1 << 19) + (64 << 10));
        try (SpooledContent first = SpooledContent.read(new ByteArrayInputStream(value), spool, 8 << 20, memory);
                SpooledContent second = SpooledContent.read(new ByteArrayInputStream(value), spool, 8 << 20, memory)) {
            assertTrue(first.inMemory());
            assertFalse(second.inMemory(), "no room left for a second value: it goes to a file");
            assertTrue(memory.reserved() >= value.length && memory.reserved() < 2 * value.length,
                    "reserved " + memory.reserved());
            assertArrayEquals(value, first.readAll());
            assertArrayEquals(value, second.readAll());
        }
        assertEquals(0, memory.reserved(), "every byte given back on close");
        try (var files = Files.list(spool)) {
            assertEquals(0, files.count(), "the spool file is deleted on close");
        }
        ByteArrayInputStream failing = new ByteArrayInputStream(value) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                if (pos > 200_000) {
                    throw new IllegalStateException("client gone");
                }
                return super.read(b, off, Math.min(len, 100_000)); // arrives in parts, as a body does
            }

            @Override
            public synchronized int read() {
                if (pos > 200_000) {
                    throw new IllegalStateException("client gone");
                }
                return super.read();
            }
        };
        assertThrows(IllegalStateException.class, () -> SpooledContent.read(failing, spool, 8 << 20, memory));
        assertEquals(0, memory.reserved(), "a failed read keeps nothing reserved");
    }

    @Test
    void parsesUris() {
        SqliteStorageConfig config = SqliteStorageConfig.fromUri(
                "SQLite:data/x.db?synchronous=NORMAL&table=s.t&maxValueBytes=5&busyTimeoutMillis=7");
        assertEquals(Path.of("data/x.db"), config.path());
        assertEquals(Synchronous.NORMAL, config.synchronous());
        assertEquals("s.t", config.table());
        assertEquals(5, config.maxValueBytes());
        assertEquals(7, config.busyTimeoutMillis());
        SqliteStorageConfig defaults = SqliteStorageConfig.fromUri("sqlite:x.db");
        assertEquals(Synchronous.FULL, defaults.synchronous());
        assertEquals("store_entries", defaults.table());
        for (String bad : List.of("sqlite:", "sqlite:x.db?synchronous=OFF", "sqlite:x.db?table=x;drop",
                "sqlite:x.db?tabel=x", "sqlite:x.db?maxValueBytes=-1", "sqlite:x.db?table=a&table=b", "memory:")) {
            assertThrows(IllegalArgumentException.class, () -> SqliteStorageConfig.fromUri(bad), bad);
        }
    }

    @Test
    void aUrlStyleDoubleSlashIsRefusedSayingHowToWriteAPath() {
        // sqlite://data/x.db once meant /data/x.db: a directory at the root, created as whoever ran the server.
        for (String urlLike : List.of("sqlite://data/x.db", "sqlite:///var/lib/store/x.db", "SQLITE://x.db?table=t")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SqliteStorageConfig.fromUri(urlLike), urlLike);
            assertEquals("sqlite: takes a file path, not a URL with '//': write sqlite:data/store.db (relative to the"
                    + " working directory) or sqlite:/var/lib/store/store.db (absolute), in '" + urlLike + "'",
                    e.getMessage());
        }
        assertEquals(Path.of("/var/lib/store/x.db"), SqliteStorageConfig.fromUri("sqlite:/var/lib/store/x.db").path());
    }
}
