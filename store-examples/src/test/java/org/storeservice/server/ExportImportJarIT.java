package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.jdbc.TestPostgres;

/**
 * {@code export | import} through the real jar, two child JVMs joined by an operating-system pipe: SQLite to
 * SQLite, and SQLite to PostgreSQL as docs/storage.md's "Outgrowing one machine" tells operators to move.
 */
@Timeout(180)
class ExportImportJarIT {
    @TempDir
    Path directory;

    @Test
    void exportPipedIntoImportCopiesAnSqliteFileExactly() throws Exception {
        String source = "sqlite:" + directory.resolve("source.db");
        String target = "sqlite:" + directory.resolve("target.db");
        List<StoredEntry> entries = fill(source);

        pipe(source, target);

        assertEquals(entries, contents(target));
    }

    @Test
    void exportPipedIntoImportMovesAnSqliteFileToPostgresql() throws Exception {
        String source = "sqlite:" + directory.resolve("source.db");
        List<StoredEntry> entries = fill(source);
        try (TestPostgres postgres = TestPostgres.connect()) {
            String target = postgres.uri("moved");

            pipe(source, target);

            assertEquals(entries, contents(target));
        }
    }

    /** Writes a few entries of every sort to {@code uri}; returns them in key order. */
    private static List<StoredEntry> fill(String uri) throws IOException {
        byte[] random = new byte[200_000];
        new Random(3).nextBytes(random);
        List<StoredEntry> entries = List.of(
                StoredEntry.bytes("bytes/nul", new byte[] {0, 0, (byte) 0xFF, 0}, Instant.EPOCH),
                StoredEntry.bytes("bytes/random", random, Instant.EPOCH),
                StoredEntry.text("text/empty", "", Instant.EPOCH),
                StoredEntry.text("text/nul", "before\u0000after", Instant.EPOCH),
                StoredEntry.text("ключ 😀", "значение \ud834\udd1e\r\n\u2028 \"q\" \\", Instant.EPOCH));
        try (Storage storage = Storages.open(uri)) {
            for (StoredEntry entry : entries) {
                if (entry.kind() == EntryKind.TEXT) {
                    storage.putText(entry.key(), entry.text(), OverwritePolicy.REPLACE);
                } else {
                    storage.putBytes(entry.key(), new ByteArrayInputStream(entry.bytes()), OverwritePolicy.REPLACE);
                }
            }
        }
        return entries;
    }

    private void pipe(String source, String target) throws Exception {
        Path exportErr = directory.resolve("export.err");
        Path importErr = directory.resolve("import.err");
        Path importOut = directory.resolve("import.out");
        List<Process> pipeline = ProcessBuilder.startPipeline(List.of(
                ServerJar.command("export", "--storage", source).redirectError(exportErr.toFile()),
                ServerJar.command("import", "--storage", target).redirectError(importErr.toFile())
                        .redirectOutput(importOut.toFile())));
        try {
            assertEquals(0, ServerJar.exitStatus(pipeline.get(0), Duration.ofSeconds(120)), Files.readString(exportErr));
            assertEquals(0, ServerJar.exitStatus(pipeline.get(1), Duration.ofSeconds(120)), Files.readString(importErr));
        } finally {
            pipeline.forEach(Process::destroyForcibly);
        }
        assertEquals("", Files.readString(importOut, UTF_8));
        assertEquals(List.of("store-server import: imported 5 entries"), messages(importErr));
        assertEquals(List.of("store-server export: exported 5 entries"), messages(exportErr));
    }

    /** The tool's own lines on standard error, without the log lines of the libraries. */
    private static List<String> messages(Path stderr) throws IOException {
        return Files.readAllLines(stderr, UTF_8).stream().filter(line -> line.startsWith("store-server ")).toList();
    }

    private static List<StoredEntry> contents(String uri) throws IOException {
        List<StoredEntry> entries = new ArrayList<>();
        try (Storage storage = Storages.open(uri)) {
            storage.scan("", entries::add);
        }
        return entries;
    }
}
