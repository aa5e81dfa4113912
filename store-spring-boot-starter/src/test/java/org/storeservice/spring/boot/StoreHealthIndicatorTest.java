package org.storeservice.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;

/**
 * UP when the storage says a write would be stored, in time; DOWN when it fails, or hangs (an earlier question still
 * hanging is waited for, not asked again).
 */
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
        doThrow(new IOException("database is gone")).when(storage).checkWritable();
        StoreHealthIndicator indicator = new StoreHealthIndicator(storage, Duration.ofSeconds(10));

        Health health = indicator.health();

        assertEquals(Status.DOWN, health.getStatus());
        assertEquals("storage failed: database is gone", health.getDetails().get("error"));
        indicator.destroy();
    }

    @Test
    void aStorageThatHangsIsDownAndNotAskedAgainUntilItAnswers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        Storage storage = mock(Storage.class);
        AtomicInteger asked = new AtomicInteger();
        doAnswer(call -> {
            asked.incrementAndGet();
            release.await();
            returned.countDown();
            return null;
        }).when(storage).checkWritable();
        StoreHealthIndicator indicator = new StoreHealthIndicator(storage, Duration.ofMillis(50));

        Health hanging = indicator.health();
        Health stillHanging = indicator.health();
        int askedWhileHanging = asked.get();
        release.countDown();
        returned.await();
        Health answered = waitUntilUp(indicator);

        assertEquals(Status.DOWN, hanging.getStatus());
        assertEquals("storage did not answer within 50 ms", hanging.getDetails().get("error"));
        assertEquals(Status.DOWN, stillHanging.getStatus());
        assertEquals("storage did not answer within 50 ms", stillHanging.getDetails().get("error"));
        assertEquals(1, askedWhileHanging, "the second check waited for the hanging question instead of asking again");
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
