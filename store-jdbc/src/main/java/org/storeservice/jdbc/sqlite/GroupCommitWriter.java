package org.storeservice.jdbc.sqlite;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
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
    /** Large values of the running batch not yet committed; the writer thread's only. */
    private int largeWaiting;
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
        this(connection, sql, name, rows, answeringThreads, Thread::new);
    }

    /**
     * As above, its threads (the writer's and the answering ones, all started here) made by {@code threads}; if one
     * cannot be made or started, those started are stopped and this throws.
     */
    GroupCommitWriter(Connection connection, Sql sql, String name, WriteTransactions.RowWriter rows,
            int answeringThreads, ThreadFactory threads) throws SQLException {
        super(new WriteQueue(WriteQueue.CAPACITY, 1, STOPPED));
        this.transactions = new WriteTransactions(connection, sql, rows);
        Thread writer;
        try {
            writer = threads.newThread(this::run);
            writer.setName("store-writer-" + name);
            writer.setDaemon(true); // an unclosed storage must not keep the JVM alive; unanswered writes were never promised
        } catch (RuntimeException | Error e) {
            throw new SQLException("Could not make the SQLite writer thread: " + e, e);
        }
        this.answers = startAnswers(name, answeringThreads, threads);
        try {
            writer.start();
        } catch (RuntimeException | Error e) {
            answers.close();
            throw new SQLException("Could not start the SQLite writer thread: " + e, e);
        }
    }

    private static AnswerThreads startAnswers(String name, int count, ThreadFactory threads) throws SQLException {
        try {
            return new AnswerThreads(name, count, threads);
        } catch (RuntimeException | Error e) {
            throw new SQLException("Could not start the SQLite writer's answering threads: " + e, e);
        }
    }

    private void run() {
        try {
            queue.consume(WriteQueue.MAX_BATCH, this::runBatch, this::failUnforeseen, log);
        } finally {
            try {
                transactions.close();
            } finally {
                // Even after an Error above: close() waits for this.
                try {
                    answers.close().whenComplete((done, failure) -> finished.complete(null));
                } catch (Throwable t) {
                    finished.complete(null);
                }
            }
        }
    }

    /**
     * A batch as the writer takes it: its small writes commit together, first; its large values (over
     * {@link SpooledContent#MEMORY_BYTES}) commit one per transaction after them, and only while no write is queued:
     * a small write waits for at most one large value's commit, never for all those that arrived before it. The writes
     * queued meanwhile are taken into this batch ({@link WriteQueue#takeMore}): every write stays the batch's until
     * answered, so that if anything escapes from here, {@link WriteQueue#consume} fails those not yet answered and
     * none of them is committed later (issue 55). The large values waiting are bounded by their callers, each waiting
     * for its answer.
     */
    private void runBatch(List<Pending> batch) {
        List<Pending> large = new ArrayList<>();
        largeWaiting = 0;
        commitSmall(batch, 0, large);
        for (int next = 0; next < large.size(); next++) {
            int taken = batch.size();
            if (next > 0 && queue.takeMore(batch, WriteQueue.MAX_BATCH)) {
                commitSmall(batch, taken, large);
            }
            largeWaiting--;
            commitTogether(List.of(large.get(next)));
        }
    }

    /** Commits the small writes of {@code batch} from index {@code from} together; adds its large ones to {@code large}. */
    private void commitSmall(List<Pending> batch, int from, List<Pending> large) {
        List<Pending> small = new ArrayList<>(batch.size() - from);
        for (int i = from; i < batch.size(); i++) {
            Pending pending = batch.get(i);
            if (large(pending)) {
                large.add(pending);
                largeWaiting++;
            } else {
                small.add(pending);
            }
        }
        commitTogether(small);
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
     * Commits {@code writes} in one transaction, or, if that fails, each write on its own; has every one answered. A
     * committed write is answered outside the {@code catch}: whatever answering throws must not make a committed
     * write look failed, and be committed again.
     */
    private void commitTogether(List<Pending> writes) {
        if (writes.isEmpty()) {
            return;
        }
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
                fail(writes, t, idle());
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
                    fail(writes.subList(i, writes.size()), t, idle());
                    return;
                }
                fail(write, t, idle() && last);
                continue;
            }
            answers.answer(write, result, idle() && last);
        }
    }

    /** Whether no write waits for the writer: then it may answer a lone write itself (see {@link AnswerThreads}). */
    private boolean idle() {
        return queue.size() == 0 && largeWaiting == 0;
    }

    /**
     * Commits the batch in one transaction (see {@link WriteTransactions#commit}), and claims its writes as soon as
     * COMMIT returns, before anything that could throw: they are answered by this writer, never failed by
     * {@link WriteQueue#consume}. Counts the commit.
     */
    private List<Boolean> inTransaction(List<Pending> batch) throws SQLException {
        List<List<WriteRequest>> groups = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            groups.add(pending.requests());
        }
        List<Boolean> results = transactions.commit(groups);
        claim(batch);
        commits++;
        return results;
    }

    /** Fails {@code writes} through their keys' answering threads, after their earlier answers; claims them first. */
    private void fail(List<Pending> writes, Throwable cause, boolean writerIdle) {
        claim(writes);
        answers.fail(writes, this::failure, cause, writerIdle);
    }

    /**
     * Claims {@code writes} (see {@link Pending#claim}): nobody else claims the writes of a batch while the writer runs
     * it, so each claim succeeds; no allocation, so nothing between COMMIT and here can fail for want of memory.
     */
    private static void claim(List<Pending> writes) {
        for (int i = 0; i < writes.size(); i++) {
            writes.get(i).claim();
        }
    }

    /**
     * Fails {@code pending} (claimed by {@link WriteQueue#consume}) for what the writer did not foresee: through its
     * key's answering thread too, after its earlier answers.
     */
    private void failUnforeseen(Pending pending, Throwable cause) {
        answers.fail(List.of(pending), this::failure, cause, false);
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
