package org.storeservice.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;

/** UP when the probe read answers in time; DOWN when it fails, hangs, or an earlier one still hangs. */
class StoreHealthIndicatorTest {
    @Test
    void aStorageThatAnswersIsUp() {
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreHealthIndicator indicator = new StoreHealthIndicator(storage, Duration.ofSeconds(10));

            Health health = indicator.health();

            assertEquals(Status.UP, health.getStatus());
            assertEquals(storage.toString(), health.getDetails().get("storage"));
            indicator.destroy();
        }
    }

    @Test
    void aStorageThatFailsIsDownWithTheReason() throws IOException {
        Storage storage = mock(Storage.class);
        when(storage.get(StoreHealthIndicator.PROBE_KEY)).thenThrow(new IOException("database is gone"));
        StoreHealthIndicator indicator = new StoreHealthIndicator(storage, Duration.ofSeconds(10));

        Health health = indicator.health();

        assertEquals(Status.DOWN, health.getStatus());
        assertEquals("java.io.IOException: database is gone", health.getDetails().get("error"));
        indicator.destroy();
    }

    @Test
    void aStorageThatHangsIsDownAndNotProbedAgainUntilItAnswers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        Storage storage = mock(Storage.class);
        when(storage.get(StoreHealthIndicator.PROBE_KEY)).thenAnswer(call -> {
            release.await();
            returned.countDown();
            return Optional.empty();
        });
        StoreHealthIndicator indicator = new StoreHealthIndicator(storage, Duration.ofMillis(50));

        Health hanging = indicator.health();
        Health stillHanging = indicator.health();
        release.countDown();
        returned.await();
        Health answered = waitUntilUp(indicator);

        assertEquals(Status.DOWN, hanging.getStatus());
        assertEquals("no answer within PT0.05S", hanging.getDetails().get("error"));
        assertEquals(Status.DOWN, stillHanging.getStatus());
        assertEquals("an earlier probe has not returned yet", stillHanging.getDetails().get("error"));
        assertEquals(Status.UP, answered.getStatus());
        indicator.destroy();
    }

    /** The hung probe's future completes just after the storage call returns; check until it has. */
    private static Health waitUntilUp(StoreHealthIndicator indicator) throws InterruptedException {
        Health health = indicator.health();
        for (int i = 0; i < 1000 && health.getStatus() != Status.UP; i++) {
            Thread.sleep(10);
            health = indicator.health();
        }
        return health;
    }
}
