package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.storeservice.jdbc.postgres.PostgresEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.OverwritePolicy;

/**
 * What bounds the PostgreSQL writer while the database is slow or away: the heap its queued values hold, and the
 * connections large writes may take.
 */
@Timeout(120)
class PostgresWriterLimitsTest {
    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    /**
     * Queued WriteStrings hold the spool memory while the database is away; once it is full, a write waits on the
     * caller's blocking executor instead, so what the queue holds stays bounded however many values arrive.
     */
    @Test
    void queuedTextValuesReserveTheSpoolMemoryAndBeyondItWaitOnTheBlockingExecutor() throws Exception {
        long spool = 5L << 20;
        try (TcpProxy proxy = new TcpProxy(postgres.host(), postgres.port()).start();
                JdbcStorage storage = JdbcStorage.of(PostgresEngine.open(PostgresStorageConfig.fromUri(postgres.uriVia("127.0.0.1",
                        proxy.port(), "queued_text", "failoverTimeoutMillis=60000&socketTimeoutMillis=60000")), spool))) {
            proxy.stall(); // the database is away: writes wait in the queue
            ConcurrentLinkedQueue<Runnable> blocking = new ConcurrentLinkedQueue<>();
            String megabyte = "x".repeat(1 << 20); // 2 MiB of heap as a String of chars
            List<CompletableFuture<Boolean>> writes = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                writes.add(storage.putTextAsync("k" + i, megabyte, OverwritePolicy.REPLACE, blocking::add)
                        .toCompletableFuture());
            }
            assertEquals(4L << 20, storage.spoolMemoryReserved(), "two values fit in the 5 MiB and hold it");
            assertEquals(3, blocking.size(), "the three others wait on the blocking executor");

            proxy.restore();
            ExecutorService executor = Executors.newFixedThreadPool(3);
            try {
                blocking.forEach(executor::execute);
                for (CompletableFuture<Boolean> write : writes) {
                    assertTrue(write.get(60, TimeUnit.SECONDS));
                }
            } finally {
                executor.shutdownNow();
            }
            assertEquals(0, storage.spoolMemoryReserved(), "every answered write gave its memory back");
        }
    }

    /**
     * Large values, written on their callers' threads, never take the connections the lanes and the readiness probe
     * need: with a pool of 4 (two lanes), however many large writes wait on a locked row, one holds a connection,
     * and the probe and small writes go on.
     */
    @Test
    void largeWritesLeaveTheLanesAndTheProbeTheirConnections() throws Exception {
        String uri = postgres.uri("large_beside_small", "poolSize=4&poolTimeoutMillis=500&statementTimeoutMillis=20000");
        ExecutorService uploads = Executors.newFixedThreadPool(6);
        try (JdbcStorage storage = JdbcStorage.postgres(PostgresStorageConfig.fromUri(uri));
                Connection locker = postgres.connection()) {
            storage.putText("big", "before", OverwritePolicy.REPLACE);
            locker.setAutoCommit(false);
            try (Statement lock = locker.createStatement()) {
                lock.execute("SELECT 1 FROM " + postgres.schema() + ".large_beside_small WHERE key = 'big' FOR UPDATE");
            }
            byte[] large = new byte[256 * 1024];
            List<Future<Boolean>> waiting = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                waiting.add(uploads.submit(() -> storage.putBytes("big", new ByteArrayInputStream(large),
                        OverwritePolicy.REPLACE)));
            }
            Thread.sleep(500); // let them all reach the pool; a bound on nothing the test asserts

            storage.checkWritable(); // the readiness probe finds a connection
            assertTrue(storage.putText("small", "v", OverwritePolicy.REPLACE), "a small write commits beside them");

            locker.rollback();
            for (Future<Boolean> upload : waiting) {
                assertTrue(upload.get(60, TimeUnit.SECONDS));
            }
        } finally {
            uploads.shutdownNow();
        }
    }
}
