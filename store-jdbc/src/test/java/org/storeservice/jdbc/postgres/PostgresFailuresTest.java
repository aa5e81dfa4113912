package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.storeservice.jdbc.internal.LocalWriteFailure;

/** Which failures are the database's state, which are in doubt, and which are this side's own. */
class PostgresFailuresTest {

    @Test
    void aSpooledValueThatCannotBeReadIsThisSidesOwnFailureNeitherWaitedOutNorInDoubt() {
        SQLException local = new LocalWriteFailure("Could not read the spooled value: disk error", new IOException("EIO"));
        assertFalse(PostgresFailures.transientFailure(local), "trying again reads the same broken file");
        assertFalse(PostgresFailures.lostConnection(local), "nothing was sent: nothing can have committed");
        assertFalse(PostgresFailures.outage(local));
    }

    @Test
    void aStatementTimeOutIsTriedAgainButIsNoOutage() {
        SQLException timedOut = new SQLException("canceling statement due to statement timeout", "57014");
        assertTrue(PostgresFailures.transientFailure(timedOut));
        assertFalse(PostgresFailures.outage(timedOut), "one slow statement is not a database that cannot commit");
        assertFalse(PostgresFailures.lostConnection(timedOut), "the server answered: it did not commit");
    }

    @Test
    void aLostConnectionIsAnOutageAndLeavesACommitInDoubt() {
        SQLException lost = new SQLException("An I/O error occurred while sending to the backend.", "08006");
        assertTrue(PostgresFailures.transientFailure(lost));
        assertTrue(PostgresFailures.outage(lost));
        assertTrue(PostgresFailures.lostConnection(lost));
        SQLException shutdown = new SQLException("terminating connection due to administrator command", "57P01");
        assertTrue(PostgresFailures.lostConnection(shutdown));
        SQLException poolTimedOut = new SQLTransientConnectionException("Connection is not available, request timed out");
        assertTrue(PostgresFailures.outage(poolTimedOut));
        assertFalse(PostgresFailures.lostConnection(poolTimedOut), "no connection: nothing was sent");
    }

    @Test
    void whatTheDatabaseRefusesIsTheWritesOwn() {
        SQLException refused = new SQLException("value too long", "22001");
        assertFalse(PostgresFailures.transientFailure(refused));
        assertFalse(PostgresFailures.lostConnection(refused));
    }
}
