package org.storeservice.jdbc;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;

/**
 * SQLite's write path: one thread owns the one write connection, so writers never fight over SQLite's
 * single write lock (no SQLITE_BUSY between our own threads). Callers enqueue a {@link WriteRequest} whose
 * content was read to its end (a byte value waits as {@link SpooledContent}: 64 KiB in memory, the rest in a file,
 * read into memory only when its statement is bound, one value at a time) and wait, or ({@link #writeAsync}) take a future
 * and wait for nothing. The thread takes every write pending at that moment (up to {@link #MAX_BATCH}), runs
 * them in one transaction and commits once (group commit: one fsync for the whole batch with synchronous=FULL),
 * then answers each caller: completing a future runs its dependents there (the server's answer to an
 * asynchronous caller). So durable writes per second grow with
 * the number of concurrent writers.
 *
 * <p>The callers of a committed batch of more than one write are answered by a second thread, so that the
 * writer starts on the next batch at once: waking 64 waiting callers took about as long as committing their
 * batch (a system call each, and on a busy machine the woken callers take the CPU from whoever woke them),
 * which cut the batched rate by a third. An asynchronous caller's answer (encoding the response, handing it to the
 * socket) runs there too, beside the next commit.
 *
 * <p>If anything in a batch fails, the batch is rolled back and each of its writes is retried in a
 * transaction of its own, so one bad write fails alone and never takes its neighbours with it. The transactions
 * themselves are {@link WriteTransactions}'.
 *
 * <p>A little over 300 lines on purpose: the queue, the batch loop, the retries and the answers are one protocol
 * (every write queued is answered exactly once, whatever fails and whenever the storage closes), read as one.
 */
final class GroupCommitWriter implements WritePath {
    /** Most writes in one transaction; bounds the time one commit keeps callers waiting. */
    static final int MAX_BATCH = 512;
    /** Pending writes beyond this make callers wait to enqueue, instead of growing memory without end. */
    static final int QUEUE_CAPACITY = 8192;

    private static final Logger log = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final String STOPPED = "The SQLite writer has stopped; nothing stored";


    /**
     * One item of the queue: a single write, or the writes of one {@link #writeAll} that commit together (an
     * import's batch); its result is whether every one of them was written.
     */
    private record Pending(List<WriteRequest> requests, CompletableFuture<Boolean> result) {
        Pending(List<WriteRequest> requests) {
            this(requests, new CompletableFuture<>());
        }
    }

    /**
     * Offered to the queue by close() to wake a writer waiting for work. Only a wake-up: the writer stops once
     * the storage is closed and the queue is empty (a full queue takes no STOP, and needs no wake-up).
     */
    private static final Pending STOP = new Pending(List.of());

    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
    private final WriteTransactions transactions; // used by the writer thread only after construction
    /** Answers the callers of committed batches, in commit order (see the class description). */
    private final ExecutorService answerer;
    /**
     * Callers enqueue under the read lock and close() flips {@code closed} under the write lock, so
     * every write that got in is queued ahead of STOP and answered; none is left waiting forever.
     */
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    /** Written under the lifecycle write lock; read by the writer thread without it. */
    private volatile boolean closed;
    /** Set when the writer thread has ended; a write queued after that is failed by its own caller. */
    private volatile boolean stopped;
    private volatile long commits; // written by the writer thread only
    /** Completed once the writer thread has ended and the answerer has given every answer handed to it. */
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    /** A writer that owns {@code connection} and runs each write through {@code rows}. */
    GroupCommitWriter(Connection connection, Sql sql, String name, WriteTransactions.RowWriter rows) throws SQLException {
        this.transactions = new WriteTransactions(connection, sql, rows);
        this.answerer = Executors.newSingleThreadExecutor(task -> {
            Thread answering = new Thread(task, "store-answers-" + name);
            answering.setDaemon(true);
            return answering;
        });
        Thread thread = new Thread(this::run, "store-writer-" + name);
        thread.setDaemon(true); // an unclosed storage must not keep the JVM alive; unanswered writes were never promised
        thread.start();
    }

    @Override
    public boolean write(WriteRequest request) throws IOException {
        Pending pending = new Pending(List.of(request));
        enqueue(pending, true);
        return await(pending.result());
    }

    /** The writes go in as one item of the queue, so they commit in one transaction, and fail or succeed together. */
    @Override
    public void writeAll(List<WriteRequest> requests) throws IOException {
        Pending pending = new Pending(List.copyOf(requests));
        enqueue(pending, true);
        await(pending.result());
    }

    /**
     * Queues the write and returns at once; the writer (or its answering thread) completes the result once the
     * write is committed, so no thread waits for it. A full queue is waited out on {@code blockingWork}, not
     * here: that is the backpressure.
     */
    @Override
    public CompletableFuture<Boolean> writeAsync(WriteRequest request, Executor blockingWork) {
        Pending pending = new Pending(List.of(request));
        try {
            if (!enqueue(pending, false)) {
                return WritePath.super.writeAsync(request, blockingWork);
            }
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        return pending.result();
    }

    /**
     * Puts {@code pending} on the queue, waiting for room if {@code waitForRoom}; {@code false} if the queue was
     * full and it did not wait.
     */
    private boolean enqueue(Pending pending, boolean waitForRoom) throws IOException {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new StorageException("Storage is closed");
            }
            if (stopped) {
                throw new StorageException(STOPPED);
            }
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
            failLeftovers(); // the writer ended while this write was being queued: nobody else will answer it
        }
        return true;
    }

    private static boolean await(CompletableFuture<Boolean> result) throws IOException {
        try {
            // join() waits even if interrupted, and keeps the interrupt: once queued, the write may commit, and
            // the caller must not be told "nothing stored" when it was.
            return result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException cause) {
                throw cause;
            }
            throw new StorageException("Write failed: " + e.getCause(), e.getCause());
        }
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        try {
            // Nothing enqueues once closed is set, so an empty queue then means every write was taken.
            while (!(closed && queue.isEmpty())) {
                try {
                    batch.add(queue.take());
                } catch (InterruptedException e) {
                    // Nothing here interrupts this private thread (close() offers STOP); if something else does,
                    // stopping would strand the writes of a storage still open, so keep serving.
                    continue;
                }
                queue.drainTo(batch, MAX_BATCH - 1);
                batch.remove(STOP);
                try {
                    runBatch(batch);
                } catch (Throwable t) {
                    // runBatch answers each write itself; this is for what it did not foresee. Callers wait
                    // without a time-out, so every write must get an answer and the thread must go on.
                    log.error("SQLite writer failed a batch of {} writes; it goes on", batch.size(), t);
                    batch.forEach(p -> fail(p, t)); // no effect on writes already answered
                }
                // Each write is answered or handed to the answerer, which may not have answered it yet: the
                // finally below must not fail a committed write.
                batch.clear();
            }
        } finally {
            // After STOP nothing is left. Only if the loop itself broke (an Error in the catch above) are there
            // writes to fail here, taken or still queued, and later writes must fail rather than wait forever.
            stopped = true;
            batch.forEach(GroupCommitWriter::failStopped); // no effect on writes already answered
            failLeftovers();
            transactions.close();
            // The answerer runs its tasks in order: this one comes after every answer handed to it.
            try {
                answerer.execute(() -> finished.complete(null));
                answerer.shutdown();
            } catch (RejectedExecutionException e) {
                finished.complete(null);
            }
        }
    }

    private void runBatch(List<Pending> batch) {
        if (batch.isEmpty()) {
            return;
        }
        try {
            List<Boolean> results = inTransaction(batch);
            answer(List.copyOf(batch), results); // a copy: run() reuses the batch list
            return;
        } catch (Throwable t) {
            // An Error too (an OutOfMemoryError binding a large value): inTransaction rolled back, so the
            // writes can be retried, and the one that fails again fails alone.
            if (t instanceof Error) {
                log.error("Batch of {} writes failed", batch.size(), t);
            }
            // Another process holding the lock (busy_timeout already waited out) is no write's fault, and retrying
            // one by one would wait busy_timeout again for each: up to MAX_BATCH times 5 s of stalled callers.
            if (batch.size() == 1 || WriteTransactions.isBusy(t)) {
                batch.forEach(p -> fail(p, t));
                return;
            }
            log.debug("Batch of {} writes failed; retrying each on its own", batch.size(), t);
        }
        Throwable busy = null;
        for (Pending pending : batch) {
            if (busy != null) {
                fail(pending, busy); // the lock was taken during the retries: same reason as above
                continue;
            }
            try {
                pending.result().complete(inTransaction(List.of(pending)).get(0));
            } catch (Throwable t) { // an Error included: it fails this write, and the writer goes on
                fail(pending, t);
                busy = WriteTransactions.isBusy(t) ? t : null;
            }
        }
    }

    /** Commits the batch in one transaction (see {@link WriteTransactions#commit}); counts the commit. */
    private List<Boolean> inTransaction(List<Pending> batch) throws SQLException {
        List<List<WriteRequest>> groups = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            groups.add(pending.requests());
        }
        List<Boolean> results = transactions.commit(groups);
        commits++;
        return results;
    }

    private void answer(List<Pending> committed, List<Boolean> results) {
        Runnable answering = () -> {
            for (int i = 0; i < committed.size(); i++) {
                committed.get(i).result().complete(results.get(i));
            }
        };
        if (committed.size() == 1) {
            answering.run(); // handing a lone write over would cost the same wake-up, and one more
            return;
        }
        try {
            answerer.execute(answering);
        } catch (RejectedExecutionException e) {
            answering.run(); // not after close(), which stops the answerer only once this thread has ended
        }
    }

    private void fail(Pending pending, Throwable cause) {
        pending.result().completeExceptionally(
                new StorageException("Write to SQLite failed: " + cause.getMessage(), cause));
    }

    private void failLeftovers() {
        List<Pending> left = new ArrayList<>();
        queue.drainTo(left);
        left.forEach(GroupCommitWriter::failStopped);
    }

    private static void failStopped(Pending pending) {
        if (pending != STOP) {
            pending.result().completeExceptionally(new StorageException(STOPPED));
        }
    }

    /** Writes queued and not yet taken by the writer; for tests that line writes up into one batch. */
    int pending() {
        return queue.size();
    }

    /** Commits so far; for tests that check writes were grouped. Read after the writes were answered. */
    long commits() {
        return commits;
    }

    /**
     * Answers the writes already queued, then closes the write connection. Waits for the writer thread and for
     * every answer to be given.
     */
    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            lifecycle.writeLock().unlock();
        }
        queue.offer(STOP); // wakes the writer if it waits for work; a full queue needs no wake-up
        finished.join(); // waits even if interrupted, and keeps the interrupt
    }
}
