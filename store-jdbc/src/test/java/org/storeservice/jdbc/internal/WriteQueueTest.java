package org.storeservice.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.jdbc.internal.WriteQueue.Pending;

/** The queue's promise: every write is answered once, and closing ends every consumer, however full the queue. */
class WriteQueueTest {

    /**
     * close() cannot put its wake-up on a full queue. A consumer that then finds the queue closed and empty wakes the
     * next one, which would otherwise wait in take() for ever: two consumers, a full queue, closed, many rounds.
     */
    @Test
    void closingAFullQueueEndsEveryConsumer() throws Exception {
        for (int round = 0; round < 300; round++) {
            WriteQueue queue = new WriteQueue(2, 2, "stopped");
            AtomicInteger answered = new AtomicInteger();
            CountDownLatch busy = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            WriteQueue.BatchWriter writer = batch -> {
                busy.countDown();
                release.await();
                for (Pending pending : batch) {
                    pending.result().complete(true);
                    answered.incrementAndGet();
                }
            };
            List<Thread> consumers = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                Thread consumer = new Thread(() -> queue.consume(1, writer, (p, t) -> { }, LoggerFactory.getLogger("test")));
                consumer.start();
                consumers.add(consumer);
            }
            List<CompletableFuture<Boolean>> writes = new ArrayList<>();
            for (int i = 0; i < 4; i++) { // two taken by the busy consumers, two fill the queue
                writes.add(queue.writeAsync(write(i), () -> CompletableFuture.failedFuture(new IllegalStateException("full"))));
                if (i == 1) {
                    assertTrue(busy.await(10, TimeUnit.SECONDS));
                }
            }
            assertTrue(queue.close());
            release.countDown();
            for (Thread consumer : consumers) {
                consumer.join(TimeUnit.SECONDS.toMillis(10)); // a hang guard, not a speed check
                assertTrue(!consumer.isAlive(), "round " + round + ": a consumer still waits for work after close");
            }
            for (CompletableFuture<Boolean> write : writes) {
                assertTrue(write.get(10, TimeUnit.SECONDS));
            }
            assertEquals(4, answered.get());
        }
    }

    private static WriteRequest write(int i) {
        return new WriteRequest("k" + i, EntryKind.TEXT, "v", null, OverwritePolicy.REPLACE, Instant.EPOCH);
    }
}
