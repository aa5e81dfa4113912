package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When {@link Outage} says writes stopped committing, and when it logs that they commit again. Each case was seen in a
 * failover test: a lane that waited out a failover fails only after another lane committed again (a second pair of WARN
 * lines for an outage that lasted a millisecond, in {@code HighAvailabilityIT}); a dying primary finishes a commit
 * begun before the outage; a lane's clients still wait after another lane committed (a logged outage shorter than its
 * clients' wait, in {@code SeparateHostsDeploymentIT}).
 */
class OutageTest {
    private static final long FAILOVER = TimeUnit.SECONDS.toNanos(30);
    private static final SQLException LOST = new SQLException("An I/O error occurred while sending to the backend.", "08006");

    private final Outage outage = new Outage(FAILOVER);

    @Test
    void aFailedAttemptThatBeganBeforeTheLastSuccessStartsNoOutage() {
        long before = outage.successes();
        long began = System.nanoTime();
        outage.committed(System.nanoTime()); // another lane's commit, or the probe's, after this attempt began
        assertFalse(outage.failed(new SQLTransientConnectionException("Connection is not available, request timed out"),
                before, began, began, false), "its batch waits out no outage");
        assertTrue(outage.committing(), "a failure of an attempt begun before the last success is no new outage");

        long now = System.nanoTime();
        assertTrue(outage.failed(LOST, outage.successes(), now, now, false));
        assertFalse(outage.committing(), "a failure since the last success is");
    }

    @Test
    void anyKindOfSuccessCountsNotOnlyABatchCommit() {
        long before = outage.successes();
        long began = System.nanoTime();
        outage.committed(System.nanoTime()); // an in-doubt batch's outcome read, which commits no batch of writes
        outage.failed(LOST, before, began, began, false);
        assertTrue(outage.committing());
    }

    @Test
    void aCommitOfAnAttemptThatBeganBeforeTheOutageDoesNotEndIt() {
        long beganBeforeTheOutage = System.nanoTime();
        long now = System.nanoTime();
        outage.failed(LOST, outage.successes(), now, now, false);
        assertFalse(outage.committing());

        outage.committed(beganBeforeTheOutage);
        assertFalse(outage.committing(), "a dying primary finishing a commit begun earlier ends no outage");

        outage.committed(System.nanoTime());
        assertTrue(outage.committing(), "a commit of an attempt begun since the outage started ends it");
    }

    @Test
    void aStatementTimeOutStartsNoOutage() {
        long now = System.nanoTime();
        assertFalse(outage.failed(new SQLException("canceling statement due to statement timeout", "57014"),
                outage.successes(), now, now, false));
        assertTrue(outage.committing(), "one slow statement: readiness stays 200, no WARN line");
    }

    /**
     * A vanished host is noticed only when the socket time-out runs out: the outage is dated from when the failed
     * attempt's oldest write was queued, which is when its client began to wait.
     */
    @Test
    void anOutageIsDatedFromTheOldestWriteOfTheFailedAttempt() {
        long queued = System.nanoTime() - TimeUnit.SECONDS.toNanos(7);
        long began = System.nanoTime() - TimeUnit.SECONDS.toNanos(6);
        outage.failed(LOST, outage.successes(), began, queued, false);
        assertEquals(queued, outage.since());
    }

    @Test
    void butNotFromBeforeTheLastSuccess() {
        long queued = System.nanoTime() - TimeUnit.SECONDS.toNanos(7);
        long beforeTheSuccess = System.nanoTime();
        outage.committed(System.nanoTime()); // another lane committed after this attempt's oldest write was queued
        long began = System.nanoTime();
        outage.failed(LOST, outage.successes(), began, queued, false);
        assertTrue(outage.since() - beforeTheSuccess > 0, "writes committed until the last success");
        assertTrue(began - outage.since() >= 0);
    }

    /**
     * A lane whose attempt began after the database died fails at once and starts the outage; the lane that was in
     * flight notices later, with writes that had waited longer: the outage is dated from those.
     */
    @Test
    void anOutageNoticedFirstByNewerWritesIsDatedFromTheOlderOnes() {
        long inFlight = System.nanoTime() - TimeUnit.SECONDS.toNanos(6);
        long newer = System.nanoTime() - TimeUnit.SECONDS.toNanos(1);
        long successes = outage.successes();
        outage.failed(new SQLException("Connection refused", "08001"), successes, newer, newer, false);
        assertEquals(newer, outage.since());
        outage.failed(LOST, successes, inFlight, inFlight, false);
        assertEquals(inFlight, outage.since());
    }

    /**
     * Once writes commit again, readiness says so at once, but the outage's end is logged (and its length taken) only
     * when the last write that waited through it is answered: a lane still on a vanished host's socket when the other
     * lane commits answers its clients later, and they waited that long.
     */
    @Test
    void theEndWaitsForEveryBatchThatWaitedOutTheOutage() {
        long now = System.nanoTime();
        boolean first = outage.failed(LOST, outage.successes(), now, now, false);
        boolean second = outage.failed(LOST, outage.successes(), now, now, false);
        assertTrue(first && second, "both batches wait it out");

        outage.committed(System.nanoTime()); // the first batch's lane commits again
        outage.answered();
        assertTrue(outage.committing(), "readiness: writes commit");
        assertEquals(now, outage.since(), "not over: the second batch still waits");

        outage.answered(); // the second lane, off its dead socket, commits too
        assertEquals(Long.MIN_VALUE, outage.since(), "over once every waiting batch is answered");
    }

    /** A batch that fails again after another lane committed is one of the outage's stragglers: no new outage. */
    @Test
    void aStragglerFailingAfterTheRecoveryStartsNoNewOutage() {
        long now = System.nanoTime();
        long successes = outage.successes();
        boolean waits = outage.failed(LOST, successes, now, now, false);
        outage.committed(System.nanoTime());
        waits = outage.failed(LOST, successes, now, now, waits); // began before that success
        assertTrue(waits);
        assertTrue(outage.committing());
        outage.answered();
        assertEquals(Long.MIN_VALUE, outage.since());
    }

    @Test
    void theProbeEndsAnOutageNoBatchWaitsFor() {
        long now = System.nanoTime();
        boolean waits = outage.failed(LOST, outage.successes(), now, now, false);
        assertTrue(waits);
        outage.answered(); // its writes were answered Error: they waited the failover time-out
        assertFalse(outage.committing());
        outage.committed(System.nanoTime()); // the readiness probe commits
        assertTrue(outage.committing());
        assertEquals(Long.MIN_VALUE, outage.since());
    }
}
