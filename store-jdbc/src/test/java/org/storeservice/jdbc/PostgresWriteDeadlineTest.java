package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;

/**
 * A write waits at most its failover time-out, also when its batch is split (issue #50): a batch the database refuses
 * for one bad write goes again one write at a time, and each write's deadline is checked before its own try, so that a
 * write whose time-out ran out while the batch was tried is answered {@code Error}, never tried again after it.
 *
 * <p>How: one lane; a first write blocks on a row lock while four more queue, so that they are one batch; that batch
 * blocks on another row lock past the failover time-out, then is refused (a CHECK constraint on one key).
 */
@Timeout(120)
class PostgresWriteDeadlineTest {
    private static final long FAILOVER_MILLIS = 2_000;

    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    @Test
    void aSplitBatchChecksEachWritesDeadlineBeforeItsTry() throws Exception {
        String table = "deadline";
        String qualified = postgres.schema() + "." + table;
        ExecutorService blocking = Executors.newCachedThreadPool();
        try (Storage storage = Storages.open(postgres.uri(table, "poolSize=3&statementTimeoutMillis=30000"
                + "&socketTimeoutMillis=40000&failoverTimeoutMillis=" + FAILOVER_MILLIS));
                Connection firstLocker = postgres.connection(); Connection batchLocker = postgres.connection()) {
            storage.putText("first", "0", OverwritePolicy.REPLACE);
            storage.putText("w1", "0", OverwritePolicy.REPLACE);
            try (Connection connection = postgres.connection(); Statement constraint = connection.createStatement()) {
                constraint.execute("ALTER TABLE " + qualified + " ADD CONSTRAINT no_bad_key CHECK (key <> 'zbad')");
            }
            lock(firstLocker, qualified, "first");
            lock(batchLocker, qualified, "w1");

            CompletableFuture<Boolean> first = write(storage, "first", blocking); // the lane waits for its lock
            Thread.sleep(300);
            List<CompletableFuture<Boolean>> batch = List.of(write(storage, "w1", blocking), write(storage, "w2", blocking),
                    write(storage, "zbad", blocking), write(storage, "w3", blocking));
            Thread.sleep(300);
            firstLocker.commit(); // 'first' commits; the lane takes the four as one batch, which waits for w1's lock
            assertTrue(first.get(30, TimeUnit.SECONDS));
            Thread.sleep(FAILOVER_MILLIS + 500);
            // The batch goes on, and is refused for 'zbad' (last in key order, so that w1's lock was waited for first);
            // the time-outs of its writes have run out meanwhile.
            batchLocker.commit();

            for (CompletableFuture<Boolean> write : batch) {
                ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                        () -> write.get(30, TimeUnit.SECONDS));
                assertTrue(failed.getCause().getMessage().contains("before it could be tried")
                        || failed.getCause().getMessage().contains("no_bad_key"), failed.getCause().getMessage());
            }
            assertEquals("0", storage.get("w1").orElseThrow().text(), "not written after its time-out");
            assertFalse(storage.get("w2").isPresent());
            assertFalse(storage.get("w3").isPresent());
        } finally {
            blocking.shutdownNow();
        }
    }

    private static void lock(Connection connection, String table, String key) throws Exception {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT 1 FROM " + table + " WHERE key = '" + key + "' FOR UPDATE");
        }
    }

    private static CompletableFuture<Boolean> write(Storage storage, String key, ExecutorService blocking) {
        return storage.putTextAsync(key, "1", OverwritePolicy.REPLACE, blocking).toCompletableFuture();
    }
}
