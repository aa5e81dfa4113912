package org.storeservice.api.storage;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.storeservice.api.OverwritePolicy;

/**
 * A thread-safe in-memory {@link Storage}, opened by the URI {@code memory:}. Entries live as long as
 * the instance: nothing survives the process. Byte content is read whole into memory before it is stored;
 * the storage keeps the read chunks of earlier large writes, up to 64 MiB, for the next ones.
 */
public final class MemoryStorage implements Storage {
    private static final int FIRST_CHUNK_BYTES = 8192;
    private static final int CHUNK_BYTES = 256 * 1024; // at most this much allocated past the value
    /**
     * Read chunks kept for the next large writes (256 of 256 KiB: 16 concurrent writes of 4 MiB), so that a write
     * allocates only its value: fresh chunks per write doubled the garbage, the chunks of writes in flight were
     * copied by every young collection, and the heap grew to its maximum under 4 MiB writes (measured: peak
     * RSS 1,013 MiB, 626 MiB with the spares, at -Xmx1g).
     */
    private static final int SPARE_CHUNKS = 256;
    /** The largest array the JVM reliably allocates (as ArraysSupport's soft limit). */
    private static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;
    private final ConcurrentNavigableMap<String, StoredEntry> entries = new ConcurrentSkipListMap<>();
    private final BlockingQueue<byte[]> spareChunks = new ArrayBlockingQueue<>(SPARE_CHUNKS);
    private final Clock clock;
    private volatile boolean closed;

    public MemoryStorage() {
        this(Clock.systemUTC());
    }

    /** A storage that stamps writes with {@code clock}'s time. */
    public MemoryStorage(Clock clock) {
        this.clock = clock;
    }

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        return put(StoredEntry.text(key, value, clock.instant()), policy);
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        ensureOpen();
        if (policy == OverwritePolicy.REJECT && entries.containsKey(key)) {
            return false; // cheap early answer; put() below still decides atomically
        }
        return put(StoredEntry.ownedBytes(key, readFully(content), clock.instant()), policy);
    }

    /**
     * The content to its end in one array of its exact size, which the entry then owns: read in bulk into
     * a small first chunk (small values stay small), then into 256 KiB chunks taken from the spares, then
     * copied once.
     */
    private byte[] readFully(InputStream content) throws IOException {
        byte[] first = new byte[FIRST_CHUNK_BYTES];
        int filled = fill(content, first);
        if (filled < first.length) {
            return Arrays.copyOf(first, filled);
        }
        List<byte[]> chunks = new ArrayList<>();
        try {
            long total = filled;
            byte[] chunk = first;
            while (filled == chunk.length) {
                chunk = spareChunk();
                chunks.add(chunk);
                filled = fill(content, chunk);
                total += filled;
                if (total > MAX_ARRAY_BYTES) {
                    throw new StorageException("Content of more than " + MAX_ARRAY_BYTES + " bytes cannot be held in memory");
                }
            }
            byte[] value = Arrays.copyOf(first, (int) total);
            int at = first.length;
            for (byte[] full : chunks) {
                int length = (int) Math.min(full.length, total - at);
                System.arraycopy(full, 0, value, at, length);
                at += length;
            }
            return value;
        } finally {
            for (byte[] used : chunks) {
                spareChunks.offer(used); // kept if there is room; else left to the collector
            }
        }
    }

    private byte[] spareChunk() {
        byte[] spare = spareChunks.poll();
        return spare != null ? spare : new byte[CHUNK_BYTES];
    }

    /** Reads into {@code chunk} until it is full or the content ends; returns the bytes read. */
    private static int fill(InputStream content, byte[] chunk) throws IOException {
        int filled = 0;
        int n;
        while (filled < chunk.length && (n = content.read(chunk, filled, chunk.length - filled)) >= 0) {
            filled += n;
        }
        return filled;
    }

    private boolean put(StoredEntry entry, OverwritePolicy policy) throws StorageException {
        ensureOpen();
        if (policy == OverwritePolicy.REJECT) {
            return entries.putIfAbsent(entry.key(), entry) == null;
        }
        entries.put(entry.key(), entry);
        return true;
    }

    /** {@code true}: a write is a copy and a lock-free map update, so it may run on a selector thread. */
    @Override
    public boolean writesNeverBlock() {
        return true;
    }

    @Override
    public Optional<StoredEntry> get(String key) throws IOException {
        ensureOpen();
        return Optional.ofNullable(entries.get(key));
    }

    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
        ensureOpen();
        for (Map.Entry<String, StoredEntry> entry : entries.tailMap(keyPrefix).entrySet()) {
            if (!entry.getKey().startsWith(keyPrefix)) {
                break;
            }
            visitor.visit(entry.getValue());
        }
    }

    @Override
    public void close() {
        closed = true;
        entries.clear();
    }

    private void ensureOpen() throws StorageException {
        if (closed) {
            throw new StorageException("MemoryStorage is closed");
        }
    }
}
