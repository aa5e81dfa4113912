package org.storeservice.api.storage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
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
 * <p>A value of 264 KiB (8 KiB + {@value #CHUNK_BYTES} bytes) or more is kept mostly outside the Java heap: its first
 * 8 KiB and a last part under 128 KiB stay on the heap, the rest goes into 256 KiB direct buffers
 * ({@link ByteBuffer#allocateDirect}). When it is replaced (and nobody is reading it) its chunks are kept, up to
 * 64 MiB, for the next large writes. Large values are few, big and long-lived: on the heap the collector copies
 * them between generations and, under a stream of 4 MiB writes, grows the heap to hold them and their garbage
 * (BENCHMARKS.md); off it, it never touches their bytes. Smaller values are one heap array of their size.
 *
 * <p>The chunks count against {@code -XX:MaxDirectMemorySize} (by default as large as {@code -Xmx}), not against
 * the heap. A chunk dropped (spares full, or the storage closed) is freed only when a collection finds its buffer
 * object unreachable; such objects are old, so that may wait for an old-generation collection, or for the
 * {@code System.gc()} the JDK runs when an allocation reaches the direct limit (with
 * {@code -XX:+DisableExplicitGC} that allocation fails with an {@link OutOfMemoryError} instead).
 */
public final class MemoryStorage implements Storage {
    private static final int FIRST_CHUNK_BYTES = 8192;
    /** The size of the chunks large values are kept in, and of the heap buffers content is read through. */
    static final int CHUNK_BYTES = 256 * 1024;
    /** Chunks kept for the next large writes: 256 of 256 KiB, 16 concurrent writes of 4 MiB. */
    private static final int SPARE_CHUNKS = 256;
    /**
     * Read buffers kept for the next writes over 8 KiB: one per concurrent such write, up to 64 (16 MiB of heap).
     * At most half of G1's smallest region (1 MiB) each, so that none is a humongous object.
     */
    private static final int SPARE_READ_BUFFERS = 64;
    /** The largest value kept; as large as the largest array the JVM reliably allocates, as before values were chunked. */
    private static final long MAX_VALUE_BYTES = Integer.MAX_VALUE - 8;
    private final ConcurrentNavigableMap<String, Held> entries = new ConcurrentSkipListMap<>();
    private final BlockingQueue<ByteBuffer> spareChunks = new ArrayBlockingQueue<>(SPARE_CHUNKS);
    private final BlockingQueue<byte[]> spareReadBuffers = new ArrayBlockingQueue<>(SPARE_READ_BUFFERS);
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
     * The content to its end: a value under 264 KiB in one heap array of its exact size, a larger one mostly in
     * direct chunks (taken from the spares), copied there through a pooled heap read buffer.
     */
    private Held read(String key, InputStream content) throws IOException {
        byte[] first = new byte[FIRST_CHUNK_BYTES];
        int filled = fill(content, first);
        if (filled < first.length) {
            return new Held(StoredEntry.ownedBytes(key, Arrays.copyOf(first, filled), clock.instant()));
        }
        byte[] buffer = spareReadBuffers.poll();
        if (buffer == null) {
            buffer = new byte[CHUNK_BYTES];
        }
        List<ByteBuffer> chunks = new ArrayList<>();
        boolean chunksKept = false;
        try {
            filled = fill(content, buffer);
            long total = first.length + (long) filled;
            if (filled < CHUNK_BYTES) {
                byte[] value = Arrays.copyOf(first, (int) total);
                System.arraycopy(buffer, 0, value, first.length, filled);
                return new Held(StoredEntry.ownedBytes(key, value, clock.instant()));
            }
            do {
                chunks.add(spareChunk().put(0, buffer, 0, filled));
                filled = fill(content, buffer);
                total += filled;
                if (total > MAX_VALUE_BYTES) {
                    throw new StorageException("Content of more than " + MAX_VALUE_BYTES + " bytes cannot be held in memory");
                }
            } while (filled == CHUNK_BYTES);
            List<ByteBuffer> pieces = new ArrayList<>(chunks.size() + 2);
            pieces.add(ByteBuffer.wrap(first));
            pieces.addAll(chunks);
            // A last part at least half a chunk goes into a chunk of its own (at most 128 KiB unused, a third of the
            // smallest chunked value); a smaller one into a heap array of its size.
            if (filled >= CHUNK_BYTES / 2) {
                ByteBuffer last = spareChunk().put(0, buffer, 0, filled);
                chunks.add(last);
                pieces.add(last);
            } else if (filled > 0) {
                pieces.add(ByteBuffer.wrap(Arrays.copyOf(buffer, filled)));
            }
            Held held = new Held(key, pieces, total, clock.instant());
            chunksKept = true;
            return held;
        } finally {
            spareReadBuffers.offer(buffer); // kept if there is room; else left to the collector
            if (!chunksKept) {
                chunks.forEach(spareChunks::offer); // reading failed: every chunk read into
            }
            dropSparesIfClosed();
        }
    }

    private ByteBuffer spareChunk() {
        ByteBuffer spare = spareChunks.poll();
        return spare != null ? spare : ByteBuffer.allocateDirect(CHUNK_BYTES);
    }

    /** Reads into {@code into} until it is full or the content ends; returns the bytes read. */
    private static int fill(InputStream content, byte[] into) throws IOException {
        int filled = 0;
        int n;
        while (filled < into.length && (n = content.read(into, filled, into.length - filled)) >= 0) {
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

    /**
     * {@code true}: a write is a copy and a lock-free map update, so it may run on a selector thread. The one wait
     * there is, a direct chunk allocated at the direct memory limit (the JDK then collects and waits for buffers to
     * be freed), needs a value of 264 KiB or more, which no body small enough to be answered inline holds.
     */
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
    public boolean delete(String key) throws IOException {
        ensureOpen();
        Held removed = entries.remove(key);
        if (removed == null) {
            return false;
        }
        removed.release(); // as for a replaced value: its chunks are reused once no reader holds them
        return true;
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
        spareReadBuffers.clear();
    }

    /**
     * A closed storage keeps nothing. Checked after giving a buffer back, so that one given back while
     * {@link #close()} ran is dropped as well (close() marks the storage closed before it clears the spares).
     */
    private void dropSparesIfClosed() {
        if (closed) {
            spareChunks.clear();
            spareReadBuffers.clear();
        }
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

    /** The number of spare read buffers held; for tests. */
    int spareReadBufferCount() {
        return spareReadBuffers.size();
    }

    /**
     * What the map holds for a key: a whole entry, or a large byte value in chunks. A chunked value counts its
     * holders (the map, and each reader copying it out); the last to let go gives its chunks back to the spares,
     * so a chunk is never reused while anyone can still read it.
     */
    private final class Held {
        final String key;
        private final StoredEntry whole;
        /** The value's pieces: its first 8 KiB and a smaller last part on the heap, the rest direct chunks. */
        private final List<ByteBuffer> chunks;
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

        Held(String key, List<ByteBuffer> chunks, long size, Instant writtenAt) {
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
                for (ByteBuffer chunk : chunks) {
                    int length = Math.min(chunk.capacity(), value.length - at);
                    chunk.get(0, value, at, length);
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

        /** Lets go of one hold; the last gives the direct chunks back (not the heap pieces: other sizes). */
        void release() {
            if (chunks != null && holders.decrementAndGet() == 0) {
                for (ByteBuffer chunk : chunks) {
                    if (chunk.isDirect()) {
                        spareChunks.offer(chunk);
                    }
                }
                dropSparesIfClosed();
            }
        }
    }
}
