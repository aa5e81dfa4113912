package org.storeservice.api.storage;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.storeservice.api.OverwritePolicy;

/**
 * A thread-safe in-memory {@link Storage}, opened by the URI {@code memory:}. Entries live as long as
 * the instance: nothing survives the process. Byte content is read whole into memory before it is stored.
 *
 * <p>A value of more than {@value #CHUNK_BYTES} bytes is kept in the 256 KiB chunks it was read into, not copied
 * into one array; when it is replaced (and nobody is reading it) its chunks are kept, up to 64 MiB, for the next
 * large writes. So a stream of large writes allocates almost nothing: one array of a value's exact size per
 * write was, for the JVM's G1 collector, a "humongous" object of several regions, and at 230 writes of 4 MiB a
 * second the heap grew to its maximum (BENCHMARKS.md).
 */
public final class MemoryStorage implements Storage {
    private static final int FIRST_CHUNK_BYTES = 8192;
    /**
     * The size of the chunks large values are kept in: at most half of G1's smallest region (1 MiB), so that no
     * chunk is ever a humongous object.
     */
    static final int CHUNK_BYTES = 256 * 1024;
    /** Chunks kept for the next large writes: 256 of 256 KiB, 16 concurrent writes of 4 MiB. */
    private static final int SPARE_CHUNKS = 256;
    /** The largest value kept; as large as the largest array the JVM reliably allocates, as before values were chunked. */
    private static final long MAX_VALUE_BYTES = Integer.MAX_VALUE - 8;
    private final ConcurrentNavigableMap<String, Held> entries = new ConcurrentSkipListMap<>();
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
        return put(new Held(StoredEntry.text(key, value, clock.instant())), policy);
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        ensureOpen();
        if (policy == OverwritePolicy.REJECT && entries.containsKey(key)) {
            return false; // cheap early answer; put() below still decides atomically
        }
        return put(read(key, content), policy);
    }

    /**
     * The content to its end: a value of up to {@value #CHUNK_BYTES} bytes in one array of its exact size,
     * a larger one in the chunks (taken from the spares) it was read into.
     */
    private Held read(String key, InputStream content) throws IOException {
        byte[] first = new byte[FIRST_CHUNK_BYTES];
        int filled = fill(content, first);
        if (filled < first.length) {
            return new Held(StoredEntry.ownedBytes(key, Arrays.copyOf(first, filled), clock.instant()));
        }
        List<byte[]> chunks = new ArrayList<>();
        boolean chunksKept = false;
        boolean lastKept = false;
        try {
            long total = filled;
            byte[] chunk;
            do {
                chunk = spareChunk();
                chunks.add(chunk);
                filled = fill(content, chunk);
                total += filled;
                if (total > MAX_VALUE_BYTES) {
                    throw new StorageException("Content of more than " + MAX_VALUE_BYTES + " bytes cannot be held in memory");
                }
            } while (filled == chunk.length);
            Held held;
            if (total <= CHUNK_BYTES) {
                byte[] value = Arrays.copyOf(first, (int) total);
                System.arraycopy(chunks.get(0), 0, value, first.length, (int) total - first.length);
                held = new Held(StoredEntry.ownedBytes(key, value, clock.instant()));
            } else {
                List<byte[]> pieces = new ArrayList<>(chunks.size() + 1);
                pieces.add(first);
                // A last chunk at least half full is kept as it is (at most 128 KiB unused, a third of the smallest
                // chunked value); a less full one is copied out exactly and goes back to the spares.
                lastKept = filled >= CHUNK_BYTES / 2;
                pieces.addAll(lastKept ? chunks : chunks.subList(0, chunks.size() - 1));
                if (!lastKept) {
                    pieces.add(Arrays.copyOf(chunk, filled));
                }
                held = new Held(key, pieces, total, clock.instant());
                chunksKept = true;
            }
            return held;
        } finally {
            // The chunks read into that no value owns: every one if reading failed.
            List<byte[]> unused = !chunksKept ? chunks
                    : lastKept ? List.of() : chunks.subList(chunks.size() - 1, chunks.size());
            unused.forEach(spareChunks::offer); // kept if there is room; else left to the collector
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

    private boolean put(Held held, OverwritePolicy policy) throws StorageException {
        try {
            ensureOpen();
        } catch (StorageException e) {
            held.release();
            throw e;
        }
        if (policy == OverwritePolicy.REJECT) {
            boolean stored = entries.putIfAbsent(held.key, held) == null;
            if (!stored) {
                held.release(); // never stored
            }
            return stored;
        }
        Held replaced = entries.put(held.key, held);
        if (replaced != null) {
            replaced.release();
        }
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
        while (true) {
            Held held = entries.get(key);
            if (held == null) {
                return Optional.empty();
            }
            StoredEntry entry = held.entry();
            if (entry != null) {
                return Optional.of(entry);
            }
            // Replaced and recycled between the lookup and now: the map holds a newer value, so look again.
        }
    }

    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
        ensureOpen();
        for (Map.Entry<String, Held> entry : entries.tailMap(keyPrefix).entrySet()) {
            if (!entry.getKey().startsWith(keyPrefix)) {
                break;
            }
            StoredEntry stored = entry.getValue().entry();
            if (stored == null) {
                stored = get(entry.getKey()).orElse(null); // replaced meanwhile: the newer value, if still there
            }
            if (stored != null) {
                visitor.visit(stored);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        entries.clear();
        spareChunks.clear();
    }

    private void ensureOpen() throws StorageException {
        if (closed) {
            throw new StorageException("MemoryStorage is closed");
        }
    }

    /** The number of spare chunks held; for tests. */
    int spareChunkCount() {
        return spareChunks.size();
    }

    /**
     * What the map holds for a key: a whole entry, or a large byte value in chunks. A chunked value counts its
     * holders (the map, and each reader copying it out); the last to let go gives its chunks back to the spares,
     * so a chunk is never reused while anyone can still read it.
     */
    private final class Held {
        final String key;
        private final StoredEntry whole;
        private final List<byte[]> chunks;
        private final long size;
        private final Instant writtenAt;
        private final AtomicInteger holders = new AtomicInteger(1);

        Held(StoredEntry whole) {
            this.key = whole.key();
            this.whole = whole;
            this.chunks = null;
            this.size = -1; // not needed: whole entries are handed out as they are
            this.writtenAt = whole.writtenAt();
        }

        Held(String key, List<byte[]> chunks, long size, Instant writtenAt) {
            this.key = key;
            this.whole = null;
            this.chunks = chunks;
            this.size = size;
            this.writtenAt = writtenAt;
        }

        /**
         * The entry, copied out of the chunks if chunked (one array of the value's size, which
         * {@link StoredEntry#bytes()} copies again: reads are for operators, not the wire); null if the chunks were
         * already given back.
         */
        StoredEntry entry() {
            if (whole != null) {
                return whole;
            }
            if (!hold()) {
                return null;
            }
            try {
                byte[] value = new byte[(int) size];
                int at = 0;
                for (byte[] chunk : chunks) {
                    int length = Math.min(chunk.length, value.length - at);
                    System.arraycopy(chunk, 0, value, at, length);
                    at += length;
                }
                return StoredEntry.ownedBytes(key, value, writtenAt);
            } finally {
                release();
            }
        }

        private boolean hold() {
            while (true) {
                int count = holders.get();
                if (count == 0) {
                    return false;
                }
                if (holders.compareAndSet(count, count + 1)) {
                    return true;
                }
            }
        }

        /** Lets go of one hold; the last gives the chunks back (not the first piece, or an exact last one: other sizes). */
        void release() {
            if (chunks != null && holders.decrementAndGet() == 0) {
                for (byte[] chunk : chunks) {
                    if (chunk.length == CHUNK_BYTES && !closed) { // a closed storage keeps nothing
                        spareChunks.offer(chunk);
                    }
                }
            }
        }
    }
}
