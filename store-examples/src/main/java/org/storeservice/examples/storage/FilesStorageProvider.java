package org.storeservice.examples.storage;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageProvider;

/**
 * Opens {@link FilesStorage} for the URI {@code files:DIR}, where DIR is a directory path, absolute or relative
 * to the working directory; it is created if missing. Registered in
 * {@code META-INF/services/org.storeservice.api.storage.StorageProvider}, so {@code Storages.open} finds it.
 */
public final class FilesStorageProvider implements StorageProvider {
    private static final String PREFIX = "files:";

    @Override
    public List<String> uriPrefixes() {
        return List.of(PREFIX);
    }

    @Override
    public Storage open(String uri) throws IOException {
        String directory = uri.substring(PREFIX.length());
        if (directory.isEmpty()) {
            throw new IllegalArgumentException("files: needs a directory, for example files:data/store");
        }
        try {
            return new FilesStorage(Path.of(directory));
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("Not a directory path in '" + uri + "': " + e.getMessage(), e);
        }
    }
}
