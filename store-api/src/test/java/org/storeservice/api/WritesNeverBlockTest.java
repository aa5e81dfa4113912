package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
    void theMemoryStorageSaysSoAndHoldsNoLockWhileAValueArrives() throws Exception {
        MemoryStorage storage = new MemoryStorage();
        assertTrue(storage.writesNeverBlock());
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        InputStream stalled = new InputStream() {
            @Override
            public int read() throws IOException {
                reading.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
                return -1;
            }
        };
        Thread slowWriter = new Thread(() -> {
            try {
                storage.putBytes("k", stalled, OverwritePolicy.REPLACE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        slowWriter.start();
        assertTrue(reading.await(10, TimeUnit.SECONDS));

        // While that write waits for its content, writes of the same key and of another one complete at once.
        assertTrue(storage.putText("k", "v", OverwritePolicy.REPLACE));
        assertTrue(storage.putText("other", "w", OverwritePolicy.REPLACE));
        assertEquals("v", storage.get("k").orElseThrow().text());

        release.countDown();
        slowWriter.join(10_000);
        assertFalse(slowWriter.isAlive());
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
