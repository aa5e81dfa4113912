package org.storeservice.jdbc;

import java.io.IOException;
import java.util.List;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageProvider;

/** Opens {@code jdbc:postgresql://...} URIs; see {@link PostgresStorageConfig#fromUri(String)}. */
public final class PostgresStorageProvider implements StorageProvider {
    /** For {@link java.util.ServiceLoader}. */
    public PostgresStorageProvider() {
    }

    @Override
    public List<String> uriPrefixes() {
        return List.of(PostgresStorageConfig.URI_PREFIX);
    }

    @Override
    public Storage open(String uri) throws IOException {
        return JdbcStorage.postgres(PostgresStorageConfig.fromUri(uri));
    }
}
