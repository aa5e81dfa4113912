package org.storeservice.jdbc.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.storeservice.api.storage.StorageException;

/**
 * The writes waiting for a group-committing writer, and the promise that each one is answered exactly once: callers
 * put {@link Pending} writes in; the writer's threads (SQLite: one, PostgreSQL: one per lane) take every write pending
 * at that moment as one batch. Once {@link #close closed}, nothing gets in, the consumers take what is left and then
 * stop; once the last consumer has stopped, whatever is still queued fails instead of waiting forever.
 */
public final class WriteQueue {
    /** Most writes one consumer takes as one batch; bounds the time one commit keeps callers waiting. */
    public static final int MAX_BATCH = 512;
    /** Pending items beyond this make callers wait to enqueue, instead of growing memory without end. */
    public static final int CAPACITY = 8192;

    /**
     * One item of the queue: a single write, or the writes of one {@code writeAll} that commit together (an import's
     * batch); its result is whether every one of them was written. {@code queuedAt} is {@link System#nanoTime()}.
     * {@code claimed} is the answer-once promise: see {@link #claim}.
     */
    public record Pending(List<WriteRequest> requests, CompletableFuture<Boolean> result, long queuedAt,
            AtomicBoolean claimed) {
        public Pending(List<WriteRequest> requests) {
            this(requests, new CompletableFuture<>(), System.nanoTime(), new AtomicBoolean());
        }

        /**
         * Takes on this write's answer: {@code true} for the first caller only, who must then see that it is answered
         * (at once, or through a thread of its own). A writer that answers on other threads claims a write as soon as
         * it knows the answer (its COMMIT returned, or it failed); a write claimed by another (answered failed) is
         * never committed after.
         */
        public boolean claim() {
            return claimed.compareAndSet(false, true);
        }
    }

    /** Offered by {@link #close} to wake a consumer waiting for work; each consumer that takes it passes it on. */
    private static final Pending STOP = new Pending(List.of());

    private final BlockingQueue<Pending> queue;
    private final String stoppedMessage;
    private final AtomicInteger consumers;
    /**
     * Callers enqueue under the read lock and close() flips {@code closed} under the write lock, so every write
     * that got in is queued ahead of STOP and answered; none is left waiting forever.
     */
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private volatile boolean closed;
    /** Set when the last consumer has ended; a write queued after that is failed by its own caller. */
    private volatile boolean stopped;

    /**
     * A queue of at most {@code capacity} items (callers wait for room beyond it, instead of growing memory without
     * end) taken by {@code consumers} threads; a write queued once they have all ended fails with {@code stoppedMessage}.
     */
    public WriteQueue(int capacity, int consumers, String stoppedMessage) {
        this.queue = new LinkedBlockingQueue<>(capacity);
        this.consumers = new AtomicInteger(consumers);
        this.stoppedMessage = stoppedMessage;
    }

    /** Queues {@code requests} as one item (they commit in one transaction) and waits for its answer. */
    public boolean write(List<WriteRequest> requests) throws IOException {
        Pending pending = new Pending(List.copyOf(requests));
        enqueue(pending, true);
        return answer(pending);
    }

    /** Waits for the answer to {@code pending}: whether it was written, or the reason it failed. */
    public static boolean answer(Pending pending) throws IOException {
        try {
            // join() waits even if interrupted, and keeps the interrupt: once queued, the write may commit, and
            // the caller must not be told "nothing stored" when it was.
            return pending.result().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException cause) {
                throw cause;
            }
            throw new StorageException("Write failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Queues {@code request} and returns at once the future its consumer completes once the write is committed; if
     * the queue is full, what {@code whenFull} returns (a write that waits for room on a thread that may block: that
     * is the backpressure). A queue that takes no more writes gives a failed future.
     */
    public CompletableFuture<Boolean> writeAsync(WriteRequest request, Supplier<CompletableFuture<Boolean>> whenFull) {
        Pending pending = new Pending(List.of(request));
        try {
            return enqueue(pending, false) ? pending.result() : whenFull.get();
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Puts {@code pending} on the queue, waiting for room if {@code waitForRoom}; {@code false} if the queue was
     * full and it did not wait.
     */
    private boolean enqueue(Pending pending, boolean waitForRoom) throws IOException {
        lifecycle.readLock().lock();
        try {
            checkRunning();
            if (waitForRoom) {
                queue.put(pending);
            } else if (!queue.offer(pending)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted before the write was queued; nothing stored");
        } finally {
            lifecycle.readLock().unlock();
        }
        if (stopped) {
            failLeftovers(); // the consumers ended while this write was being queued: nobody else will answer it
        }
        return true;
    }

    /**
     * Waits for work and adds every write pending now, up to {@code max}, to {@code batch}; {@code false} (nothing
     * added) once the queue is closed and empty: the consumer stops.
     */
    public boolean takeBatch(List<Pending> batch, int max) {
        while (!(closed && queue.isEmpty())) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                // Nothing here interrupts a consumer (close() offers STOP); if something else does, stopping would
                // strand the writes of a storage still open, so keep serving.
                continue;
            }
            queue.drainTo(batch, max - 1);
            if (batch.removeIf(pending -> pending == STOP)) {
                queue.offer(STOP); // the next consumer waiting for work must wake too
            }
            if (!batch.isEmpty()) {
                return true;
            }
            if (closed) {
                break; // STOP comes after every write that got in: none is left
            }
        }
        // close() could not put STOP on a full queue: the consumer that finds the queue closed and empty wakes the
        // next one still waiting in take(), which would otherwise wait for ever.
        queue.offer(STOP);
        return false;
    }

    /**
     * Adds every write pending now, up to {@code max}, to {@code batch} without waiting: for a consumer that takes
     * more writes into the batch it is running (SQLite's writer, between large values), so that they have the same
     * owner until answered. {@code true} if it added any.
     */
    public boolean takeMore(List<Pending> batch, int max) {
        int before = batch.size();
        queue.drainTo(batch, max);
        List<Pending> taken = batch.subList(before, batch.size());
        if (taken.removeIf(pending -> pending == STOP)) {
            queue.offer(STOP); // still there for the consumer's next takeBatch, and for the other consumers
        }
        return batch.size() > before;
    }

    /** What a consumer does with each batch: answer every write of it, committed or failed. */
    @FunctionalInterface
    public interface BatchWriter {
        void write(List<Pending> batch) throws Exception;
    }

    /**
     * Runs one consumer on the calling thread until the queue is closed and empty: each batch goes to
     * {@code writer}, which answers its writes (see {@link Pending#claim}); whatever it did not foresee (an Error
     * binding a value) has {@code fail} answer the batch's writes not yet claimed, is logged, and the consumer goes on:
     * every write must get an answer, and callers wait without a time-out. The consumer has ended when this returns.
     * The batch stays this consumer's until answered: a writer that takes more writes into it ({@link #takeMore})
     * keeps them there, so that nothing failed here is committed later.
     */
    public void consume(int maxBatch, BatchWriter writer, BiConsumer<Pending, Throwable> fail, Logger log) {
        List<Pending> batch = new ArrayList<>();
        try {
            while (takeBatch(batch, maxBatch)) {
                try {
                    writer.write(batch);
                } catch (Throwable t) {
                    logQuietly(log, batch.size(), t);
                    for (int i = 0; i < batch.size(); i++) {
                        failUnclaimed(batch.get(i), t, fail);
                    }
                }
                // Each write is claimed: answered, or handed to a thread that answers it.
                batch.clear();
            }
        } finally {
            // After STOP nothing is left. Only if the loop itself broke (an Error above) are there writes to fail
            // here, taken or still queued, and later writes must fail rather than wait forever.
            for (int i = 0; i < batch.size(); i++) {
                failStopped(batch.get(i));
            }
            consumerEnded();
        }
    }

    /** Logs a failed batch; an Error while logging it (the same memory pressure, again) must not end the consumer. */
    private static void logQuietly(Logger log, int size, Throwable t) {
        try {
            log.error("{} failed a batch of {} writes; it goes on", Thread.currentThread().getName(), size, t);
        } catch (Throwable again) {
            // nothing more to do: the writes are answered below
        }
    }

    /** Has {@code fail} answer {@code pending} unless it was claimed; fails it here if {@code fail} throws. */
    private static void failUnclaimed(Pending pending, Throwable cause, BiConsumer<Pending, Throwable> fail) {
        if (!pending.claim()) {
            return;
        }
        try {
            fail.accept(pending, cause);
        } catch (Throwable e) {
            pending.result().completeExceptionally(e);
        }
    }

    /** Stops new writes and wakes the consumers; {@code false} if it was closed already. */
    public boolean close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
        } finally {
            lifecycle.writeLock().unlock();
        }
        queue.offer(STOP); // wakes a consumer waiting for work; a full queue needs no wake-up
        return true;
    }

    /** Throws what {@link #write} would, if the queue takes no more writes (closed, or its consumers have ended). */
    public void checkRunning() throws StorageException {
        if (closed) {
            throw new StorageException("Storage is closed");
        }
        if (stopped) {
            throw new StorageException(stoppedMessage);
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Called as each consumer ends. After the last one, nothing answers the queue any more: what is in it fails, and
     * so does every later write.
     */
    private void consumerEnded() {
        if (consumers.decrementAndGet() == 0) {
            stopped = true;
            failLeftovers();
        }
    }

    /** Fails {@code pending} as left behind by a writer that has stopped, unless it was claimed (see {@link Pending#claim}). */
    public void failStopped(Pending pending) {
        if (pending != STOP && pending.claim()) {
            pending.result().completeExceptionally(new StorageException(stoppedMessage));
        }
    }

    private void failLeftovers() {
        List<Pending> left = new ArrayList<>();
        queue.drainTo(left);
        left.forEach(this::failStopped);
    }

    /** Items queued and not yet taken by a consumer. */
    public int size() {
        return queue.size();
    }
}
