package org.storeservice.testkit;

import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;

/** The contract against the in-memory backend, which keeps nothing across close. */
class MemoryStorageContractTest extends StorageContractTest {
    @Override
    protected Storage openStorage() {
        return new MemoryStorage();
    }
}
