package org.storeservice.examples.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

class SqliteNativeLibraryTest {

    @Test
    void theStorageIsSqliteByDefaultOrWhenItsUriSaysSo() {
        assertTrue(SqliteNativeLibrary.storageIsSqlite(List.of()));
        assertTrue(SqliteNativeLibrary.storageIsSqlite(List.of("--port", "0")));
        assertTrue(SqliteNativeLibrary.storageIsSqlite(List.of("--storage", "sqlite:x.db")));
        assertTrue(SqliteNativeLibrary.storageIsSqlite(List.of("export", "--storage=sqlite:x.db")));
        assertFalse(SqliteNativeLibrary.storageIsSqlite(List.of("--storage", "memory:")));
        assertFalse(SqliteNativeLibrary.storageIsSqlite(List.of("get", "k", "--storage=jdbc:postgresql://h/db")));
        assertFalse(SqliteNativeLibrary.storageIsSqlite(List.of("--storage", "sqlite:a", "--storage", "files:d")),
                "the last one counts, as for the option parser");
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
    void aCacheThatCannotBeWrittenGivesNothingAndSqliteJdbcExtractsItsOwn(@TempDir Path directory) throws Exception {
        Path notADirectory = Files.writeString(directory.resolve("file"), "x");

        assertEquals(Optional.empty(), SqliteNativeLibrary.cachedCopy(notADirectory));
    }
}
