package org.storeservice.server;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;
import org.sqlite.util.OSInfo;

/**
 * Keeps sqlite-jdbc's native library in a cache directory between starts of the tool. On its own, sqlite-jdbc
 * runs {@code uname -o}, hashes the library inside the jar, writes a copy of it to the temp directory under a
 * new name and loads that, on every start: about 80-100 ms of a start that should take under half a second
 * (BENCHMARKS.md). The copy is made once, into {@code $XDG_CACHE_HOME/store-server} (else
 * {@code ~/.cache/store-server}), in a directory named after the sqlite-jdbc version, the OS, the architecture
 * and the C library; {@link #useCachedCopy} then points sqlite-jdbc at it with its own properties
 * {@code org.sqlite.lib.path} and {@code org.sqlite.lib.name}.
 *
 * <p>A library is code the server runs, so the cache is used only where no one else can have put it there: the
 * file, its directory and the cache directory must be the user's own, not symbolic links, and writable by the
 * user alone (directories are created so); otherwise sqlite-jdbc extracts its own as before. The copy is flushed
 * to disk before it is renamed into place, so a power cut cannot leave a half-written library under the final
 * name.
 *
 * <p>Nothing here can stop SQLite from loading: on any failure the properties are not set, and if the cached copy
 * cannot be loaded sqlite-jdbc logs it and extracts its own, as it always did. Only the ready server's
 * {@link Main#main} uses this: it sets JVM-wide properties, which a library must not.
 */
final class SqliteNativeLibrary {
    static final String PATH_PROPERTY = "org.sqlite.lib.path";
    static final String NAME_PROPERTY = "org.sqlite.lib.name";
    private static final int GROUP_OR_OTHERS_WRITE = 0022;
    private static final int STICKY = 01000;

    private SqliteNativeLibrary() {
    }

    /**
     * If {@code storageUri} is SQLite and the JVM was not told where the library is, sets sqlite-jdbc's properties to
     * the cached copy, making that copy first if needed. Called before the storage is opened.
     */
    static void useCachedCopy(String storageUri) {
        if (System.getProperty(PATH_PROPERTY) != null || System.getProperty(NAME_PROPERTY) != null
                || !storageIsSqlite(storageUri)) {
            return;
        }
        try {
            cacheRoot().flatMap(SqliteNativeLibrary::cachedCopy).ifPresent(library -> {
                System.setProperty(PATH_PROPERTY, library.getParent().toString());
                System.setProperty(NAME_PROPERTY, library.getFileName().toString());
            });
        } catch (RuntimeException e) {
            // An odd environment (a malformed XDG_CACHE_HOME, say): sqlite-jdbc finds its library as it always did.
        }
    }

    /** Whether {@code storageUri} is an {@code sqlite:} URI (schemes match in any case). */
    static boolean storageIsSqlite(String storageUri) {
        return storageUri.toLowerCase(Locale.ROOT).startsWith("sqlite:");
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
     * The library copied under {@code cacheRoot}, copying it on the first call for this sqlite-jdbc version and
     * platform; empty if it cannot be had safely (no library for this platform, a cache that cannot be written or
     * that someone else could have written).
     */
    static Optional<Path> cachedCopy(Path cacheRoot) {
        String arch = System.getProperty("os.arch");
        if (arch.startsWith("arm")) {
            return Optional.empty(); // 32-bit ARM: which library fits takes `uname -m`, the very cost saved here
        }
        String name = LibraryLoaderUtil.getNativeLibName();
        Path directory = cacheRoot.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion() + "-"
                + System.getProperty("os.name").replaceAll("\\W", "") + "-" + arch + (OSInfo.isMusl() ? "-musl" : ""));
        Path library = directory.resolve(name);
        try {
            if (Files.isRegularFile(library, NOFOLLOW_LINKS)) {
                return onlyOurs(cacheRoot, directory, library) ? Optional.of(library) : Optional.empty();
            }
            // The first start: where sqlite-jdbc itself would take the library from (this runs `uname -o` once).
            String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name;
            try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
                if (in == null) {
                    return Optional.empty(); // sqlite-jdbc has none for this platform; it will say so itself
                }
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                if (!onlyOurs(cacheRoot, directory, null)) {
                    return Optional.empty();
                }
                deleteLeftovers(directory);
                copyDurably(in, directory, library);
            }
            return onlyOurs(cacheRoot, directory, library) ? Optional.of(library) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // sqlite-jdbc extracts its own copy, as without a cache (also off POSIX)
        }
    }

    /**
     * Whether the library (if given), its directory and the cache directory are the user's alone, and the directory
     * that holds the cache directory is the user's or root's and either writable by its owner alone or sticky (as
     * {@code /tmp}), so that no one else can rename the cache directory away and put another in its place.
     */
    private static boolean onlyOurs(Path cacheRoot, Path directory, Path library) throws IOException {
        UserPrincipalLookupService users = cacheRoot.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal me = users.lookupPrincipalByName(System.getProperty("user.name"));
        List<Path> mine = library == null ? List.of(cacheRoot, directory) : List.of(cacheRoot, directory, library);
        for (Path path : mine) {
            if (!ownedBy(path, Set.of(me)) || (mode(path) & GROUP_OR_OTHERS_WRITE) != 0) {
                return false;
            }
        }
        Path holder = cacheRoot.toAbsolutePath().getParent();
        return holder == null || ownedBy(holder, new HashSet<>(List.of(me, users.lookupPrincipalByName("root"))))
                && ((mode(holder) & GROUP_OR_OTHERS_WRITE) == 0 || (mode(holder) & STICKY) != 0);
    }

    private static boolean ownedBy(Path path, Set<UserPrincipal> owners) throws IOException {
        return !Files.isSymbolicLink(path) && owners.contains(Files.getOwner(path, NOFOLLOW_LINKS));
    }

    /** The POSIX mode bits, the sticky bit included (which {@link PosixFilePermission} leaves out). */
    private static int mode(Path path) throws IOException {
        return (Integer) Files.getAttribute(path, "unix:mode", NOFOLLOW_LINKS);
    }

    /** Partial copies an earlier start left when it was killed while copying. */
    private static void deleteLeftovers(Path directory) throws IOException {
        try (DirectoryStream<Path> partials = Files.newDirectoryStream(directory, "*.partial")) {
            for (Path partial : partials) {
                Files.deleteIfExists(partial);
            }
        }
    }

    /** Writes {@code in} under a temporary name, forces it to disk, then renames it to {@code library}. */
    private static void copyDurably(InputStream in, Path directory, Path library) throws IOException {
        Path partial = Files.createTempFile(directory, library.getFileName().toString(), ".partial");
        try {
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.WRITE)) {
                OutputStream out = Channels.newOutputStream(channel);
                in.transferTo(out);
                channel.force(true);
            }
            try {
                Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, library, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel directoryChannel = FileChannel.open(directory, StandardOpenOption.READ)) {
                directoryChannel.force(true); // the rename itself
            } catch (IOException e) {
                // Some file systems cannot sync a directory; the library is whole either way.
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
