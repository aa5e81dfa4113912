package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.api.storage.Storages;

/**
 * Two servers' storages on one table, 16 writers each, writing the same few keys (text and bytes): no write fails
 * (concurrent batches lock rows in one order, and a conflict is tried again), and every key ends holding a value
 * that no later write superseded: one of the values acknowledged last for it. And servers started at once on a
 * database with no table yet all open.
 */
class PostgresManyServersTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(120);
    private static final int WRITERS_PER_SERVER = 16;
    private static final int WRITES_PER_WRITER = 150;
    private static final int KEYS = 24;
    private static final int STARTING_TOGETHER = 4;
    private static final int START_ROUNDS = 10;

    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    /** One acknowledged write: when it was started and when it was answered ({@link System#nanoTime()}). */
    private record Acknowledged(String value, long started, long answered) {
    }

    @Test
    void overlappingWritesFromTwoServersAllSucceedAndEachKeyHoldsALastAcknowledgedValue() throws Exception {
        Map<String, List<Acknowledged>> byKey = new ConcurrentHashMap<>();
        try (Storage first = Storages.open(postgres.uri("shared"));
                Storage second = Storages.open(postgres.uri("shared"))) {
            ExecutorService writers = Executors.newFixedThreadPool(2 * WRITERS_PER_SERVER);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 2 * WRITERS_PER_SERVER; w++) {
                Storage storage = w % 2 == 0 ? first : second;
                int writer = w;
                done.add(writers.submit(() -> {
                    go.await();
                    for (int i = 0; i < WRITES_PER_WRITER; i++) {
                        String key = "k" + ((writer * 7 + i) % KEYS);
                        String value = "w" + writer + "-" + i;
                        long started = System.nanoTime();
                        boolean written = i % 5 == 0
                                ? storage.putBytes(key, new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8)),
                                        OverwritePolicy.REPLACE)
                                : storage.putText(key, value, OverwritePolicy.REPLACE);
                        assertTrue(written);
                        byKey.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>()))
                                .add(new Acknowledged(value, started, System.nanoTime()));
                    }
                    return null;
                }));
            }
            go.countDown();
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                for (Future<?> writer : done) {
                    writer.get(); // a failed write fails the test here, with its reason
                }
            });
            writers.shutdown();

            assertEquals(KEYS, byKey.size());
            for (Map.Entry<String, List<Acknowledged>> key : byKey.entrySet()) {
                StoredEntry stored = first.get(key.getKey()).orElseThrow();
                String value = stored.kind() == EntryKind.TEXT ? stored.text()
                        : new String(stored.bytes(), StandardCharsets.UTF_8);
                List<Acknowledged> writes;
                synchronized (key.getValue()) {
                    writes = List.copyOf(key.getValue());
                }
                Acknowledged kept = writes.stream().filter(a -> a.value().equals(value)).findFirst().orElseThrow();
                for (Acknowledged other : writes) {
                    assertTrue(other.started() < kept.answered(), key.getKey() + " holds " + value
                            + ", although " + other.value() + " was written entirely after it was acknowledged");
                }
            }
        }
    }

    /**
     * Servers started together on a database that has no table yet (a new deployment) each create the schema: every
     * one of them opens. Several rounds, each on a table of its own, because the race is between milliseconds.
     */
    @Test
    void serversStartingAtOnceOnAFreshDatabaseAllOpen() throws Exception {
        ExecutorService starters = Executors.newFixedThreadPool(STARTING_TOGETHER);
        try {
            for (int round = 0; round < START_ROUNDS; round++) {
                String uri = postgres.uri("fresh" + round);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> opened = new ArrayList<>();
                for (int s = 0; s < STARTING_TOGETHER; s++) {
                    opened.add(starters.submit(() -> {
                        go.await();
                        try (Storage storage = Storages.open(uri)) {
                            assertTrue(storage.putText("k", "v", OverwritePolicy.REPLACE));
                        }
                        return null;
                    }));
                }
                go.countDown();
                assertTimeoutPreemptively(HANG_GUARD, () -> {
                    for (Future<?> server : opened) {
                        server.get(); // a server that could not open fails the test here, with its reason
                    }
                });
            }
        } finally {
            starters.shutdownNow();
        }
    }
}
