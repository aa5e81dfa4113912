package org.storeservice.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * A {@link Storage} that keeps nothing: text is dropped, byte content is read to its end (so the whole request
 * path, base64 decoding included, runs as with a real backend) and counted, then dropped. For benchmarks that
 * measure the wire path without a storage cost, and for the 1 GiB streaming run. Opened by {@code discard:}.
 * Thread-safe.
 */
public final class DiscardStorage implements Storage {
    /**
     * One scratch buffer for every thread: what lands in it is never read, so the races on it are harmless,
     * and the read costs no allocation.
     */
    private static final byte[] SCRATCH = new byte[64 * 1024];

    private final LongAdder writes = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) {
        writes.increment();
        return true;
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        long total = 0;
        int n;
        while ((n = content.read(SCRATCH, 0, SCRATCH.length)) >= 0) {
            total += n;
        }
        bytes.add(total);
        writes.increment();
        return true;
    }

    @Override
    public Optional<StoredEntry> get(String key) {
        return Optional.empty();
    }

    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) {
        // nothing is kept
    }

    /** How many writes returned so far. */
    public long writes() {
        return writes.sum();
    }

    /** How many content bytes were read and dropped so far. */
    public long bytes() {
        return bytes.sum();
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "DiscardStorage{writes=" + writes() + ", bytes=" + bytes() + '}';
    }
}
