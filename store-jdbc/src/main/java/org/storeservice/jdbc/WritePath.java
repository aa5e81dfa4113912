package org.storeservice.jdbc;

import java.io.IOException;

/** How writes reach the database: one serialized group-committing writer (SQLite) or a pool (PostgreSQL). */
interface WritePath extends AutoCloseable {

    /**
     * Writes {@code request} durably before returning.
     *
     * @return {@code true} if written; {@code false} if the policy rejected an existing key
     * @throws IOException if the write is not known to have happened: nothing was written, or (PostgreSQL) the
     *     connection broke after the server committed, and the new value is there
     */
    boolean write(WriteRequest request) throws IOException;

    /** Finishes or fails what is in flight and releases connections. */
    @Override
    void close();
}
