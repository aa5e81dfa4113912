package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.Status;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.Storages;

/**
 * The database goes away behind a {@link TcpProxy} (the real server keeps running). An outage shorter than the
 * failover time-out costs latency, not errors: the writes made during it are answered Success once it is back. A
 * longer one answers Error instead of hanging, the stored value stays intact, and writes succeed again once it is
 * back, without reopening the storage. Time-outs are short here; the time bounds below only guard against a hang and
 * are far above them.
 */
class PostgresOutageTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(90);
    private static final int RECOVERY_ATTEMPTS = 20;
    /** Short time-outs, so that the outage shows within seconds. */
    private static final String SHORT_TIMEOUTS = "poolSize=3&poolTimeoutMillis=1000&statementTimeoutMillis=2000"
            + "&connectTimeout=2&loginTimeout=3&socketTimeout=3&failoverTimeoutMillis=1500";
    /** Far longer than the outages of the ride-through tests, however slow the machine. */
    private static final String RIDE_THROUGH = SHORT_TIMEOUTS.replace("failoverTimeoutMillis=1500",
            "failoverTimeoutMillis=60000");

    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();
    private TcpProxy proxy;
    private Storage storage;
    private DefaultStore store;

    @BeforeEach
    void startProxy() throws Exception {
        proxy = new TcpProxy(postgres.host(), postgres.port()).start();
    }

    private void openThroughProxy(String parameters) throws Exception {
        storage = Storages.open(postgres.uriVia("127.0.0.1", proxy.port(), "outage", parameters));
        store = DefaultStore.of(storage);
        assertEquals(Status.SUCCESS, store.writeString("k", "before"));
    }

    @AfterEach
    void close() throws Exception {
        if (storage != null) {
            storage.close();
        }
        proxy.close();
    }

    @Test
    void refusedConnectionsGiveErrorAndWritesRecover() throws Exception {
        openThroughProxy(SHORT_TIMEOUTS);
        proxy.cut();
        assertErrorsDuringOutage();
        proxy.restore();
        assertRecovered();
    }

    @Test
    void hungConnectionsGiveErrorAndWritesRecover() throws Exception {
        openThroughProxy(SHORT_TIMEOUTS);
        proxy.stall();
        assertErrorsDuringOutage();
        proxy.restore();
        assertRecovered();
    }

    @Test
    void writesDuringAShortCutWaitForTheDatabaseAndSucceed() throws Exception {
        openThroughProxy(RIDE_THROUGH);
        proxy.cut();
        assertWritesDuringOutageSucceedOnceItEnds();
    }

    @Test
    void writesDuringAShortStallWaitForTheDatabaseAndSucceed() throws Exception {
        openThroughProxy(RIDE_THROUGH);
        proxy.stall();
        assertWritesDuringOutageSucceedOnceItEnds();
    }

    /**
     * Writes made while the database is away (text queued without a thread, bytes on threads of their own) are not
     * answered while it is away, and are answered Success, with their values stored, once it is back.
     */
    private void assertWritesDuringOutageSucceedOnceItEnds() throws Exception {
        ExecutorService blockingWork = Executors.newCachedThreadPool();
        try {
            List<CompletableFuture<Status>> answers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                answers.add(store.writeStringAsync("during-" + i, "value " + i, blockingWork).toCompletableFuture());
                int n = i;
                answers.add(CompletableFuture.supplyAsync(
                        () -> store.writeBytes("bytes-" + n, new ByteArrayInputStream(new byte[] {(byte) n})), blockingWork));
            }
            // Whatever the machine's speed, the writes are still waiting: the outage has not ended.
            awaitAttemptsFailing();
            assertTrue(answers.stream().noneMatch(CompletableFuture::isDone), "a write was answered during the outage");
            proxy.restore();
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                for (CompletableFuture<Status> answer : answers) {
                    assertEquals(Status.SUCCESS, answer.join());
                }
            });
        } finally {
            blockingWork.shutdownNow();
        }
        for (int i = 0; i < 4; i++) {
            assertEquals("value " + i, storedDirectly("during-" + i));
            assertArrayEquals(new byte[] {(byte) i}, storage.get("bytes-" + i).orElseThrow().bytes());
        }
    }

    /** Waits until the storage's writers have seen the outage (a failed attempt), so the test does not race it. */
    private void awaitAttemptsFailing() throws InterruptedException {
        JdbcStorage jdbc = (JdbcStorage) storage;
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            while (jdbc.writesCommitting()) {
                Thread.sleep(20);
            }
        });
    }

    /** Every host of a multi-host URL down (one refusing, one unknown): one line at start naming why, no hang. */
    @Test
    void openingWhenNoHostOfAMultiHostUrlAnswersSaysWhy() throws Exception {
        String uri = "jdbc:postgresql://127.0.0.1:" + proxy.port() + ",nosuchhost.invalid:5432/test?user=u"
                + "&targetServerType=primary&connectTimeout=2";
        proxy.cut();
        StorageException failure = assertTimeoutPreemptively(HANG_GUARD,
                () -> assertThrows(StorageException.class, () -> Storages.open(uri)));
        assertTrue(failure.getMessage().startsWith("Could not connect to PostgreSQL at jdbc:postgresql://127.0.0.1:"
                + proxy.port() + ",nosuchhost.invalid:5432/test: The connection attempt failed."), failure.getMessage());
        assertTrue(failure.getMessage().contains("nosuchhost.invalid") && !failure.getMessage().contains("\n"),
                failure.getMessage());
    }

    @Test
    void openingWhileTheDatabaseIsDownFails() throws Exception {
        proxy.cut();
        String uri = postgres.uriVia("127.0.0.1", proxy.port(), "never", SHORT_TIMEOUTS);
        assertTimeoutPreemptively(HANG_GUARD, () -> assertThrows(StorageException.class, () -> Storages.open(uri)));
    }

    private void assertErrorsDuringOutage() throws SQLException {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            assertThrows(StorageException.class, storage::checkWritable, "not ready while the database is away");
            for (int i = 0; i < 3; i++) {
                assertEquals(Status.ERROR, store.writeString("k", "during " + i));
                assertEquals(Status.ERROR, store.writeBytes("k", new ByteArrayInputStream(new byte[100_000])));
            }
            assertThrows(StorageException.class, () -> storage.get("k"));
        });
        assertEquals("before", storedDirectly("k"), "the previous value is intact");
    }

    /**
     * Writes succeed again within {@value #RECOVERY_ATTEMPTS} attempts (a hung connection may still be the pool's
     * until its socket time-out), and then every write does.
     */
    private void assertRecovered() throws Exception {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            int attempts = 1;
            while (store.writeString("k", "after") != Status.SUCCESS) {
                attempts++;
                assertTrue(attempts <= RECOVERY_ATTEMPTS, "writes still fail after the database came back");
            }
            assertEquals(Status.SUCCESS, store.writeBytes("b", new ByteArrayInputStream(new byte[] {1, 2, 3})));
            assertEquals(Status.SUCCESS, store.writeString("k2", "after"));
            storage.checkWritable(); // ready again: a write commits
        });
        assertEquals("after", storage.get("k").orElseThrow().text());
        assertEquals("after", storedDirectly("k"));
    }

    /** The text stored under {@code key}, read past the proxy. */
    private static String storedDirectly(String key) throws SQLException {
        try (Connection connection = postgres.connection();
                var select = connection.prepareStatement(
                        "SELECT text_value FROM " + postgres.schema() + ".outage WHERE key = ?")) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }
}
