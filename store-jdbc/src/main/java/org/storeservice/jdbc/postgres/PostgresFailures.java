package org.storeservice.jdbc.postgres;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.storeservice.jdbc.internal.LocalWriteFailure;

/**
 * Which PostgreSQL failures a write waits out (the database is away, restarting, failing over, or busy), which leave a
 * commit in doubt, and which are the write's own (the database refused it), by SQLSTATE, each one named
 * (<a href="https://www.postgresql.org/docs/current/errcodes-appendix.html">PostgreSQL's error codes</a>). A failure
 * with no SQLSTATE is this side's own ({@link LocalWriteFailure}: a spooled value that could not be read), unless its
 * type says the connection failed (the pool's time-out).
 */
final class PostgresFailures {
    /** Class 08, connection exception: no connection, or it broke. */
    private static final String CONNECTION_EXCEPTION = "08";
    /** Class 53, insufficient resources: too many connections, out of memory, disk full. */
    private static final String INSUFFICIENT_RESOURCES = "53";
    /** 57014 query_canceled: the statement time-out of a stalled server (the server answered: nothing committed). */
    static final String QUERY_CANCELED = "57014";
    /**
     * The server ended the connection: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
     * or in recovery), 57P05 idle_session_timeout.
     */
    private static final Set<String> SERVER_ENDED_CONNECTION = Set.of("57P01", "57P02", "57P03", "57P05");
    /** 25006 read_only_sql_transaction: connected to a standby, or a primary demoted since. */
    private static final String READ_ONLY_SQL_TRANSACTION = "25006";
    /** Lost to a concurrent transaction, so that trying again may succeed: 40001 serialization_failure, 40P01 deadlock_detected. */
    private static final Set<String> LOST_TO_CONCURRENT_TRANSACTION = Set.of("40001", "40P01");
    /** 40003 statement_completion_unknown: whether it committed is not known, by definition. */
    private static final String STATEMENT_COMPLETION_UNKNOWN = "40003";

    private PostgresFailures() {
    }

    /**
     * Whether trying again, on another connection, may succeed: the database cannot commit now ({@link #outage}), a
     * cancelled statement (its time-out), or a transaction lost to a concurrent one. Not 40002 (integrity constraint
     * violation at commit) or any other code of class 40: trying again cannot make those succeed.
     */
    static boolean transientFailure(SQLException e) {
        if (outage(e)) {
            return true;
        }
        String state = e.getSQLState();
        return state != null && (QUERY_CANCELED.equals(state) || LOST_TO_CONCURRENT_TRANSACTION.contains(state));
    }

    /**
     * Whether a failure says the database cannot commit now (an outage: readiness answers 503, and one WARN line)
     * rather than only that this attempt failed: no connection (class 08, or the pool timed out waiting for one), the
     * server ended it, a standby that cannot write, too few resources. A statement time-out is one slow statement, and
     * a transaction lost to another is the database at work: neither is an outage.
     */
    static boolean outage(SQLException e) {
        if (e instanceof SQLTransientConnectionException || e instanceof SQLRecoverableException) {
            return true;
        }
        String state = e.getSQLState();
        return state != null && (state.startsWith(CONNECTION_EXCEPTION) || state.startsWith(INSUFFICIENT_RESOURCES)
                || SERVER_ENDED_CONNECTION.contains(state) || READ_ONLY_SQL_TRANSACTION.equals(state));
    }

    /**
     * Whether a failure while a commit was under way leaves it in doubt: the connection was lost, or the server went
     * down, with no answer to what was sent (also a primary that committed locally and died waiting for its synchronous
     * standby), or the server said itself that it does not know (40003). A failure with no SQLSTATE happened on this
     * side, before anything was sent.
     */
    static boolean inDoubt(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith(CONNECTION_EXCEPTION) || SERVER_ENDED_CONNECTION.contains(state)
                || STATEMENT_COMPLETION_UNKNOWN.equals(state));
    }

    /** The message of {@code e} on one line, for a log line that names no third-party stack. */
    static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
