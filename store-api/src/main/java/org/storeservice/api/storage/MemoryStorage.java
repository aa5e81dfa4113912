package org.storeservice.api.storage;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.storeservice.api.OverwritePolicy;

/**
 * A thread-safe in-memory {@link Storage}, opened by the URI {@code memory:}: a concurrent sorted map of immutable
 * entries. Entries live as long as the instance; nothing survives the process. Byte content is read whole into one
 * heap array before it is stored.
 */
public final class MemoryStorage implements Storage {
    private final ConcurrentNavigableMap<String, StoredEntry> entries = new ConcurrentSkipListMap<>();
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
        return put(StoredEntry.ownedBytes(key, content.readAllBytes(), clock.instant()), policy);
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
