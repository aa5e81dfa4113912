package org.storeservice.jetty;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.storeservice.api.storage.Storage;

/**
 * Opens {@code tracking:NAME}: an in-memory storage that remembers whether it was closed, so a test can see
 * what a server opened by URI and whether it closed it. Each test uses its own NAME. {@code tracking:fail:NAME}
 * fails to open with an {@link IOException}, as a storage whose file or database is unreachable does.
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
    public Storage open(String uri) throws IOException {
        if (uri.startsWith("tracking:fail:")) {
            throw new IOException("cannot open " + uri);
        }
        TrackingStorage storage = new TrackingStorage();
        OPENED.put(uri, storage);
        return storage;
    }

    static final class TrackingStorage extends ForwardingStorage {
        private volatile boolean closed;

        boolean isClosed() {
            return closed;
        }

        @Override
        public void close() {
            closed = true;
            super.close();
        }
    }
}
