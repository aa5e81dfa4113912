package org.storeservice.examples.minimal;

import org.storeservice.api.storage.Storage;
import org.storeservice.testkit.StorageContractTest;

/** Every rule of the storage contract, run against SortedMapStorage: a backend's whole test class. */
class SortedMapStorageContractTest extends StorageContractTest {
    @Override
    protected Storage openStorage() {
        return new SortedMapStorage();
    }
}
