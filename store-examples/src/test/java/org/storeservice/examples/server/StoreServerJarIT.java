package org.storeservice.examples.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
    void servesUntilSigtermThenExitsCleanlyWithTheWriteStored(@TempDir Path data, @TempDir Path logs) throws Exception {
        // Standard output to a file rather than a pipe: destroy() closes the pipes, and the file lets the
        // test check afterwards that the URL was the only line.
        Path stdout = logs.resolve("stdout.txt");
        Path stderr = logs.resolve("stderr.txt");
        Process server = command("--port", "0", "--storage", "files:" + data)
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            String line = firstLine(stdout, server);
            assertTrue(line.matches("http://127\\.0\\.0\\.1:\\d+/API/Store\\.asmx"), line + "\n" + Files.readString(stderr));
            URI endpoint = URI.create(line);

            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=from+the+jar")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());

            server.destroy(); // SIGTERM
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "did not exit after SIGTERM");
            int status = server.exitValue();
            assertTrue(status == 0 || status == 143, "exit status " + status + "\n" + Files.readString(stderr));
            assertEquals(List.of(line), Files.readAllLines(stdout), "standard output holds more than the URL");
        } finally {
            server.destroyForcibly();
        }
        assertEquals("from the jar", new FilesStorage(data).get("k").orElseThrow().text());
    }

    @Test
    void aBadOptionExitsWithStatus2AndTheUsage() throws Exception {
        Process process = command("--no-such-option").start();

        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        String stderr = new String(process.getErrorStream().readAllBytes(), UTF_8);
        assertTrue(stderr.startsWith("store-server: unknown option: --no-such-option"), stderr);
        assertTrue(stderr.contains("Usage: java -jar store-server.jar"), stderr);
        assertEquals("", new String(process.getInputStream().readAllBytes(), UTF_8));
    }

    @Test
    void helpExitsWithStatus0() throws Exception {
        Process process = command("--help").start();

        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
        assertTrue(new String(process.getInputStream().readAllBytes(), UTF_8).contains("--storage URI"));
    }

    /** The first line the server writes, once it is complete; fails if the server exits first. */
    private static String firstLine(Path stdout, Process server) throws IOException, InterruptedException {
        while (true) {
            String text = Files.readString(stdout, UTF_8);
            int end = text.indexOf('\n');
            if (end >= 0) {
                return text.substring(0, end).strip();
            }
            assertTrue(server.isAlive(), "the server exited before printing its URL");
            Thread.sleep(20);
        }
    }

    private static ProcessBuilder command(String... args) {
        assertTrue(Files.isRegularFile(JAR), "no jar at " + JAR.toAbsolutePath());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }
}
