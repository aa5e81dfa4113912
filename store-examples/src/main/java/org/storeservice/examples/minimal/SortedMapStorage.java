package org.storeservice.examples.minimal;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.StoredEntry;

/** The smallest complete backend: entries in a sorted map, kept in memory. It passes the whole storage contract. */
public final class SortedMapStorage implements Storage {
    private final ConcurrentSkipListMap<String, StoredEntry> entries = new ConcurrentSkipListMap<>();
    private volatile boolean closed;

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        return put(StoredEntry.text(key, value, Instant.now()), policy);
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        byte[] value = content.readAllBytes(); // a failing stream throws here, before anything is stored
        return put(StoredEntry.bytes(key, value, Instant.now()), policy);
    }

    /** One atomic step per write: putIfAbsent makes REJECT's check and its put one (rule 2). */
    private boolean put(StoredEntry entry, OverwritePolicy policy) throws IOException {
        ensureOpen();
        if (policy == OverwritePolicy.REJECT) {
            return entries.putIfAbsent(entry.key(), entry) == null;
        }
        entries.put(entry.key(), entry);
        return true;
    }

    @Override
    public Optional<StoredEntry> get(String key) throws IOException {
        ensureOpen();
        return Optional.ofNullable(entries.get(key));
    }

    /** The map's order is String.compareTo's, so the keys with a prefix are one range, visited in order (rule 4). */
    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
        ensureOpen();
        for (StoredEntry entry : entries.tailMap(keyPrefix).values()) {
            if (!entry.key().startsWith(keyPrefix)) {
                break;
            }
            visitor.visit(entry);
        }
    }

    @Override
    public boolean delete(String key) throws IOException {
        ensureOpen();
        return entries.remove(key) != null;
    }

    @Override
    public void close() {
        closed = true;
    }

    private void ensureOpen() throws StorageException {
        if (closed) {
            throw new StorageException("Storage is closed");
        }
    }
}
