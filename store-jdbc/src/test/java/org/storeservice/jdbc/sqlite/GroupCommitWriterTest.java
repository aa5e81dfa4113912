package org.storeservice.jdbc.sqlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.BusyHandler;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.JdbcStorage;
import org.storeservice.jdbc.SqliteStorageConfig;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.WriteQueue;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * The group commit on its own: a writer built on the storage's writer connection, whose statements go through a
 * {@link Gate} that can hold the writer inside a write, fail a write, or run SQL on the writer's connection.
 * Values are read back through a {@link JdbcStorage} on the same file.
 */
class GroupCommitWriterTest {
    private static final Duration HANG_GUARD = Duration.ofMinutes(2);

    @TempDir
    Path directory;

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        callers.shutdownNow();
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    private SqliteStorageConfig config() {
        return SqliteStorageConfig.builder(directory.resolve("store.db")).build();
    }

    /** The storage's own writer connection, on a database with the entry table. */
    private Connection writerConnection() throws SQLException, IOException {
        Connection connection = SqliteWriterConnection.open(config());
        SchemaVersion.ensure(connection, new SqliteDialect(), TableName.parse(TableName.DEFAULT));
        return connection;
    }

    private GroupCommitWriter writer(Connection connection, WriteTransactions.RowWriter rows) throws SQLException {
        return writer(connection, rows, "test");
    }

    /** A writer whose threads are named after {@code name}: store-writer-NAME and store-answers-NAME-0 and -1. */
    private GroupCommitWriter writer(Connection connection, WriteTransactions.RowWriter rows, String name)
            throws SQLException {
        return writer(connection, rows, name, 2);
    }

    private GroupCommitWriter writer(Connection connection, WriteTransactions.RowWriter rows, String name,
            int answeringThreads) throws SQLException {
        GroupCommitWriter writer = new GroupCommitWriter(connection, new Sql(TableName.parse(TableName.DEFAULT)),
                name, rows, answeringThreads);
        opened.add(writer);
        return writer;
    }

    private JdbcStorage reader() throws IOException {
        JdbcStorage storage = JdbcStorage.sqlite(config());
        opened.add(storage);
        return storage;
    }

    static WriteRequest text(String key, String value) {
        return new WriteRequest(key, EntryKind.TEXT, value, null, OverwritePolicy.REPLACE, Instant.now());
    }

    /** Runs each write through {@link Rows#write}, recording its key first; holds, fails or adds SQL when told. */
    private static final class Gate implements WriteTransactions.RowWriter {
        /** The keys the writer ran, in order, retries included. */
        final List<String> ran = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<String> sqlOnce = new AtomicReference<>();
        /** The first write of this key waits inside its transaction until released. */
        volatile String holdKey = "held";
        /** A write of this key throws an Error inside the transaction, as an OutOfMemoryError binding it would. */
        volatile String errorKey;

        @Override
        public boolean write(PreparedStatement statement, WriteRequest request) throws SQLException {
            ran.add(request.key());
            String sql = sqlOnce.getAndSet(null);
            if (sql != null) {
                try (Statement control = statement.getConnection().createStatement()) {
                    control.execute(sql);
                }
            }
            if (request.key().equals(errorKey)) {
                throw new OutOfMemoryError("thrown by the test while binding " + request.key());
            }
            if (request.key().equals(holdKey) && entered.getCount() > 0) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Rows.write(statement, request, new SqliteDialect());
        }
    }

    /**
     * Small writes do not wait behind large values that arrived before them: of a batch, the small writes commit
     * first, together, and the large values one by one after them.
     */
    @Test
    void smallWritesCommitBeforeTheLargeValuesQueuedAheadOfThem() throws Exception {
        Gate gate = new Gate();
        GroupCommitWriter writer = writer(writerConnection(), gate);
        Future<Boolean> held = callers.submit(() -> writer.write(text("held", "h")));
        gate.entered.await();
        byte[] large = new byte[SpooledContent.MEMORY_BYTES + 1];
        List<Future<Boolean>> writes = new ArrayList<>();
        for (String key : List.of("large1", "large2", "large3")) {
            SpooledContent value = SpooledContent.inMemory(large);
            writes.add(callers.submit(() -> writer.write(new WriteRequest(key, EntryKind.BYTES, null, value,
                    OverwritePolicy.REPLACE, Instant.now()))));
            while (writer.pending() < writes.size()) {
                Thread.sleep(5); // each enqueued before the next, so they queue in this order
            }
        }
        writes.add(callers.submit(() -> writer.write(text("small", "s"))));
        while (writer.pending() < writes.size()) {
            Thread.sleep(5);
        }
        gate.release.countDown();
        assertTrue(held.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
        for (Future<Boolean> write : writes) {
            assertTrue(write.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS));
        }
        assertEquals(List.of("held", "small", "large1", "large2", "large3"), gate.ran);
        assertEquals(5, writer.commits(), "the small write alone, then one transaction per large value");
    }

    /** Holds the writer in a write, queues {@code keys} behind it, and releases them all at once. */
    private List<Future<Boolean>> queueBehindHeldWrite(GroupCommitWriter writer, Gate gate, List<String> keys)
            throws Exception {
        Future<Boolean> first = callers.submit(() -> writer.write(text("held", "h")));
        gate.entered.await();
        List<Future<Boolean>> results = new ArrayList<>();
        results.add(first);
        for (String key : keys) {
            results.add(callers.submit(() -> writer.write(text(key, "v:" + key))));
        }
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
            GroupCommitWriter writer = writer(writerConnection(), gate);
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                keys.add("k" + i);
            }
            for (Future<Boolean> result : queueBehindHeldWrite(writer, gate, keys)) {
                assertTrue(result.get());
            }
            assertEquals(2, writer.commits(), "the held write, then the 20 queued writes as one batch");
            JdbcStorage reader = reader();
            for (String key : keys) {
                assertEquals("v:" + key, reader.get(key).orElseThrow().text());
            }
        });
    }

    @Test
    void writeAllCommitsItsWritesInOneTransactionAllOrNone() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            gate.holdKey = null;
            GroupCommitWriter writer = writer(writerConnection(), gate);
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                batch.add(text("all" + i, "v" + i));
            }
            writer.writeAll(batch);
            assertEquals(1, writer.commits(), "300 writes, one commit");

            gate.errorKey = "bad";
            List<WriteRequest> failing = List.of(text("before-bad", "x"), text("bad", "x"), text("after-bad", "x"));
            assertThrows(StorageException.class, () -> writer.writeAll(failing));
            JdbcStorage reader = reader();
            assertEquals("v299", reader.get("all299").orElseThrow().text());
            assertEquals(Optional.empty(), reader.get("before-bad"), "a failed writeAll stores none of its writes");
            assertEquals(Optional.empty(), reader.get("after-bad"));
        });
    }

    @Test
    void closeAnswersEveryQueuedWriteThenEndsTheWriterAndAnsweringThreads() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            GroupCommitWriter writer = writer(writerConnection(), gate, "closing");
            Future<Boolean> held = callers.submit(() -> writer.write(text("held", "h")));
            gate.entered.await();
            // The writer's own futures, not a caller thread's: a caller returns a moment after its answer, so only
            // these say whether the answer was given before close() returned.
            List<CompletableFuture<Boolean>> queued = new ArrayList<>();
            for (String key : List.of("a", "b", "c", "d", "e")) {
                queued.add(writer.writeAsync(text(key, "v:" + key), Runnable::run));
            }
            gate.release.countDown();

            writer.close(); // waits for the held write, the queued batch and their answers

            for (CompletableFuture<Boolean> result : queued) {
                assertTrue(result.isDone(), "answered before close() returned");
                assertTrue(result.join());
            }
            assertTrue(held.get());
            // Their last step (the answerer's shutdown, the thread's exit) may still be running as close() returns;
            // they end without anything else to do, or the hang guard fails the test.
            while (Thread.getAllStackTraces().keySet().stream().anyMatch(thread -> thread.isAlive()
                    && (thread.getName().equals("store-writer-closing")
                            || thread.getName().startsWith("store-answers-closing-")))) {
                Thread.sleep(5);
            }
            StorageException closed = assertThrows(StorageException.class, () -> writer.write(text("late", "v")));
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        });
    }

    /** Interrupted while waiting for its answer, a caller still gets the answer (its write committed), and keeps the interrupt. */
    @Test
    void aCallerInterruptedWhileWaitingGetsItsAnswerAndKeepsTheInterrupt() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            GroupCommitWriter writer = writer(writerConnection(), gate);
            AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
            Thread caller = new Thread(() -> {
                try {
                    writer.write(text("held", "h"));
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
                interruptedAfter.set(Thread.currentThread().isInterrupted());
            });
            caller.start();
            gate.entered.await();
            caller.interrupt();
            gate.release.countDown();
            caller.join();
            assertEquals(Boolean.TRUE, interruptedAfter.get(), "answered, with the interrupt kept");
            assertEquals("h", reader().get("held").orElseThrow().text());
        });
    }

    @Test
    void oneFailingWriteInABatchFailsAloneAndKeepsItsPreviousValue() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            GroupCommitWriter writer = writer(writerConnection(), gate);
            assertTrue(writer.write(text("poison", "previous")));
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + config().path());
                    Statement statement = other.createStatement()) {
                statement.execute("CREATE TRIGGER poison BEFORE INSERT ON store_entries WHEN NEW.key = 'poison'"
                        + " BEGIN SELECT RAISE(ABORT, 'poisoned by the test'); END");
            }
            List<Future<Boolean>> results = queueBehindHeldWrite(writer, gate, List.of("a", "b", "poison", "c"));
            assertTrue(results.get(0).get());
            assertTrue(results.get(1).get());
            assertTrue(results.get(2).get());
            Exception failure = assertThrows(Exception.class, () -> results.get(3).get());
            assertInstanceOf(StorageException.class, failure.getCause());
            assertTrue(results.get(4).get());
            JdbcStorage reader = reader();
            assertEquals("previous", reader.get("poison").orElseThrow().text());
            for (String key : List.of("a", "b", "c")) {
                assertEquals("v:" + key, reader.get(key).orElseThrow().text());
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
            GroupCommitWriter writer = writer(writerConnection(), gate);
            assertTrue(writer.write(text("boom", "previous")));
            gate.errorKey = "boom";

            StorageException alone = assertThrows(StorageException.class, () -> writer.write(text("boom", "new")));
            assertInstanceOf(OutOfMemoryError.class, alone.getCause());
            assertTrue(writer.write(text("after-alone", "v")), "the transaction was rolled back");

            gate.ran.clear();
            List<Future<Boolean>> results = queueBehindHeldWrite(writer, gate, List.of("a", "boom", "c"));
            assertTrue(results.get(0).get());
            assertTrue(results.get(1).get());
            Exception failure = assertThrows(Exception.class, () -> results.get(2).get());
            assertInstanceOf(StorageException.class, failure.getCause());
            assertTrue(results.get(3).get());
            // The callers enqueue in any order; the batch ran in queue order up to the Error, then each on its own.
            assertEquals("held", gate.ran.get(0));
            List<String> retries = gate.ran.subList(gate.ran.size() - 3, gate.ran.size());
            assertEquals(Set.of("a", "boom", "c"), Set.copyOf(retries));
            assertEquals(retries.subList(0, retries.indexOf("boom") + 1), gate.ran.subList(1, gate.ran.size() - 3),
                    "the three queued writes ran as one batch first, then each on its own");

            assertTrue(writer.write(text("after-batch", "v")), "the writer thread is alive");
            JdbcStorage reader = reader();
            assertEquals("previous", reader.get("boom").orElseThrow().text());
            for (String key : List.of("a", "c", "after-alone", "after-batch")) {
                assertTrue(reader.get(key).isPresent(), key);
            }
            writer.close(); // answers and stops without hanging
        });
    }

    /**
     * Another process holding SQLite's write lock fails a whole batch after one wait, not after one wait per
     * write (up to 512 of busy_timeout each). The writer's busy handler stands in for a busy_timeout that has
     * run out: it counts each lock attempt that met the lock, holds the first one until 20 writes are queued
     * behind it, and gives up.
     */
    @Test
    void aLockHeldByAnotherProcessFailsTheWholeBatchAtOnce() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Connection connection = writerConnection();
            AtomicInteger lockAttempts = new AtomicInteger();
            CountDownLatch waiting = new CountDownLatch(1);
            CountDownLatch giveUp = new CountDownLatch(1);
            BusyHandler.setHandler(connection, new BusyHandler() {
                @Override
                protected int callback(int retries) {
                    if (retries == 0 && lockAttempts.incrementAndGet() == 1) {
                        waiting.countDown();
                        try {
                            giveUp.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return 0; // give up: SQLITE_BUSY
                }
            });
            Gate gate = new Gate();
            GroupCommitWriter writer = writer(connection, gate);
            assertTrue(writer.write(text("k", "previous")));
            gate.ran.clear();
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                keys.add("k" + i);
            }
            JdbcStorage reader = reader();
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + config().path());
                    Statement lock = other.createStatement()) {
                lock.execute("BEGIN IMMEDIATE");
                List<Future<Boolean>> results = new ArrayList<>();
                results.add(callers.submit(() -> writer.write(text("first", "v"))));
                waiting.await();
                for (String key : keys) {
                    results.add(callers.submit(() -> writer.write(text(key, "v"))));
                }
                while (writer.pending() < keys.size()) {
                    Thread.sleep(5); // waiting for the callers to enqueue, bounded by the hang guard
                }
                giveUp.countDown();
                for (Future<Boolean> result : results) {
                    Exception failure = assertThrows(Exception.class, result::get);
                    assertInstanceOf(StorageException.class, failure.getCause());
                }
                assertEquals(2, lockAttempts.get(), "one attempt for the first write, one for the batch of 20");
                assertEquals(List.of(), gate.ran, "no write ran: BEGIN IMMEDIATE failed");
                assertEquals("previous", reader.get("k").orElseThrow().text(), "reads go on meanwhile");
                lock.execute("ROLLBACK");
            }
            for (String key : keys) {
                assertTrue(writer.write(text(key, "v")), "the lock was released");
            }
            assertEquals(2, lockAttempts.get());
        });
    }

    @Test
    void fullDiskFailsTheWriteKeepsThePreviousValueAndRecovers() throws Exception {
        Gate gate = new Gate();
        GroupCommitWriter writer = writer(writerConnection(), gate);
        assertTrue(writer.write(text("k", "previous")));
        long pages;
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + config().path());
                ResultSet row = connection.createStatement().executeQuery("PRAGMA page_count")) {
            pages = row.getLong(1);
        }
        gate.sqlOnce.set("PRAGMA max_page_count = " + (pages + 2)); // SQLite's own "database or disk is full"
        byte[] big = new byte[1024 * 1024];
        IOException failure = assertThrows(IOException.class, () -> writer.write(GroupCommitWriterTest.bytes("k", big)));
        assertTrue(String.valueOf(failure.getCause()).contains("full"), String.valueOf(failure.getCause()));
        assertEquals("previous", reader().get("k").orElseThrow().text());

        gate.sqlOnce.set("PRAGMA max_page_count = 1073741823"); // space again
        assertTrue(writer.write(GroupCommitWriterTest.bytes("k", big)));
        assertArrayEquals(big, reader().get("k").orElseThrow().bytes());
    }

    @Test
    void writeAsyncReturnsAtOnceAndTheWriterCompletesEachWriteOnceCommitted() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            GroupCommitWriter writer = writer(writerConnection(), gate);
            Executor noBlockingWork = task -> {
                throw new AssertionError("nothing here should need a thread that may block");
            };
            // One caller thread, no waiting: the first write holds the writer inside its transaction, the rest queue.
            CompletableFuture<Boolean> held = writer.writeAsync(text("held", "h"), noBlockingWork);
            gate.entered.await();
            List<CompletableFuture<Boolean>> queued = new ArrayList<>();
            Set<String> completedOn = ConcurrentHashMap.newKeySet();
            CountDownLatch allAnswered = new CountDownLatch(20);
            for (int i = 0; i < 20; i++) {
                CompletableFuture<Boolean> result = writer.writeAsync(text("async" + i, "v" + i), noBlockingWork);
                result.thenRun(() -> {
                    completedOn.add(Thread.currentThread().getName());
                    allAnswered.countDown();
                });
                queued.add(result);
            }
            assertFalse(held.isDone(), "not answered before it is committed");
            assertTrue(queued.stream().noneMatch(CompletableFuture::isDone), "not answered before they are committed");

            gate.release.countDown();
            // Awaited before any join(): a thread that joins a completed future may run its dependents itself.
            allAnswered.await();
            assertEquals(Set.of("store-answers-test-0", "store-answers-test-1"), completedOn,
                    "answered by the writer's answering threads, both of them (20 keys)");
            assertTrue(held.join());
            for (CompletableFuture<Boolean> result : queued) {
                assertTrue(result.join());
            }
            assertEquals(2, writer.commits(), "the held write, then the 20 queued writes as one batch");
            JdbcStorage reader = reader();
            assertEquals("v19", reader.get("async19").orElseThrow().text());
        });
    }

    /** With nothing else waiting, a lone write is answered by the writer itself: no wake-up of another thread. */
    @Test
    void aLoneWriteWithNothingWaitingIsAnsweredOnTheWriterThread() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            gate.holdKey = "lone";
            GroupCommitWriter writer = writer(writerConnection(), gate, "lone");
            CompletableFuture<Boolean> result = writer.writeAsync(text("lone", "v"), Runnable::run);
            gate.entered.await(); // inside its transaction: the dependent below is attached before the answer
            CompletableFuture<String> answeredOn = result.thenApply(stored -> Thread.currentThread().getName());
            gate.release.countDown();
            assertEquals("store-writer-lone", answeredOn.join());
        });
    }

    /** Answers are spread over the answering threads by key, and each key's answers keep its commit order. */
    @Test
    void eachKeysAnswersKeepTheirCommitOrderAcrossTheAnsweringThreads() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            GroupCommitWriter writer = writer(writerConnection(), gate, "order", 3);
            CompletableFuture<Boolean> held = writer.writeAsync(text("held", "h"), Runnable::run);
            gate.entered.await();
            // Queued by one thread while the writer is held: the queue's order, in which the writer commits them
            // (512 a batch), is the order of these calls; every answer comes from an answering thread.
            Map<String, List<Integer>> answerOrder = new ConcurrentHashMap<>();
            Set<String> answeredOn = ConcurrentHashMap.newKeySet();
            List<CompletableFuture<Boolean>> answered = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                String key = "k" + (i % 24);
                int sequence = i;
                answered.add(writer.writeAsync(text(key, "v" + i), Runnable::run).thenApply(stored -> {
                    answerOrder.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>())).add(sequence);
                    answeredOn.add(Thread.currentThread().getName());
                    return stored;
                }));
            }
            gate.release.countDown();
            assertTrue(held.join());
            for (CompletableFuture<Boolean> result : answered) {
                assertTrue(result.join());
            }
            assertEquals(24, answerOrder.size());
            answerOrder.forEach((key, order) -> {
                List<Integer> committed = new ArrayList<>(order);
                Collections.sort(committed);
                assertEquals(committed, order, "answers of " + key + " in commit order");
            });
            assertEquals(Set.of("store-answers-order-0", "store-answers-order-1", "store-answers-order-2"), answeredOn,
                    "24 keys spread over the three answering threads, nothing answered elsewhere");
            assertEquals("v2999", reader().get("k23").orElseThrow().text());
        });
    }

    @Test
    void aFullQueueIsWaitedOutOnTheBlockingExecutorNeverByTheAsynchronousCaller() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Gate gate = new Gate();
            GroupCommitWriter writer = writer(writerConnection(), gate);
            AtomicInteger blockingTasks = new AtomicInteger();
            Executor blockingWork = task -> {
                blockingTasks.incrementAndGet();
                callers.execute(task);
            };
            CompletableFuture<Boolean> held = writer.writeAsync(text("held", "h"), blockingWork);
            gate.entered.await();
            List<CompletableFuture<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < WriteQueue.CAPACITY; i++) {
                results.add(writer.writeAsync(text("q" + i, "v"), blockingWork));
            }
            assertEquals(0, blockingTasks.get(), "room in the queue: nothing handed over");

            CompletableFuture<Boolean> overflow = writer.writeAsync(text("overflow", "o"), blockingWork);

            assertEquals(1, blockingTasks.get(), "the full queue was waited out on the executor");
            assertFalse(overflow.isDone());
            gate.release.countDown();
            assertTrue(held.join());
            assertTrue(overflow.join());
            for (CompletableFuture<Boolean> result : results) {
                assertTrue(result.join());
            }
            assertEquals("o", reader().get("overflow").orElseThrow().text());
        });
    }

    @Test
    void writeAsyncAfterCloseFailsItsStageAndDoesNotThrow() throws Exception {
        GroupCommitWriter writer = writer(writerConnection(), new Gate());
        writer.close();

        CompletableFuture<Boolean> result = writer.writeAsync(text("late", "l"), Runnable::run);

        CompletionException failure = assertThrows(CompletionException.class, result::join);
        assertInstanceOf(StorageException.class, failure.getCause());
    }

    static WriteRequest bytes(String key, byte[] value) {
        return new WriteRequest(key, EntryKind.BYTES, null, SpooledContent.inMemory(value), OverwritePolicy.REPLACE,
                Instant.now());
    }
}
