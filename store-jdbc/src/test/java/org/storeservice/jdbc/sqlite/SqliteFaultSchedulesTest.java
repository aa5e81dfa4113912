package org.storeservice.jdbc.sqlite;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.jdbc.SqliteStorageConfig;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.WriteRequest;
import org.storeservice.jdbc.sqlite.GroupCommitWriterFaultsTest.RecurringError;

/**
 * Random fault schedules for SQLite's writer and its answering threads, each from a seed of its own: client threads
 * write two shared keys, small text and large byte values (over {@link SpooledContent#MEMORY_BYTES}, which commit
 * apart), waiting for some answers and taking futures for others, while Errors are thrown at random points: an
 * OutOfMemoryError binding a write, one that recurs while the writer logs it and builds its failure (so it escapes
 * the batch), an asynchronous caller's answer callback that throws, an answering or writer thread that cannot start
 * when the writer is opened. Each schedule reopens the writer on its file three times, the last close while clients
 * still write. Then {@link WriteHistory} checks every answer against what SQLite's triggers recorded: Success means
 * stored once, Error means not stored by that write, each key's real-time and answer order kept; a writer must still
 * store after its faults, and leave no thread behind.
 *
 * <p>The run counts each kind of fault fired and fails if one fired less than its stated minimum: a run whose
 * faults did not happen proves nothing. {@code -Dstore.sqliteFaults.seed=S} sets the run's seed (else a new one,
 * printed), {@code -Dstore.sqliteFaults.count=N} the number of schedules. A failure prints the command that replays
 * its schedule alone: the seed fixes the schedule, not the threads' interleaving. Its power: the planted bugs of
 * {@code src/test/mutations/sqlite}.
 */
class SqliteFaultSchedulesTest {
    static final String SEED_PROPERTY = "store.sqliteFaults.seed";
    static final String COUNT_PROPERTY = "store.sqliteFaults.count";
    private static final int DEFAULT_COUNT = 24;
    private static final int CLIENTS = 4;
    private static final int EPOCHS = 3;
    private static final List<String> KEYS = List.of("k0", "k1");
    /** How long any one answer, close or thread's end may take before the schedule counts it as hung. */
    private static final long HANG_GUARD_SECONDS = 30;

    /** The fault kinds, each with the least number of times a run of {@link #DEFAULT_COUNT} must fire it. */
    enum Fault {
        BIND_ERROR(20), RECURRING_ERROR(20), CALLBACK_THROWS(20), THREAD_CANNOT_START(4);

        final int minimum;

        Fault(int minimum) {
            this.minimum = minimum;
        }
    }

    @TempDir
    Path directory;

    private final Map<Fault, AtomicInteger> fired = new ConcurrentHashMap<>();
    private final AtomicInteger errorAnswers = new AtomicInteger();
    private final AtomicInteger largeErrorAnswers = new AtomicInteger();

    @Test
    void everyAnswerTrueToWhatIsStoredUnderRandomErrors() throws Exception {
        long runSeed = Long.getLong(SEED_PROPERTY, ThreadLocalRandom.current().nextLong());
        int count = Integer.getInteger(COUNT_PROPERTY, DEFAULT_COUNT);
        for (Fault fault : Fault.values()) {
            fired.put(fault, new AtomicInteger());
        }
        int writes = 0;
        for (int i = 0; i < count; i++) {
            long seed = runSeed + i * 0x9E3779B97F4A7C15L;
            List<String> violations = new ArrayList<>();
            writes += runSchedule(seed, directory.resolve("schedule-" + i + ".db"), violations);
            if (!violations.isEmpty()) {
                fail("schedule " + i + " of run seed " + runSeed + " (seed " + seed + "): " + violations.size()
                        + " violations, the first: " + violations.subList(0, Math.min(5, violations.size()))
                        + "\nreplay: mvn -B -ntp -pl store-jdbc -am test -Dtest=SqliteFaultSchedulesTest"
                        + " -Dsurefire.failIfNoSpecifiedTests=false -D" + SEED_PROPERTY + "=" + seed + " -D"
                        + COUNT_PROPERTY + "=1");
            }
        }
        System.out.printf("sqlite fault schedules: %d run, %d writes checked, 0 violations, seed %d, faults fired %s,"
                + " %d Error answers (%d of large values)%n", count, writes, runSeed, fired, errorAnswers.get(),
                largeErrorAnswers.get());
        if (count >= DEFAULT_COUNT) {
            for (Fault fault : Fault.values()) {
                assertTrue(fired.get(fault).get() >= fault.minimum,
                        fault + " fired " + fired.get(fault) + " times, fewer than " + fault.minimum);
            }
            assertTrue(largeErrorAnswers.get() >= 1, "no large value was ever answered Error: the situation of"
                    + " issue 55's first defect never happened");
        }
    }

    /** One schedule; returns the writes it checked, adds what it found wrong to {@code violations}. */
    private int runSchedule(long seed, Path file, List<String> violations) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        SqliteStorageConfig config = SqliteStorageConfig.builder(file).build();
        Schedule schedule = new Schedule(random.split());
        for (int epoch = 0; epoch < EPOCHS; epoch++) {
            String name = "faults-" + Long.toHexString(seed) + "-" + epoch;
            if (random.nextInt(3) == 0) {
                tryRefusedOpen(config, name + "-refused", random.nextInt(4) + 1, epoch == 0, violations);
            }
            Connection connection = SqliteWriterConnection.open(config);
            SchemaVersion.ensure(connection, new SqliteDialect(), TableName.parse(TableName.DEFAULT));
            if (epoch == 0) {
                WriteHistory.install(connection);
            }
            GroupCommitWriter writer = new GroupCommitWriter(connection, new Sql(TableName.parse(TableName.DEFAULT)),
                    name, schedule::bind, 1 + random.nextInt(3), Thread::new);
            boolean closeWhileWriting = epoch == EPOCHS - 1;
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                SplittableRandom clientRandom = random.split();
                Thread client = new Thread(() -> schedule.client(writer, clientRandom, 12 + clientRandom.nextInt(12)),
                        name + "-client-" + c);
                client.setDaemon(true); // one that hangs is reported, and must not keep the JVM alive
                client.start();
                clients.add(client);
            }
            if (closeWhileWriting) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(20)));
            } else {
                joinAll(clients, violations);
                if (!schedule.probe(writer)) {
                    violations.add(name + ": a write without faults after the schedule's faults was not stored");
                }
            }
            if (!closeWithin(writer)) {
                violations.add(name + ": close() did not return");
                return schedule.ops.size();
            }
            if (closeWhileWriting) {
                joinAll(clients, violations);
            }
            awaitThreadsEnded(name, violations);
        }
        for (String write : schedule.unanswered) {
            violations.add("write " + write + " unanswered after " + HANG_GUARD_SECONDS + " s");
        }
        try (Connection reader = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            WriteHistory history = new WriteHistory();
            history.check(schedule.ops, reader);
            violations.addAll(history.violations());
        }
        for (WriteHistory.Op op : schedule.ops) {
            if (!op.success()) {
                errorAnswers.incrementAndGet();
            }
        }
        return schedule.ops.size();
    }

    /** A writer one of whose threads cannot start: it must be refused, and leave no thread behind. */
    private void tryRefusedOpen(SqliteStorageConfig config, String name, int failingCall, boolean fresh,
            List<String> violations) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory threads = task -> calls.incrementAndGet() != failingCall ? new Thread(task) : new Thread(task) {
            @Override
            public synchronized void start() {
                fired.get(Fault.THREAD_CANNOT_START).incrementAndGet();
                throw new OutOfMemoryError("unable to create native thread: thrown by the schedule");
            }
        };
        try (Connection connection = SqliteWriterConnection.open(config)) {
            SchemaVersion.ensure(connection, new SqliteDialect(), TableName.parse(TableName.DEFAULT));
            GroupCommitWriter writer = new GroupCommitWriter(connection, new Sql(TableName.parse(TableName.DEFAULT)),
                    name, (statement, request) -> Rows.write(statement, request, new SqliteDialect()), 3, threads);
            violations.add(name + ": a writer whose thread " + failingCall + " could not start was not refused");
            closeWithin(writer);
        } catch (SQLException refused) {
            // as it should be
        }
        awaitThreadsEnded(name, violations);
    }

    /** The writes of one schedule and the faults thrown into them. */
    private final class Schedule {
        final List<WriteHistory.Op> ops = Collections.synchronizedList(new ArrayList<>());
        final List<String> unanswered = Collections.synchronizedList(new ArrayList<>());
        /** The schedule's clock: every step any thread records takes the next tick. */
        final AtomicLong clock = new AtomicLong();
        final AtomicInteger nextId = new AtomicInteger();
        final Map<String, Long> lastBind = new ConcurrentHashMap<>();
        /** The writer thread's own random faults: it is the only thread that binds. */
        final SplittableRandom faults;
        final int bindErrorPercent;
        final int recurringPercent;

        Schedule(SplittableRandom random) {
            this.faults = random.split();
            this.bindErrorPercent = random.nextInt(2, 8);
            this.recurringPercent = random.nextInt(4, 10);
        }

        /** The writer's bind step: records the bind, then throws this schedule's fault, if any, or binds. */
        boolean bind(PreparedStatement statement, WriteRequest request) throws SQLException {
            String id = id(request);
            lastBind.put(id, clock.incrementAndGet());
            if (!request.key().equals(WriteHistory.UNRECORDED_KEY)) {
                // A large value is where memory runs out, and its Error escapes after the batch's small writes
                // committed, their answers still on the way: three times as likely there.
                int roll = faults.nextInt(request.bytes() != null ? 33 : 100);
                if (roll < bindErrorPercent) {
                    fired.get(Fault.BIND_ERROR).incrementAndGet();
                    throw new OutOfMemoryError("thrown by the schedule binding " + id);
                }
                if (roll < bindErrorPercent + recurringPercent) {
                    fired.get(Fault.RECURRING_ERROR).incrementAndGet();
                    throw new RecurringError(faults.nextBoolean() ? 1 + faults.nextInt(3) : Integer.MAX_VALUE);
                }
            }
            return Rows.write(statement, request, new SqliteDialect());
        }

        /** One client: {@code count} writes of random keys, kinds and ways of waiting. */
        void client(GroupCommitWriter writer, SplittableRandom random, int count) {
            for (int i = 0; i < count; i++) {
                String id = WriteHistory.id(nextId.incrementAndGet());
                String key = KEYS.get(random.nextInt(KEYS.size()));
                boolean large = random.nextInt(4) == 0;
                WriteRequest request = large ? largeWrite(key, id, random.nextInt(8192))
                        : new WriteRequest(key, EntryKind.TEXT, id, null, OverwritePolicy.REPLACE, Instant.now());
                long sent = clock.incrementAndGet();
                AtomicLong arrived = new AtomicLong(-1);
                boolean success;
                Thread self = Thread.currentThread();
                try {
                    if (random.nextInt(4) == 0) {
                        success = writer.write(request);
                    } else {
                        CompletableFuture<Boolean> result = writer.writeAsync(request, Runnable::run);
                        result.whenComplete((stored, failure) -> {
                            if (Thread.currentThread() != self) {
                                arrived.set(clock.incrementAndGet());
                            }
                        });
                        if (random.nextInt(5) == 0) {
                            result.thenRun(() -> {
                                fired.get(Fault.CALLBACK_THROWS).incrementAndGet();
                                throw new OutOfMemoryError("thrown by the schedule's answer callback");
                            });
                        }
                        if (random.nextBoolean()) { // a slow callback: the next answers of its thread wait
                            result.thenRun(() -> LockSupport.parkNanos(2_000_000));
                        }
                        success = result.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
                    }
                } catch (TimeoutException e) {
                    unanswered.add(id + " of " + key);
                    return;
                } catch (Throwable t) { // an Error too: an answer that says nothing was stored by this write
                    success = false;
                }
                long seen = clock.incrementAndGet();
                if (!success && large) {
                    largeErrorAnswers.incrementAndGet();
                }
                ops.add(new WriteHistory.Op(id, key, sent, seen, arrived.get(), success,
                        lastBind.getOrDefault(id, -1L)));
            }
        }

        /** A write of its own key without faults: the writer must still store after what was thrown into it. */
        boolean probe(GroupCommitWriter writer) {
            try {
                return writer.writeAsync(new WriteRequest(WriteHistory.UNRECORDED_KEY, EntryKind.TEXT, "p", null,
                        OverwritePolicy.REPLACE, Instant.now()), Runnable::run).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                return false;
            }
        }
    }

    private static String id(WriteRequest request) {
        if (request.text() != null) {
            return request.text();
        }
        try (InputStream value = request.bytes().open()) {
            return new String(value.readNBytes(WriteHistory.ID_BYTES), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static WriteRequest largeWrite(String key, String id, int extra) {
        byte[] value = new byte[SpooledContent.MEMORY_BYTES + 1 + extra];
        byte[] head = id.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, value, 0, head.length);
        return new WriteRequest(key, EntryKind.BYTES, null, SpooledContent.inMemory(value), OverwritePolicy.REPLACE,
                Instant.now());
    }

    private static void joinAll(List<Thread> clients, List<String> violations) throws InterruptedException {
        for (Thread client : clients) {
            client.join(TimeUnit.SECONDS.toMillis(2 * HANG_GUARD_SECONDS)); // a hang guard, not a speed check
            if (client.isAlive()) {
                violations.add(client.getName() + " still waits for an answer");
            }
        }
    }

    private static boolean closeWithin(GroupCommitWriter writer) throws InterruptedException {
        Thread closing = new Thread(writer::close, "closing");
        closing.setDaemon(true);
        closing.start();
        closing.join(TimeUnit.SECONDS.toMillis(HANG_GUARD_SECONDS));
        return !closing.isAlive();
    }

    /** The writer's and answering threads of {@code name} end once it is closed (or refused). */
    private static void awaitThreadsEnded(String name, List<String> violations) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(thread -> thread.isAlive()
                && (thread.getName().equals("store-writer-" + name)
                        || thread.getName().startsWith("store-answers-" + name + "-")))) {
            if (System.nanoTime() - deadline > 0) {
                violations.add(name + ": a writer or answering thread still runs after close");
                return;
            }
            Thread.sleep(5);
        }
    }
}
