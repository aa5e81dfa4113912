package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class PooledConnectionsTest {
    /** HikariCP's time-out carries the driver's reason only as its cause; the storage's message shows both. */
    @Test
    void aPoolTimeOutMessageCarriesTheDriversReason() {
        SQLException timedOut = new SQLTransientConnectionException("Connection is not available, request timed out",
                "08001", new SQLException("FATAL: password authentication failed for user \"u\""));
        assertEquals("Connection is not available, request timed out: FATAL: password authentication failed for user"
                + " \"u\"", PooledConnections.withCause(timedOut));
        assertEquals("alone", PooledConnections.withCause(new SQLException("alone")));
    }
}
