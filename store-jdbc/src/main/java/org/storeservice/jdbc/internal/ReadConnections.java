package org.storeservice.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** Where reads ({@code get}, {@code scan}) borrow a connection from, apart from the write path. */
public interface ReadConnections extends AutoCloseable {

    /** A connection in auto-commit mode, exclusive to the caller until {@link #release}. */
    Connection acquire() throws SQLException;

    /** Gives a connection back; {@code broken} if it failed and should not be reused. */
    void release(Connection connection, boolean broken);

    /** What a failure to {@link #acquire} says, on one line, for the caller's message. */
    default String describe(SQLException failure) {
        return failure.getMessage();
    }

    @Override
    void close();
}
