package org.storeservice.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.storeservice.jdbc.SqliteStorageConfig;

/**
 * Whether the storage a URI names is there, for the commands that must not create one: opening {@code sqlite:} or
 * {@code files:} creates the file or directory (and its parents), so a mistyped path would be answered "no entry"
 * from a new, empty store. Other URIs are taken as they are: {@code memory:} is always there and always empty, and
 * PostgreSQL's database must exist already (its table is created on first open).
 */
final class ExistingStorage {
    private static final String FILES = "files:";

    private ExistingStorage() {
    }

    /** Why the storage {@code uri} names is not there, or empty if it is (or cannot be told). */
    static Optional<String> missing(String uri) {
        String lower = uri.toLowerCase(Locale.ROOT);
        try {
            if (lower.startsWith(SqliteStorageConfig.URI_PREFIX)) {
                Path file = SqliteStorageConfig.fromUri(uri).path();
                return Files.isRegularFile(file) ? Optional.empty() : Optional.of("no SQLite database at " + file);
            }
            if (lower.startsWith(FILES) && uri.length() > FILES.length()) {
                Path directory = Path.of(uri.substring(FILES.length()));
                return Files.isDirectory(directory) ? Optional.empty() : Optional.of("no files: directory at " + directory);
            }
        } catch (IllegalArgumentException e) { // InvalidPathException included
            return Optional.empty(); // a malformed URI: opening it says what is wrong
        }
        return Optional.empty();
    }
}
