package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.jdbc.FaultProxy;
import org.storeservice.jdbc.FaultProxy.Fault;
import org.storeservice.jdbc.PostgresStorageConfig;
import org.storeservice.jdbc.TestPostgres;
import org.storeservice.jdbc.internal.Engine;
import org.storeservice.jdbc.internal.SpoolMemory;
import org.storeservice.jdbc.internal.WritePath;
import org.storeservice.jdbc.internal.WriteRequest;
import org.storeservice.jdbc.postgres.HistoryChecker.Answer;
import org.storeservice.jdbc.postgres.HistoryChecker.Kind;
import org.storeservice.jdbc.postgres.HistoryChecker.Op;

/**
 * The wrong answer a review found (issue #50), end to end: an in-doubt batch {@code [REJECT a, REJECT taken, REJECT c]}
 * whose oldest write, {@code a}, runs out its failover time-out while the commit's outcome cannot be asked; once it can,
 * the writes still waiting are answered as the commit decided ({@code taken}: it found the key, {@code false};
 * {@code c}: inserted, {@code true}). Read against the shorter list of writes still waiting, the commit row's indexes
 * shift and give the opposite. That bug is kept as a planted mutation
 * ({@code store-jdbc/src/test/mutations/postgres/}, see TESTING.md), which the random fault schedules must catch.
 *
 * <p>How the three writes come to be one batch with {@code a} older: one lane (the fewest connections); a first batch's
 * commit answer is dropped and the database held away, so that the lane is busy finding out; {@code a} waits in the
 * queue, {@code taken} and {@code c} come 4 s later; the lane then takes all three, and their commit's answer is dropped
 * too, with the database held away until {@code a}'s time-out has passed.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class InDoubtBatchTest {
    private static final long FAILOVER_MILLIS = 8_000;
    private static final AtomicInteger tables = new AtomicInteger();

    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    @Test
    void theWritesStillWaitingAreAnsweredAsTheCommitDecided() throws Exception {
        Scenario scenario = run();
        assertEquals(List.of(), scenario.result.violations());
        assertEquals(Answer.ERROR, scenario.answer("a"), "a ran out its time-out while in doubt");
        assertTrue(scenario.op("a").inDoubt(), "and says it may or may not be stored");
        assertEquals(Answer.FALSE, scenario.answer("taken"), "taken found its key");
        assertEquals(Answer.TRUE, scenario.answer("c"), "c inserted its key");
        assertEquals(1, scenario.result.inDoubtTookEffect(), "a was stored: counted apart, not a violation");
    }

    private record Scenario(List<Op> ops, HistoryChecker.Result result) {
        Op op(String key) {
            return ops.stream().filter(o -> o.server().equals("A") && o.key().equals(key)).findFirst().orElseThrow();
        }

        Answer answer(String key) {
            return op(key).answer();
        }
    }

    private static Scenario run() throws Exception {
        String table = "in_doubt_" + tables.incrementAndGet();
        List<Op> ops = new ArrayList<>();
        ExecutorService blocking = Executors.newCachedThreadPool();
        try (Storage direct = Storages.open(postgres.uri(table)); FaultProxy proxy = new FaultProxy(postgres.host(),
                postgres.port())) {
            FaultSchedule.recordHistory(postgres, table);
            long started = System.nanoTime();
            assertTrue(direct.putText("taken", "x0", OverwritePolicy.REPLACE));
            ops.add(FaultSchedule.op("B", "taken", Kind.REPLACE, "x0", started, true, null));
            PostgresStorageConfig config = PostgresStorageConfig.fromUri(postgres.uriVia("127.0.0.1", proxy.port(), table,
                    "prepareThreshold=0&poolSize=3&statementTimeoutMillis=700&socketTimeout=1&connectTimeout=1"
                            + "&loginTimeout=1&failoverTimeoutMillis=" + FAILOVER_MILLIS));
            PostgresWriter.Settings defaults = PostgresWriter.Settings.of(config);
            Engine engine = PostgresEngine.open(config, SpoolMemory.defaultBytes(), new PostgresWriter.Settings(
                    defaults.lanes(), defaults.failoverTimeout(), defaults.commitRowsKept(), defaults.pruneEvery()));
            assertEquals(1, defaults.lanes(), "one lane, so that the batches follow one another");
            try {
                WritePath writer = engine.writes();
                List<CompletableFuture<Void>> answers = new ArrayList<>();
                FaultProxy.Armed first = proxy.arm(Fault.DROP_ANSWER, "COMMIT", true);
                answers.add(write(writer, "x", ops, blocking));
                assertTrue(first.awaitFired(10_000), "the first batch's commit answer was dropped");
                long aQueued = System.nanoTime();
                answers.add(write(writer, "a", ops, blocking));
                Thread.sleep(4_000);
                answers.add(write(writer, "taken", ops, blocking));
                answers.add(write(writer, "c", ops, blocking));
                FaultProxy.Armed second = proxy.arm(Fault.DROP_ANSWER, "COMMIT", true);
                proxy.release();
                assertTrue(second.awaitFired(10_000), "the batch of a, taken and c: its commit answer dropped");
                long untilAExpired = aQueued + TimeUnit.MILLISECONDS.toNanos(FAILOVER_MILLIS + 1_000) - System.nanoTime();
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(untilAExpired)));
                answers.get(1).get(10, TimeUnit.SECONDS); // a: answered Error once its time-out ran out
                assertFalse(answers.get(2).isDone() || answers.get(3).isDone(), "taken and c still wait for the outcome");
                proxy.release();
                CompletableFuture.allOf(answers.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            } finally {
                proxy.release();
                engine.writes().close();
                engine.reads().close();
            }
            return new Scenario(List.copyOf(ops), HistoryChecker.check(List.copyOf(ops),
                    FaultSchedule.history(postgres, table), true));
        } finally {
            blocking.shutdownNow();
        }
    }

    /** A REJECT of {@code key} with the value {@code key + "-A"}, recorded in {@code ops} once answered. */
    private static CompletableFuture<Void> write(WritePath writer, String key, List<Op> ops, ExecutorService blocking) {
        String value = key + "-A";
        long started = System.nanoTime();
        WriteRequest request = new WriteRequest(key, EntryKind.TEXT, value, null, OverwritePolicy.REJECT,
                Instant.now().truncatedTo(ChronoUnit.MICROS));
        return writer.writeAsync(request, blocking).handle((result, failure) -> {
            synchronized (ops) {
                ops.add(FaultSchedule.op("A", key, Kind.REJECT, value, started, result, failure));
            }
            return null;
        });
    }
}
