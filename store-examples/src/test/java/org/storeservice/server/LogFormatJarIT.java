package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --log-format json} (and {@code STORE_LOG_FORMAT=json}) on the shaded jar, a child JVM: every line on standard
 * error is one JSON object with the Elastic Common Schema's time, level, logger and message, an exception's stack
 * trace is inside its object, the access log is JSON too, and standard output still carries only the endpoint URL;
 * the shadow proxy's lines likewise. Without it, the lines are text as before.
 */
@Timeout(180)
class LogFormatJarIT {
    private static final List<String> ECS_FIELDS = List.of("@timestamp", "log.level", "log.logger", "message");
    /** A text log line, as slf4j-simple wrote it before the server moved to logback. */
    private static final Pattern TEXT_LINE =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}[+-]\\d{4} [A-Z]+ \\S+ - .*");
    private static final JsonFactory JSON = new JsonFactory();

    @Test
    void jsonLogsAreOneEcsObjectPerLineAndTheAccessLogFollows(@TempDir Path work) throws Exception {
        Path accessLog = work.resolve("access.log");
        List<String> stderr = serveWriteAndStop(work, Map.of(), "--log-format", "json", "--access-log", accessLog.toString());
        assertTrue(stderr.size() >= 4, "listening, draining, stopping, stopped: " + stderr);
        for (String line : stderr) {
            Map<String, String> object = ecsObject(line);
            assertTrue(object.get("@timestamp").matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"), line);
        }
        assertTrue(stderr.stream().map(LogFormatJarIT::ecsObject).anyMatch(object ->
                object.get("log.level").equals("INFO") && object.get("log.logger").equals("org.storeservice.jetty.StoreServer")
                        && object.get("message").startsWith("Store endpoint listening at ")), stderr.toString());
        List<String> access = Files.readAllLines(accessLog, UTF_8);
        assertEquals(1, access.size(), access.toString());
        assertTrue(ecsObject(access.get(0)).get("message").contains("\"GET /API/Store.asmx/WriteString?key=k&value=v"),
                access.get(0));
    }

    @Test
    void theShadowProxyLogsJsonToo(@TempDir Path work) throws Exception {
        Path stdout = work.resolve("out");
        Path stderr = work.resolve("err");
        // Neither service needs to exist: the proxy starts, warns of its small queue (a WARN line), and stops.
        Process process = ServerJar.command("shadow", "--port", "0", "--primary", "http://127.0.0.1:9/API/Store.asmx",
                "--shadow", "http://127.0.0.1:10/API/Store.asmx", "--shadow-queue-bytes", "1000", "--log-format", "json")
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            ServerJar.firstLine(stdout, process, stderr, Duration.ofSeconds(60));
        } finally {
            process.destroy(); // SIGTERM
        }
        assertEquals(0, ServerJar.exitStatus(process, Duration.ofSeconds(60)), Files.readString(stderr));
        List<Map<String, String>> objects = Files.readAllLines(stderr, UTF_8).stream().map(LogFormatJarIT::ecsObject)
                .toList();
        assertTrue(objects.stream().anyMatch(object -> object.get("log.level").equals("WARN")
                && object.get("message").startsWith("--shadow-queue-bytes (1000)")), objects.toString());
        assertTrue(objects.stream().anyMatch(object -> object.get("log.logger").equals("org.storeservice.shadow.ShadowProxy")
                && object.get("message").startsWith("Shadow proxy listening at ")), objects.toString());
    }

    @Test
    void aStartFailureIsOneJsonObjectInJsonAndTheCommandsLineInText(@TempDir Path work) throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            String port = "" + taken.getLocalPort();
            String expected = "cannot listen on 127.0.0.1:" + port + " ";
            List<String> text = failedStart(work, "serve", "--port", port, "--storage", "memory:", "--log-format", "text");
            assertEquals(1, text.size(), text.toString());
            assertTrue(text.get(0).startsWith("store-server serve: " + expected), text.toString());
            for (String command : List.of("serve", "shadow")) {
                List<String> lines = command.equals("serve")
                        ? failedStart(work, "serve", "--port", port, "--storage", "memory:", "--log-format", "json")
                        : failedStart(work, "shadow", "--port", port, "--primary", "http://127.0.0.1:9/API/Store.asmx",
                                "--shadow", "http://127.0.0.1:10/API/Store.asmx", "--log-format", "json");
                assertTrue(!lines.isEmpty(), command + ": the failure is logged");
                for (String line : lines) {
                    Map<String, String> object = ecsObject(line); // fails on a line that is not one JSON object
                    assertTrue(object.get("@timestamp").matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"), line);
                }
                List<Map<String, String>> errors = lines.stream().map(LogFormatJarIT::ecsObject)
                        .filter(object -> object.get("log.level").equals("ERROR")).toList();
                assertEquals(1, errors.size(), lines.toString());
                String logger = command.equals("serve") ? "ServeCommand" : "ShadowCommand";
                assertEquals("org.storeservice.server." + logger, errors.get(0).get("log.logger"));
                assertTrue(errors.get(0).get("message").startsWith("store-server " + command + ": " + expected),
                        errors.toString());
            }
        }
    }

    /** Runs a command that must fail to start (exit 1, nothing on standard output); standard error's lines. */
    private static List<String> failedStart(Path work, String... args) throws Exception {
        Path stdout = Files.createTempFile(work, "out", "");
        Path stderr = Files.createTempFile(work, "err", "");
        Process process = ServerJar.command(args).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        assertEquals(Main.EXIT_FAILURE, ServerJar.exitStatus(process, Duration.ofSeconds(60)), Files.readString(stderr));
        assertEquals("", Files.readString(stdout));
        return Files.readAllLines(stderr, UTF_8);
    }

    @Test
    void textLogsStayAsTheyWereByDefault(@TempDir Path work) throws Exception {
        List<String> stderr = serveWriteAndStop(work, Map.of());
        assertTrue(stderr.size() >= 4, stderr.toString());
        for (String line : stderr) {
            assertTrue(TEXT_LINE.matcher(line).matches(), line);
        }
        assertTrue(stderr.get(0).contains(" INFO StoreServer - Store endpoint listening at http://127.0.0.1:"), stderr.get(0));
    }

    @Test
    void anExceptionsStackTraceIsInsideItsObject(@TempDir Path work) throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            Path stdout = work.resolve("out");
            Path stderr = work.resolve("err");
            ProcessBuilder command = ServerJar.command("serve", "--port", "" + taken.getLocalPort(), "--storage", "memory:",
                    "--log-level", "debug");
            command.environment().put("STORE_LOG_FORMAT", "json");
            Process process = command.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            assertEquals(Main.EXIT_FAILURE, ServerJar.exitStatus(process, Duration.ofSeconds(60)));
            List<String> lines = Files.readAllLines(stderr, UTF_8);
            // Every line is JSON, the command's own error too: an ERROR object with the message text mode prints.
            List<Map<String, String>> objects = lines.stream().map(LogFormatJarIT::ecsObject).toList();
            List<Map<String, String>> errors = objects.stream().filter(object -> object.get("log.level").equals("ERROR"))
                    .toList();
            assertEquals(1, errors.size(), lines.toString());
            assertEquals("org.storeservice.server.ServeCommand", errors.get(0).get("log.logger"));
            assertTrue(errors.get(0).get("message").startsWith("store-server serve: cannot listen on "), errors.toString());
            Map<String, String> failure = objects.stream().filter(object -> object.get("message").equals("Start failure"))
                    .findFirst().orElseThrow(() -> new AssertionError("no Start failure object: " + lines));
            assertEquals("DEBUG", failure.get("log.level"));
            assertTrue(failure.get("error.type").contains("Exception"), failure.toString());
            assertTrue(failure.get("error.stack_trace").contains("\n\tat "), failure.toString());
            assertEquals("", Files.readString(stdout));
        }
    }

    /** Serves memory storage with {@code args}, writes one value, stops with SIGTERM; returns standard error's lines. */
    private static List<String> serveWriteAndStop(Path work, Map<String, String> environment, String... args)
            throws Exception {
        List<String> all = new ArrayList<>(List.of("serve", "--port", "0", "--storage", "memory:",
                "--management-port", "" + freePort(), "--drain-time", "1"));
        all.addAll(List.of(args));
        Path stdout = work.resolve("out");
        Path stderr = work.resolve("err");
        ProcessBuilder command = ServerJar.command(all.toArray(String[]::new));
        command.environment().putAll(environment);
        Process process = command.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            URI endpoint = URI.create(ServerJar.firstLine(stdout, process, stderr, Duration.ofSeconds(60)));
            assertTrue(endpoint.toString().matches("http://127\\.0\\.0\\.1:\\d+/API/Store\\.asmx"), endpoint.toString());
            String answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(endpoint + "/WriteString?key=k&value=v")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(answer.contains(">Success<"), answer);
        } finally {
            process.destroy(); // SIGTERM
        }
        assertEquals(0, ServerJar.exitStatus(process, Duration.ofSeconds(60)), Files.readString(stderr));
        assertEquals(1, Files.readAllLines(stdout, UTF_8).size(), "standard output: the endpoint URL alone");
        return Files.readAllLines(stderr, UTF_8);
    }

    /** The line's top-level fields as text; fails unless it is one JSON object with the ECS fields named. */
    private static Map<String, String> ecsObject(String line) {
        Map<String, String> fields = new HashMap<>();
        try (JsonParser parser = JSON.createParser(line)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                fail("not a JSON object: " + line);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                if (parser.currentToken().isStructStart()) {
                    parser.skipChildren();
                } else {
                    fields.put(name, parser.getValueAsString());
                }
            }
            assertEquals(null, parser.nextToken(), "one object alone on the line: " + line);
        } catch (IOException e) {
            fail("not JSON: " + line, e);
        }
        for (String field : ECS_FIELDS) {
            assertTrue(fields.get(field) != null, "no " + field + " in " + line);
        }
        return fields;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
