package org.storeservice.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * Opens {@code tracking:NAME}: an in-memory storage that remembers whether it was closed, so a test can see
 * what a server opened by URI and whether it closed it. Each test uses its own NAME.
 */
public final class TrackingStorageProvider implements org.storeservice.api.storage.StorageProvider {
    private static final Map<String, TrackingStorage> OPENED = new ConcurrentHashMap<>();

    /** The storage last opened for {@code uri}, or {@code null}. */
    static TrackingStorage opened(String uri) {
        return OPENED.get(uri);
    }

    @Override
    public List<String> uriPrefixes() {
        return List.of("tracking:");
    }

    @Override
    public Storage open(String uri) {
        TrackingStorage storage = new TrackingStorage();
        OPENED.put(uri, storage);
        return storage;
    }

    static final class TrackingStorage implements Storage {
        private final MemoryStorage delegate = new MemoryStorage();
        private volatile boolean closed;

        boolean isClosed() {
            return closed;
        }

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
            return delegate.putText(key, value, policy);
        }

        @Override
        public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
            return delegate.putBytes(key, content, policy);
        }

        @Override
        public Optional<StoredEntry> get(String key) throws IOException {
            return delegate.get(key);
        }

        @Override
        public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
            delegate.scan(keyPrefix, visitor);
        }

        @Override
        public void close() {
            closed = true;
            delegate.close();
        }
    }
}
