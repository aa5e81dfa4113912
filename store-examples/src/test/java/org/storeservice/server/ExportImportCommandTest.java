package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;

/** {@code export} and {@code import} in-process on SQLite files: the format, a round trip, and import's errors. */
@Timeout(60)
class ExportImportCommandTest {
    private static final String WRITTEN = "\"written\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z\"";

    @TempDir
    Path directory;

    private String sqlite(String name) {
        return "sqlite:" + directory.resolve(name);
    }

    @Test
    void exportWritesOneObjectALineInKeyOrder() throws IOException {
        String source = sqlite("a.db");
        try (Storage s = Storages.open(source)) {
            s.putText("t", "line1\nline2 \"quoted\" é 😀 \u0000", OverwritePolicy.REPLACE);
            s.putBytes("b", new ByteArrayInputStream(new byte[] {0, 1, 2, (byte) 0xFF}), OverwritePolicy.REPLACE);
        }

        ToolRun run = ToolRun.run("export", "--storage", source);

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        String[] lines = run.outText().split("\n", -1);
        assertEquals(3, lines.length, run.outText());
        assertTrue(lines[0].matches("\\{\"key\":\"b\",\"type\":\"bytes\",\"value\":\"AAEC/w==\"," + WRITTEN + "}"), lines[0]);
        assertTrue(lines[1].matches("\\{\"key\":\"t\",\"type\":\"string\","
                + "\"value\":\"line1\\\\nline2 \\\\\"quoted\\\\\" é 😀 \\\\u0000\"," + WRITTEN + "}"), lines[1]);
        assertEquals("", lines[2], "the last line ends with a newline too");
        assertEquals("store-server export: exported 2 entries" + System.lineSeparator(), run.err);
    }

    @Test
    void anOutputThatFailsIsStatus1SayingTheExportIsIncomplete() throws IOException {
        String source = sqlite("a.db");
        try (Storage s = Storages.open(source)) {
            for (int i = 0; i < 100; i++) {
                s.putText("k" + i, "v".repeat(1000), OverwritePolicy.REPLACE);
            }
        }
        OutputStream brokenPipe = new OutputStream() { // as standard output does when the reader went away
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = new Main(ToolRun.context(InputStream.nullInputStream(), brokenPipe, err, Map.of(), hook -> { }))
                .run("export", "--storage", source);

        assertEquals(Main.EXIT_FAILURE, status);
        assertTrue(err.toString(UTF_8).matches("store-server export: Broken pipe \\(after \\d+ entries; the output is"
                + " incomplete\\)\\R"), err.toString(UTF_8));
    }

    @Test
    void anEmptyStoreExportsNothing() throws IOException {
        Storages.open(sqlite("empty.db")).close();

        ToolRun run = ToolRun.run("export", "--storage", sqlite("empty.db"));

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        assertEquals(0, run.out.length);
    }

    @Test
    void exportThenImportBetweenTwoSqliteFilesKeepsKindsAndValuesExactly() throws IOException {
        List<StoredEntry> entries = new ArrayList<>();
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        byte[] large = new byte[1 << 20];
        new Random(7).nextBytes(large);
        entries.add(StoredEntry.text("text/plain", "hello", Instant.EPOCH));
        entries.add(StoredEntry.text("text/empty", "", Instant.EPOCH));
        entries.add(StoredEntry.text("text/nul", "\u0000 in \u0000 text", Instant.EPOCH));
        entries.add(StoredEntry.text("text/unicode/ключ/😀", "שלום مرحبا 😀 \ud834\udd1e \ufeff\uffff\ue000 \u2028\r\n\t", Instant.EPOCH));
        entries.add(StoredEntry.text("text/json-ish", "{\"key\":\"x\"}\n{}", Instant.EPOCH));
        entries.add(StoredEntry.bytes("bytes/every", everyByte, Instant.EPOCH));
        entries.add(StoredEntry.bytes("bytes/empty", new byte[0], Instant.EPOCH));
        entries.add(StoredEntry.bytes("bytes/nul", new byte[] {0, 0, 0}, Instant.EPOCH));
        entries.add(StoredEntry.bytes("bytes/large", large, Instant.EPOCH));
        entries.add(StoredEntry.bytes("bytes/utf8-looking", "é".getBytes(UTF_8), Instant.EPOCH));
        String source = sqlite("source.db");
        String target = sqlite("nested/dir/target.db");
        try (Storage s = Storages.open(source)) {
            for (StoredEntry entry : entries) {
                write(s, entry);
            }
        }

        ToolRun export = ToolRun.run("export", "--storage", source);
        ToolRun imported = ToolRun.withInput(export.out, "import", "--storage", target);

        assertEquals(Main.EXIT_OK, export.status, export.toString());
        assertEquals(Main.EXIT_OK, imported.status, imported.toString());
        assertEquals(0, imported.out.length);
        assertEquals("store-server import: imported " + entries.size() + " entries" + System.lineSeparator(), imported.err);
        try (Storage t = Storages.open(target)) {
            List<StoredEntry> copied = new ArrayList<>();
            t.scan("", copied::add);
            assertEquals(entries.stream().sorted((a, b) -> a.key().compareTo(b.key())).toList(), copied);
            for (StoredEntry entry : entries) { // equals compares kind and value; say which one differs if any
                StoredEntry copy = t.get(entry.key()).orElseThrow();
                assertEquals(entry.kind(), copy.kind(), entry.key());
                assertArrayEquals(entry.bytes(), copy.bytes(), entry.key());
            }
        }
        // And the copy exports to the same lines, bar the write times.
        ToolRun again = ToolRun.run("export", "--storage", target);
        assertEquals(withoutTimes(export.outText()), withoutTimes(again.outText()));
    }

    @Test
    void importReplacesExistingEntriesAndTheirKind() throws IOException {
        String target = sqlite("t.db");
        try (Storage s = Storages.open(target)) {
            s.putText("k", "old text", OverwritePolicy.REPLACE);
            s.putText("kept", "untouched", OverwritePolicy.REPLACE);
        }
        String input = "{\"key\":\"k\",\"type\":\"string\",\"value\":\"first\",\"written\":\"2020-01-01T00:00:00Z\"}\r\n"
                + "\r\n\n"
                + "{\"key\":\"k\",\"type\":\"bytes\",\"value\":\"AP8=\",\"written\":\"2020-01-01T00:00:01.5Z\"}\n";

        ToolRun run = ToolRun.withInput(input, "import", "--storage", target);

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        try (Storage s = Storages.open(target)) {
            StoredEntry k = s.get("k").orElseThrow();
            assertEquals(EntryKind.BYTES, k.kind());
            assertArrayEquals(new byte[] {0, (byte) 0xFF}, k.bytes());
            assertEquals("untouched", s.get("kept").orElseThrow().text());
        }
    }

    @Test
    void writtenIsOptional() throws IOException {
        String target = sqlite("t.db");

        ToolRun run = ToolRun.withInput("{\"key\":\"k\",\"type\":\"string\",\"value\":\"v\"}\n", "import", "--storage", target);

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        try (Storage s = Storages.open(target)) {
            assertEquals("v", s.get("k").orElseThrow().text());
        }
    }

    @Test
    void readCommandsRefuseAStorageThatIsNotThereAndDoNotCreateIt() {
        Path missing = directory.resolve("mistyped/store.db");
        for (String[] args : new String[][] {{"get", "k"}, {"list"}, {"export"}, {"delete", "k"}}) {
            String[] withStorage = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                    java.util.stream.Stream.of("--storage", "sqlite:" + missing)).toArray(String[]::new);
            ToolRun run = ToolRun.run(withStorage);
            assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
            assertTrue(run.err.startsWith("store-server " + args[0] + ": no SQLite database at " + missing), run.err);
        }
        assertTrue(!java.nio.file.Files.exists(missing.getParent()), "created " + missing.getParent());
    }

    @Test
    void aMalformedLineStopsTheImportNamingItAndTheLinesBeforeItStayWritten() throws IOException {
        String target = sqlite("t.db");
        String input = line("a", "string", "1") + line("b", "bytes", "Ag==")
                + "{\"key\":\"c\",\"type\":\"string\",\"value\":\"3\"\n" // cut short
                + line("d", "string", "4");

        ToolRun run = ToolRun.withInput(input, "import", "--storage", target);

        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        String[] messages = run.err.split("\\R");
        assertEquals("store-server import: line 3: not valid JSON: the line ends inside the object", messages[0]);
        assertEquals("store-server import: stopped; the lines before it stay written (2 entries);"
                + " importing the same input again replaces them", messages[1]);
        try (Storage s = Storages.open(target)) {
            assertEquals("1", s.get("a").orElseThrow().text());
            assertArrayEquals(new byte[] {2}, s.get("b").orElseThrow().bytes());
            assertEquals(Optional.empty(), s.get("c"));
            assertEquals(Optional.empty(), s.get("d"));
        }
    }

    @Test
    void everyKindOfMalformedLineIsNamedWithItsReason() {
        String ok = line("ok", "string", "v");
        assertImportFails(ok + "[1,2]\n", "line 2: not a JSON object");
        assertImportFails(ok + ok + "not json\n", "line 3: not valid JSON: Unrecognized token 'not'");
        assertImportFails("{\"key\":\"k\",\"type\":\"string\",\"value\":\"v\",\"written\":\"2020-01-01T00:00:00Z\",\"x\":\"\"}\n",
                "line 1: unknown field \"x\"");
        assertImportFails("{\"key\":\"k\",\"type\":\"string\",\"written\":\"2020-01-01T00:00:00Z\"}\n", "line 1: missing field \"value\"");
        assertImportFails("{\"key\":\"k\",\"type\":\"string\",\"value\":1,\"written\":\"2020-01-01T00:00:00Z\"}\n",
                "line 1: field \"value\" is not a string");
        assertImportFails("{\"key\":\"k\",\"key\":\"k2\",\"type\":\"string\",\"value\":\"v\",\"written\":\"2020-01-01T00:00:00Z\"}\n",
                "line 1: not valid JSON: Duplicate field 'key'");
        assertImportFails(line("k", "bytes", "AAEC%w=="), "line 1: \"value\" of a bytes entry is not valid base64: '%' at column 5 of the value");
        assertImportFails(line("k", "bytes", "A"), "line 1: \"value\" of a bytes entry is not valid base64: ");
        assertImportFails(line("k", "text", "v"), "line 1: \"type\" is neither \"string\" nor \"bytes\": text");
        assertImportFails(line("", "string", "v"), "line 1: empty key");
        assertImportFails("{\"key\":\"k\",\"type\":\"string\",\"value\":\"v\",\"written\":\"yesterday\"}\n",
                "line 1: \"written\" is not an ISO-8601 instant: yesterday");
        assertImportFails(ok + ok.trim() + ok, "line 2: more than one JSON value on the line");
        byte[] invalidUtf8 = (ok + "{\"key\":\"\u00e9\"}\n").getBytes(UTF_8);
        invalidUtf8[invalidUtf8.length - 4] = '"'; // \u00e9's lead byte 0xC3 now followed by '"': not UTF-8
        assertImportFails(invalidUtf8, "line 2: not valid UTF-8");
    }

    @Test
    void anEntryTheStorageRefusesStopsTheImportNamingTheLine() {
        // JSON may escape a lone surrogate; UTF-8, and so SQLite, cannot hold it.
        ToolRun run = ToolRun.withInput(line("ok", "string", "v") + line("\\ud800", "string", "v"),
                "import", "--storage", sqlite("t.db"));

        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        assertTrue(run.err.startsWith("store-server import: line 2: could not store the key \"\\ud800\": "), run.err);
        assertTrue(run.err.contains("the lines before it stay written (1 entry)"), run.err);
    }

    @Test
    void importWritesInBatchesAndABatchThatFailsIsWrittenEntryByEntryUpToTheLineThatFails() throws IOException {
        int lines = ImportCommand.BATCH_ENTRIES * 2 + 500;
        int bad = ImportCommand.BATCH_ENTRIES + 700; // in the second batch
        StringBuilder input = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            input.append(i == bad ? line("\\ud800", "string", "v") : line("k" + i, "string", "v" + i));
        }
        String target = sqlite("t.db");

        ToolRun run = ToolRun.withInput(input.toString(), "import", "--storage", target);

        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        assertTrue(run.err.startsWith("store-server import: line " + bad + ": could not store the key \"\\ud800\": "),
                run.err);
        assertTrue(run.err.contains("the lines before it stay written (" + (bad - 1) + " entries)"), run.err);
        try (Storage s = Storages.open(target)) {
            assertEquals("v1", s.get("k1").orElseThrow().text());
            assertEquals("v" + (bad - 1), s.get("k" + (bad - 1)).orElseThrow().text());
            assertEquals(Optional.empty(), s.get("k" + (bad + 1)));
            assertEquals(Optional.empty(), s.get("k" + lines));
        }

        // Importing the input without the bad line finishes the job, and --progress reports it.
        String fixed = input.toString().replace(line("\\ud800", "string", "v"), "");
        ToolRun again = ToolRun.withInput(fixed, "import", "--progress", "--storage", target);
        assertEquals(Main.EXIT_OK, again.status, again.toString());
        assertTrue(again.err.matches("(?s).*store-server import: imported " + (lines - 1)
                + " entries in \\d+\\.\\d s \\([\\d,]+ entries/s\\)\\R"), again.err);
        try (Storage s = Storages.open(target)) {
            assertEquals("v" + lines, s.get("k" + lines).orElseThrow().text());
        }
    }

    private void assertImportFails(String input, String messageStart) {
        assertImportFails(input.getBytes(UTF_8), messageStart);
    }

    private void assertImportFails(byte[] input, String messageStart) {
        ToolRun run = ToolRun.withInput(input, "import", "--storage", "memory:");
        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        assertTrue(run.err.startsWith("store-server import: " + messageStart), run.err);
    }

    private static String line(String key, String type, String value) {
        return "{\"key\":\"" + key + "\",\"type\":\"" + type + "\",\"value\":\"" + value
                + "\",\"written\":\"2026-01-02T03:04:05.678Z\"}\n";
    }

    private static String withoutTimes(String export) {
        return export.replaceAll(WRITTEN, "");
    }

    private static void write(Storage storage, StoredEntry entry) throws IOException {
        if (entry.kind() == EntryKind.TEXT) {
            storage.putText(entry.key(), entry.text(), OverwritePolicy.REPLACE);
        } else {
            storage.putBytes(entry.key(), new ByteArrayInputStream(entry.bytes()), OverwritePolicy.REPLACE);
        }
    }
}
