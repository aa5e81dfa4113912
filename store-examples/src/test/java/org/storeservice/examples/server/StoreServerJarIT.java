package org.storeservice.examples.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.examples.storage.FilesStorage;

/** The shaded jar as an operator runs it: a child JVM, its one line of output, SIGTERM, exit statuses. */
@Timeout(120)
class StoreServerJarIT {
    private static final Path JAR = Path.of(System.getProperty("store.server.jar", "target/store-server.jar"));

    @Test
    void servesUntilSigtermThenExitsCleanlyWithTheWriteStored(@TempDir Path data) throws Exception {
        Path log = Files.createTempFile("store-server", ".log");
        Process server = start(ProcessBuilder.Redirect.to(log.toFile()), "--port", "0", "--storage", "files:" + data);
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(), UTF_8));
            String line = stdout.readLine();
            assertTrue(line != null && line.matches("http://127\\.0\\.0\\.1:\\d+/API/Store\\.asmx"),
                    line + "\n" + Files.readString(log));
            URI endpoint = URI.create(line);

            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=from+the+jar")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());

            server.destroy(); // SIGTERM
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "did not exit after SIGTERM");
            int status = server.exitValue();
            assertTrue(status == 0 || status == 143, "exit status " + status);
            assertEquals(null, stdout.readLine(), "more than one line on standard output");
        } finally {
            server.destroyForcibly();
        }
        assertEquals("from the jar", new FilesStorage(data).get("k").orElseThrow().text());
    }

    @Test
    void aBadOptionExitsWithStatus2AndTheUsage() throws Exception {
        Process process = start(ProcessBuilder.Redirect.PIPE, "--no-such-option");

        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        String stderr = new String(process.getErrorStream().readAllBytes(), UTF_8);
        assertTrue(stderr.startsWith("store-server: unknown option: --no-such-option"), stderr);
        assertTrue(stderr.contains("Usage: java -jar store-server.jar"), stderr);
        assertEquals("", new String(process.getInputStream().readAllBytes(), UTF_8));
    }

    @Test
    void helpExitsWithStatus0() throws Exception {
        Process process = start(ProcessBuilder.Redirect.PIPE, "--help");

        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
        assertTrue(new String(process.getInputStream().readAllBytes(), UTF_8).contains("--storage URI"));
    }

    private static Process start(ProcessBuilder.Redirect stderr, String... args) throws IOException {
        assertTrue(Files.isRegularFile(JAR), "no jar at " + JAR.toAbsolutePath());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(stderr).start();
    }
}
