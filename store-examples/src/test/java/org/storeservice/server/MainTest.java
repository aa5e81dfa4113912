package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.examples.storage.FilesStorage;

/** The tool in-process: what it prints where, its exit statuses, and that its shutdown hook stops the server. */
@Timeout(60)
class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<Thread> hooks = new ArrayList<>();
    private final List<Integer> halted = new ArrayList<>();
    private final Main main = new Main(new ToolContext(InputStream.nullInputStream(), out, new PrintStream(err, true, UTF_8),
            Map.of(), hooks::add, halted::add, uri -> { }));

    @Test
    void helpPrintsTheUsageOnStandardOutput() {
        assertEquals(Main.EXIT_OK, main.run("--help"));

        String help = out.toString(UTF_8);
        assertTrue(help.startsWith("Usage: java -jar store-server.jar [-hV] "), help);
        assertTrue(help.contains(" [--host=ADDRESS]"), help); // then a space or the synopsis's line break
        for (String command : List.of("serve", "get", "list", "export", "import", "delete", "users")) {
            assertTrue(help.contains(System.lineSeparator() + "  " + command + " "), "lists " + command + ":\n" + help);
        }
        assertTrue(help.contains("Default: sqlite:data/store.db"), help);
        assertEquals("", err.toString(UTF_8));
        assertTrue(hooks.isEmpty());
    }

    @Test
    void aBadOptionGivesOneLineThenWhereTheUsageIsOnStandardErrorAndStatus2() {
        assertEquals(Main.EXIT_USAGE, main.run("--port", "x"));

        String[] lines = err.toString(UTF_8).split("\\R");
        assertEquals("store-server: Invalid value for option '--port': not a whole number: x", lines[0]);
        assertEquals("Try 'java -jar store-server.jar --help' for more information.", lines[1]);
        assertEquals(2, lines.length, "the error and the pointer to --help, not the whole usage");
        assertEquals("", out.toString(UTF_8));
    }

    @Test
    void anUnknownStorageSchemeIsAUsageErrorNamingTheKnownOnes() {
        assertEquals(Main.EXIT_USAGE, main.run("--port", "0", "--storage", "nosuch:x"));

        String[] lines = err.toString(UTF_8).split("\\R");
        assertEquals("store-server: No storage backend for 'nosuch:x'; known prefixes: [files:, jdbc:postgresql:, memory:, sqlite:]", lines[0]);
        assertEquals("Try 'java -jar store-server.jar --help' for more information.", lines[1]);
        assertEquals(2, lines.length);
        assertTrue(hooks.isEmpty());
    }

    @Test
    void aPortInUseIsAFailureNotAUsageError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            assertEquals(Main.EXIT_FAILURE,
                    main.run("--port", String.valueOf(taken.getLocalPort()), "--storage", "memory:"));
        }
        assertEquals("", out.toString(UTF_8));
        assertTrue(hooks.isEmpty());
    }

    @Test
    void servesPrintsExactlyTheEndpointUrlAndStopsFromItsShutdownHook(@TempDir Path data) throws Exception {
        assertEquals(Main.EXIT_OK, main.run("--port", "0", "--storage", "files:" + data));

        String printed = out.toString(UTF_8);
        assertTrue(printed.matches("http://127\\.0\\.0\\.1:\\d+/API/Store\\.asmx\\R"), printed);
        URI endpoint = URI.create(printed.strip());
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=v")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(1, hooks.size());

        hooks.get(0).run(); // what the JVM does on SIGTERM

        assertTrue(refused(endpoint), "still listening after the shutdown hook ran");
        assertEquals("v", new FilesStorage(data).get("k").orElseThrow().text());
    }

    private static boolean refused(URI endpoint) throws Exception {
        try {
            new java.net.Socket(endpoint.getHost(), endpoint.getPort()).close();
            return false;
        } catch (ConnectException e) {
            return true;
        }
    }
}
