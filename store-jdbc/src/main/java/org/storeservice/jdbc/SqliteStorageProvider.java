package org.storeservice.jdbc;

import java.io.IOException;
import java.util.List;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageProvider;

/** Opens {@code sqlite:PATH[?...]} URIs; see {@link SqliteStorageConfig#fromUri(String)}. */
public final class SqliteStorageProvider implements StorageProvider {
    /** For {@link java.util.ServiceLoader}. */
    public SqliteStorageProvider() {
    }

    @Override
    public List<String> uriPrefixes() {
        return List.of(SqliteStorageConfig.URI_PREFIX);
    }

    @Override
    public Storage open(String uri) throws IOException {
        return JdbcStorage.sqlite(SqliteStorageConfig.fromUri(uri));
    }
}
