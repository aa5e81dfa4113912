package org.storeservice.examples.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Keeps sqlite-jdbc's native library in a cache directory between starts of the tool. On its own, sqlite-jdbc
 * runs {@code uname -o}, hashes the library inside the jar, writes a copy of it to the temp directory under a
 * new name and loads that, on every start: about 80-100 ms of a start that should take under half a second
 * (BENCHMARKS.md). The copy is made once, into {@code $XDG_CACHE_HOME/store-server} (else
 * {@code ~/.cache/store-server}), in a directory named after the sqlite-jdbc version, the OS and the
 * architecture; {@link #useCachedCopy} then points sqlite-jdbc at it with its own properties
 * {@code org.sqlite.lib.path} and {@code org.sqlite.lib.name}.
 *
 * <p>Nothing here can stop SQLite from loading: if the cache cannot be written the properties are not set, and if
 * the cached copy cannot be loaded sqlite-jdbc goes on to extract its own, as it always did. Only the ready
 * server's {@link Main#main} uses this: it sets JVM-wide properties, which a library must not.
 */
final class SqliteNativeLibrary {
    static final String PATH_PROPERTY = "org.sqlite.lib.path";
    static final String NAME_PROPERTY = "org.sqlite.lib.name";

    private SqliteNativeLibrary() {
    }

    /**
     * If the command line's storage is SQLite (the default) and the JVM was not told where the library is, sets
     * sqlite-jdbc's properties to the cached copy, making that copy first if needed.
     */
    static void useCachedCopy(List<String> args) {
        if (System.getProperty(PATH_PROPERTY) != null || System.getProperty(NAME_PROPERTY) != null
                || !storageIsSqlite(args)) {
            return;
        }
        cacheRoot().flatMap(SqliteNativeLibrary::cachedCopy).ifPresent(library -> {
            System.setProperty(PATH_PROPERTY, library.getParent().toString());
            System.setProperty(NAME_PROPERTY, library.getFileName().toString());
        });
    }

    /** Whether {@code args} leave the storage at its SQLite default or name a {@code sqlite:} URI. */
    static boolean storageIsSqlite(List<String> args) {
        String uri = ServerOptions.DEFAULT_STORAGE_URI;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--storage") && i + 1 < args.size()) {
                uri = args.get(++i);
            } else if (arg.startsWith("--storage=")) {
                uri = arg.substring("--storage=".length());
            }
        }
        return uri.startsWith("sqlite:");
    }

    private static Optional<Path> cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && Path.of(xdg).isAbsolute()) {
            return Optional.of(Path.of(xdg, "store-server"));
        }
        String home = System.getProperty("user.home");
        return home == null || home.isEmpty() || home.equals("?")
                ? Optional.empty() : Optional.of(Path.of(home, ".cache", "store-server"));
    }

    /**
     * The library copied under {@code cacheRoot}, copying it on the first call for this sqlite-jdbc version, OS and
     * architecture; empty if it cannot be had (no library for this platform, a cache that cannot be written).
     */
    static Optional<Path> cachedCopy(Path cacheRoot) {
        String name = LibraryLoaderUtil.getNativeLibName();
        Path directory = cacheRoot.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion() + "-"
                + System.getProperty("os.name").replaceAll("\\W", "") + "-" + System.getProperty("os.arch"));
        Path library = directory.resolve(name);
        if (Files.isRegularFile(library)) {
            return Optional.of(library);
        }
        // The first start: where sqlite-jdbc itself would take the library from (this runs `uname -o` once).
        String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name;
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty(); // sqlite-jdbc has none for this platform; it will say so itself
            }
            Files.createDirectories(directory);
            // Written whole under a temporary name and then renamed, so that a start never finds half a library.
            Path partial = Files.createTempFile(directory, name, ".partial");
            try {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                moveIntoPlace(partial, library);
            } finally {
                Files.deleteIfExists(partial);
            }
            return Optional.of(library);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // sqlite-jdbc extracts its own copy, as without a cache
        }
    }

    private static void moveIntoPlace(Path partial, Path library) throws IOException {
        try {
            Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, library, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
