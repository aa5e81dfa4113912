package org.storeservice.jdbc.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/** Where one try of a batch takes its connection: a lane's own ({@link LaneConnection}), or the pool's. */
interface WriteConnections {
    /** A connection for one try. */
    Connection get() throws SQLException;

    /** The try is over; {@code broken}: the connection failed and is not used again. */
    void done(Connection connection, boolean broken);
}
