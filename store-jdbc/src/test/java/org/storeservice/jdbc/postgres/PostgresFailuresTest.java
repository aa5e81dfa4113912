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
        assertFalse(PostgresFailures.inDoubt(local), "nothing was sent: nothing can have committed");
        assertFalse(PostgresFailures.outage(local));
    }

    @Test
    void aStatementTimeOutIsTriedAgainButIsNoOutage() {
        SQLException timedOut = new SQLException("canceling statement due to statement timeout", "57014");
        assertTrue(PostgresFailures.transientFailure(timedOut));
        assertFalse(PostgresFailures.outage(timedOut), "one slow statement is not a database that cannot commit");
        assertFalse(PostgresFailures.inDoubt(timedOut), "the server answered: it did not commit");
    }

    @Test
    void aLostConnectionIsAnOutageAndLeavesACommitInDoubt() {
        SQLException lost = new SQLException("An I/O error occurred while sending to the backend.", "08006");
        assertTrue(PostgresFailures.transientFailure(lost));
        assertTrue(PostgresFailures.outage(lost));
        assertTrue(PostgresFailures.inDoubt(lost));
        SQLException shutdown = new SQLException("terminating connection due to administrator command", "57P01");
        assertTrue(PostgresFailures.inDoubt(shutdown));
        SQLException poolTimedOut = new SQLTransientConnectionException("Connection is not available, request timed out");
        assertTrue(PostgresFailures.outage(poolTimedOut));
        assertFalse(PostgresFailures.inDoubt(poolTimedOut), "no connection: nothing was sent");
    }

    @Test
    void whatTheDatabaseRefusesIsTheWritesOwn() {
        SQLException refused = new SQLException("value too long", "22001");
        assertFalse(PostgresFailures.transientFailure(refused));
        assertFalse(PostgresFailures.inDoubt(refused));
    }

    /** Class 40 by name: a lost race with another transaction is tried again; what cannot succeed, or is unknown, not. */
    @Test
    void onlyTheNamedConflictsOfClass40AreTriedAgain() {
        for (String state : new String[] {"40001", "40P01"}) {
            SQLException conflict = new SQLException("could not serialize access", state);
            assertTrue(PostgresFailures.transientFailure(conflict), state);
            assertFalse(PostgresFailures.outage(conflict), state + ": the database at work, not away");
            assertFalse(PostgresFailures.inDoubt(conflict), state);
        }
        SQLException constraintAtCommit = new SQLException("integrity constraint violation", "40002");
        assertFalse(PostgresFailures.transientFailure(constraintAtCommit), "trying again cannot make it succeed");
        SQLException unknown = new SQLException("statement completion unknown", "40003");
        assertTrue(PostgresFailures.inDoubt(unknown), "in doubt by definition: its outcome is looked up");
        assertFalse(PostgresFailures.transientFailure(unknown), "never simply written again");
    }

    @Test
    void aStandbyAndTooManyConnectionsAreOutages() {
        assertTrue(PostgresFailures.outage(new SQLException("cannot execute INSERT in a read-only transaction", "25006")));
        assertTrue(PostgresFailures.outage(new SQLException("sorry, too many clients already", "53300")));
        assertTrue(PostgresFailures.outage(new SQLException("the database system is starting up", "57P03")));
    }
}
