package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packages' launchers: the tarball's {@code bin/store-server} and the Debian package's {@code /usr/bin/store-server}
 * run the same command, and on Java 25 the server starts without a JVM warning (sqlite-jdbc loads a native library,
 * which Java 22+ warns about unless native access is enabled: the jar's manifest enables it).
 */
@Timeout(120)
class LaunchersIT {
    private static final Path TARBALL_LAUNCHER = Path.of("src/packaging/bin/store-server");
    private static final Path DEBIAN_LAUNCHER = Path.of("src/packaging/deb/store-server");
    /** A line of the server's own log (slf4j-simple, as Main configures it). */
    private static final Pattern LOG_LINE =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}[+-]\\d{4} [A-Z]+ \\S+ - .*");
    private static final Pattern JAVA_25 = Pattern.compile("(?m)^JAVA_VERSION=\"25[.\"]");

    @Test
    void bothLaunchersRunTheSameCommandOnTheirOwnJar() throws IOException {
        String tarball = execLine(TARBALL_LAUNCHER);
        String debian = execLine(DEBIAN_LAUNCHER);
        assertEquals("exec \"${JAVA:-java}\" ${JAVA_OPTS:-} -jar \"$here/lib/store-server.jar\" \"$@\"", tarball);
        assertEquals(tarball.replace("\"$here/lib/store-server.jar\"", "/usr/share/store/store-server.jar"), debian);
    }

    @Test
    void onJava25TheTarballsLauncherServesSqliteWithNoJvmWarning(@TempDir Path install, @TempDir Path work)
            throws Exception {
        Path java = java25();
        Path db = work.resolve("store.db");

        // The tarball's layout: bin/store-server and lib/store-server.jar, started as an operator starts it.
        Files.createDirectories(install.resolve("bin"));
        Files.createDirectories(install.resolve("lib"));
        Files.copy(TARBALL_LAUNCHER, install.resolve("bin/store-server"));
        Files.copy(ServerJar.JAR, install.resolve("lib/store-server.jar"));
        Path stdout = work.resolve("stdout.txt");
        Path stderr = work.resolve("stderr.txt");
        ProcessBuilder launcher = new ProcessBuilder("sh", install.resolve("bin/store-server").toString(),
                "--port", "0", "--storage", "sqlite:" + db)
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        launcher.environment().put("JAVA", java.toString());
        launcher.environment().put("XDG_CACHE_HOME", work.resolve("cache").toString());
        Process server = launcher.start();
        try {
            URI endpoint = URI.create(ServerJar.firstLine(stdout, server, stderr, Duration.ofSeconds(60)));
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=on+25")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(response.body().contains(">Success<"), response.body());
            server.destroy(); // SIGTERM: the launcher exec'd java, so this is the JVM
            assertEquals(0, ServerJar.exitStatus(server, Duration.ofSeconds(60)), Files.readString(stderr));
        } finally {
            server.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(stderr, UTF_8);
        assertTrue(lines.size() >= 2, "the server's log: " + lines);
        assertEquals(List.of(), lines.stream().filter(line -> !LOG_LINE.matcher(line).matches()).toList(),
                "standard error holds lines other than the server's log (a JVM warning?)");

        // The control: on the same JVM, the same jar started without its manifest (java -cp) does print the warning.
        ProcessBuilder withoutManifest = new ProcessBuilder(java.toString(), "-cp", ServerJar.JAR.toAbsolutePath().toString(),
                "org.storeservice.server.Main", "get", "k", "--storage", "sqlite:" + db)
                .redirectError(work.resolve("control.err").toFile());
        withoutManifest.environment().put("XDG_CACHE_HOME", work.resolve("cache").toString());
        Process control = withoutManifest.start();
        String value = new String(control.getInputStream().readAllBytes(), UTF_8);
        int status = ServerJar.exitStatus(control, Duration.ofSeconds(60));
        String controlErr = Files.readString(work.resolve("control.err"));
        assertEquals(0, status, controlErr);
        assertEquals("on 25", value);
        assertTrue(controlErr.contains("WARNING: A restricted method"),
                "started without the manifest's attribute, this JVM shows no warning either:\n" + controlErr);
    }

    /** The launcher's one {@code exec} line. */
    private static String execLine(Path launcher) throws IOException {
        List<String> execs = Files.readAllLines(launcher).stream().filter(line -> line.startsWith("exec ")).toList();
        assertEquals(1, execs.size(), launcher + ": " + execs);
        return execs.get(0);
    }

    /**
     * The java of a JDK 25: {@code STORE_JDK25_HOME} (which .ci/run sets), else one under /usr/lib/jvm. Without one
     * the test is skipped, saying so, except in CI, which requires it.
     */
    private static Path java25() throws IOException {
        List<Path> homes = new ArrayList<>();
        String named = System.getenv("STORE_JDK25_HOME");
        if (named != null && !named.isBlank()) {
            homes.add(Path.of(named));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> installed = Files.list(jvms)) {
                installed.sorted().forEach(homes::add);
            }
        }
        Optional<Path> java = homes.stream().filter(LaunchersIT::isJdk25).map(home -> home.resolve("bin/java")).findFirst();
        String why = "no JDK 25 (STORE_JDK25_HOME, or under /usr/lib/jvm) to start the server on";
        if (java.isEmpty()) {
            if ("true".equals(System.getenv("CI"))) {
                fail(why + "; CI requires one (.ci/run finds or installs it)");
            }
            System.out.println("LaunchersIT: Java 25 start skipped: " + why); // in the build's output, not only its report
            Assumptions.abort(why);
        }
        return java.orElseThrow();
    }

    private static boolean isJdk25(Path home) {
        Path release = home.resolve("release");
        try {
            return Files.isExecutable(home.resolve("bin/java")) && Files.isRegularFile(release)
                    && JAVA_25.matcher(Files.readString(release)).find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
