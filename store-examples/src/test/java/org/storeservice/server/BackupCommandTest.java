package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;

/** {@code backup}: a SQLite copy that opens as a storage, a refusal to overwrite, and one line for PostgreSQL. */
class BackupCommandTest {

    @Test
    void copiesASqliteStorageThatTheServerThenOpens(@TempDir Path directory) throws Exception {
        String uri = "sqlite:" + directory.resolve("store.db");
        try (Storage storage = Storages.open(uri)) {
            storage.putText("k", "v", OverwritePolicy.REPLACE);
        }
        Path copy = directory.resolve("copy.db");

        ToolRun run = ToolRun.run("backup", "--storage", uri, copy.toString());

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        assertEquals("store-server backup: backed up to " + copy.toAbsolutePath(), run.err.strip());
        try (Storage restored = Storages.open("sqlite:" + copy)) {
            assertEquals("v", restored.get("k").orElseThrow().text());
        }
        ToolRun again = ToolRun.run("backup", "--storage", uri, copy.toString());
        assertEquals(Main.EXIT_FAILURE, again.status);
        assertTrue(again.err.contains("Will not overwrite " + copy.toAbsolutePath()), again.err);
    }

    @Test
    void forPostgresqlSaysWhatToUseInstead(@TempDir Path directory) {
        ToolRun run = ToolRun.run("backup", "--storage", "jdbc:postgresql://127.0.0.1:1/none", directory.resolve("x").toString());

        assertEquals(Main.EXIT_USAGE, run.status);
        assertEquals("store-server: backup copies SQLite storage; for PostgreSQL use pg_dump (a logical copy) or"
                + " pg_basebackup with WAL archiving (point-in-time recovery)", run.err.lines().findFirst().orElseThrow());
        assertTrue(Files.notExists(directory.resolve("x")));
    }
}
