package org.storeservice.api.storage;

import java.io.IOException;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * Opens a {@link Storage} by URI through the {@link StorageProvider}s on the class path, for example
 * {@code memory:}, {@code sqlite:data/store.db} or {@code jdbc:postgresql://db/store}.
 *
 * <p>Stateless: every call asks {@link ServiceLoader} afresh, so it keeps no global registry.
 */
public final class Storages {
    private Storages() {
    }

    /**
     * Opens {@code uri} with the providers visible to this class's class loader; the caller closes it.
     *
     * @param uri names the backend by one of its provider's prefixes: {@code memory:}, {@code sqlite:PATH}, ...
     * @return the open storage
     * @throws IllegalArgumentException if no provider matches; the message names the known prefixes
     * @throws IOException if the provider could not open the backend
     */
    public static Storage open(String uri) throws IOException {
        return open(uri, Storages.class.getClassLoader());
    }

    /**
     * Opens {@code uri} with the provider whose prefix matches it longest; the caller closes it.
     *
     * @param uri names the backend by one of its provider's prefixes
     * @param classLoader where the providers are looked up ({@link java.util.ServiceLoader})
     * @return the open storage
     * @throws IllegalArgumentException if no provider matches; the message names the known prefixes
     * @throws IOException if the provider could not open the backend
     */
    public static Storage open(String uri, ClassLoader classLoader) throws IOException {
        if (uri == null || uri.isEmpty()) {
            throw new IllegalArgumentException("Storage URI is empty; known prefixes: " + knownPrefixes(classLoader));
        }
        String lowerUri = uri.toLowerCase(Locale.ROOT);
        StorageProvider best = null;
        int bestLength = -1;
        for (StorageProvider provider : ServiceLoader.load(StorageProvider.class, classLoader)) {
            for (String prefix : provider.uriPrefixes()) {
                if (lowerUri.startsWith(prefix.toLowerCase(Locale.ROOT)) && prefix.length() > bestLength) {
                    best = provider;
                    bestLength = prefix.length();
                }
            }
        }
        if (best == null) {
            throw new IllegalArgumentException(
                    "No storage backend for '" + uri + "'; known prefixes: " + knownPrefixes(classLoader));
        }
        return best.open(uri);
    }

    /**
     * {@return every URI prefix that the providers visible to {@code classLoader} open, sorted}
     *
     * @param classLoader where the providers are looked up ({@link java.util.ServiceLoader})
     */
    public static Set<String> knownPrefixes(ClassLoader classLoader) {
        Set<String> prefixes = new TreeSet<>();
        for (StorageProvider provider : ServiceLoader.load(StorageProvider.class, classLoader)) {
            prefixes.addAll(provider.uriPrefixes());
        }
        return prefixes;
    }
}
