package org.storeservice.api.storage;

import java.io.IOException;
import java.util.List;

/**
 * Opens a {@link Storage} backend from a URI. Providers are found with {@link java.util.ServiceLoader}:
 * list the implementation in {@code META-INF/services/org.storeservice.api.storage.StorageProvider}.
 * Implementations need a public no-argument constructor and must be thread-safe.
 */
public interface StorageProvider {

    /**
     * {@return the URI prefixes this provider opens}, each ending in {@code ':'}, for example {@code "memory:"}
     * or {@code "jdbc:postgresql:"}. Matched case-insensitively; the longest matching prefix among all
     * providers wins.
     */
    List<String> uriPrefixes();

    /**
     * Opens the backend that {@code uri} names; the caller closes it.
     *
     * @param uri a URI that starts with one of {@link #uriPrefixes()}
     * @return the open storage
     * @throws IllegalArgumentException if {@code uri} is malformed for this provider
     * @throws IOException if the backend could not be opened
     */
    Storage open(String uri) throws IOException;
}
