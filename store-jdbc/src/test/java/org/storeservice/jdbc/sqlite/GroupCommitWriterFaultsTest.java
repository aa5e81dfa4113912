package org.storeservice.jdbc.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.jdbc.JdbcStorage;
import org.storeservice.jdbc.SqliteStorageConfig;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * The writer under Errors it cannot foresee (issue 55's review): an OutOfMemoryError that recurs while the first one
 * is logged, an answering thread that cannot start. Each test failed on the writer before its fix. The Errors are
 * thrown by the write's bind step ({@link WriteTransactions.RowWriter}, the writer's seam for it) and by the thread
 * factory the writer is given; the writer itself is the real one, on a real database.
 */
class GroupCommitWriterFaultsTest {
    private static final Duration HANG_GUARD = Duration.ofMinutes(2);

    @TempDir
    Path directory;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    /**
     * An OutOfMemoryError that recurs when it is looked at: reading its message (as logging it does, and the
     * failure's text) throws a new one, the first {@code recurrences} times.
     */
    static final class RecurringError extends OutOfMemoryError {
        private static final long serialVersionUID = 1L;
        private final transient AtomicInteger recurrences;

        RecurringError(int recurrences) {
            super("thrown by the test while binding a value");
            this.recurrences = new AtomicInteger(recurrences);
        }

        @Override
        public String getMessage() {
            if (recurrences.getAndDecrement() > 0) {
                throw new OutOfMemoryError("thrown again by the test while the first one was looked at");
            }
            return super.getMessage();
        }
    }

    /** Binds each write with {@link Rows#write}; a text value "bad" throws {@link #error}; holds the write of "held". */
    private static final class Binder implements WriteTransactions.RowWriter {
        final List<String> ran = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile Error error;

        @Override
        public boolean write(PreparedStatement statement, WriteRequest request) throws SQLException {
            ran.add(request.key());
            if ("bad".equals(request.text())) {
                throw error;
            }
            if (request.key().equals("held") && entered.getCount() > 0) {
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

    private SqliteStorageConfig config() {
        return SqliteStorageConfig.builder(directory.resolve("store.db")).build();
    }

    private Connection writerConnection() throws SQLException, IOException {
        Connection connection = SqliteWriterConnection.open(config());
        opened.add(connection);
        SchemaVersion.ensure(connection, new SqliteDialect(), TableName.parse(TableName.DEFAULT));
        return connection;
    }

    private GroupCommitWriter writer(WriteTransactions.RowWriter rows, String name, int answeringThreads,
            ThreadFactory threads) throws SQLException, IOException {
        GroupCommitWriter writer = new GroupCommitWriter(writerConnection(),
                new Sql(TableName.parse(TableName.DEFAULT)), name, rows, answeringThreads, threads);
        opened.add(writer);
        return writer;
    }

    private Optional<StoredEntry> stored(String key) throws IOException {
        try (JdbcStorage reader = JdbcStorage.sqlite(config())) {
            return reader.get(key);
        }
    }

    private static WriteRequest text(String key, String value) {
        return new WriteRequest(key, EntryKind.TEXT, value, null, OverwritePolicy.REPLACE, Instant.now());
    }

    private static WriteRequest large(String key) {
        return new WriteRequest(key, EntryKind.BYTES, null,
                SpooledContent.inMemory(new byte[SpooledContent.MEMORY_BYTES + 1]), OverwritePolicy.REPLACE,
                Instant.now());
    }

    private static boolean failed(CompletableFuture<Boolean> result) {
        return result.handle((stored, failure) -> failure != null).join();
    }

    private static void awaitQueued(GroupCommitWriter writer, int count) throws InterruptedException {
        while (writer.pending() < count) {
            Thread.sleep(5); // waiting for the writes to be queued, bounded by the hang guard
        }
    }

    /** The Error recurs once, while the writer logs it: it escapes the batch, and the writer goes on. */
    @Test
    void aLargeValueOfABatchFailedByAnEscapingErrorIsNeverCommittedLater() {
        largeValueOfAFailedBatch(1);
    }

    /**
     * The Error recurs whenever it is looked at, so it escapes again while the queue logs it: the large value was
     * committed as the writer stopped, after its caller had been told "nothing stored".
     */
    @Test
    void aLargeValueAnsweredFailedIsNotCommittedWhenTheErrorRecursWhileTheQueueLogsIt() {
        largeValueOfAFailedBatch(Integer.MAX_VALUE);
    }

    private void largeValueOfAFailedBatch(int recurrences) {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Binder binder = new Binder();
            binder.error = new RecurringError(recurrences);
            GroupCommitWriter writer = writer(binder, "large", 2, Thread::new);
            CompletableFuture<Boolean> held = writer.writeAsync(text("held", "h"), Runnable::run);
            binder.entered.await();
            CompletableFuture<Boolean> big = writer.writeAsync(large("big"), Runnable::run);
            CompletableFuture<Boolean> bad = writer.writeAsync(text("small", "bad"), Runnable::run);
            awaitQueued(writer, 2);
            binder.release.countDown();
            assertTrue(held.join());
            assertTrue(failed(bad));
            assertTrue(failed(big), "the scenario: the Error escaped the batch before its large value was committed");
            // A later batch, then the writer's end: neither may commit what was answered failed.
            writer.writeAsync(text("after", "a"), Runnable::run).handle((stored, failure) -> null).join();
            writer.close();

            assertEquals(Optional.empty(), stored("big"), "answered failed, so not stored");
            assertEquals(Optional.empty(), stored("small"));
        });
    }

    /**
     * A write failed by what the writer did not foresee is answered by its key's answering thread, after the answers
     * given to that thread before it: never ahead of an earlier write of its key.
     */
    @Test
    void aFailureTheWriterDidNotForeseeComesAfterTheEarlierAnswersOfItsKey() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Binder binder = new Binder();
            binder.error = new RecurringError(1);
            GroupCommitWriter writer = writer(binder, "order", 2, Thread::new);
            CompletableFuture<Boolean> held = writer.writeAsync(text("held", "h"), Runnable::run);
            binder.entered.await();
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch earlierAnswerGiven = new CountDownLatch(1);
            CountDownLatch releaseAnswer = new CountDownLatch(1);
            // Committed in a batch of two, so handed to k's answering thread, whose dependent holds that thread.
            CompletableFuture<Boolean> earlier = writer.writeAsync(text("k", "earlier"), Runnable::run);
            earlier.thenRun(() -> {
                earlierAnswerGiven.countDown();
                try {
                    releaseAnswer.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                order.add("earlier");
            });
            writer.writeAsync(text("other", "o"), Runnable::run);
            awaitQueued(writer, 2);
            binder.release.countDown();
            earlierAnswerGiven.await();

            CompletableFuture<Boolean> later = writer.writeAsync(text("k", "bad"), Runnable::run);
            later.whenComplete((stored, failure) -> order.add("later " + (failure != null ? "failed" : stored)));
            while (!binder.ran.contains("k") || binder.ran.lastIndexOf("k") == binder.ran.indexOf("k")) {
                Thread.sleep(5); // until the failing write was tried
            }
            writer.writeAsync(text("next", "n"), Runnable::run);
            while (!binder.ran.contains("next")) {
                Thread.sleep(5); // the writer took the next batch: it is done with the failing one
            }
            try {
                assertFalse(later.isDone(), "not failed ahead of the earlier answer of its key");
            } finally {
                releaseAnswer.countDown();
            }
            assertTrue(failed(later));
            assertTrue(held.join() && earlier.join());
            writer.close();
            assertEquals(List.of("earlier", "later failed"), order);
            assertEquals("earlier", stored("k").orElseThrow().text());
        });
    }

    /** Threads whose start throws what the JVM throws when it has no room for one more, from the calls it names. */
    private static ThreadFactory cannotStart(IntPredicate call) {
        AtomicInteger calls = new AtomicInteger();
        return task -> !call.test(calls.incrementAndGet()) ? new Thread(task) : new Thread(task) {
            @Override
            public synchronized void start() {
                throw new OutOfMemoryError("unable to create native thread: thrown by the test");
            }
        };
    }

    /**
     * Answering threads that cannot start (the writer's own thread is made first): the writer is refused when it is
     * made, not left to answer on the writer thread and to wait for ever in close() for a thread that never started.
     */
    @Test
    void aWriterWhoseAnsweringThreadsCannotStartIsRefusedNotLeftToHangInClose() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Throwable thrown = thrownBy(() -> {
                GroupCommitWriter writer = new GroupCommitWriter(writerConnection(),
                        new Sql(TableName.parse(TableName.DEFAULT)), "nostart", new Binder(), 2,
                        cannotStart(call -> call >= 2));
                writer.writeAsync(text("a", "a"), Runnable::run);
                writer.writeAsync(text("b", "b"), Runnable::run);
                writer.close(); // where the writer whose threads started on first use waited for ever
            });
            SQLException refused = assertInstanceOf(SQLException.class, thrown);
            assertInstanceOf(OutOfMemoryError.class, refused.getCause());
            awaitThreadsEnded("nostart");
        });
    }

    /** The writer thread cannot start: the answering threads started before it are stopped. */
    @Test
    void aWriterThreadThatCannotStartLeavesNoAnsweringThreadBehind() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            SQLException refused = assertInstanceOf(SQLException.class,
                    thrownBy(() -> writer(new Binder(), "nowriter", 2, cannotStart(call -> call == 1))));
            assertTrue(refused.getMessage().contains("writer thread"), refused.getMessage());
            awaitThreadsEnded("nowriter");
        });
    }

    /** What {@code action} throws, an Error included (JUnit's assertThrows rethrows an OutOfMemoryError of the wrong type). */
    private static Throwable thrownBy(Executable action) {
        try {
            action.execute();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Waits until no thread of the writer named {@code name} is alive; the hang guard fails a thread that stays. */
    private static void awaitThreadsEnded(String name) throws InterruptedException {
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(thread -> thread.isAlive()
                && (thread.getName().equals("store-writer-" + name)
                        || thread.getName().startsWith("store-answers-" + name + "-")))) {
            Thread.sleep(5);
        }
    }

    /** An Error that recurs whenever it is looked at fails its write with a clear failure; the writer goes on. */
    @Test
    void anErrorAnsweredFailedLeavesTheWriterWorking() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            Binder binder = new Binder();
            binder.error = new RecurringError(Integer.MAX_VALUE);
            GroupCommitWriter writer = writer(binder, "working", 2, Thread::new);
            assertThrows(StorageException.class, () -> writer.write(text("x", "bad")));
            assertTrue(writer.write(text("x", "good")));
            assertEquals("good", stored("x").orElseThrow().text());
            assertThrows(CompletionException.class, () -> writer.writeAsync(text("y", "bad"), Runnable::run).join());
        });
    }
}
