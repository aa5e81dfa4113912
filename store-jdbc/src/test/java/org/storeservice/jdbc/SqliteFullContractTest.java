package org.storeservice.jdbc;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.Storage;
import org.storeservice.testkit.StorageContractTest;

/** The storage contract on SQLite with synchronous=FULL, the default. */
class SqliteFullContractTest extends StorageContractTest {
    @TempDir
    Path directory;

    protected Synchronous synchronous() {
        return Synchronous.FULL;
    }

    private SqliteStorageConfig config() {
        return SqliteStorageConfig.builder(directory.resolve("data/store.db")).synchronous(synchronous()).build();
    }

    @Override
    protected Storage openStorage() throws Exception {
        return JdbcStorage.sqlite(config());
    }

    @Override
    protected Optional<Storage> reopenStorage() throws Exception {
        return Optional.of(JdbcStorage.sqlite(config()));
    }
}
