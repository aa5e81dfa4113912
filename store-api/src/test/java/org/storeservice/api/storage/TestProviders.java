package org.storeservice.api.storage;

import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.storeservice.api.OverwritePolicy;

/** Providers registered only on the test class path, to check how {@link Storages} picks one. */
final class TestProviders {
    private TestProviders() {
    }

    /** A storage that only remembers which provider opened it. */
    static final class Named implements Storage {
        final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) {
            throw new UnsupportedOperationException("test double");
        }

        @Override
        public boolean putBytes(String key, InputStream content, OverwritePolicy policy) {
            throw new UnsupportedOperationException("test double");
        }

        @Override
        public Optional<StoredEntry> get(String key) {
            return Optional.empty();
        }

        @Override
        public void scan(String keyPrefix, EntryVisitor visitor) {
        }

        @Override
        public void close() {
        }
    }

    public static final class General implements StorageProvider {
        @Override
        public List<String> uriPrefixes() {
            return List.of("test:");
        }

        @Override
        public Storage open(String uri) {
            return new Named("general");
        }
    }

    public static final class Special implements StorageProvider {
        @Override
        public List<String> uriPrefixes() {
            return List.of("test:special:");
        }

        @Override
        public Storage open(String uri) {
            return new Named("special");
        }
    }
}
