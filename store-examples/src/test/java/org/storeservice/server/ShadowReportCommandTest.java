package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.jetty.StoreServer;
import org.storeservice.shadow.ShadowProxy;

/**
 * {@code shadow-report} over a differences file a real shadow proxy wrote, between two Store servers whose namespaces
 * differ on purpose: one group per cause, the most frequent first, an example each, the accepted apart.
 */
@Timeout(120)
class ShadowReportCommandTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path directory;

    @Test
    void differencesAreGroupedByCauseWithoutSizesEachWithAnExample() throws Exception {
        Path differences = directory.resolve("differences.jsonl");
        Path accept = Files.write(directory.resolve("ours.accept"),
                List.of("metadata wsdl body the shadow's namespace is another on purpose"));
        AtomicLong outcomes = new AtomicLong();
        try (MemoryStorage primaryStorage = new MemoryStorage(); MemoryStorage shadowStorage = new MemoryStorage();
                StoreServer primary = StoreServer.builder().port(0).storage(primaryStorage).build().start();
                StoreServer shadow = StoreServer.builder().port(0).storage(shadowStorage)
                        .namespace("http://other.example/").build().start();
                ShadowProxy proxy = ShadowProxy.builder().port(0).primary(primary.endpointUri())
                        .shadow(shadow.endpointUri()).differences(differences).accept(accept)
                        .observer((binding, operation, result) -> outcomes.incrementAndGet()).build().start()) {
            URI endpoint = proxy.endpointUri();
            // HTTP GET writes of values of different lengths: the answers name the namespace, both say Success.
            for (String value : new String[] {"a", "bb", "a longer value"}) {
                get(URI.create(endpoint + "/WriteString?key=k-" + value.length() + "&value=" + value.replace(' ', '+')));
            }
            get(URI.create(endpoint + "?WSDL"));
            get(URI.create(endpoint + "?wsdl"));
            get(URI.create(endpoint + "?disco"));
            for (int i = 0; i < 600 && outcomes.get() < 6; i++) {
                Thread.sleep(10); // the copies are compared after the clients' answers; polled, bounded
            }
            assertEquals(6, outcomes.get());
        }
        ToolRun report = ToolRun.run("shadow-report", differences.toString());
        String text = new String(report.out, UTF_8);
        System.out.print("[shadow-report]\n" + text);
        assertEquals(Main.EXIT_FAILURE, report.status, text + report.err);
        String[] lines = text.split("\n");
        assertEquals("differing:", lines[0], text);
        assertEquals("       3  httpget WriteString: body differs", lines[1], text);
        // The example is whichever of the three was compared first: copies of different keys are compared in any order.
        assertTrue(lines[2].matches("          e\\.g\\. GET /API/Store\\.asmx/WriteString\\?key=k-(1&value=a|2&value=bb"
                + "|14&value=a\\+longer\\+value) \\(key \"k-(1|2|14)\"\\) at .*"), text);
        assertTrue(lines[3].startsWith("               body differs at byte "), text);
        assertTrue(text.contains("       1  metadata disco: body differs\n"), text);
        assertTrue(text.contains("accepted (understood, by the accept rules):\n       2  metadata wsdl: body differs\n"
                + "          because " + accept + ":1: the shadow's namespace is another on purpose\n"), text);
        assertTrue(text.endsWith("4 differing in 2 causes, 2 accepted in 1 cause\n"), text);
        for (String line : lines) {
            if (line.startsWith("       ") && !line.startsWith("          ")) {
                assertFalse(line.matches(".*\\d+ bytes.*|.*at byte.*"), "a group line without sizes or offsets: " + line);
            }
        }
    }

    @Test
    void onlyAcceptedDifferencesExitZeroAndAnUnreadableFileTwo() throws Exception {
        Path file = Files.writeString(directory.resolve("d.jsonl"), "{\"binding\":\"httpget\",\"operation\":\"WriteString\","
                + "\"request\":\"GET /x\",\"key\":\"k\",\"causes\":[\"body: line ends differ (primary LF, shadow CRLF)\"],"
                + "\"differences\":[\"body differs at byte 38\"],\"accepted\":[\"a.accept:3: Mono\"],\"primary\":{}}\n\n");
        ToolRun report = ToolRun.run("shadow-report", file.toString());
        String text = new String(report.out, UTF_8);
        assertEquals(Main.EXIT_OK, report.status, text);
        assertTrue(text.endsWith("0 differing in 0 causes, 1 accepted in 1 cause\n"), text);
        ToolRun missing = ToolRun.run("shadow-report", directory.resolve("missing").toString());
        assertEquals(Main.EXIT_USAGE, missing.status);
        assertTrue(missing.err.startsWith("store-server shadow-report: cannot create or open "), missing.err);
    }

    @Test
    void aFileWithLinesThatAreNotDifferenceLinesCannotBeReadAndExitsTwoNamingTheFirst() throws Exception {
        // A dropped-keys file given by mistake: JSON lines, but no causes; nothing differs, yet nothing was read.
        String dropped = "{\"time\":\"2026-11-29T03:48:09Z\",\"key\":\"k\",\"binding\":\"httpget\","
                + "\"operation\":\"WriteString\",\"reason\":\"the shadow did not answer\"}\n";
        Path droppedKeys = Files.writeString(directory.resolve("dropped.jsonl"), dropped + dropped);
        ToolRun report = ToolRun.run("shadow-report", droppedKeys.toString());
        assertEquals(Main.EXIT_USAGE, report.status, new String(report.out, UTF_8) + report.err);
        assertEquals("store-server shadow-report: " + droppedKeys + ": 2 lines are not difference lines (the first: line"
                + " 1); is it the differences file (--differences)?\n", report.err.replace("\r\n", "\n"));
        // A differences file with one line that is not: the report is printed, and the status says it is incomplete.
        Path mixed = Files.writeString(directory.resolve("mixed.jsonl"), "{\"binding\":\"httpget\",\"operation\":"
                + "\"WriteString\",\"request\":\"GET /x\",\"causes\":[\"status 200 against 500\"]}\n\nnot json\n");
        ToolRun partly = ToolRun.run("shadow-report", mixed.toString());
        assertEquals(Main.EXIT_USAGE, partly.status, partly.err);
        assertTrue(new String(partly.out, UTF_8).endsWith("1 differing in 1 cause, 0 accepted in 0 causes\n"),
                new String(partly.out, UTF_8));
        assertTrue(partly.err.contains(": 1 line is not a difference line (the first: line 3)"), partly.err);
    }

    private static void get(URI uri) throws Exception {
        HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), uri + ": " + answer.body());
    }
}
