package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/** The "writes never block" answer: safe by default, true for memory, carried through {@link DefaultStore}. */
class WritesNeverBlockTest {

    @Test
    void aStorageThatSaysNothingMayBlock() {
        assertFalse(new SilentStorage().writesNeverBlock());
    }

    @Test
    void theMemoryStorageNeverBlocks() {
        assertTrue(new MemoryStorage().writesNeverBlock());
    }

    @Test
    void aStoreThatSaysNothingMayBlock() {
        Store store = new Store() {
            @Override
            public Status writeString(String key, String value) {
                return Status.SUCCESS;
            }

            @Override
            public Status writeBytes(String key, InputStream content) {
                return Status.SUCCESS;
            }
        };
        assertFalse(store.writesNeverBlock());
    }

    @Test
    void theDefaultStoreAnswersWhatItsStorageAnswers() {
        assertTrue(DefaultStore.of(new MemoryStorage()).writesNeverBlock());
        assertFalse(DefaultStore.of(new SilentStorage()).writesNeverBlock());
        assertTrue(DefaultStore.of(new SilentStorage() {
            @Override
            public boolean writesNeverBlock() {
                return true;
            }
        }).writesNeverBlock());
    }

    /** A storage that does not override the answer. */
    private static class SilentStorage implements Storage {
        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) {
            return true;
        }

        @Override
        public boolean putBytes(String key, InputStream content, OverwritePolicy policy) {
            return true;
        }

        @Override
        public Optional<StoredEntry> get(String key) {
            return Optional.empty();
        }

        @Override
        public void scan(String keyPrefix, EntryVisitor visitor) {
        }

        @Override
        public void close() {
        }
    }
}
