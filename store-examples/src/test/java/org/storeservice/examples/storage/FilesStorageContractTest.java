package org.storeservice.examples.storage;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.testkit.StorageContractTest;

/** The shared storage contract on {@link FilesStorage}, a fresh directory per test, opened by URI as a host would. */
class FilesStorageContractTest extends StorageContractTest {
    @TempDir
    Path directory;

    @Override
    protected Storage openStorage() throws Exception {
        return Storages.open("files:" + directory);
    }

    @Override
    protected Optional<Storage> reopenStorage() throws Exception {
        return Optional.of(Storages.open("files:" + directory));
    }
}
