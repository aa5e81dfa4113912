package org.storeservice.jdbc.postgres;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether PostgreSQL commits the writer's writes, and the two WARN lines of each time it does not: one when writes stop
 * committing (with the first reason), one when every write that waited for it has been answered (after how long, how
 * many writes were answered {@code Error} meanwhile). Also the rendezvous of the tries waiting to go again: any
 * success (a batch, an outcome asked, the readiness probe) wakes them.
 *
 * <p>States: committing; failing (readiness answers 503); recovering (a commit begun since the outage started has
 * succeeded, so readiness answers 200 again, but writes that waited through the outage are still being answered: its
 * end is logged once the last of them is, so that the logged outage is the longest any write waited, as its clients
 * saw it). A failure of an attempt begun before the last success belongs to an outage already over and starts none; a
 * commit of an attempt begun before the outage started (a dying primary finishing it) does not end it. A statement
 * time-out alone is no outage ({@link PostgresFailures#outage}).
 *
 * <p>An outage is dated from when the oldest write of the failed attempt was queued, but not before the last success
 * (until then writes committed); an attempt noticed later with older writes moves the date back.
 */
final class Outage {
    private static final Logger log = LoggerFactory.getLogger(PostgresWriter.class); // the writer's lines, as before

    private enum State { COMMITTING, FAILING, RECOVERING }

    private final long failoverNanos;
    private State state = State.COMMITTING; // guarded by this
    /** {@link System#nanoTime()} the outage is dated from; meaningful while not COMMITTING. */
    private long since; // guarded by this
    private long errors; // guarded by this
    /** Batches that failed an attempt of this outage and are not answered yet. */
    private int waiting; // guarded by this
    private long successes; // guarded by this
    /** {@link System#nanoTime()} of the last success; meaningful once there was one. */
    private long lastSuccessAt; // guarded by this

    Outage(long failoverNanos) {
        this.failoverNanos = failoverNanos;
    }

    /** Successes so far, read before an attempt: {@link #failed} and {@link #awaitRetry} compare with it. */
    synchronized long successes() {
        return successes;
    }

    /** Whether writes commit: {@code false} from an outage's start until a commit begun since then succeeds. */
    synchronized boolean committing() {
        return state != State.FAILING;
    }

    /** {@link System#nanoTime()} the outage is dated from, or {@link Long#MIN_VALUE} while writes commit; for tests. */
    synchronized long since() {
        return state == State.COMMITTING ? Long.MIN_VALUE : since;
    }

    /**
     * An attempt of a batch begun at {@code attemptBegan}, when {@link #successes} was {@code successesBefore}, with
     * writes queued since {@code oldestQueuedAt}, failed: see the class description. {@code batchWaits}: whether the
     * batch already waits out this outage.
     *
     * @return whether the batch waits out an outage now; the end of the outage is logged only once every batch that
     *     does is {@link #answered}
     */
    synchronized boolean failed(SQLException failure, long successesBefore, long attemptBegan, long oldestQueuedAt,
            boolean batchWaits) {
        log.debug("A PostgreSQL write attempt failed", failure);
        if (!PostgresFailures.outage(failure)) {
            return batchWaits;
        }
        if (successes != successesBefore) {
            // An attempt the database outlived: no new outage; while one is not over, its batch is one of its stragglers.
            return state == State.COMMITTING ? batchWaits : waits(batchWaits);
        }
        long waitingSince = oldestQueuedAt - attemptBegan < 0 ? oldestQueuedAt : attemptBegan;
        if (successes > 0 && lastSuccessAt - waitingSince > 0) {
            waitingSince = lastSuccessAt - attemptBegan < 0 ? lastSuccessAt : attemptBegan;
        }
        switch (state) {
            case COMMITTING -> {
                state = State.FAILING;
                since = waitingSince;
                errors = 0;
                log.warn("PostgreSQL writes are not committing ({}); each write waits up to {} ms for the database",
                        PostgresFailures.oneLine(failure), TimeUnit.NANOSECONDS.toMillis(failoverNanos));
            }
            case FAILING, RECOVERING -> {
                // The same outage, noticed again: by an attempt with older writes (in flight when the database died),
                // or the database failing again before every write of the first failure was answered.
                state = State.FAILING;
                if (waitingSince - since < 0) {
                    since = waitingSince;
                }
            }
        }
        return waits(batchWaits);
    }

    private boolean waits(boolean batchWaits) {
        if (!batchWaits) {
            waiting++;
        }
        return true;
    }

    /** A batch for which {@link #failed} answered {@code true} is answered. */
    synchronized void answered() {
        waiting--;
        endIfOver();
    }

    /** An {@code Error} was answered; counted for the end line while writes do not commit. */
    synchronized void errorAnswered() {
        if (state != State.COMMITTING) {
            errors++;
        }
    }

    /**
     * A write attempt (a batch, an outcome asked, the probe) begun at {@code attemptBegan} committed: the tries waiting
     * to go again go now, and the outage ends if the attempt began after it started.
     */
    synchronized void committed(long attemptBegan) {
        lastSuccessAt = System.nanoTime();
        successes++;
        notifyAll();
        if (state == State.FAILING && attemptBegan - since >= 0) {
            state = State.RECOVERING;
            endIfOver();
        }
    }

    /** Waits up to {@code nanos}, or until a commit succeeds that had not when {@link #successes} was read. */
    synchronized void awaitRetry(long successesBefore, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        long left;
        while (successes == successesBefore && (left = deadline - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private void endIfOver() {
        if (state == State.RECOVERING && waiting == 0) {
            state = State.COMMITTING;
            log.warn("PostgreSQL writes commit again after {} ms; {} writes were answered Error meanwhile",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), errors);
        }
    }
}
