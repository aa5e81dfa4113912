package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.codec.CodecLimits;
import org.storeservice.jetty.StoreServer;

/** {@code compare} in-process against two real servers on ephemeral ports, each with a storage the test reads. */
@Timeout(120)
class CompareCommandTest {
    private static final int NON_WRITE_CASES = CompareCases.catalogue("http://tempuri.org/", null).size();
    private static final List<String> WRITE_CASES = List.of("write-soap11-string", "write-soap11-bytes",
            "write-soap12-string", "write-soap12-bytes", "write-get-string", "write-get-bytes", "write-post-string",
            "write-post-bytes");

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private record Served(StoreServer server, Storage storage) {
        String url() {
            return server.endpointUri().toString();
        }
    }

    private Served serve(UnaryOperator<StoreServer.Builder> configure) throws IOException {
        Storage storage = Storages.open("memory:");
        opened.add(storage);
        StoreServer server = configure.apply(StoreServer.builder().port(0).storage(storage)).build().start();
        opened.add(server);
        return new Served(server, storage);
    }

    private static Map<String, StoredEntry> entries(Storage storage) throws IOException {
        Map<String, StoredEntry> entries = new TreeMap<>();
        storage.scan("", entry -> entries.put(entry.key(), entry));
        return entries;
    }

    private static List<String> caseLines(ToolRun run) {
        return run.outText().lines().filter(l -> l.startsWith("MATCH ") || l.startsWith("DIFF  ")).toList();
    }

    @Test
    void twoIdenticalServersMatchInEveryCaseAndNothingIsStored() throws IOException {
        Served a = serve(b -> b);
        Served b = serve(b2 -> b2);

        ToolRun run = ToolRun.run("compare", a.url(), b.url());

        assertEquals(Main.EXIT_OK, run.status, run.toString() + run.outText());
        List<String> lines = caseLines(run);
        assertEquals(NON_WRITE_CASES, lines.size(), run.outText());
        assertTrue(lines.stream().allMatch(l -> l.startsWith("MATCH ")), run.outText());
        assertTrue(lines.contains("MATCH wsdl") && lines.contains("MATCH soap-version-mismatch")
                && lines.contains("MATCH post-no-content-type"), run.outText());
        assertTrue(run.outText().endsWith(NON_WRITE_CASES + " cases, 0 differ\n"), run.outText());
        assertTrue(run.outText().contains("not the reason phrase"), run.outText());
        assertEquals(Map.of(), entries(a.storage()), "no case without --include-writes stores anything");
        assertEquals(Map.of(), entries(b.storage()));
        assertEquals("", run.err);
    }

    @Test
    void aDifferentNamespaceMakesTheMetadataAndSoapCasesDiffer() throws IOException {
        Served old = serve(b -> b);
        Served changed = serve(b -> b.namespace("urn:example:other"));

        ToolRun run = ToolRun.run("compare", old.url(), changed.url());

        assertEquals(Main.EXIT_FAILURE, run.status, run.toString() + run.outText());
        List<String> lines = caseLines(run);
        for (String name : List.of("wsdl", "disco", "help-page", "op-page-WriteString", "soap11-missing-key",
                "soap12-missing-key")) {
            assertTrue(lines.contains("DIFF  " + name), name + " should differ:\n" + run.outText());
        }
        // the namespace appears in neither the request nor the answer of these
        for (String name : List.of("put-endpoint", "get-WriteString-missing-key", "post-no-content-type")) {
            assertTrue(lines.contains("MATCH " + name), name + " should match:\n" + run.outText());
        }
        String report = run.outText();
        assertTrue(report.contains("\nDIFF wsdl\n  body differs from line "), report);
        assertTrue(report.contains("+") && report.contains("urn:example:other"), report);
        // SOAP 1.1 with the tempuri action on the other server: an unknown SOAPAction fault instead of Error
        assertTrue(report.contains("\nDIFF soap11-missing-key\n  status: old 200, new 500\n"), report);
        long differing = lines.stream().filter(l -> l.startsWith("DIFF")).count();
        assertTrue(report.endsWith(NON_WRITE_CASES + " cases, " + differing + " differ\n"), report);
    }

    @Test
    void aDifferentRequestLimitOrEndpointPathIsFoundToo() throws IOException {
        Served old = serve(b -> b);
        // 100 bytes: every SOAP envelope of the catalogue is larger, so each gets the size fault instead
        Served limited = serve(b -> b.codecLimits(CodecLimits.builder().maxRequestBytes(100).build()));

        ToolRun run = ToolRun.run("compare", old.url(), limited.url());

        assertEquals(Main.EXIT_FAILURE, run.status, run.toString() + run.outText());
        assertTrue(caseLines(run).contains("DIFF  soap11-missing-key"), run.outText());
        assertTrue(run.outText().contains("Maximum request length exceeded."), run.outText());
        assertTrue(caseLines(run).contains("MATCH wsdl"), run.outText());
    }

    @Test
    void includeWritesWithoutKeyPrefixIsAUsageErrorAndSendsNothing() throws IOException {
        Served a = serve(b -> b);
        Served b = serve(b2 -> b2);

        ToolRun run = ToolRun.run("compare", "--include-writes", a.url(), b.url());

        assertEquals(Main.EXIT_USAGE, run.status, run.toString());
        assertTrue(run.err.startsWith("store-server: --include-writes needs --key-prefix P"), run.err);
        assertEquals("", run.outText());
        assertEquals(Map.of(), entries(a.storage()));
        assertEquals(Map.of(), entries(b.storage()));
    }

    @Test
    void includeWritesIsNeverReadFromTheEnvironment() throws IOException {
        Served a = serve(b -> b);
        Served b = serve(b2 -> b2);

        ToolRun run = ToolRun.withEnvironment(new byte[0], Map.of("STORE_INCLUDE_WRITES", "true",
                "STORE_KEY_PREFIX", "env/"), "compare", a.url(), b.url());

        assertEquals(Main.EXIT_OK, run.status, run.toString() + run.outText());
        assertEquals(NON_WRITE_CASES, caseLines(run).size());
        assertEquals(Map.of(), entries(a.storage()));
    }

    @Test
    void writesStoreExactlyTheirKeysOnBothServers() throws IOException {
        Served a = serve(b -> b);
        Served b = serve(b2 -> b2);

        ToolRun run = ToolRun.run("compare", "--include-writes", "--key-prefix", "cmp/", a.url(), b.url());

        assertEquals(Main.EXIT_OK, run.status, run.toString() + run.outText());
        List<String> lines = caseLines(run);
        assertEquals(NON_WRITE_CASES + WRITE_CASES.size(), lines.size(), run.outText());
        for (String name : WRITE_CASES) {
            assertTrue(lines.contains("MATCH " + name), run.outText());
        }
        for (Served served : List.of(a, b)) {
            Map<String, StoredEntry> entries = entries(served.storage());
            assertEquals(WRITE_CASES.stream().map(n -> "cmp/" + n).sorted().toList(), List.copyOf(entries.keySet()),
                    "only the write cases store, each its own key");
            for (StoredEntry entry : entries.values()) {
                if (entry.key().endsWith("-string")) {
                    assertEquals(EntryKind.TEXT, entry.kind(), entry.key());
                    assertEquals(CompareCases.WRITTEN_TEXT, entry.text(), entry.key());
                } else {
                    assertEquals(EntryKind.BYTES, entry.kind(), entry.key());
                    assertArrayEquals(CompareCases.WRITTEN_BYTES, entry.bytes(), entry.key());
                }
            }
        }
    }

    @Test
    void wrongUrlsAreUsageErrors() {
        for (String url : List.of("not a url", "ftp://host/API/Store.asmx", "http://host/API/Store.asmx?wsdl", "/API/Store.asmx")) {
            ToolRun run = ToolRun.run("compare", url, "http://127.0.0.1:1/API/Store.asmx");
            assertEquals(Main.EXIT_USAGE, run.status, url + ": " + run);
            assertTrue(run.err.startsWith("store-server: OLD_URL "), run.err);
        }
        assertEquals(Main.EXIT_USAGE, ToolRun.run("compare", "http://127.0.0.1:1/API/Store.asmx").status);
    }

    @Test
    void anEndpointNobodyListensOnIsAFailureInOneLine() throws IOException {
        Served a = serve(b -> b);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String absent = "http://127.0.0.1:" + closedPort + "/API/Store.asmx";

        ToolRun run = ToolRun.run("compare", a.url(), absent);

        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        assertTrue(run.err.startsWith("store-server compare: cannot connect to NEW_URL " + absent), run.err);
        assertEquals(1, run.err.lines().count(), run.err);
    }
}
