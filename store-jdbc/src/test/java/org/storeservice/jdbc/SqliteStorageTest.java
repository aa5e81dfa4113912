package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.BusyHandler;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.Status;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.Storages;

/** What the contract does not cover: group commit, failures inside the database, pragmas, schema, URIs. */
class SqliteStorageTest {
    private static final Duration HANG_GUARD = Duration.ofMinutes(2);

    @TempDir
    Path directory;

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final List<Storage> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws IOException {
        callers.shutdownNow();
        for (Storage storage : opened) {
            storage.close();
        }
    }

    private Path file() {
        return directory.resolve("store.db");
    }

    private JdbcStorage open(GroupCommitWriter.BatchHook hook) throws IOException {
        JdbcStorage storage = JdbcStorage.sqlite(SqliteStorageConfig.builder(file()).build(), hook);
        opened.add(storage);
        return storage;
    }

    /** A hook that holds the writer inside its first batch until released, recording every batch's size. */
    private static final class Gate implements GroupCommitWriter.BatchHook {
        final List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<String> sqlOnce = new AtomicReference<>();
        final AtomicReference<BusyHandler> busyHandlerOnce = new AtomicReference<>();
        volatile boolean holding;
        /** A write of this key throws an Error inside the transaction, as an OutOfMemoryError binding it would. */
        volatile String errorKey;

        @Override
        public void beforeBatch(Connection connection, int size) throws SQLException {
            sizes.add(size);
            String sql = sqlOnce.getAndSet(null);
            if (sql != null) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute(sql);
                }
            }
            BusyHandler busyHandler = busyHandlerOnce.getAndSet(null);
            if (busyHandler != null) {
                BusyHandler.setHandler(connection, busyHandler); // replaces the writer's busy_timeout
            }
            if (holding) {
                holding = false;
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void beforeWrite(Connection connection, WriteRequest request) {
            if (request.key().equals(errorKey)) {
                throw new OutOfMemoryError("thrown by the test while binding " + request.key());
            }
        }
    }

    /** Holds the writer in a batch, queues {@code keys} behind it, and releases them all at once. */
    private List<Future<Boolean>> queueBehindHeldBatch(JdbcStorage storage, Gate gate, List<String> keys)
            throws Exception {
        gate.holding = true;
        Future<Boolean> first = callers.submit(() -> storage.putText("held", "h", OverwritePolicy.REPLACE));
        gate.entered.await();
        List<Future<Boolean>> results = new ArrayList<>();
        results.add(first);
        for (String key : keys) {
            results.add(callers.submit(() -> storage.putText(key, "v:" + key, OverwritePolicy.REPLACE)));
        }
        GroupCommitWriter writer = (GroupCommitWriter) storage.writePath();
        while (writer.pending() < keys.size()) {
            Thread.sleep(5); // waiting for the callers to enqueue, bounded by the hang guard
        }
        gate.release.countDown();
        return results;
    }

    @Test
    void concurrentWritesCommitTogether() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            JdbcStorage storage = open(gate);
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                keys.add("k" + i);
            }
            for (Future<Boolean> result : queueBehindHeldBatch(storage, gate, keys)) {
                assertTrue(result.get());
            }
            assertEquals(List.of(1, 20), gate.sizes, "the 20 queued writes ran as one batch");
            assertEquals(2, ((GroupCommitWriter) storage.writePath()).commits(), "one commit per batch");
            for (String key : keys) {
                assertEquals("v:" + key, storage.get(key).orElseThrow().text());
            }
        });
    }

    @Test
    void closeAnswersEveryQueuedWriteThenEndsTheWriterAndAnsweringThreads() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            JdbcStorage storage = open(gate);
            List<String> keys = List.of("a", "b", "c", "d", "e");
            List<Future<Boolean>> results = queueBehindHeldBatch(storage, gate, keys);

            storage.close(); // waits for the held batch, the queued one and their answers

            for (Future<Boolean> result : results) {
                assertTrue(result.isDone(), "answered before close() returned");
                assertTrue(result.get());
            }
            List<String> left = Thread.getAllStackTraces().keySet().stream()
                    .filter(Thread::isAlive).map(Thread::getName)
                    .filter(name -> name.startsWith("store-writer-store.db")).toList();
            assertEquals(List.of(), left, "threads of the closed storage still running");
        });
    }

    @Test
    void oneFailingWriteInABatchFailsAloneAndKeepsItsPreviousValue() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            JdbcStorage storage = open(gate);
            assertTrue(storage.putText("poison", "previous", OverwritePolicy.REPLACE));
            gate.sqlOnce.set("CREATE TRIGGER poison BEFORE INSERT ON store_entries WHEN NEW.key = 'poison'"
                    + " BEGIN SELECT RAISE(ABORT, 'poisoned by the test'); END");
            List<Future<Boolean>> results = queueBehindHeldBatch(storage, gate, List.of("a", "b", "poison", "c"));
            assertTrue(results.get(0).get());
            assertTrue(results.get(1).get());
            assertTrue(results.get(2).get());
            Exception failure = assertThrows(Exception.class, () -> results.get(3).get());
            assertInstanceOf(StorageException.class, failure.getCause());
            assertTrue(results.get(4).get());
            assertEquals("previous", storage.get("poison").orElseThrow().text());
            for (String key : List.of("a", "b", "c")) {
                assertEquals("v:" + key, storage.get(key).orElseThrow().text());
            }
        });
    }

    /**
     * An Error inside a transaction (e.g. OutOfMemoryError while binding a large value) is rolled back and
     * fails only its own write: alone, in a batch, and again when the batch's writes are retried one by one.
     * Before, the transaction stayed open (every later BEGIN failed) or the writer thread died (callers hung).
     */
    @Test
    void anErrorInsideATransactionFailsOnlyItsWriteAndTheWriterGoesOn() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            JdbcStorage storage = open(gate);
            assertTrue(storage.putText("boom", "previous", OverwritePolicy.REPLACE));
            gate.errorKey = "boom";

            StorageException alone = assertThrows(StorageException.class,
                    () -> storage.putText("boom", "new", OverwritePolicy.REPLACE));
            assertInstanceOf(OutOfMemoryError.class, alone.getCause());
            assertTrue(storage.putText("after-alone", "v", OverwritePolicy.REPLACE), "the transaction was rolled back");

            List<Future<Boolean>> results = queueBehindHeldBatch(storage, gate, List.of("a", "boom", "c"));
            assertTrue(results.get(0).get());
            assertTrue(results.get(1).get());
            Exception failure = assertThrows(Exception.class, () -> results.get(2).get());
            assertInstanceOf(StorageException.class, failure.getCause());
            assertTrue(results.get(3).get());
            assertEquals(List.of(1, 1, 1, 1, 3), gate.sizes, "the three queued writes ran as one batch first");

            assertTrue(storage.putText("after-batch", "v", OverwritePolicy.REPLACE), "the writer thread is alive");
            assertEquals("previous", storage.get("boom").orElseThrow().text());
            for (String key : List.of("a", "c", "after-alone", "after-batch")) {
                assertTrue(storage.get(key).isPresent(), key);
            }
            storage.close(); // answers and stops without hanging
        });
    }

    /**
     * Another process holding SQLite's write lock fails a whole batch after one wait, not after one wait per
     * write (up to 512 of busy_timeout each). The writer's busy handler stands in for a busy_timeout that has
     * run out: it gives up at once and counts each lock attempt that met the lock.
     */
    @Test
    void aLockHeldByAnotherProcessFailsTheWholeBatchAtOnce() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            JdbcStorage storage = open(gate);
            assertTrue(storage.putText("k", "previous", OverwritePolicy.REPLACE));
            AtomicInteger lockAttempts = new AtomicInteger();
            gate.busyHandlerOnce.set(new BusyHandler() {
                @Override
                protected int callback(int retries) {
                    if (retries == 0) {
                        lockAttempts.incrementAndGet();
                    }
                    return 0; // give up: SQLITE_BUSY
                }
            });
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                keys.add("k" + i);
            }
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file());
                    Statement lock = other.createStatement()) {
                lock.execute("BEGIN IMMEDIATE");
                List<Future<Boolean>> results = queueBehindHeldBatch(storage, gate, keys);
                for (Future<Boolean> result : results) {
                    Exception failure = assertThrows(Exception.class, result::get);
                    assertInstanceOf(StorageException.class, failure.getCause());
                }
                assertEquals(List.of(1, 1, 20), gate.sizes);
                assertEquals(2, lockAttempts.get(), "one attempt for the held write, one for the batch of 20");
                assertEquals("previous", storage.get("k").orElseThrow().text(), "reads go on meanwhile");
                lock.execute("ROLLBACK");
            }
            for (String key : keys) {
                assertTrue(storage.putText(key, "v", OverwritePolicy.REPLACE), "the lock was released");
            }
            assertEquals(2, lockAttempts.get());
        });
    }

    @Test
    void fullDiskGivesErrorKeepsThePreviousValueAndRecovers() throws Exception {
        Gate gate = new Gate();
        JdbcStorage storage = open(gate);
        DefaultStore store = DefaultStore.builder(storage).build();
        assertEquals(Status.SUCCESS, store.writeString("k", "previous"));
        long pages;
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file());
                ResultSet row = connection.createStatement().executeQuery("PRAGMA page_count")) {
            pages = row.getLong(1);
        }
        gate.sqlOnce.set("PRAGMA max_page_count = " + (pages + 2)); // SQLite's own "database or disk is full"
        byte[] big = new byte[1024 * 1024];
        assertEquals(Status.ERROR, store.writeBytes("k", new ByteArrayInputStream(big)));
        IOException failure = assertThrows(IOException.class,
                () -> storage.putBytes("k", new ByteArrayInputStream(big), OverwritePolicy.REPLACE));
        assertTrue(String.valueOf(failure.getCause()).contains("full"), String.valueOf(failure.getCause()));
        assertEquals("previous", storage.get("k").orElseThrow().text());

        gate.sqlOnce.set("PRAGMA max_page_count = 1073741823"); // space again
        assertEquals(Status.SUCCESS, store.writeBytes("k", new ByteArrayInputStream(big)));
        assertArrayEquals(big, storage.get("k").orElseThrow().bytes());
    }

    @Test
    void writerUsesWalAndTheConfiguredSynchronousMode() throws Exception {
        for (Synchronous mode : Synchronous.values()) {
            AtomicReference<Integer> seen = new AtomicReference<>();
            AtomicReference<String> walSettings = new AtomicReference<>();
            Path path = directory.resolve(mode + ".db");
            try (JdbcStorage storage = JdbcStorage.sqlite(SqliteStorageConfig.builder(path).synchronous(mode).build(),
                    (connection, size) -> {
                        try (Statement statement = connection.createStatement()) {
                            seen.set(intPragma(statement, "synchronous"));
                            walSettings.set(intPragma(statement, "wal_autocheckpoint") + " pages, "
                                    + intPragma(statement, "journal_size_limit") + " bytes");
                        }
                    })) {
                storage.putText("k", "v", OverwritePolicy.REPLACE);
            }
            assertEquals(mode == Synchronous.FULL ? 2 : 1, seen.get(), mode.toString());
            assertEquals("10000 pages, 67108864 bytes", walSettings.get(), mode.toString());
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
        open((c, s) -> { }).close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file())) {
            connection.createStatement().execute("UPDATE store_schema SET version = 99");
        }
        StorageException failure = assertThrows(StorageException.class, () -> open((c, s) -> { }));
        assertTrue(failure.getMessage().contains("99"), failure.getMessage());
    }

    @Test
    void refusesWhatSqlTextCannotHoldExactly() throws Exception {
        JdbcStorage storage = open((c, s) -> { });
        assertThrows(StorageException.class, () -> storage.putText("nul\u0000key", "v", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class, () -> storage.putText("lone\ud800", "v", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class, () -> storage.putText("k", "lone \udc00", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class,
                () -> storage.putBytes("k\u0000", new ByteArrayInputStream(new byte[1]), OverwritePolicy.REPLACE));
        assertFalse(storage.get("k").isPresent());
        assertEquals(Status.ERROR, DefaultStore.of(storage).writeString("k", "lone \ud800"));
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

    /**
     * The largest accepted limit leaves room for the one extra byte that tells a longer stream apart;
     * at Integer.MAX_VALUE - 8 the read was capped at the limit itself and longer content was cut silently.
     */
    @Test
    void maxValueBytesLeavesRoomToDetectLongerContent() throws Exception {
        assertEquals(BoundedContent.MAX_LIMIT,
                SqliteStorageConfig.builder(file()).maxValueBytes(BoundedContent.MAX_LIMIT).build().maxValueBytes());
        assertThrows(IllegalArgumentException.class,
                () -> SqliteStorageConfig.builder(file()).maxValueBytes(Integer.MAX_VALUE - 8));
        assertThrows(IllegalArgumentException.class, () -> SqliteStorageConfig.fromUri(
                "sqlite:x.db?maxValueBytes=" + (Integer.MAX_VALUE - 8)));
        assertThrows(IllegalArgumentException.class,
                () -> BoundedContent.readAll(new ByteArrayInputStream(new byte[1]), Integer.MAX_VALUE - 8));

        byte[] limit = new byte[10];
        assertEquals(10, BoundedContent.readAll(new ByteArrayInputStream(limit), 10).length);
        assertThrows(StorageException.class, () -> BoundedContent.readAll(new ByteArrayInputStream(new byte[11]), 10));
        assertEquals(0, BoundedContent.readAll(new ByteArrayInputStream(new byte[0]), 0).length);
        assertThrows(StorageException.class, () -> BoundedContent.readAll(new ByteArrayInputStream(new byte[1]), 0));
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
}
