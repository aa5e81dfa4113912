package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image as a user runs it (docs/install.md, "Container"): release/image.sh builds it from the server jar
 * (or {@code STORE_TEST_IMAGE} names an archive the same CI run built), {@code podman load} takes it under the name
 * image.sh gives, and it serves with a read-only root file system (no tmpfs either: nothing needs /tmp) as its
 * non-root user, on host networking with ephemeral ports, its log as JSON. A write; {@code podman stop} (SIGTERM)
 * ends it after its drain with status 0 within the stop time it was given (past it, podman kills it and the status is
 * 137); a new container on the same volume reads the value with {@code get} and {@code export}.
 *
 * <p>podman runs with a storage of its own in a temporary directory (nothing of the machine's images or volumes is
 * touched) and a containers.conf of its own: runc, no default ulimits, cgroupfs (../shared/notes/containers.md).
 * Needs podman, runc and mmdebstrap (.ci/run installs them from Debian); skipped without them, saying so, except
 * under {@code CI=true}, where it fails instead.
 */
class ContainerImageIT {
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(5);
    private static final int DRAIN_SECONDS = 2;
    private static final int STOP_TIMEOUT_SECONDS = 5;

    @TempDir
    static Path work;
    private static String image;
    private static List<String> podman;

    @BeforeAll
    static void loadImage() throws Exception {
        String missing = missingTools();
        if (missing != null) {
            String why = "podman, runc and mmdebstrap are needed to build and run the image: " + missing;
            if ("true".equals(System.getenv("CI"))) {
                fail(why + "; CI=true, so this fails rather than skips (.ci/run installs them)");
            }
            assumeTrue(false, why);
        }
        Path conf = work.resolve("containers.conf");
        Files.writeString(conf, "[containers]\ndefault_ulimits = []\n"
                + "[engine]\nruntime = \"runc\"\ncgroup_manager = \"cgroupfs\"\nevents_logger = \"file\"\n");
        podman = List.of("podman", "--root", work.resolve("storage").toString(), "--runroot",
                work.resolve("run").toString());
        String archive = System.getenv("STORE_TEST_IMAGE");
        if (archive == null || archive.isEmpty()) {
            archive = work.resolve("image.tar").toString();
            run(List.of("bash", "release/image.sh", archive, ServerJar.JAR.toAbsolutePath().toString()));
        }
        String loaded = podman("load", "-i", archive);
        image = "localhost/store-server:" + jarVersion();
        assertTrue(loaded.contains("Loaded image: " + image), "podman load said: " + loaded);
    }

    @AfterAll
    static void removeStorage() throws Exception {
        if (podman != null) {
            podman("system", "reset", "--force"); // unmounts and deletes this test's containers, images, volumes
        }
    }

    @Test
    void servesReadOnlyStopsCleanlyAndKeepsItsDataOnTheVolume() throws Exception {
        podman("volume", "create", "store-data");
        int port = freePort();
        int managementPort = freePort();
        String container = podman("run", "-d", "--read-only", "--read-only-tmpfs=false", "--network", "host",
                "-e", "STORE_LOG_FORMAT=json", "-v", "store-data:/var/lib/store", image, "serve", "--port", "" + port,
                "--management-port", "" + managementPort, "--drain-time", "" + DRAIN_SECONDS,
                "--stop-timeout", "" + STOP_TIMEOUT_SECONDS).strip();
        awaitReady(container, URI.create("http://127.0.0.1:" + managementPort + "/health/ready"));

        String pid = podman("inspect", "--format", "{{.State.Pid}}", container).strip();
        String status = Files.readString(Path.of("/proc", pid, "status"));
        assertTrue(status.contains("\nUid:\t10001\t"), "the server does not run as the image's user 10001:\n" + status);
        String answer = get(URI.create("http://127.0.0.1:" + port
                + "/API/Store.asmx/WriteString?key=container-key&value=kept%20on%20the%20volume"));
        assertTrue(answer.contains(">Success<"), answer);

        // Past -t, podman sends SIGKILL, and the exit code would be 137: 0 says it drained and stopped in time.
        podman("stop", "-t", "" + (DRAIN_SECONDS + STOP_TIMEOUT_SECONDS + 20), container);
        assertEquals("0", podman("inspect", "--format", "{{.State.ExitCode}}", container).strip(),
                () -> "exit code after podman stop; its log:\n" + logs(container));
        String log = logs(container);
        // podman logs gives standard output (the endpoint URL) and error (the log, JSON as asked) together.
        for (String line : log.strip().split("\n")) {
            assertTrue(line.startsWith("{\"@timestamp\":") || line.matches("http://localhost:" + port + "/API/Store\\.asmx"),
                    line);
        }
        assertTrue(log.contains("\"message\":\"Draining") && log.contains("\"message\":\"Stopped\""), log);

        List<String> again = List.of("run", "--rm", "--read-only", "--read-only-tmpfs=false", "--network", "none",
                "-v", "store-data:/var/lib/store", image);
        assertEquals("kept on the volume", podman(concat(again, "get", "container-key")));
        String export = podman(concat(again, "export"));
        assertTrue(export.contains("\"key\":\"container-key\"") && export.contains("\"value\":\"kept on the volume\""),
                export);
    }

    private static void awaitReady(String container, URI ready) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            try {
                if (client.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!"true".equals(podman("inspect", "--format", "{{.State.Running}}", container).strip())) {
                fail("the container stopped before it was ready:\n" + logs(container));
            }
            if (System.nanoTime() - deadline > 0) {
                fail("not ready within 2 minutes:\n" + logs(container));
            }
            Thread.sleep(200);
        }
    }

    private static String get(URI uri) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The container's standard output and error, as podman logs gives them. */
    private static String logs(String container) {
        try {
            return run(concat(podman, "logs", container), true);
        } catch (Exception e) {
            return "(podman logs failed: " + e + ")";
        }
    }

    /** What the server jar says its version is, which image.sh names the image after. */
    private static String jarVersion() throws IOException {
        try (ZipFile jar = new ZipFile(ServerJar.JAR.toFile());
                InputStream in = jar.getInputStream(jar.getEntry("store-server-version.properties"))) {
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }

    private static String missingTools() {
        for (String tool : List.of("podman", "runc", "mmdebstrap")) {
            boolean found = List.of("/usr/bin", "/usr/sbin", "/bin", "/sbin").stream()
                    .anyMatch(directory -> Files.isExecutable(Path.of(directory, tool)));
            if (!found) {
                return "no " + tool;
            }
        }
        return null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private static String podman(String... args) throws Exception {
        return podman(List.of(args));
    }

    private static String podman(List<String> args) throws Exception {
        return run(concat(podman, args.toArray(String[]::new)));
    }

    private static String run(List<String> command) throws Exception {
        return run(command, false);
    }

    /**
     * Runs {@code command} from the repository root; returns its standard output (and error, if {@code merged});
     * fails on a non-zero status.
     */
    private static String run(List<String> command, boolean merged) throws Exception {
        Path out = Files.createTempFile(work, "command", ".out");
        Path err = Files.createTempFile(work, "command", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(Path.of("..").toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectErrorStream(merged);
        builder.environment().put("CONTAINERS_CONF", work.resolve("containers.conf").toString());
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail(command + " did not end within " + COMMAND_TIMEOUT);
        }
        try {
            String stdout = Files.readString(out, UTF_8);
            assertEquals(0, process.exitValue(), () -> command + " failed:\n" + stdout + read(err));
            return stdout;
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
