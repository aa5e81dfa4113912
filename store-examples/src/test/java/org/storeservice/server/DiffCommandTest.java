package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;

/** {@code diff A B} over real SQLite storages and export files, run in-process as the tool runs. */
class DiffCommandTest {
    @TempDir
    Path dir;

    /** A SQLite store holding {@code entries}, closed; its URI. */
    private String storage(String name, List<StoredEntry> entries) throws IOException {
        String uri = "sqlite:" + dir.resolve(name + ".db");
        try (Storage storage = Storages.open(uri)) {
            for (StoredEntry entry : entries) {
                boolean stored = entry.kind() == org.storeservice.api.storage.EntryKind.TEXT
                        ? storage.putText(entry.key(), entry.text(), OverwritePolicy.REPLACE)
                        : storage.putBytes(entry.key(), new java.io.ByteArrayInputStream(entry.bytes()), OverwritePolicy.REPLACE);
                assertTrue(stored);
            }
        }
        return uri;
    }

    /** An export file of {@code entries}, as export writes them (in the order given). */
    private String export(String name, List<StoredEntry> entries) throws IOException {
        Path file = dir.resolve(name + ".jsonl");
        try (OutputStream out = Files.newOutputStream(file)) {
            EntryLineWriter writer = new EntryLineWriter(out);
            for (StoredEntry entry : entries) {
                writer.write(entry);
            }
            writer.flush();
        }
        return file.toString();
    }

    private static StoredEntry text(String key, String value) {
        return StoredEntry.text(key, value, Instant.parse("2026-01-02T03:04:05Z"));
    }

    private static StoredEntry bytes(String key, byte... value) {
        return StoredEntry.bytes(key, value, Instant.parse("2026-01-02T03:04:05Z"));
    }

    @Test
    void twoStoresWithTheSameEntriesAreEqualWhateverTheirWrittenTimes() throws Exception {
        List<StoredEntry> entries = List.of(text("a", "x"), bytes("b", (byte) 0, (byte) 255), text("c", "\r\n"));
        String a = storage("a", entries);
        String b = storage("b", entries); // written later: other times
        ToolRun run = ToolRun.run("diff", a, b);
        assertEquals(Main.EXIT_OK, run.status, run.err);
        assertEquals(List.of("A: " + a, "B: " + b, "only in A: 0", "only in B: 0", "different values: 0",
                "equal: 3 entries on both sides"), run.outText().lines().toList());
        assertEquals(Main.EXIT_OK, ToolRun.run("diff", export("e", entries), b).status, "an export against a storage");
    }

    @Test
    void eachKindOfDifferenceIsListedThenCounted() throws Exception {
        String a = storage("a", List.of(text("both-same", "v"), text("only-a", "1"), text("other-text", "old"),
                text("other-type", "AAE="), bytes("same-length", (byte) 1), text("z", "end")));
        String b = export("b", List.of(text("both-same", "v"), text("only-b", "2"), text("other-text", "newer"),
                bytes("other-type", (byte) 0, (byte) 1), bytes("same-length", (byte) 2), text("z", "end")));
        ToolRun run = ToolRun.run("diff", a, b);
        assertEquals(Main.EXIT_FAILURE, run.status, run.err);
        assertEquals(List.of("A: " + a, "B: " + b,
                "only in A:  \"only-a\"  (string, 1 byte UTF-8)",
                "only in B:  \"only-b\"  (string, 1 byte UTF-8)",
                "different:  \"other-text\"  (A string, 3 bytes UTF-8, B string, 5 bytes UTF-8)",
                "different:  \"other-type\"  (A string, 4 bytes UTF-8, B bytes, 2 bytes)",
                "different:  \"same-length\"  (same type and length, other content)",
                "only in A: 1", "only in B: 1", "different values: 3", "not equal: 5 of 7 keys differ"),
                run.outText().lines().toList());
    }

    @Test
    void manyDifferencesListTheFirstOfEachKindAndCountThemAll() throws Exception {
        List<StoredEntry> left = new java.util.ArrayList<>();
        List<StoredEntry> right = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String key = String.format("k%04d", i);
            left.add(text(key, "a"));
            right.add(text(key, i % 2 == 0 ? "a" : "b"));
        }
        String a = export("a", left);
        String b = export("b", right);
        ToolRun run = ToolRun.run("diff", "--show", "3", a, b);
        assertEquals(Main.EXIT_FAILURE, run.status, run.err);
        List<String> lines = run.outText().lines().toList();
        assertEquals(2 + 3 + 4, lines.size(), lines.toString());
        assertEquals("different:  \"k0001\"  (same type and length, other content)", lines.get(2));
        assertEquals("different values: 500 (the first 3 listed; --all lists every one)", lines.get(7));
        assertEquals("not equal: 500 of 1000 keys differ", lines.get(8));
        assertEquals(2 + 500 + 4, ToolRun.run("diff", "--all", a, b).outText().lines().count(), "--all lists every one");
        assertEquals(Main.EXIT_FAILURE, ToolRun.withInput(Files.readAllBytes(Path.of(b)), "diff", a, "-").status,
                "B from standard input");
    }

    /**
     * PostgreSQL against SQLite, keys whose UTF-16 order (the SPI's, String.compareTo) differs from code point order
     * (U+1F600 against U+E000): both scan in the same order, so the merge finds them equal. Needs the test database
     * (STORE_TEST_POSTGRES_URL); skipped without it.
     */
    @Test
    void aPostgresqlStoreAndASqliteStoreWithTheSameEntriesAreEqual() throws Exception {
        String postgres = System.getenv("STORE_TEST_POSTGRES_URL");
        org.junit.jupiter.api.Assumptions.assumeTrue(postgres != null && !postgres.isBlank(), "STORE_TEST_POSTGRES_URL unset");
        List<StoredEntry> entries = List.of(text("a", "1"), text("\uE000", "private use"), text("\uD83D\uDE00", "emoji"),
                bytes("z", (byte) 7));
        String table = "diff_test_" + Long.toHexString(System.nanoTime());
        String pg = postgres + (postgres.contains("?") ? "&" : "?") + "table=" + table;
        try (Storage storage = Storages.open(pg)) {
            for (StoredEntry entry : entries) {
                assertTrue(entry.kind() == org.storeservice.api.storage.EntryKind.TEXT
                        ? storage.putText(entry.key(), entry.text(), OverwritePolicy.REPLACE)
                        : storage.putBytes(entry.key(), new java.io.ByteArrayInputStream(entry.bytes()), OverwritePolicy.REPLACE));
            }
        }
        ToolRun run = ToolRun.run("diff", pg, storage("sqlite", entries));
        assertEquals(Main.EXIT_OK, run.status, run.outText() + run.err);
        assertTrue(run.outText().contains("equal: 4 entries on both sides"), run.outText());
        assertTrue(!run.outText().contains("password"), "the URI is shown without its password: " + run.outText());
    }

    @Test
    void aStorageUriIsPrintedWithoutItsPassword() {
        assertEquals("jdbc:postgresql://db.example/store?...",
                DiffSide.shown("jdbc:postgresql://db.example/store?user=store&password=secret"));
        assertEquals("jdbc:postgresql://db.example/store", DiffSide.shown("jdbc:postgresql://store:secret@db.example/store"));
        assertEquals("sqlite:data/store.db", DiffSide.shown("sqlite:data/store.db"));
        assertEquals("exports/a?.jsonl", DiffSide.shown("exports/a?.jsonl"), "a file is shown as given");
    }

    @Test
    void anExportOutOfKeyOrderOrAMissingSideIsTroubleNotADifference() throws Exception {
        String sorted = export("sorted", List.of(text("a", "1"), text("b", "2")));
        String unsorted = export("unsorted", List.of(text("b", "2"), text("a", "1")));
        ToolRun run = ToolRun.run("diff", sorted, unsorted);
        assertEquals(DiffCommand.EXIT_TROUBLE, run.status);
        assertTrue(run.err.startsWith("store-server diff: " + unsorted + " line 2: the key \"a\" after \"b\": diff reads"
                + " an export in key order, as export writes it"), run.err);

        run = ToolRun.run("diff", sorted, "sqlite:" + dir.resolve("none.db"));
        assertEquals(DiffCommand.EXIT_TROUBLE, run.status);
        assertTrue(run.err.startsWith("store-server diff: no SQLite database at "), run.err);
        assertTrue(Files.notExists(dir.resolve("none.db")), "diff never creates a storage");

        run = ToolRun.run("diff", sorted, dir.resolve("none.jsonl").toString());
        assertEquals(DiffCommand.EXIT_TROUBLE, run.status);
        assertTrue(run.err.startsWith("store-server diff: no export file "), run.err);

        Files.writeString(dir.resolve("broken.jsonl"), "{\"key\":\"a\"}\n", UTF_8);
        run = ToolRun.run("diff", sorted, dir.resolve("broken.jsonl").toString());
        assertEquals(DiffCommand.EXIT_TROUBLE, run.status);
        assertTrue(run.err.contains("broken.jsonl line 1: "), run.err);

        assertEquals(Main.EXIT_USAGE, ToolRun.run("diff", sorted).status, "B missing");
        assertEquals(Main.EXIT_USAGE, ToolRun.run("diff", sorted, "nosuchscheme:x").status, "no backend takes it");
        assertEquals(Main.EXIT_USAGE, ToolRun.run("diff", "-", "-").status);
    }
}
