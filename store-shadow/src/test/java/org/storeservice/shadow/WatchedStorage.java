package org.storeservice.shadow;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * A memory storage that counts the writes of each key (to show none arrives twice) and, while its gate is shut, holds
 * every write (a shadow that does not answer).
 */
final class WatchedStorage implements Storage {
    private final MemoryStorage entries = new MemoryStorage();
    private final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);

    /** Holds every write from now on, until {@link #open()}. */
    void shut() {
        gate = new CountDownLatch(1);
    }

    void open() {
        gate.countDown();
    }

    private void pass(String key) throws IOException {
        writes.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted at the gate", e);
        }
    }

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        pass(key);
        return entries.putText(key, value, policy);
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        pass(key);
        return entries.putBytes(key, content, policy);
    }

    /** How many writes of {@code key} reached this storage (held ones included). */
    int writes(String key) {
        AtomicInteger count = writes.get(key);
        return count == null ? 0 : count.get();
    }

    /** Every key written, with how many writes of it arrived. */
    Map<String, Integer> writeCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        writes.forEach((key, count) -> counts.put(key, count.get()));
        return counts;
    }

    /** Every entry, key to a printable form of its kind and value. */
    Map<String, String> contents() throws IOException {
        Map<String, String> all = new TreeMap<>();
        entries.scan("", entry -> all.put(entry.key(), describe(entry)));
        return all;
    }

    static String describe(StoredEntry entry) {
        return switch (entry.kind()) {
            case TEXT -> "text:" + entry.text();
            case BYTES -> "bytes:" + java.util.HexFormat.of().formatHex(entry.bytes());
        };
    }

    @Override
    public Optional<StoredEntry> get(String key) throws IOException {
        return entries.get(key);
    }

    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
        entries.scan(keyPrefix, visitor);
    }

    @Override
    public void close() {
        open();
        entries.close();
    }
}
