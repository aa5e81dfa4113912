package org.storeservice.jdbc.postgres;

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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.PostgresStorageConfig;
import org.storeservice.jdbc.internal.QueuedWritePath;
import org.storeservice.jdbc.internal.WriteQueue;
import org.storeservice.jdbc.internal.WriteQueue.Pending;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * PostgreSQL's write path: group commit over a few lanes. Callers queue their writes and wait for nothing
 * ({@link #writeAsync}) or for their own answer; each lane (a thread with a connection of its own,
 * {@link LaneConnection}) takes every write pending at that moment and commits it as one {@link PostgresBatch}. Unlike
 * SQLite, PostgreSQL commits concurrently, so several batches are in flight at once, one per lane. A write is answered
 * only once its batch committed (acknowledged = committed).
 *
 * <p>A large value ({@link Run#large}) gains nothing from a batch, and would hold a lane, and the small writes behind
 * it, for as long as it takes to send: it is committed on its caller's thread (a WriteBytes call, which the server runs
 * on a thread that may block), through the same loop, on a connection of the pool ({@link LargeWrites}).
 *
 * <p><b>Exactly once, and failover ride-through.</b> One loop, {@link #commit}, takes a batch to its answer:
 * <ul>
 *   <li>committed: each write is answered as its batch decided;</li>
 *   <li>refused by the database for what it holds: the batch is split, so that one bad write fails alone;</li>
 *   <li>the database cannot commit now (no connection, a primary gone, a standby that cannot write, a server
 *       restarting): tried again on a fresh connection after a pause that doubles up to {@link #MAX_PAUSE}, or at
 *       once when any commit succeeds meanwhile (another lane's, the readiness probe's);</li>
 *   <li>in doubt (the connection broke while the commit was under way): nothing is written again until the batch's
 *       decision is known ({@link CommitRows#decide}), asked on a new connection (the new primary, after a failover),
 *       of the batch exactly as it was committed ({@link InDoubtBatch}). Committed: its writes still waiting are
 *       answered as that commit decided. Not committed: the writes still waiting go again, as a new batch.</li>
 * </ul>
 * Each write waits at most the failover time-out from when it arrived, checked before each try; then it is answered
 * {@code Error} (saying, for a batch still in doubt, that it may or may not be stored). Whether writes commit, and the
 * log lines of each outage, are {@link Outage}'s; the commit rows are pruned by a {@link CommitRowPruner}.
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
    private static final String STOPPED = "The PostgreSQL writers have stopped; nothing stored";

    private static final Logger log = LoggerFactory.getLogger(PostgresWriter.class);

    /**
     * What the writer is told beyond its statements and connections.
     *
     * @param lanes threads committing small writes, each with a connection of its own
     * @param failoverTimeout the longest a write waits for a database that commits
     * @param commitRowsKept how long a commit row is kept: well past the longest a batch's statement can still commit
     * @param pruneEvery how often the older commit rows are deleted
     */
    record Settings(int lanes, Duration failoverTimeout, Duration commitRowsKept, Duration pruneEvery) {
        /** The defaults for {@code config}: commit rows kept 10 minutes, or 4 of its longest time-outs if longer. */
        static Settings of(PostgresStorageConfig config) {
            long longest = Math.max(config.failoverTimeout().toNanos(), config.statementTimeout().toNanos());
            return new Settings(PooledConnections.writerLanes(config), config.failoverTimeout(),
                    Duration.ofNanos(Math.max(Duration.ofMinutes(10).toNanos(), 4 * longest)), Duration.ofMinutes(1));
        }
    }

    private final PooledConnections pool;
    private final PostgresBatch statements;
    private final CommitRows commitRows;
    private final Settings settings;
    private final long failoverNanos;
    private final Outage outage;
    private final LargeWrites largeWrites;
    private final CommitRowPruner pruner;
    private final CountDownLatch lanesEnded;
    private final AtomicLong commits = new AtomicLong();

    PostgresWriter(PooledConnections pool, ConnectionFactory laneConnections, PostgresBatch statements,
            CommitRows commitRows, Settings settings, String name) {
        super(new WriteQueue(WriteQueue.CAPACITY, settings.lanes(), STOPPED));
        this.pool = pool;
        this.statements = statements;
        this.commitRows = commitRows;
        this.settings = settings;
        this.failoverNanos = settings.failoverTimeout().toNanos();
        this.outage = new Outage(failoverNanos);
        this.largeWrites = new LargeWrites(pool.size() - 1); // one connection stays for reads and the probe
        this.lanesEnded = new CountDownLatch(settings.lanes());
        for (int i = 0; i < settings.lanes(); i++) {
            Thread lane = new Thread(() -> runLane(new LaneConnection(laneConnections)),
                    "store-pg-writer-" + name + "-" + i);
            lane.setDaemon(true); // an unclosed storage must not keep the JVM alive
            lane.start();
        }
        this.pruner = new CommitRowPruner(pool, commitRows, settings.commitRowsKept(), settings.pruneEvery(), name);
    }

    @Override
    public boolean write(WriteRequest request) throws IOException {
        if (!Run.large(request)) {
            return super.write(request);
        }
        largeWrites.begin(queue::checkRunning);
        try {
            Pending pending = new Pending(List.of(request));
            try {
                if (!largeWrites.acquire(failoverNanos)) {
                    throw new StorageException("Every connection PostgreSQL lends large values stayed busy for the"
                            + " failover time-out; nothing stored");
                }
                try {
                    commit(List.of(pending), pool.forWrites());
                } finally {
                    largeWrites.release();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail(pending, new InterruptedIOException(
                        "Interrupted while waiting for PostgreSQL; the write may not be stored"));
            }
            return WriteQueue.answer(pending);
        } finally {
            largeWrites.ended();
        }
    }

    @Override
    public boolean committing() {
        return outage.committing();
    }

    /**
     * Commits a write of no consequence (see {@link PostgresBatch#commitProbe}): throws if it cannot commit now. A
     * success wakes the writes waiting to try again, and ends an outage.
     */
    @Override
    public void checkWritable() throws IOException {
        long began = System.nanoTime();
        try (Connection connection = pool.borrow()) {
            statements.commitProbe(connection);
        } catch (SQLException e) {
            throw new StorageException("PostgreSQL cannot commit a write now: " + PooledConnections.withCause(e), e);
        }
        outage.committed(began);
    }

    /** The writer's outage state; for tests. */
    Outage outage() {
        return outage;
    }

    /** Batches committed so far; for tests that check writes were grouped. */
    long commits() {
        return commits.get();
    }

    /** The pruning of commit rows; for tests. */
    CommitRowPruner pruner() {
        return pruner;
    }

    private void runLane(LaneConnection connection) {
        try {
            queue.consume(WriteQueue.MAX_BATCH, batch -> commit(batch, connection), this::fail, log);
        } finally {
            connection.close();
            lanesEnded.countDown();
        }
    }

    /** What one try of a batch came to. */
    private enum Result { COMMITTED, REFUSED, NOT_NOW, IN_DOUBT, NOT_COMMITTED }

    /**
     * One try: its result, when it began, and what it needs next: the answers (committed), the failure (otherwise),
     * the batch as committed (in doubt).
     */
    private record Attempt(Result result, long began, Runnable answers, SQLException failure, InDoubtBatch inDoubt) {
        static Attempt failed(Result result, long began, SQLException failure) {
            return new Attempt(result, began, null, failure, null);
        }
    }

    /** Takes {@code batch} to its answer: see the class description. */
    private void commit(List<Pending> batch, WriteConnections connections) throws InterruptedException {
        List<Pending> open = new ArrayList<>(batch);
        InDoubtBatch inDoubt = null; // a commit of these writes whose outcome is not known yet: found out before writing again
        SQLException last = null;
        boolean waitsOutOutage = false;
        long pause = 0;
        try {
            while (true) {
                failExpired(open, inDoubt, last);
                if (open.isEmpty()) {
                    return;
                }
                long successesBefore = outage.successes();
                Attempt attempt = inDoubt == null ? tryCommit(open, connections)
                        : tryOutcome(inDoubt, connections);
                switch (attempt.result()) {
                    case COMMITTED -> {
                        attempt.answers().run();
                        return;
                    }
                    case REFUSED -> {
                        refused(open, attempt.failure(), connections);
                        return;
                    }
                    case NOT_COMMITTED -> {
                        inDoubt = null; // and never will: the writes still waiting go again now, the database answered
                        continue;
                    }
                    case NOT_NOW -> inDoubt = null; // nothing was sent that could commit
                    case IN_DOUBT -> {
                        if (inDoubt == null) {
                            inDoubt = attempt.inDoubt(); // the batch as committed; a later lookup keeps it
                        }
                    }
                }
                last = attempt.failure();
                waitsOutOutage = outage.failed(last, successesBefore, attempt.began(), oldestQueuedAt(open),
                        waitsOutOutage);
                failExpired(open, inDoubt, last);
                if (open.isEmpty()) {
                    return;
                }
                pause = pause == 0 ? FIRST_PAUSE.toNanos() : Math.min(2 * pause, MAX_PAUSE.toNanos());
                outage.awaitRetry(successesBefore, Math.min(pause, untilFirstDeadline(open)));
            }
        } finally {
            if (waitsOutOutage) {
                outage.answered();
            }
        }
    }

    /**
     * A new batch's id: the time in milliseconds, then 74 random bits (UUID version 7's layout). Ids that grow with
     * time go in at the right edge of {@value CommitRows#TABLE}'s primary key, where wholly random ones would touch a
     * leaf page anywhere in it, each page's first change after a checkpoint writing the whole page to the WAL.
     */
    static UUID commitId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long mostSignificant = System.currentTimeMillis() << 16 | 0x7000L | random.nextLong() & 0x0FFFL;
        long leastSignificant = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(mostSignificant, leastSignificant);
    }

    /** One try at committing {@code open} as a new batch; answers nobody until the connection is done with. */
    private Attempt tryCommit(List<Pending> open, WriteConnections connections) {
        UUID id = commitId();
        long began = System.nanoTime();
        Connection connection = null;
        boolean broken = true;
        try {
            connection = connections.get();
            List<Boolean> results = statements.commit(connection, requestsOf(open), id);
            broken = false;
            commits.incrementAndGet();
            outage.committed(began);
            List<Pending> committed = List.copyOf(open);
            return new Attempt(Result.COMMITTED, began, () -> {
                for (int i = 0; i < committed.size(); i++) {
                    committed.get(i).result().complete(results.get(i));
                }
            }, null, null);
        } catch (PostgresBatch.InDoubtException e) {
            return new Attempt(Result.IN_DOUBT, began, null, e, new InDoubtBatch(id, open));
        } catch (SQLException e) {
            if (!PostgresFailures.transientFailure(e)) {
                broken = false; // the database refused the writes; the connection is fine
                return Attempt.failed(Result.REFUSED, began, e);
            }
            return Attempt.failed(Result.NOT_NOW, began, e);
        } finally {
            if (connection != null) {
                connections.done(connection, broken);
            }
        }
    }

    /** One try at finding out whether {@code inDoubt} committed, and if it did, what it decided. */
    private Attempt tryOutcome(InDoubtBatch inDoubt, WriteConnections connections) {
        long began = System.nanoTime();
        Connection connection = null;
        boolean broken = true;
        CommitRows.Decision decision;
        try {
            connection = connections.get();
            decision = commitRows.decide(connection, inDoubt.id());
            broken = false;
        } catch (SQLException e) {
            return Attempt.failed(Result.IN_DOUBT, began, e);
        } finally {
            if (connection != null) {
                connections.done(connection, broken);
            }
        }
        outage.committed(began); // the database answered a write: it commits again
        if (!decision.committed()) {
            log.debug("A batch of {} writes whose commit was in doubt had not committed; it goes again",
                    inDoubt.committed().size());
            return Attempt.failed(Result.NOT_COMMITTED, began, null);
        }
        log.debug("A batch of {} writes whose commit was in doubt had committed; answered as it decided",
                inDoubt.committed().size());
        return new Attempt(Result.COMMITTED, began, () -> inDoubt.answer(decision), null, null);
    }

    /** The database refused {@code open} for what it holds: one write fails alone; a batch goes again, one by one. */
    private void refused(List<Pending> open, SQLException failure, WriteConnections connections)
            throws InterruptedException {
        if (open.size() == 1) {
            fail(open.get(0), failure);
            return;
        }
        log.debug("Batch of {} writes refused; trying each on its own", open.size(), failure);
        for (Pending pending : open) {
            commit(List.of(pending), connections); // each checks its deadline before its try
        }
    }

    /**
     * Answers {@code Error} to the writes of {@code open} that have waited the failover time-out, and drops them from
     * it; an in-doubt batch keeps them, as committed.
     */
    private void failExpired(List<Pending> open, InDoubtBatch inDoubt, SQLException last) {
        long now = System.nanoTime();
        for (Iterator<Pending> each = open.iterator(); each.hasNext(); ) {
            Pending pending = each.next();
            if (now - pending.queuedAt() >= failoverNanos) {
                fail(pending, expired(inDoubt != null && inDoubt.committed().contains(pending), last));
                each.remove();
            }
        }
    }

    private StorageException expired(boolean inDoubt, SQLException last) {
        if (inDoubt) {
            return new StorageException("The connection to PostgreSQL was lost while the write committed, and whether"
                    + " it did could not be found out within the failover time-out; it may or may not be stored: "
                    + PostgresFailures.oneLine(last), last);
        }
        if (last == null) {
            return new StorageException("The write waited the failover time-out ("
                    + TimeUnit.NANOSECONDS.toMillis(failoverNanos) + " ms) before it could be tried; nothing stored");
        }
        return new StorageException("Write to postgresql failed: " + PooledConnections.withCause(last), last);
    }

    private long untilFirstDeadline(List<Pending> open) {
        long now = System.nanoTime();
        long first = Long.MAX_VALUE;
        for (Pending pending : open) {
            first = Math.min(first, pending.queuedAt() + failoverNanos - now);
        }
        return Math.max(0, first);
    }

    private static long oldestQueuedAt(List<Pending> open) {
        long oldest = open.get(0).queuedAt();
        for (Pending pending : open) {
            if (pending.queuedAt() - oldest < 0) {
                oldest = pending.queuedAt();
            }
        }
        return oldest;
    }

    private static List<List<WriteRequest>> requestsOf(List<Pending> batch) {
        List<List<WriteRequest>> groups = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            groups.add(pending.requests());
        }
        return groups;
    }

    private void fail(Pending pending, Throwable cause) {
        StorageException failure = cause instanceof StorageException storage ? storage
                : new StorageException("Write to postgresql failed: "
                        + (cause instanceof SQLException sql ? PooledConnections.withCause(sql) : cause.toString()), cause);
        if (pending.result().completeExceptionally(failure)) {
            outage.errorAnswered();
        }
    }

    /**
     * Stops taking writes, answers those queued and the large ones under way (committed, or failed within the
     * failover time-out), then returns.
     */
    @Override
    public void close() {
        largeWrites.closeThenAwait(queue::close);
        boolean interrupted = false;
        while (true) {
            try {
                lanesEnded.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        pruner.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
