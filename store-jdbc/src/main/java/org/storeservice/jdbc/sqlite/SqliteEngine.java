package org.storeservice.jdbc.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.SqliteStorageConfig;
import org.storeservice.jdbc.internal.Dialect;
import org.storeservice.jdbc.internal.Engine;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.SpoolMemory;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;

/** SQLite's parts of a storage: one group-committing writer on the one write connection, separate readers. */
public final class SqliteEngine {
    private SqliteEngine() {
    }

    /** Opens (creating if absent) the database {@code config.path()} in WAL mode, with its table. */
    public static Engine open(SqliteStorageConfig config) throws IOException {
        Path path = config.path().toAbsolutePath();
        if (path.getParent() != null) {
            Files.createDirectories(path.getParent());
        }
        TableName table = TableName.parse(config.table());
        Dialect dialect = new SqliteDialect();
        Sql sql = new Sql(table);
        Connection writer = null;
        try {
            writer = SqliteWriterConnection.open(config);
            SchemaVersion.ensure(writer, dialect, table);
            GroupCommitWriter writePath = new GroupCommitWriter(writer, sql, path.getFileName().toString(),
                    (statement, request) -> Rows.write(statement, request, dialect), AnswerThreads.defaultCount());
            SqliteReaders readers = new SqliteReaders(SqliteWriterConnection.url(config), config.busyTimeoutMillis(), 4);
            return new Engine(dialect, sql, writePath, readers, config.maxValueBytes(), config.spoolDirectory(),
                    SpoolMemory.defaultBytes(),
                    "sqlite:" + path + " (table " + table + ", synchronous=" + config.synchronous() + ")",
                    Optional.of(target -> copy(readers, target)));
        } catch (SQLException | StorageException e) {
            if (writer != null) {
                try {
                    writer.close();
                } catch (SQLException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw e instanceof StorageException se ? se
                    : new StorageException("Could not open SQLite database " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code VACUUM INTO} on a connection of its own: one read transaction, so the copy holds exactly the writes
     * committed before it began, and no write waits for it.
     */
    private static void copy(SqliteReaders readers, Path target) throws SQLException {
        try (Connection connection = readers.openForCopy();
                PreparedStatement statement = connection.prepareStatement("VACUUM INTO ?")) {
            statement.setString(1, target.toString());
            statement.execute();
        }
    }
}
