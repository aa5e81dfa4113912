package org.storeservice.server.plugin;

import java.util.List;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageProvider;

/**
 * A backend from outside the server jar, for {@code PluginBackendIT}: {@code map:} opens a map in memory. The test
 * packs this class and its service entry into a jar of its own, as a team would ship its backend.
 */
public final class MapStorageProvider implements StorageProvider {
    @Override
    public List<String> uriPrefixes() {
        return List.of("map:");
    }

    @Override
    public Storage open(String uri) {
        return new MemoryStorage();
    }
}
