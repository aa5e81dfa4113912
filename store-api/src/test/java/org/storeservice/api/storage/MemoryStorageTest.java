package org.storeservice.api.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.storeservice.api.OverwritePolicy;

class MemoryStorageTest {
    private static final Instant T = Instant.parse("2026-11-21T12:00:00Z");
    private final MemoryStorage storage = new MemoryStorage(Clock.fixed(T, ZoneOffset.UTC));

    @Test
    void storesTextAndBytesWithTheirKindAndTime() throws IOException {
        storage.putText("t", "hello", OverwritePolicy.REPLACE);
        storage.putBytes("b", new ByteArrayInputStream(new byte[] {0, 1}), OverwritePolicy.REPLACE);
        assertEquals(StoredEntry.text("t", "hello", T), storage.get("t").orElseThrow());
        assertEquals(StoredEntry.bytes("b", new byte[] {0, 1}, T), storage.get("b").orElseThrow());
        assertEquals(T, storage.get("t").orElseThrow().writtenAt());
        assertTrue(storage.get("absent").isEmpty());
    }

    @Test
    void scanVisitsMatchingKeysInOrder() throws IOException {
        for (String key : List.of("b/2", "a", "b/1", "c", "b")) {
            storage.putText(key, key, OverwritePolicy.REPLACE);
        }
        assertEquals(List.of("b", "b/1", "b/2"), keys("b"));
        assertEquals(List.of("a", "b", "b/1", "b/2", "c"), keys(""));
        assertEquals(List.of(), keys("z"));
    }

    @Test
    void failedContentStreamStoresNothing() throws IOException {
        storage.putText("k", "old", OverwritePolicy.REPLACE);
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("broken");
            }
        };
        assertThrows(IOException.class, () -> storage.putBytes("k", broken, OverwritePolicy.REPLACE));
        assertEquals("old", storage.get("k").orElseThrow().text());
    }

    @Test
    void rejectPolicyLetsExactlyOneConcurrentWriterWin() throws Exception {
        int writers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Callable<Boolean>> tasks = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String value = "v" + i;
                tasks.add(() -> storage.putText("same", value, OverwritePolicy.REJECT));
            }
            int wins = 0;
            for (Future<Boolean> result : pool.invokeAll(tasks)) {
                wins += result.get() ? 1 : 0;
            }
            assertEquals(1, wins);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closedStorageRefusesWork() throws IOException {
        storage.putText("k", "v", OverwritePolicy.REPLACE);
        storage.close();
        storage.close();
        assertThrows(StorageException.class, () -> storage.get("k"));
        assertThrows(StorageException.class, () -> storage.putText("k", "v", OverwritePolicy.REPLACE));
        assertFalse(storage.toString().isEmpty());
    }

    private List<String> keys(String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        storage.scan(prefix, entry -> keys.add(entry.key()));
        return keys;
    }
}
