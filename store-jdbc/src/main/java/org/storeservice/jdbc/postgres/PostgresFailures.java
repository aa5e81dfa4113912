package org.storeservice.jdbc.postgres;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.storeservice.jdbc.internal.LocalWriteFailure;

/**
 * Which PostgreSQL failures a write waits out (the database is away, restarting, failing over, or busy) and which are
 * the write's own (the database refused it), by SQLSTATE
 * (<a href="https://www.postgresql.org/docs/current/errcodes-appendix.html">PostgreSQL's error codes</a>).
 */
final class PostgresFailures {
    private static final String STATEMENT_TIMEOUT = "57014";

    private PostgresFailures() {
    }

    /**
     * Whether trying again, on another connection, may succeed: no connection (class 08, or the pool timed out
     * waiting for one), the server shutting down or starting (57P01-57P03), a cancelled statement (57014, the
     * statement time-out of a stalled server), a standby that cannot write (25006: connected to a demoted primary),
     * a conflict with a concurrent transaction (40001, 40P01), too few resources (class 53: too many connections).
     * A failure with no SQLSTATE is this side's own ({@link LocalWriteFailure}: a spooled value that could not be
     * read), unless it is a transient or recoverable one by its type (the pool's time-out).
     */
    static boolean transientFailure(SQLException e) {
        if (e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
            return true;
        }
        String state = e.getSQLState();
        if (state == null) {
            return false;
        }
        return state.startsWith("08") || state.startsWith("57") || state.startsWith("53") || state.startsWith("40")
                || state.equals("25006");
    }

    /**
     * Whether a failure says the database cannot commit now (an outage: readiness answers 503, and one WARN line),
     * rather than only that this attempt failed: a statement time-out (57014) is one slow statement, not an outage.
     */
    static boolean outage(SQLException e) {
        return transientFailure(e) && !STATEMENT_TIMEOUT.equals(e.getSQLState());
    }

    /**
     * Whether the connection was lost, or the server went down, with no answer to what was sent: if that was a
     * commit, it may have happened (also on a primary that committed locally and died waiting for its synchronous
     * standby). A failure with no SQLSTATE happened on this side, before anything was sent.
     */
    static boolean lostConnection(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P"));
    }

    /** The message of {@code e} on one line, for a log line that names no third-party stack. */
    static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
