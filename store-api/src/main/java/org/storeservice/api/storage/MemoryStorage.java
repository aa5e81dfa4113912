package org.storeservice.api.storage;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.storeservice.api.OverwritePolicy;

/**
 * A thread-safe in-memory {@link Storage}, opened by the URI {@code memory:}: a concurrent sorted map of immutable
 * entries. Entries live as long as the instance; nothing survives the process. Byte content is read whole into one
 * heap array before it is stored, sized from the content's {@code available()} estimate.
 */
public final class MemoryStorage implements Storage {
    /** The array a value is first read into when the content gives no estimate of its size. */
    private static final int FIRST_ARRAY_BYTES = 8 * 1024;
    private static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    private final ConcurrentNavigableMap<String, StoredEntry> entries = new ConcurrentSkipListMap<>();
    private final Clock clock;
    private volatile boolean closed;

    /** A storage that stamps writes with the system's UTC clock. */
    public MemoryStorage() {
        this(Clock.systemUTC());
    }

    /**
     * A storage that stamps writes with {@code clock}'s time.
     *
     * @param clock gives each write's {@link StoredEntry#writtenAt()}
     */
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
        return put(read(key, content), policy);
    }

    /**
     * Reads the content whole into one array sized from its {@code available()} estimate, grown if the content
     * goes on, and keeps at most an eighth more than the value. Not {@code readAllBytes}: its 8 KiB parts, copied
     * into a new array at the end, cost 1.3-1.4x the CPU of a 4 MiB WriteBytes (BENCHMARKS.md, ninth round).
     */
    private StoredEntry read(String key, InputStream content) throws IOException {
        byte[] value = new byte[Math.min(Math.max(content.available(), FIRST_ARRAY_BYTES), MAX_ARRAY_BYTES)];
        int length = 0;
        int n;
        while ((n = content.read(value, length, value.length - length)) >= 0) {
            length += n;
            if (length == value.length) {
                int next = content.read(); // only grow for a value that goes on
                if (next < 0) {
                    break;
                }
                if (value.length == MAX_ARRAY_BYTES) {
                    throw new StorageException("A value of more than " + MAX_ARRAY_BYTES + " bytes does not fit in one array");
                }
                value = Arrays.copyOf(value, (int) Math.min(MAX_ARRAY_BYTES, 2L * value.length));
                value[length++] = (byte) next;
            }
        }
        if (value.length - length > length / 8) {
            value = Arrays.copyOf(value, length); // the estimate was far off, or the array grew: no large slack kept
        }
        return StoredEntry.ownedBytes(key, value, length, clock.instant());
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
    public boolean delete(String key) throws IOException {
        ensureOpen();
        return entries.remove(key) != null;
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
