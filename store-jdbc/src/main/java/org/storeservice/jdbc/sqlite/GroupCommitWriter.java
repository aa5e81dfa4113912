package org.storeservice.jdbc.sqlite;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.QueuedWritePath;
import org.storeservice.jdbc.internal.WriteQueue.Pending;
import org.storeservice.jdbc.internal.WriteQueue;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * SQLite's write path: one thread owns the one write connection, so writers never fight over SQLite's
 * single write lock (no SQLITE_BUSY between our own threads). Callers enqueue a {@link WriteRequest} whose
 * content was read to its end (a byte value waits as {@link SpooledContent}: 64 KiB in memory, the rest in a file,
 * read into memory only when its statement is bound, one value at a time) and wait, or ({@link #writeAsync}) take a future
 * and wait for nothing. The thread takes every write pending at that moment (up to {@link WriteQueue#MAX_BATCH}), runs
 * them in one transaction and commits once (group commit: one fsync for the whole batch with synchronous=FULL),
 * then has each caller answered: completing a future runs its dependents (the server's answer to an asynchronous
 * caller). So durable writes per second grow with the number of concurrent writers.
 *
 * <p>The callers of a committed batch are answered by {@link AnswerThreads}, so that the writer starts on the next
 * batch at once: waking 64 waiting callers took about as long as committing their batch (a system call each, and on
 * a busy machine the woken callers take the CPU from whoever woke them), which cut the batched rate by a third. An
 * asynchronous caller's answer (encoding the response, handing it to the socket) runs there too, beside the next
 * commit, spread over several threads by key.
 *
 * <p>If anything in a batch fails, the batch is rolled back and each of its writes is retried in a
 * transaction of its own, so one bad write fails alone and never takes its neighbours with it. The transactions
 * themselves are {@link WriteTransactions}', the queue and its promise that every write is answered once are
 * {@link WriteQueue}'s.
 */
final class GroupCommitWriter extends QueuedWritePath {

    private static final Logger log = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final String STOPPED = "The SQLite writer has stopped; nothing stored";

    private final WriteTransactions transactions; // used by the writer thread only after construction
    /** Large values taken from the queue and not yet committed, oldest first; the writer thread's only. */
    private final ArrayDeque<Pending> largeValues = new ArrayDeque<>();
    /** Answers the callers of committed batches, each key's in commit order (see the class description). */
    private final AnswerThreads answers;
    private volatile long commits; // written by the writer thread only
    /** Completed once the writer thread has ended and the answering threads have given every answer handed to them. */
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    /**
     * A writer that owns {@code connection}, runs each write through {@code rows} and answers on
     * {@code answeringThreads} threads.
     */
    GroupCommitWriter(Connection connection, Sql sql, String name, WriteTransactions.RowWriter rows,
            int answeringThreads) throws SQLException {
        super(new WriteQueue(WriteQueue.CAPACITY, 1, STOPPED));
        this.transactions = new WriteTransactions(connection, sql, rows);
        this.answers = new AnswerThreads(name, answeringThreads);
        Thread thread = new Thread(this::run, "store-writer-" + name);
        thread.setDaemon(true); // an unclosed storage must not keep the JVM alive; unanswered writes were never promised
        thread.start();
    }

    private void run() {
        try {
            queue.consume(WriteQueue.MAX_BATCH, this::runBatch, this::fail, log);
        } finally {
            try {
                // Large values taken before the queue closed: committed (or failed) before the connection closes.
                for (Pending pending; (pending = largeValues.poll()) != null; ) {
                    try {
                        commitTogether(List.of(pending));
                    } catch (RuntimeException | Error e) {
                        fail(pending, e);
                    }
                }
                transactions.close();
            } finally {
                // Even after an Error above: close() waits for this.
                answers.close().whenComplete((done, failure) -> finished.complete(null));
            }
        }
    }

    /**
     * A batch as the writer takes it: its small writes commit together, first; its large values (over
     * {@link SpooledContent#MEMORY_BYTES}) wait in {@link #largeValues} and commit one per transaction, and only
     * while no write is queued: a small write waits for at most one large value's commit, never for all those that
     * arrived before it. The large values waiting are bounded by their callers, each waiting for its answer.
     */
    private void runBatch(List<Pending> batch) {
        List<Pending> small = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            (large(pending) ? largeValues : small).add(pending);
        }
        commitTogether(small);
        do {
            Pending next = largeValues.poll();
            if (next == null) {
                return;
            }
            commitTogether(List.of(next));
        } while (queue.size() == 0);
    }

    /** Whether {@code pending} holds a value too large to wait beside small writes. */
    private static boolean large(Pending pending) {
        for (WriteRequest request : pending.requests()) {
            if (request.bytes() != null && request.bytes().length() > SpooledContent.MEMORY_BYTES) {
                return true;
            }
        }
        return false;
    }

    /**
     * Commits {@code batch} in one transaction, or, if that fails, each write on its own; has every one answered. A
     * committed write is answered outside the {@code catch}: whatever answering throws must not make a committed
     * write look failed, and be committed again.
     */
    private void commitTogether(List<Pending> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<Pending> writes = List.copyOf(batch); // a copy: run() reuses the batch list, and the answers outlive it
        List<Boolean> results;
        try {
            results = inTransaction(writes);
        } catch (Throwable t) {
            // An Error too (an OutOfMemoryError binding a large value): inTransaction rolled back, so the
            // writes can be retried, and the one that fails again fails alone.
            if (t instanceof Error) {
                log.error("Batch of {} writes failed", writes.size(), t);
            }
            // Another process holding the lock (busy_timeout already waited out) is no write's fault, and retrying
            // one by one would wait busy_timeout again for each: up to MAX_BATCH times 5 s of stalled callers.
            if (writes.size() == 1 || WriteTransactions.isBusy(t)) {
                answers.fail(writes, this::failure, t, idle());
                return;
            }
            log.debug("Batch of {} writes failed; retrying each on its own", writes.size(), t);
            retryEach(writes);
            return;
        }
        answers.answer(writes, results, idle());
    }

    /** Commits each of {@code writes} in a transaction of its own, so that only a bad one fails. */
    private void retryEach(List<Pending> writes) {
        for (int i = 0; i < writes.size(); i++) {
            List<Pending> write = List.of(writes.get(i));
            boolean last = i == writes.size() - 1;
            List<Boolean> result;
            try {
                result = inTransaction(write);
            } catch (Throwable t) { // an Error included: it fails this write, and the writer goes on
                if (WriteTransactions.isBusy(t)) {
                    // The lock was taken during the retries: this write and the rest fail for the same reason.
                    answers.fail(writes.subList(i, writes.size()), this::failure, t, idle());
                    return;
                }
                answers.fail(write, this::failure, t, idle() && last);
                continue;
            }
            answers.answer(write, result, idle() && last);
        }
    }

    /** Whether no write waits for the writer: then it may answer a lone write itself (see {@link AnswerThreads}). */
    private boolean idle() {
        return queue.size() == 0 && largeValues.isEmpty();
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

    /** Fails {@code pending} here, on the writer: for what {@link WriteQueue#consume} did not foresee. */
    private void fail(Pending pending, Throwable cause) {
        pending.result().completeExceptionally(failure(cause));
    }

    private StorageException failure(Throwable cause) {
        return new StorageException("Write to SQLite failed: " + cause.getMessage(), cause);
    }

    /** Throws if the writer thread has stopped: a write would fail. */
    @Override
    public void checkWritable() throws IOException {
        queue.checkRunning();
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
        if (queue.close()) {
            finished.join(); // waits even if interrupted, and keeps the interrupt
        }
    }
}
