package org.storeservice.api.storage;

import java.util.List;

/** Opens a fresh {@link MemoryStorage} for the URI {@code memory:} (anything after the colon is ignored). */
public final class MemoryStorageProvider implements StorageProvider {
    /** Called by {@link java.util.ServiceLoader}. */
    public MemoryStorageProvider() {
        // stateless: each open() builds its own storage
    }

    @Override
    public List<String> uriPrefixes() {
        return List.of("memory:");
    }

    @Override
    public Storage open(String uri) {
        return new MemoryStorage();
    }
}
