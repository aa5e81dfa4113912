package org.storeservice.api.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.Arrays;
import java.util.List;
import java.util.Random;
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

    /** Every size around the old chunk edges, larger and smaller after each other, from a stream that gives little per read. */
    @Test
    void storesByteContentOfEverySizeExactly() throws IOException {
        Random random = new Random(3);
        int firstChunk = 8192;
        int chunk = 256 * 1024;
        int[] sizes = {0, 1, firstChunk - 1, firstChunk, firstChunk + 1, firstChunk + chunk - 1, firstChunk + chunk,
            firstChunk + chunk + 1, firstChunk + chunk + chunk / 2 - 1, firstChunk + chunk + chunk / 2,
            4 << 20, firstChunk + 2 * chunk - 1, firstChunk + 2 * chunk,
            firstChunk + 2 * chunk + 1, (4 << 20) + 3, 100};
        for (int size : sizes) {
            byte[] value = new byte[size];
            random.nextBytes(value);
            for (int perRead : new int[] {Integer.MAX_VALUE, 1000}) {
                InputStream trickle = new ByteArrayInputStream(value) {
                    @Override
                    public synchronized int read(byte[] b, int off, int len) {
                        return super.read(b, off, Math.min(len, perRead));
                    }
                };
                storage.putBytes("k", trickle, OverwritePolicy.REPLACE);
                StoredEntry entry = storage.get("k").orElseThrow();
                assertEquals(size, entry.size(), "size " + size);
                assertArrayEquals(value, entry.bytes(), "size " + size);
            }
        }
    }

    /**
     * The array is sized from the content's {@code available()}: whether that is exact, short, far too large or
     * zero, the stored value is exactly what was read, and a far-off guess leaves no large slack behind.
     */
    @Test
    void storesExactlyWhateverTheContentEstimatesItsSizeAs() throws IOException {
        Random random = new Random(5);
        for (int size : new int[] {0, 1, 8191, 8192, 8193, 100_000, 1 << 20}) {
            byte[] value = new byte[size];
            random.nextBytes(value);
            for (int estimate : new int[] {size, size / 2, size + 3, 10 * size + 100, 0}) {
                InputStream content = new ByteArrayInputStream(value) {
                    @Override
                    public synchronized int available() {
                        return estimate;
                    }
                };
                storage.putBytes("k", content, OverwritePolicy.REPLACE);
                StoredEntry entry = storage.get("k").orElseThrow();
                String what = "size " + size + ", estimate " + estimate;
                assertEquals(size, entry.size(), what);
                assertArrayEquals(value, entry.bytes(), what);
                assertEquals(StoredEntry.bytes("k", value, T), entry, what);
            }
        }
    }

    /** Writers in parallel each get back exactly their own value. */
    @Test
    void concurrentLargeWritesKeepTheirOwnBytes() throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit((Callable<Void>) () -> {
                    Random random = new Random(writer);
                    for (int round = 0; round < 20; round++) {
                        byte[] value = new byte[300_000 + random.nextInt(700_000)];
                        random.nextBytes(value);
                        String key = "w" + writer;
                        storage.putBytes(key, new ByteArrayInputStream(value), OverwritePolicy.REPLACE);
                        assertArrayEquals(value, storage.get(key).orElseThrow().bytes(), key + " round " + round);
                    }
                    return null;
                }));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A large value replaced by text reads back as the text. */
    @Test
    void aLargeValueReplacedByTextReadsBackAsText() throws IOException {
        byte[] value = new byte[3 << 20];
        Arrays.fill(value, (byte) 7);
        storage.putBytes("k", new ByteArrayInputStream(value), OverwritePolicy.REPLACE);
        assertArrayEquals(value, storage.get("k").orElseThrow().bytes());

        storage.putText("k", "small", OverwritePolicy.REPLACE);

        assertEquals("small", storage.get("k").orElseThrow().text());
    }

    /** A large value that is not stored (REJECT lost, or its content failed part way) leaves the map as it was. */
    @Test
    void aLargeValueNotStoredLeavesTheMapAsItWas() throws IOException {
        int chunk = 256 * 1024;
        storage.putText("taken", "first", OverwritePolicy.REPLACE);

        assertFalse(storage.putBytes("taken", new ByteArrayInputStream(new byte[8192 + 2 * chunk]), OverwritePolicy.REJECT));
        assertEquals("first", storage.get("taken").orElseThrow().text());

        MemoryStorage racing = new MemoryStorage(); // the content is read before put() finds the key taken
        racing.putBytes("k", new ByteArrayInputStream(new byte[8192 + 2 * chunk + chunk / 2]), OverwritePolicy.REJECT);
        InputStream readThenTaken = new ByteArrayInputStream(new byte[8192 + 2 * chunk + chunk / 2]);
        assertFalse(racing.putBytes("k2", new BulkStream() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = readThenTaken.read(b, off, len);
                if (n < 0) {
                    racing.putText("k2", "taken while the content was read", OverwritePolicy.REPLACE);
                }
                return n;
            }
        }, OverwritePolicy.REJECT));
        assertEquals("taken while the content was read", racing.get("k2").orElseThrow().text());

        InputStream failsAfterTwoChunks = new BulkStream() {
            private int left = 8192 + 2 * chunk;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left == 0) {
                    throw new IOException("the client went away");
                }
                int n = Math.min(len, left);
                left -= n;
                return n;
            }
        };
        assertThrows(IOException.class, () -> racing.putBytes("k3", failsAfterTwoChunks, OverwritePolicy.REPLACE));
        assertTrue(racing.get("k3").isEmpty());
    }

    /**
     * Readers copying large values out while writers replace them: every value read is one value whole (each is one
     * byte repeated, its size telling which).
     */
    @Test
    void largeValuesReadWhileReplacedAreNeverMixed() throws Exception {
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean writer = t % 2 == 0;
                int seed = t;
                done.add(pool.submit((Callable<Void>) () -> {
                    Random random = new Random(seed);
                    for (int round = 0; round < 300; round++) {
                        String key = "k" + random.nextInt(2);
                        if (writer) {
                            int fill = random.nextInt(200);
                            byte[] value = new byte[300_000 + fill * 4096];
                            Arrays.fill(value, (byte) fill);
                            storage.putBytes(key, new ByteArrayInputStream(value), OverwritePolicy.REPLACE);
                        } else {
                            storage.get(key).ifPresent(entry -> {
                                byte[] read = entry.bytes();
                                int fill = read[0] & 0xff;
                                assertEquals(300_000 + fill * 4096, read.length, "size of the value filled with " + fill);
                                for (int i = 0; i < read.length; i++) {
                                    if (read[i] != (byte) fill) {
                                        throw new AssertionError("byte " + i + " of a value filled with " + fill + " is " + read[i]);
                                    }
                                }
                            });
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> thread : done) {
                thread.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The entry owns the array it was read into, and still hands out copies only. */
    @Test
    void storedBytesStayImmutable() throws IOException {
        storage.putBytes("k", new ByteArrayInputStream(new byte[] {1, 2, 3}), OverwritePolicy.REPLACE);
        storage.get("k").orElseThrow().bytes()[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, storage.get("k").orElseThrow().bytes());
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

    /**
     * A large write that was reading when the storage closed stores nothing, whether its content then ends (the put
     * is refused) or fails (the read's own exception).
     */
    @Test
    void aLargeWriteClosedUnderStoresNothing() throws IOException {
        for (boolean failsAfterClose : new boolean[] {false, true}) {
            MemoryStorage closing = new MemoryStorage();
            int chunk = 256 * 1024;
            InputStream closesHalfWay = new BulkStream() {
                private int left = 8192 + 3 * chunk;

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (left <= 2 * chunk) {
                        closing.close();
                        if (failsAfterClose) {
                            throw new IOException("the client went away");
                        }
                    }
                    if (left == 0) {
                        return -1;
                    }
                    int n = Math.min(len, left);
                    left -= n;
                    return n;
                }
            };

            Class<? extends IOException> expected = failsAfterClose ? IOException.class : StorageException.class;
            IOException thrown = assertThrows(IOException.class,
                    () -> closing.putBytes("k", closesHalfWay, OverwritePolicy.REPLACE));
            assertEquals(expected, thrown.getClass());
            assertThrows(StorageException.class, () -> closing.get("k"), "closed, with nothing to read");
        }
    }

    private List<String> keys(String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        storage.scan(prefix, entry -> keys.add(entry.key()));
        return keys;
    }

    /** A stream defined by its bulk read, which the storage uses; a single-byte read goes through it. */
    private abstract static class BulkStream extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public abstract int read(byte[] b, int off, int len) throws IOException;
    }
}
