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

    /**
     * What a batch writer did not foresee fails only the writes it had not claimed: one it claimed (its answer on the
     * way, from another thread) is left to it; and a failure that throws never strands the writes after it.
     */
    @Test
    void anUnforeseenErrorFailsOnlyTheUnclaimedWritesEachOnItsOwn() throws Exception {
        WriteQueue queue = new WriteQueue(16, 1, "stopped");
        List<CompletableFuture<Boolean>> writes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            writes.add(queue.writeAsync(write(i), () -> CompletableFuture.failedFuture(new IllegalStateException("full"))));
        }
        List<Pending> claimedByTheWriter = new ArrayList<>();
        WriteQueue.BatchWriter writer = batch -> {
            assertTrue(batch.get(0).claim(), "the first claim");
            claimedByTheWriter.add(batch.get(0)); // its answer is given later, as by an answering thread
            throw new OutOfMemoryError("thrown by the test");
        };
        IllegalStateException givenByFail = new IllegalStateException("failed by the test's fail");
        Thread consumer = new Thread(() -> queue.consume(16, writer, (pending, cause) -> {
            if (pending.requests().get(0).key().equals("k1")) {
                throw new OutOfMemoryError("thrown by the test while failing k1");
            }
            pending.result().completeExceptionally(givenByFail);
        }, LoggerFactory.getLogger("test")));
        consumer.start();
        assertTrue(queue.close());
        consumer.join(TimeUnit.SECONDS.toMillis(60)); // a hang guard
        assertTrue(!consumer.isAlive());

        assertTrue(!writes.get(0).isDone(), "claimed by the writer: not failed by the queue");
        claimedByTheWriter.get(0).result().complete(true);
        assertTrue(writes.get(0).join());
        Throwable k1 = writes.get(1).handle((stored, failure) -> failure).join();
        assertTrue(k1 instanceof OutOfMemoryError, "failed with what its failing threw: " + k1);
        assertEquals(givenByFail, writes.get(2).handle((stored, failure) -> failure).join(),
                "answered by fail, not left to the queue's end");
    }

    private static WriteRequest write(int i) {
        return new WriteRequest("k" + i, EntryKind.TEXT, "v", null, OverwritePolicy.REPLACE, Instant.EPOCH);
    }
}
