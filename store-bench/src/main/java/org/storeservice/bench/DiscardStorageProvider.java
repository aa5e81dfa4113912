package org.storeservice.bench;

import java.util.List;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageProvider;

/**
 * Opens {@link DiscardStorage} for the URI {@code discard:}. With this module's jar on the server's classpath,
 * {@code --storage discard:} serves the endpoint without keeping anything.
 */
public final class DiscardStorageProvider implements StorageProvider {
    @Override
    public List<String> uriPrefixes() {
        return List.of("discard:");
    }

    @Override
    public Storage open(String uri) {
        return new DiscardStorage();
    }
}
