package org.storeservice.jdbc.internal;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What an engine (SQLite, PostgreSQL) hands {@code JdbcStorage}: its dialect and statements,
 * its write path and read connections, its limits, and what it alone can do.
 *
 * @param maxValueBytes the largest byte value accepted
 * @param spoolDirectory where byte content past its first 64 KiB is spooled; {@code null}: {@code java.io.tmpdir}
 * @param spoolMemoryBytes the heap values waiting for the database may hold together, past their first 64 KiB each
 * @param description for logs and {@code toString}; holds no password
 * @param backup a consistent copy of the database while it serves, where the engine makes one
 */
public record Engine(Dialect dialect, Sql sql, WritePath writes, ReadConnections reads, long maxValueBytes,
        Path spoolDirectory, long spoolMemoryBytes, String description, Optional<Backup> backup) {

    /** Writes a consistent copy of the database to a file that does not exist yet. */
    @FunctionalInterface
    public interface Backup {
        /** Copies the database to {@code target} (absolute, not existing); a copy that fails may leave a file. */
        void copyTo(Path target) throws java.sql.SQLException;
    }
}
