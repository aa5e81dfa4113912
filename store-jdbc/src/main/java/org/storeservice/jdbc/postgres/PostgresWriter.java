package org.storeservice.jdbc.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.internal.QueuedWritePath;
import org.storeservice.jdbc.internal.WriteQueue.Pending;
import org.storeservice.jdbc.internal.WriteQueue;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * PostgreSQL's write path: group commit over the pool. Callers queue their writes and wait for nothing
 * ({@link #writeAsync}) or for their own answer; a few lanes (threads, each borrowing a pooled connection per batch)
 * take every write pending at that moment and commit it as one {@link PostgresBatch}. Unlike SQLite, PostgreSQL
 * commits concurrently, so several batches are in flight at once, one per lane. A write is answered only once its
 * batch committed (acknowledged = committed), and after its lane gave its connection back.
 *
 * <p>A large value ({@link PostgresBatch#large}) gains nothing from a batch, and would hold a lane, and the small
 * writes behind it, for as long as it takes to send: it is committed on its caller's thread (a WriteBytes call, which
 * the server runs on a thread that may block), in the same loop, so large values go to the database side by side. They
 * take at most the pool's connections less one per lane and one for reads and the readiness probe, so that small
 * writes and readiness never wait behind large uploads for a connection.
 *
 * <p><b>Exactly once, and failover ride-through.</b> One loop, {@link #commit}, takes a batch to its answer:
 * <ul>
 *   <li>committed: each write is answered as its batch decided;</li>
 *   <li>refused by the database for what it holds: the batch is split, so that one bad write fails alone;</li>
 *   <li>the database cannot commit now (no connection, a primary gone, a standby that cannot write, a server
 *       restarting): tried again on a fresh connection after a pause that doubles up to {@link #MAX_PAUSE}, or at
 *       once when any commit succeeds meanwhile (another lane's, the readiness probe's);</li>
 *   <li>in doubt (the connection broke while the commit was under way): nothing is written again until the batch's
 *       {@linkplain PostgresBatch#outcome outcome} is known, asked on a new connection (the new primary, after a
 *       failover). Committed: answered as that commit decided. Not committed: tried again.</li>
 * </ul>
 * Each write waits at most the failover time-out from when it arrived; then it is answered {@code Error} (saying, for
 * a batch still in doubt, that it may or may not be stored). Commit rows older than {@link #commitRowsKept} are
 * deleted once a minute, on a thread of their own.
 *
 * <p><b>Quiet.</b> The change of state is logged once per writer, at WARN, one line: when writes stop committing
 * (with the first reason), and when they commit again (after how long, how many writes were answered Error
 * meanwhile); each failed attempt only at DEBUG. Attempts in flight when the state changes do not change it back: a
 * failure of an attempt begun before the last commit starts no outage, and a commit of an attempt begun before the
 * outage started does not end it. A statement time-out alone is no outage.
 */
final class PostgresWriter extends QueuedWritePath {
    /** Most lanes committing batches at once; more only add PostgreSQL backends competing for the same CPU. */
    static final int MAX_LANES = 2;
    static final Duration FIRST_PAUSE = Duration.ofMillis(50);
    /**
     * The longest pause between two tries, and so how long after the database is back a write may wait to commit; a
     * lane also wakes at once when any commit succeeds.
     */
    static final Duration MAX_PAUSE = Duration.ofMillis(200);
    /** How often the commit rows past {@link #commitRowsKept} are deleted. */
    static final Duration PRUNE_EVERY = Duration.ofMinutes(1);
    private static final String STOPPED = "The PostgreSQL writers have stopped; nothing stored";
    private static final long COMMITTING = Long.MIN_VALUE;

    private static final Logger log = LoggerFactory.getLogger(PostgresWriter.class);

    private final HikariDataSource pool;
    private final PostgresBatch statements;
    private final long failoverNanos;
    private final CountDownLatch lanesEnded;
    /** Connections large writes may hold at once: the pool's, less the lanes' and one for reads and readiness. */
    private final Semaphore largeWriteConnections;
    /** Large writes under way on their callers' threads; close() waits for them. Guarded by {@code this}. */
    private int largeWritesInFlight;
    private final ScheduledExecutorService pruner;
    /** {@link System#nanoTime()} when writes stopped committing, or {@link #COMMITTING}. */
    private final AtomicLong failingSince = new AtomicLong(COMMITTING);
    private final AtomicLong errorsWhileFailing = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    /** Counts every successful commit (the probe's too), and wakes the tries waiting to go again. */
    private final Object successes = new Object();
    private long successCount; // guarded by successes
    private long lastSuccessAt = System.nanoTime(); // guarded by successes

    PostgresWriter(HikariDataSource pool, PostgresBatch statements, int lanes, Duration failoverTimeout) {
        super(new WriteQueue(WriteQueue.CAPACITY, lanes, STOPPED));
        this.pool = pool;
        this.statements = statements;
        this.failoverNanos = failoverTimeout.toNanos();
        this.lanesEnded = new CountDownLatch(lanes);
        this.largeWriteConnections = new Semaphore(Math.max(1, pool.getMaximumPoolSize() - lanes - 1));
        for (int i = 0; i < lanes; i++) {
            Thread lane = new Thread(this::run, "store-pg-writer-" + pool.getPoolName() + "-" + i);
            lane.setDaemon(true); // an unclosed storage must not keep the JVM alive
            lane.start();
        }
        this.pruner = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "store-pg-pruner-" + pool.getPoolName());
            thread.setDaemon(true);
            return thread;
        });
        long every = PRUNE_EVERY.toMillis();
        pruner.scheduleWithFixedDelay(this::pruneCommitRows, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean write(WriteRequest request) throws IOException {
        if (!PostgresBatch.large(request)) {
            return super.write(request);
        }
        synchronized (this) {
            queue.checkRunning();
            largeWritesInFlight++;
        }
        try {
            Pending pending = new Pending(List.of(request));
            try {
                if (!largeWriteConnections.tryAcquire(failoverNanos, TimeUnit.NANOSECONDS)) {
                    throw new StorageException("Every connection PostgreSQL lends large values stayed busy for the"
                            + " failover time-out; nothing stored");
                }
                try {
                    commit(List.of(pending));
                } finally {
                    largeWriteConnections.release();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail(pending, new InterruptedIOException(
                        "Interrupted while waiting for PostgreSQL; the write may not be stored"));
            }
            return WriteQueue.answer(pending);
        } finally {
            synchronized (this) {
                largeWritesInFlight--;
                notifyAll();
            }
        }
    }

    @Override
    public boolean committing() {
        return failingSince.get() == COMMITTING;
    }

    /**
     * Commits a write of no consequence (see {@link PostgresBatch#commitProbe}): throws if it cannot commit now. A
     * success wakes the writes waiting to try again.
     */
    @Override
    public void checkWritable() throws IOException {
        try (Connection connection = writeConnection()) {
            statements.commitProbe(connection);
        } catch (SQLException e) {
            throw new StorageException("PostgreSQL cannot commit a write now: " + PooledConnections.withCause(e), e);
        }
        succeeded();
    }

    /** The pool's connection, or one of its own while the pool has none: see {@link PooledConnections#borrowOrOpen}. */
    private Connection writeConnection() throws SQLException {
        return PooledConnections.borrowOrOpen(pool);
    }

    /** {@link System#nanoTime()} the outage is dated from, or {@link Long#MIN_VALUE} while writes commit; for tests. */
    long outageSince() {
        return failingSince.get();
    }

    /** Batches committed so far; for tests that check writes were grouped. */
    long commits() {
        return commits.get();
    }

    private void run() {
        try {
            queue.consume(WriteQueue.MAX_BATCH, this::commit, this::fail, log);
        } finally {
            lanesEnded.countDown();
        }
    }

    /** What one try of a batch came to; {@code results} when committed, {@code failure} otherwise. */
    private enum Result { COMMITTED, REFUSED, NOT_NOW, IN_DOUBT, NOT_COMMITTED }

    private record Attempt(Result result, List<Boolean> results, SQLException failure) {
        static Attempt of(Result result, SQLException failure) {
            return new Attempt(result, List.of(), failure);
        }
    }

    /** Takes {@code batch} to its answer: see the class description. */
    private void commit(List<Pending> batch) throws InterruptedException {
        List<Pending> open = new ArrayList<>(batch);
        UUID inDoubt = null; // a commit of these writes whose outcome is not known yet: found out before writing again
        long pause = 0;
        while (true) {
            long successesBefore = successes();
            Attempt attempt;
            if (inDoubt == null) {
                inDoubt = commitId();
                attempt = tryCommit(open, inDoubt);
            } else {
                attempt = tryOutcome(open, inDoubt);
            }
            switch (attempt.result()) {
                case COMMITTED -> {
                    for (int i = 0; i < open.size(); i++) {
                        open.get(i).result().complete(attempt.results().get(i));
                    }
                    return;
                }
                case REFUSED -> {
                    refused(open, attempt.failure());
                    return;
                }
                case NOT_COMMITTED -> {
                    inDoubt = null; // and never will: try again now, the database answered
                    continue;
                }
                case NOT_NOW -> inDoubt = null; // nothing was sent that could commit
                case IN_DOUBT -> {
                    // keep the id: the next try asks for its outcome
                }
            }
            failExpired(open, inDoubt != null, attempt.failure());
            if (open.isEmpty()) {
                return;
            }
            pause = pause == 0 ? FIRST_PAUSE.toNanos() : Math.min(2 * pause, MAX_PAUSE.toNanos());
            awaitRetry(successesBefore, Math.min(pause, untilFirstDeadline(open)));
        }
    }

    /**
     * A new batch's id: the time in milliseconds, then 74 random bits (UUID version 7's layout). Ids that grow with
     * time go in at the right edge of {@value PostgresBatch#COMMITS_TABLE}'s primary key, where wholly random ones would
     * touch a leaf page anywhere in it, each page's first change after a checkpoint writing the whole page to the WAL.
     */
    static UUID commitId() {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        long mostSignificant = System.currentTimeMillis() << 16 | 0x7000L | random.nextLong() & 0x0FFFL;
        long leastSignificant = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(mostSignificant, leastSignificant);
    }

    /** One try at committing {@code open} as the batch {@code id}; answers nobody (the connection is back first). */
    private Attempt tryCommit(List<Pending> open, UUID id) {
        long commitsBefore = commits.get();
        long began = System.nanoTime();
        List<Boolean> results;
        try (Connection connection = writeConnection()) {
            results = statements.commit(connection, requestsOf(open), id);
        } catch (PostgresBatch.InDoubtException e) {
            attemptFailed(e, commitsBefore, waitingSince(open, began));
            return Attempt.of(Result.IN_DOUBT, e);
        } catch (SQLException e) {
            if (!PostgresFailures.transientFailure(e)) {
                return Attempt.of(Result.REFUSED, e);
            }
            attemptFailed(e, commitsBefore, waitingSince(open, began));
            return Attempt.of(Result.NOT_NOW, e);
        }
        commits.incrementAndGet();
        committed(began);
        return new Attempt(Result.COMMITTED, results, null);
    }

    /** One try at finding out whether the batch {@code id} of {@code open} committed. */
    private Attempt tryOutcome(List<Pending> open, UUID id) {
        long commitsBefore = commits.get();
        long began = System.nanoTime();
        PostgresBatch.Outcome outcome;
        try (Connection connection = writeConnection()) {
            outcome = statements.outcome(connection, id, requestsOf(open));
        } catch (SQLException e) {
            attemptFailed(e, commitsBefore, waitingSince(open, began));
            return Attempt.of(Result.IN_DOUBT, e);
        }
        committed(began); // the database answered a write: it commits again
        if (!outcome.committed()) {
            log.debug("A batch of {} writes whose commit was in doubt had not committed; it goes again", open.size());
            return Attempt.of(Result.NOT_COMMITTED, null);
        }
        log.debug("A batch of {} writes whose commit was in doubt had committed; answered as it decided", open.size());
        return new Attempt(Result.COMMITTED, outcome.results(), null);
    }

    /** The database refused {@code open} for what it holds: one write fails alone; a batch goes again, one by one. */
    private void refused(List<Pending> open, SQLException failure) throws InterruptedException {
        if (open.size() == 1) {
            fail(open.get(0), failure);
            return;
        }
        log.debug("Batch of {} writes refused; trying each on its own", open.size(), failure);
        for (Pending pending : open) {
            commit(List.of(pending));
        }
    }

    /** Answers {@code Error} to the writes of {@code open} that have waited the failover time-out, and drops them. */
    private void failExpired(List<Pending> open, boolean inDoubt, SQLException last) {
        long now = System.nanoTime();
        for (Iterator<Pending> each = open.iterator(); each.hasNext(); ) {
            Pending pending = each.next();
            if (now - pending.queuedAt() >= failoverNanos) {
                fail(pending, inDoubt ? new StorageException("The connection to PostgreSQL was lost while the write"
                        + " committed, and whether it did could not be found out within the failover time-out; it may"
                        + " or may not be stored: " + PostgresFailures.oneLine(last), last) : last);
                each.remove();
            }
        }
    }

    private long untilFirstDeadline(List<Pending> open) {
        long now = System.nanoTime();
        long first = Long.MAX_VALUE;
        for (Pending pending : open) {
            first = Math.min(first, pending.queuedAt() + failoverNanos - now);
        }
        return Math.max(0, first);
    }

    private long successes() {
        synchronized (successes) {
            return successCount;
        }
    }

    /**
     * Since when the writes of a failed attempt begun at {@code began} have waited, as their clients saw it: since the
     * oldest of them was queued, but not before the last commit that succeeded (until then writes committed).
     */
    private long waitingSince(List<Pending> open, long began) {
        long since = began;
        for (Pending pending : open) {
            if (pending.queuedAt() - since < 0) {
                since = pending.queuedAt();
            }
        }
        synchronized (successes) {
            return lastSuccessAt - since > 0 ? Math.min(lastSuccessAt, began) : since;
        }
    }

    /** A commit succeeded (a batch, an outcome asked, the probe): the tries waiting to go again go now. */
    private void succeeded() {
        synchronized (successes) {
            lastSuccessAt = System.nanoTime();
            successCount++;
            successes.notifyAll();
        }
    }

    /** Waits up to {@code nanos}, or until a commit succeeds that had not when the last try began. */
    private void awaitRetry(long successesBefore, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        synchronized (successes) {
            long left;
            while (successCount == successesBefore && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(successes, left);
            }
        }
    }

    private static List<List<WriteRequest>> requestsOf(List<Pending> batch) {
        List<List<WriteRequest>> groups = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            groups.add(pending.requests());
        }
        return groups;
    }

    /**
     * A write attempt whose writes have waited since {@code attemptBegan} (see {@link #waitingSince}) failed for the
     * database's state. It starts an outage (one WARN
     * line) unless another commit succeeded since the attempt began (a lane that waited out the outage for a pooled
     * connection fails only after another lane has already committed again, and its failure belongs to the outage that
     * has just ended) or it is a statement time-out (one slow statement, not a database that cannot commit). The outage
     * is dated from then, not from when its failure was noticed: a host that vanished is noticed only when the socket
     * time-out runs out, and the writes waited from the start.
     */
    void attemptFailed(SQLException failure, long commitsWhenAttemptBegan, long attemptBegan) {
        log.debug("A PostgreSQL write attempt failed", failure);
        if (!PostgresFailures.outage(failure) || commits.get() != commitsWhenAttemptBegan) {
            return;
        }
        if (failingSince.compareAndSet(COMMITTING, attemptBegan)) {
            errorsWhileFailing.set(0);
            log.warn("PostgreSQL writes are not committing ({}); each write waits up to {} ms for the database",
                    PostgresFailures.oneLine(failure), TimeUnit.NANOSECONDS.toMillis(failoverNanos));
        } else {
            // Another lane noticed the outage first, with writes that had waited less (its attempt began after the
            // database died, and failed at once; this one was in flight): the outage began with the older writes.
            failingSince.accumulateAndGet(attemptBegan,
                    (since, began) -> since != COMMITTING && began - since < 0 ? began : since);
        }
    }

    /**
     * A write attempt begun at {@code attemptBegan} committed. It ends the outage only if it began after the outage
     * did: a backend of a primary that has just died can still finish a commit it had begun, and that commit says
     * nothing of whether writes commit now.
     */
    void committed(long attemptBegan) {
        succeeded();
        long since = failingSince.get();
        if (since != COMMITTING && attemptBegan - since >= 0 && failingSince.compareAndSet(since, COMMITTING)) {
            log.warn("PostgreSQL writes commit again after {} ms; {} writes were answered Error meanwhile",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), errorsWhileFailing.get());
        }
    }

    private void fail(Pending pending, Throwable cause) {
        StorageException failure = cause instanceof StorageException storage ? storage
                : new StorageException("Write to postgresql failed: "
                        + (cause instanceof SQLException sql ? PooledConnections.withCause(sql) : cause.toString()), cause);
        if (pending.result().completeExceptionally(failure) && !committing()) {
            errorsWhileFailing.incrementAndGet();
        }
    }

    /** How long a batch's commit row is kept: well past the longest a batch can stay in doubt. */
    Duration commitRowsKept() {
        return Duration.ofNanos(Math.max(Duration.ofMinutes(10).toNanos(), 4 * failoverNanos));
    }

    private void pruneCommitRows() {
        try (Connection connection = pool.getConnection()) {
            int pruned = statements.prune(connection, commitRowsKept());
            log.debug("Pruned {} commit rows older than {}", pruned, commitRowsKept());
        } catch (SQLException | RuntimeException e) {
            log.debug("Pruning the commit rows failed; the next round tries again", e); // an outage says so itself
        }
    }

    /**
     * Stops taking writes, answers those queued and the large ones under way (committed, or failed within the
     * failover time-out), then returns.
     */
    @Override
    public void close() {
        boolean interrupted = false;
        synchronized (this) {
            queue.close();
            while (largeWritesInFlight > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        while (true) {
            try {
                lanesEnded.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        pruner.shutdownNow();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
