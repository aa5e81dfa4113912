package org.storeservice.server;

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
import java.util.Map;
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
            assertEquals(0, server.exitValue(), "a clean stop on SIGTERM exits 0\n" + Files.readString(stderr));
            assertTrue(Files.readString(stderr).contains("INFO StoreServer - Stopping: no new connections; waiting up to 10s"),
                    Files.readString(stderr));
            assertEquals(List.of(line), Files.readAllLines(stdout), "standard output holds more than the URL");
        } finally {
            server.destroyForcibly();
        }
        assertEquals("from the jar", new FilesStorage(data).get("k").orElseThrow().text());
    }

    @Test
    void aBadOptionExitsWithStatus2AndWhereTheUsageIs() throws Exception {
        Process process = ServerJar.command("--no-such-option").start();

        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        String stderr = new String(process.getErrorStream().readAllBytes(), UTF_8);
        assertTrue(stderr.startsWith("store-server: Unknown option: '--no-such-option'"), stderr);
        assertTrue(stderr.contains("Try 'java -jar store-server.jar --help' for more information."), stderr);
        assertEquals("", new String(process.getInputStream().readAllBytes(), UTF_8));
    }

    @Test
    void helpExitsWithStatus0() throws Exception {
        Process process = ServerJar.command("--help").start();

        String help = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertEquals(0, ServerJar.exitStatus(process, Duration.ofSeconds(60)));
        assertTrue(help.contains("--storage=URI"), help);
        assertTrue(help.contains("Env: STORE_STORAGE."), help);
        assertTrue(help.contains("  export "), help);
    }

    @Test
    void versionAndAnUnknownCommand() throws Exception {
        Process version = ServerJar.command("--version").start();
        String printed = new String(version.getInputStream().readAllBytes(), UTF_8);
        assertEquals(0, ServerJar.exitStatus(version, Duration.ofSeconds(60)));
        assertTrue(printed.matches("store-server \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), printed);

        Process typo = ServerJar.command("lsit").start();
        String stderr = new String(typo.getErrorStream().readAllBytes(), UTF_8);
        assertEquals(2, ServerJar.exitStatus(typo, Duration.ofSeconds(60)));
        assertTrue(stderr.startsWith("store-server: unknown command 'lsit'; the commands are serve, get, list, export,"
                + " import, backup, delete, compare, diff, shadow, shadow-report, users"), stderr);
    }

    @Test
    void aPortInUseIsOneClearLineAndStatus1(@TempDir Path logs) throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Process server = ServerJar.command("--port", String.valueOf(taken.getLocalPort()), "--storage", "memory:").start();
            String stderr = new String(server.getErrorStream().readAllBytes(), UTF_8);
            assertEquals(1, ServerJar.exitStatus(server, Duration.ofSeconds(60)), stderr);
            assertEquals(List.of("store-server serve: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + " (--port): Address already in use"), stderr.lines().toList());
        }
    }

    @Test
    void aBusyManagementPortIsNamedAsThatPortAndItsOption() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Process server = ServerJar.command("--port", "0", "--management-port", String.valueOf(taken.getLocalPort()),
                    "--storage", "memory:").start();
            String stderr = new String(server.getErrorStream().readAllBytes(), UTF_8);
            assertEquals(1, ServerJar.exitStatus(server, Duration.ofSeconds(60)), stderr);
            assertEquals(List.of("store-server serve: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + " (--management-port): Address already in use"), stderr.lines().toList());
        }
    }

    @Test
    void anUnwritableSqlitePathIsOneClearLineNamingItAndStatus1() throws Exception {
        Process server = ServerJar.command("--port", "0", "--storage", "sqlite:/proc/nope/x.db").start();
        String stderr = new String(server.getErrorStream().readAllBytes(), UTF_8);
        assertEquals(1, ServerJar.exitStatus(server, Duration.ofSeconds(60)), stderr);
        List<String> lines = stderr.lines().toList();
        assertEquals(1, lines.size(), stderr);
        assertTrue(lines.get(0).startsWith("store-server serve: could not open the storage: cannot create or open /proc/nope: "),
                stderr);
    }

    @Test
    void theLogLevelComesFromTheOptionOrTheEnvironment(@TempDir Path logs) throws Exception {
        assertTrue(serveAndStop(logs, Map.of(), "--log-level", "info").contains("INFO StoreServer - Store endpoint listening"));
        String quiet = serveAndStop(logs, Map.of("STORE_LOG_LEVEL", "warn"));
        assertTrue(!quiet.contains("INFO"), quiet);
        assertTrue(serveAndStop(logs, Map.of("STORE_LOG_LEVEL", "warn"), "--log-level", "info").contains("INFO "),
                "the command line wins over the environment");
    }

    /** Starts the jar on memory storage with {@code environment} and {@code args}, stops it; returns its stderr. */
    private static String serveAndStop(Path logs, Map<String, String> environment, String... args) throws Exception {
        Path stdout = logs.resolve("out.txt");
        Path stderr = logs.resolve("err.txt");
        List<String> command = new ArrayList<>(List.of("--port", "0", "--storage", "memory:"));
        command.addAll(List.of(args));
        ProcessBuilder builder = ServerJar.command(command.toArray(String[]::new))
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        builder.environment().putAll(environment);
        Process server = builder.start();
        try {
            ServerJar.firstLine(stdout, server, stderr, Duration.ofSeconds(60));
            server.destroy();
            assertEquals(0, ServerJar.exitStatus(server, Duration.ofSeconds(60)), Files.readString(stderr));
        } finally {
            server.destroyForcibly();
        }
        return Files.readString(stderr);
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
        org.storeservice.api.storage.Storages.open("sqlite:" + workDir.resolve("s.db")).close(); // list never creates it
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
