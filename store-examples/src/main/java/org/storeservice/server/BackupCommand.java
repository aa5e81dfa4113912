package org.storeservice.server;

import java.io.IOException;
import java.nio.file.Path;
import org.storeservice.api.storage.Storage;
import org.storeservice.jdbc.JdbcStorage;
import org.storeservice.jdbc.PostgresStorageConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code backup}: a consistent copy of a SQLite storage, taken while a server writes to it ({@link JdbcStorage#backupTo}).
 * Other backends say what to use instead.
 */
@Command(name = "backup", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Copy a SQLite storage to FILE, consistently, while it serves.",
        description = {"Writes a consistent copy of the SQLite storage to FILE (which must not exist) while servers keep",
                "writing to it: the copy holds every write acknowledged before the backup began. It is a plain SQLite",
                "file: to restore, stop the server, put the copy in place of the database file (removing the old file's",
                "-wal and -shm files), and start it. For PostgreSQL use pg_dump or pg_basebackup."})
final class BackupCommand extends StorageCommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "Where the copy goes; must not exist.")
    Path target;

    BackupCommand(ToolContext context) {
        super(context);
    }

    @Override
    void checkArguments() {
        if (common.storageUri.regionMatches(true, 0, PostgresStorageConfig.URI_PREFIX, 0,
                PostgresStorageConfig.URI_PREFIX.length())) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "backup copies SQLite storage; for"
                    + " PostgreSQL use pg_dump (a logical copy) or pg_basebackup with WAL archiving (point-in-time recovery)");
        }
    }

    @Override
    int run(Storage storage) throws IOException {
        if (!(storage instanceof JdbcStorage sqlite)) {
            return fail("backup copies SQLite storage; " + common.storageUri + " is not (export copies any storage's entries)");
        }
        sqlite.backupTo(target);
        message("backed up to " + target.toAbsolutePath());
        return Main.EXIT_OK;
    }
}
