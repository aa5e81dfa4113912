package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;

/** {@code get KEY} and {@code list} in-process, on an SQLite file: exact bytes on standard output, statuses. */
@Timeout(60)
class GetAndListCommandTest {
    private static final byte[] WITH_NUL = {0, 'a', 0, (byte) 0xFF, (byte) 0xC3, 0};

    @TempDir
    Path directory;
    private String storage;

    @BeforeEach
    void fill() throws IOException {
        storage = "sqlite:" + directory.resolve("store.db");
        try (Storage s = Storages.open(storage)) {
            s.putText("ключ/😀", "значение 😀 \u202bRTL\u202c", OverwritePolicy.REPLACE);
            s.putText("text/nul", "a\u0000b", OverwritePolicy.REPLACE);
            s.putBytes("bytes/nul", new ByteArrayInputStream(WITH_NUL), OverwritePolicy.REPLACE);
            s.putText("--dashes", "v", OverwritePolicy.REPLACE);
            s.putText("empty", "", OverwritePolicy.REPLACE);
        }
    }

    @Test
    void getPrintsTextAsUtf8WithNothingAdded() {
        ToolRun run = ToolRun.run("get", "--storage", storage, "ключ/😀");

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        assertArrayEquals("значение 😀 \u202bRTL\u202c".getBytes(UTF_8), run.out);
        assertEquals("", run.err);
    }

    @Test
    void onATerminalAValueEndsWithANewlineAndIntoAPipeNothingIsAdded() {
        assertArrayEquals("значение 😀 \u202bRTL\u202c\n".getBytes(UTF_8),
                ToolRun.onTerminal("get", "--storage", storage, "ключ/😀").out);
        assertArrayEquals("\n".getBytes(UTF_8), ToolRun.onTerminal("get", "--storage", storage, "empty").out);
        assertArrayEquals(new byte[0], ToolRun.run("get", "--storage", storage, "empty").out);
    }

    @Test
    void getPrintsBytesRawIncludingNulAndTextWithNul() {
        assertArrayEquals(WITH_NUL, ToolRun.run("get", "--storage=" + storage, "bytes/nul").out);
        assertArrayEquals(new byte[] {'a', 0, 'b'}, ToolRun.run("get", "--storage", storage, "text/nul").out);
        assertArrayEquals(new byte[0], ToolRun.run("get", "--storage", storage, "empty").out);
    }

    @Test
    void aKeyStartingWithDashesComesAfterDoubleDash() {
        ToolRun run = ToolRun.run("get", "--storage", storage, "--", "--dashes");

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        assertEquals("v", run.outText());
    }

    @Test
    void anAbsentKeyIsStatus1WithAMessageAndNoOutput() {
        ToolRun run = ToolRun.run("get", "--storage", storage, "no\nsuch");

        assertEquals(Main.EXIT_FAILURE, run.status);
        assertEquals(0, run.out.length);
        assertEquals("store-server get: no entry under the key \"no\\u000asuch\"" + System.lineSeparator(), run.err);
    }

    @Test
    void getWithoutAKeyOrWithTwoIsAUsageError() {
        ToolRun none = ToolRun.run("get", "--storage", storage);
        ToolRun two = ToolRun.run("get", "--storage", storage, "a", "b");

        assertEquals(Main.EXIT_USAGE, none.status);
        assertEquals("store-server: Missing required parameter: 'KEY'" + System.lineSeparator()
                + "Try 'java -jar store-server.jar get --help' for more information." + System.lineSeparator(), none.err);
        assertEquals(Main.EXIT_USAGE, two.status);
        assertTrue(two.err.startsWith("store-server: Unmatched argument at index 4: 'b'"), two.err);
        assertEquals(0, none.out.length + two.out.length);
    }

    @Test
    void listPrintsTheKeysInKeyOrderOneALine() {
        ToolRun run = ToolRun.run("list", "--storage", storage);

        assertEquals(Main.EXIT_OK, run.status, run.toString());
        assertEquals("--dashes\nbytes/nul\nempty\ntext/nul\nключ/😀\n", run.outText());
        assertEquals("", run.err);
    }

    @Test
    void listWithAPrefixPrintsOnlyThoseKeys() {
        assertEquals("text/nul\n", ToolRun.run("list", "--storage", storage, "--prefix", "t").outText());
        assertEquals("ключ/😀\n", ToolRun.run("list", "--prefix=ключ", "--storage", storage).outText());
        assertEquals("", ToolRun.run("list", "--storage", storage, "--prefix", "zzz").outText());
    }

    @Test
    void helpOfASubcommandGoesToStandardOutput() {
        ToolRun run = ToolRun.run("list", "--help");

        assertEquals(Main.EXIT_OK, run.status);
        assertTrue(run.outText().startsWith("Print the keys, one a line." + System.lineSeparator()
                + "Usage: java -jar store-server.jar list [-hV] [--log-level=LEVEL] [--prefix=P]"), run.outText());
        assertTrue(run.outText().contains("Default: sqlite:data/store.db"), run.outText());
        assertEquals("", run.err);
    }

    @Test
    void anUnknownOptionOrStorageSchemeIsAUsageError() {
        ToolRun option = ToolRun.run("list", "--storage", storage, "--limit", "3");
        ToolRun scheme = ToolRun.run("export", "--storage", "nosuch:x");

        assertEquals(Main.EXIT_USAGE, option.status);
        assertTrue(option.err.startsWith("store-server: Unknown options: '--limit', '3'"), option.err);
        assertEquals(Main.EXIT_USAGE, scheme.status);
        assertTrue(scheme.err.startsWith("store-server: No storage backend for 'nosuch:x'; known prefixes:"), scheme.err);
        assertTrue(scheme.err.contains("Try 'java -jar store-server.jar export --help' for more information."), scheme.err);
    }

    @Test
    void aStorageThatCannotBeOpenedIsStatus1() throws IOException {
        java.nio.file.Files.writeString(directory.resolve("not-a-db"), "plain text, not SQLite");

        ToolRun run = ToolRun.run("list", "--storage", "sqlite:" + directory.resolve("not-a-db"));

        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        assertTrue(run.err.startsWith("store-server list: could not open the storage: "), run.err);
    }
}
