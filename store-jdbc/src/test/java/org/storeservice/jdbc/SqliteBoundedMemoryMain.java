package org.storeservice.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.storeservice.api.OverwritePolicy;

/**
 * Run in a JVM with a small heap by {@link SqliteBoundedMemoryTest}: {@code WRITERS} threads each put a value of
 * {@code VALUE_BYTES} into one SQLite storage at the same time, then every value is read back and compared byte
 * for byte. The values come from streams that compute their bytes, so only the storage holds them. Prints
 * {@code stored N values exactly, M spool files left} and exits 0, or fails with a stack trace.
 *
 * <p>Arguments: {@code DIRECTORY WRITERS VALUE_BYTES}.
 */
public final class SqliteBoundedMemoryMain {
    private SqliteBoundedMemoryMain() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        int writers = Integer.parseInt(args[1]);
        int valueBytes = Integer.parseInt(args[2]);
        Path spool = Files.createDirectories(directory.resolve("spool"));
        SqliteStorageConfig config = SqliteStorageConfig.builder(directory.resolve("store.db"))
                .spoolDirectory(spool).build();
        try (JdbcStorage storage = JdbcStorage.sqlite(config)) {
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int seed = w;
                results.add(pool.submit(() -> {
                    start.await(); // all at once, so that every value is in flight together
                    return storage.putBytes("k" + seed, new ComputedContent(seed, valueBytes), OverwritePolicy.REPLACE);
                }));
            }
            start.countDown();
            for (Future<Boolean> result : results) {
                if (!result.get()) {
                    throw new AssertionError("a write was not stored");
                }
            }
            pool.shutdown();
            for (int w = 0; w < writers; w++) {
                byte[] stored = storage.get("k" + w).orElseThrow().bytes();
                if (stored.length != valueBytes) {
                    throw new AssertionError("k" + w + " has " + stored.length + " bytes, not " + valueBytes);
                }
                for (int i = 0; i < stored.length; i++) {
                    if (stored[i] != ComputedContent.byteAt(w, i)) {
                        throw new AssertionError("k" + w + " differs at byte " + i);
                    }
                }
            }
        }
        try (Stream<Path> left = Files.list(spool)) {
            System.out.println("stored " + writers + " values exactly, " + left.count() + " spool files left");
        }
    }

    /** {@code length} bytes, each a function of the seed and its position, computed as they are read. */
    static final class ComputedContent extends InputStream {
        private final int seed;
        private final int length;
        private int position;

        ComputedContent(int seed, int length) {
            this.seed = seed;
            this.length = length;
        }

        static byte byteAt(int seed, int position) {
            return (byte) ((position * 0x9E3779B1L + seed * 0x85EBCA6BL) >>> 24);
        }

        @Override
        public int read() {
            return position < length ? byteAt(seed, position++) & 0xff : -1;
        }

        @Override
        public int read(byte[] into, int offset, int count) throws IOException {
            if (position >= length) {
                return -1;
            }
            int n = Math.min(count, length - position);
            for (int i = 0; i < n; i++) {
                into[offset + i] = byteAt(seed, position++);
            }
            return n;
        }
    }
}
