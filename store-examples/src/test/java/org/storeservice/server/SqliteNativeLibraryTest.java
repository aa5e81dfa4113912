package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

class SqliteNativeLibraryTest {

    @Test
    void theStorageIsSqliteWhenItsUriSaysSo() {
        assertTrue(SqliteNativeLibrary.storageIsSqlite(CommonOptions.DEFAULT_STORAGE_URI));
        assertTrue(SqliteNativeLibrary.storageIsSqlite("sqlite:x.db"));
        assertTrue(SqliteNativeLibrary.storageIsSqlite("SQLite:x.db"), "schemes match in any case");
        assertFalse(SqliteNativeLibrary.storageIsSqlite("memory:"));
        assertFalse(SqliteNativeLibrary.storageIsSqlite("jdbc:postgresql://h/db"));
        assertFalse(SqliteNativeLibrary.storageIsSqlite("files:sqlite:x"));
    }

    @Test
    void copiesTheLibraryOnceWholeAndReusesIt(@TempDir Path cache) throws Exception {
        Path library = SqliteNativeLibrary.cachedCopy(cache).orElseThrow();

        String name = LibraryLoaderUtil.getNativeLibName();
        assertEquals(name, library.getFileName().toString());
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(
                LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name)) {
            assertArrayEquals(in.readAllBytes(), Files.readAllBytes(library));
        }
        FileTime copiedAt = Files.getLastModifiedTime(library);

        assertEquals(Optional.of(library), SqliteNativeLibrary.cachedCopy(cache));
        assertEquals(copiedAt, Files.getLastModifiedTime(library));
        try (Stream<Path> files = Files.walk(cache)) {
            assertEquals(List.of(library), files.filter(Files::isRegularFile).collect(Collectors.toList()),
                    "nothing but the library is left, no partial copy");
        }
    }

    @Test
    void aCacheOthersCouldWriteIsNotUsed(@TempDir Path directory) throws Exception {
        Path cache = directory.resolve("cache");
        Path library = SqliteNativeLibrary.cachedCopy(cache).orElseThrow();

        for (Path path : List.of(library, library.getParent(), cache, directory)) {
            Set<PosixFilePermission> before = Files.getPosixFilePermissions(path);
            Set<PosixFilePermission> groupWritable = EnumSet.copyOf(before);
            groupWritable.add(PosixFilePermission.GROUP_WRITE);
            Files.setPosixFilePermissions(path, groupWritable);
            assertEquals(Optional.empty(), SqliteNativeLibrary.cachedCopy(cache), path + " group-writable");
            Files.setPosixFilePermissions(path, before);
        }
        assertEquals(Optional.of(library), SqliteNativeLibrary.cachedCopy(cache));

        Path elsewhere = Files.writeString(directory.resolve("elsewhere.so"), "not the library");
        Files.delete(library);
        Files.createSymbolicLink(library, elsewhere);
        assertEquals(Optional.of(library), SqliteNativeLibrary.cachedCopy(cache));
        assertFalse(Files.isSymbolicLink(library), "a symbolic link is replaced by a copy, never followed");
        assertEquals("not the library", Files.readString(elsewhere));
    }

    @Test
    void aPartialCopyLeftByAKilledStartIsRemovedByTheNextCopy(@TempDir Path cache) throws Exception {
        Path library = SqliteNativeLibrary.cachedCopy(cache).orElseThrow();
        Files.delete(library);
        Path partial = Files.writeString(library.resolveSibling(library.getFileName() + "123.partial"), "half");

        assertEquals(Optional.of(library), SqliteNativeLibrary.cachedCopy(cache));
        assertFalse(Files.exists(partial));
    }

    @Test
    void aCacheThatCannotBeWrittenGivesNothingAndSqliteJdbcExtractsItsOwn(@TempDir Path directory) throws Exception {
        Path notADirectory = Files.writeString(directory.resolve("file"), "x");

        assertEquals(Optional.empty(), SqliteNativeLibrary.cachedCopy(notADirectory));
    }
}
