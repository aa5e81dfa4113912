package org.storeservice.examples.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.examples.storage.FilesStorage;

/** The shaded jar as an operator runs it: a child JVM, its one line of output, SIGTERM, exit statuses. */
@Timeout(120)
class StoreServerJarIT {
    @Test
    void servesUntilSigtermThenExitsCleanlyWithTheWriteStored(@TempDir Path data, @TempDir Path logs) throws Exception {
        // Standard output to a file rather than a pipe: destroy() closes the pipes, and the file lets the
        // test check afterwards that the URL was the only line.
        Path stdout = logs.resolve("stdout.txt");
        Path stderr = logs.resolve("stderr.txt");
        Process server = ServerJar.command("--port", "0", "--storage", "files:" + data)
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            String line = ServerJar.firstLine(stdout, server, stderr, Duration.ofSeconds(60));
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
        Process process = ServerJar.command("--no-such-option").start();

        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        String stderr = new String(process.getErrorStream().readAllBytes(), UTF_8);
        assertTrue(stderr.startsWith("store-server: unknown option: --no-such-option"), stderr);
        assertTrue(stderr.contains("Usage: java -jar store-server.jar"), stderr);
        assertEquals("", new String(process.getInputStream().readAllBytes(), UTF_8));
    }

    @Test
    void helpExitsWithStatus0() throws Exception {
        Process process = ServerJar.command("--help").start();

        String help = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertEquals(0, ServerJar.exitStatus(process, Duration.ofSeconds(60)));
        assertTrue(help.contains("--storage URI"), help);
        assertTrue(help.contains("  export "), help);
    }

    @Test
    void withoutStorageOptionItServesTheSqliteFileUnderTheWorkingDirectoryWhichGetThenReads(@TempDir Path workDir)
            throws Exception {
        Path stdout = workDir.resolve("stdout.txt");
        Path stderr = workDir.resolve("stderr.txt");
        Process server = ServerJar.command("--port", "0").directory(workDir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            URI endpoint = URI.create(ServerJar.firstLine(stdout, server, stderr, Duration.ofSeconds(60)));
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=d%C3%A9faut")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            server.destroy(); // SIGTERM
            ServerJar.exitStatus(server, Duration.ofSeconds(60));
        } finally {
            server.destroyForcibly();
        }
        assertTrue(Files.isRegularFile(workDir.resolve("data/store.db")), "no data/store.db under the working directory");

        Process get = ServerJar.command("get", "k").directory(workDir.toFile()).redirectError(stderr.toFile()).start();
        byte[] value = get.getInputStream().readAllBytes();
        assertEquals(0, ServerJar.exitStatus(get, Duration.ofSeconds(60)), Files.readString(stderr));
        assertEquals("défaut", new String(value, UTF_8));
    }

    @Test
    void sqlitesNativeLibraryIsCopiedToTheCacheOnceAndLoadedFromThereAfterwards(@TempDir Path workDir) throws Exception {
        Path cache = workDir.resolve("cache");
        Path sqliteTemp = Files.createDirectory(workDir.resolve("sqlite-tmp"));
        Path stderr = workDir.resolve("stderr.txt");
        List<FileTime> copiedAt = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            ProcessBuilder list = ServerJar.command("list", "--storage", "sqlite:" + workDir.resolve("s.db"))
                    .redirectError(stderr.toFile());
            list.environment().put("XDG_CACHE_HOME", cache.toString());
            // Where sqlite-jdbc would extract a library of its own: it must not need to.
            list.environment().put("JAVA_TOOL_OPTIONS", "-Dorg.sqlite.tmpdir=" + sqliteTemp);
            Process process = list.start();
            process.getInputStream().readAllBytes();
            assertEquals(0, ServerJar.exitStatus(process, Duration.ofSeconds(60)), Files.readString(stderr));

            List<Path> libraries;
            try (Stream<Path> files = Files.walk(cache)) {
                libraries = files.filter(Files::isRegularFile).collect(Collectors.toList());
            }
            assertEquals(1, libraries.size(), libraries.toString());
            assertTrue(libraries.get(0).getFileName().toString().startsWith("libsqlitejdbc"), libraries.toString());
            copiedAt.add(Files.getLastModifiedTime(libraries.get(0)));
            try (Stream<Path> files = Files.list(sqliteTemp)) {
                assertEquals(List.of(), files.collect(Collectors.toList()), "sqlite-jdbc extracted a copy of its own");
            }
        }
        assertEquals(copiedAt.get(0), copiedAt.get(1), "the cached library was written again");
    }
}
