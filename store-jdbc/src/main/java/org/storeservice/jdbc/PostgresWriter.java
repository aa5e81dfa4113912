package org.storeservice.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.WriteQueue.Pending;

/**
 * PostgreSQL's write path: group commit over the pool. Callers queue their writes and wait for nothing
 * ({@link #writeAsync}) or for their own answer; a few lanes (threads, each borrowing a pooled connection per batch)
 * take every write pending at that moment and commit it as one {@link PostgresBatch}: one statement, one round trip,
 * one commit for a batch of small writes. Unlike SQLite, PostgreSQL commits concurrently, so several batches are in
 * flight at once, one per lane. A write is answered only once its batch committed: acknowledged = committed.
 *
 * <p>A large value ({@link PostgresBatch#large}) gains nothing from a batch, and would hold a lane, and the small
 * writes behind it, for as long as it takes to send: it is committed on its caller's thread (a WriteBytes call, which
 * the server runs on a thread that may block), with the same retries, so large values go to the database side by
 * side, as many as the pool has connections.
 *
 * <p><b>Failover ride-through.</b> While the database cannot commit (no connection, a primary gone, a standby that
 * cannot write, a server restarting) a batch is tried again on a fresh connection, with a pause that doubles up to
 * {@link #MAX_PAUSE}, and writes arriving meanwhile wait in the queue, each at most the failover time-out from when
 * it arrived (then it is answered {@code Error}). A batch that failed where its commit may have happened (the
 * connection died during the commit) is tried again only for its upserts, which store the same values again; an
 * insert-if-absent or a deletion whose outcome cannot be known is answered {@code Error}. A batch the database
 * refuses for what it holds is split, so that one bad write fails alone.
 *
 * <p><b>Quiet.</b> The change of state is logged once per lane group, at WARN, one line: when writes stop committing
 * (with the first reason), and when they commit again (after how long, how many writes were answered Error
 * meanwhile); each failed attempt only at DEBUG. Attempts in flight when the state changes do not change it back: a
 * failure of an attempt begun before the last commit starts no outage, and a commit of an attempt begun before the
 * outage started does not end it.
 */
final class PostgresWriter implements WritePath {
    static final int MAX_BATCH = 512;
    /** Pending writes beyond this make callers wait to enqueue, instead of growing memory without end. */
    static final int QUEUE_CAPACITY = 8192;
    static final Duration FIRST_PAUSE = Duration.ofMillis(50);
    static final Duration MAX_PAUSE = Duration.ofSeconds(1);
    private static final String STOPPED = "The PostgreSQL writers have stopped; nothing stored";
    private static final long COMMITTING = Long.MIN_VALUE;

    private static final Logger log = LoggerFactory.getLogger(PostgresWriter.class);

    private final HikariDataSource pool;
    private final PostgresBatch statements;
    private final long failoverNanos;
    private final WriteQueue queue;
    private final CountDownLatch lanesEnded;
    /** {@link System#nanoTime()} when writes stopped committing, or {@link #COMMITTING}. */
    private final AtomicLong failingSince = new AtomicLong(COMMITTING);
    private final AtomicLong errorsWhileFailing = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();

    PostgresWriter(HikariDataSource pool, PostgresBatch statements, int lanes, Duration failoverTimeout) {
        this.pool = pool;
        this.statements = statements;
        this.failoverNanos = failoverTimeout.toNanos();
        this.queue = new WriteQueue(QUEUE_CAPACITY, lanes, STOPPED);
        this.lanesEnded = new CountDownLatch(lanes);
        for (int i = 0; i < lanes; i++) {
            Thread lane = new Thread(this::run, "store-pg-writer-" + pool.getPoolName() + "-" + i);
            lane.setDaemon(true); // an unclosed storage must not keep the JVM alive
            lane.start();
        }
    }

    @Override
    public boolean write(WriteRequest request) throws IOException {
        if (!PostgresBatch.large(request)) {
            return queue.write(List.of(request));
        }
        if (queue.isClosed()) {
            throw new StorageException("Storage is closed");
        }
        Pending pending = new Pending(List.of(request));
        try {
            commit(List.of(pending));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(pending, new InterruptedIOException("Interrupted while waiting for PostgreSQL; the write may not be stored"));
        }
        return WriteQueue.answer(pending);
    }

    /** The writes go in as one item of the queue, so they commit in one transaction, and fail or succeed together. */
    @Override
    public void writeAll(List<WriteRequest> requests) throws IOException {
        queue.write(requests);
    }

    /** Queues the write and returns at once; a full queue is waited out on {@code blockingWork} (backpressure). */
    @Override
    public CompletableFuture<Boolean> writeAsync(WriteRequest request, Executor blockingWork) {
        return queue.writeAsync(request, () -> WritePath.super.writeAsync(request, blockingWork));
    }

    @Override
    public boolean committing() {
        return failingSince.get() == COMMITTING;
    }

    /** Commits a write of no consequence (see {@link PostgresBatch#commitProbe}): throws if it cannot commit now. */
    @Override
    public void checkWritable() throws IOException {
        try (Connection connection = pool.getConnection()) {
            statements.commitProbe(connection);
        } catch (SQLException e) {
            throw new StorageException("PostgreSQL cannot commit a write now: " + PooledConnections.withCause(e), e);
        }
    }

    /** Batches committed so far; for tests that check writes were grouped. */
    long commits() {
        return commits.get();
    }

    private void run() {
        try {
            queue.consume(MAX_BATCH, this::commit, this::fail, log);
        } finally {
            lanesEnded.countDown();
        }
    }

    /** Commits {@code batch}, trying again while the failure is the database's state and time is left. */
    private void commit(List<Pending> batch) throws InterruptedException {
        List<Pending> open = new ArrayList<>(batch);
        long pause = 0;
        while (true) {
            SQLException failure;
            long commitsBefore = commits.get();
            long began = System.nanoTime();
            try (Connection connection = pool.getConnection()) {
                List<Boolean> results = statements.commit(connection, requestsOf(open));
                commits.incrementAndGet();
                committed(began);
                for (int i = 0; i < open.size(); i++) {
                    open.get(i).result().complete(results.get(i));
                }
                return;
            } catch (SQLException e) {
                failure = e;
            }
            if (!(failure instanceof PostgresBatch.InDoubtException) && !PostgresFailures.transientFailure(failure)) {
                if (open.size() == 1) {
                    fail(open.get(0), failure);
                } else {
                    log.debug("Batch of {} writes refused; trying each on its own", open.size(), failure);
                    for (Pending pending : open) {
                        commit(List.of(pending));
                    }
                }
                return;
            }
            attemptFailed(failure, commitsBefore);
            if (failure instanceof PostgresBatch.InDoubtException) {
                SQLException inDoubt = failure;
                open.removeIf(p -> !upsertsOnly(p) && fail(p, new StorageException(
                        "The connection to PostgreSQL was lost while the write committed; it may or may not be stored: "
                                + PostgresFailures.oneLine(inDoubt), inDoubt)));
            }
            long now = System.nanoTime();
            SQLException last = failure;
            open.removeIf(p -> now - p.queuedAt() >= failoverNanos && fail(p, last));
            if (open.isEmpty()) {
                return;
            }
            pause = pause == 0 ? FIRST_PAUSE.toNanos() : Math.min(2 * pause, MAX_PAUSE.toNanos());
            long firstDeadline = Long.MAX_VALUE;
            for (Pending pending : open) {
                firstDeadline = Math.min(firstDeadline, pending.queuedAt() + failoverNanos - now);
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, Math.min(pause, firstDeadline)));
        }
    }

    private static List<List<WriteRequest>> requestsOf(List<Pending> batch) {
        List<List<WriteRequest>> groups = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            groups.add(pending.requests());
        }
        return groups;
    }

    /** Whether writing {@code pending} again stores exactly what writing it once did. */
    private static boolean upsertsOnly(Pending pending) {
        return pending.requests().stream().allMatch(r -> !r.deletes() && r.policy() == OverwritePolicy.REPLACE);
    }

    /**
     * A write attempt failed for the database's state. It starts an outage (one WARN line) unless another commit
     * succeeded since the attempt began: a lane that waited out the outage for a pooled connection fails only after
     * another lane has already committed again, and its failure belongs to the outage that has just ended.
     */
    void attemptFailed(SQLException failure, long commitsWhenAttemptBegan) {
        log.debug("A PostgreSQL write attempt failed", failure);
        if (commits.get() == commitsWhenAttemptBegan && failingSince.compareAndSet(COMMITTING, System.nanoTime())) {
            errorsWhileFailing.set(0);
            log.warn("PostgreSQL writes are not committing ({}); each write waits up to {} ms for the database",
                    PostgresFailures.oneLine(failure), TimeUnit.NANOSECONDS.toMillis(failoverNanos));
        }
    }

    /**
     * A write attempt begun at {@code attemptBegan} committed. It ends the outage only if it began after the outage
     * did: a backend of a primary that has just died can still finish a commit it had begun, and that commit says
     * nothing of whether writes commit now (a pair of WARN lines 32 ms apart, seen in {@code HighAvailabilityIT}).
     */
    void committed(long attemptBegan) {
        long since = failingSince.get();
        if (since != COMMITTING && attemptBegan - since >= 0 && failingSince.compareAndSet(since, COMMITTING)) {
            log.warn("PostgreSQL writes commit again after {} ms; {} writes were answered Error meanwhile",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), errorsWhileFailing.get());
        }
    }

    /** Always {@code true}, for {@code removeIf}. */
    private boolean fail(Pending pending, Throwable cause) {
        StorageException failure = cause instanceof StorageException storage ? storage
                : new StorageException("Write to postgresql failed: "
                        + (cause instanceof SQLException sql ? PooledConnections.withCause(sql) : cause.toString()), cause);
        if (pending.result().completeExceptionally(failure) && !committing()) {
            errorsWhileFailing.incrementAndGet();
        }
        return true;
    }

    /** Stops taking writes, answers those queued (committed, or failed within the failover time-out), then returns. */
    @Override
    public void close() {
        if (queue.close()) {
            boolean interrupted = false;
            while (true) {
                try {
                    lanesEnded.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
