package org.storeservice.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.RepeatedTest;
import org.opentest4j.AssertionFailedError;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * The kit catches the commonest REJECT bug, a check and then a put in two steps, in every run: the contract's race
 * test, run against such a backend, must fail each time (measured: 84 to 294 of its 300 rounds caught it per run).
 */
class CheckThenPutCaughtTest {

    /** Right in every way but one: under REJECT, two writers can both find the key absent, and both write it. */
    static final class CheckThenPutStorage implements Storage {
        private final Map<String, StoredEntry> entries = new ConcurrentHashMap<>();

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) {
            if (policy == OverwritePolicy.REJECT && entries.containsKey(key)) {
                return false;
            }
            entries.put(key, StoredEntry.text(key, value, java.time.Instant.now()));
            return true;
        }

        @Override
        public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
            throw new UnsupportedOperationException("not needed here");
        }

        @Override
        public Optional<StoredEntry> get(String key) {
            return Optional.ofNullable(entries.get(key));
        }

        @Override
        public void scan(String keyPrefix, EntryVisitor visitor) {
            throw new UnsupportedOperationException("not needed here");
        }

        @Override
        public void close() {
        }
    }

    static final class CheckThenPutContract extends StorageContractTest {
        @Override
        protected Storage openStorage() {
            return new CheckThenPutStorage();
        }
    }

    @RepeatedTest(10)
    void theRaceTestFailsACheckThenPutBackend() throws Exception {
        CheckThenPutContract contract = new CheckThenPutContract();
        contract.openStorageUnderTest();
        try {
            AssertionFailedError caught =
                    assertThrows(AssertionFailedError.class, contract::rejectPolicyLetsExactlyOneConcurrentWriterWin);
            assertTrue(caught.getMessage().contains("rounds had not exactly one winner"), caught.getMessage());
        } finally {
            contract.closeStorages();
        }
    }
}
