package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The shaded jar, run as an operator runs it: a child JVM started directly (no shell in between). */
final class ServerJar {
    static final Path JAR = Path.of(System.getProperty("store.server.jar", "target/store-server.jar"));

    private ServerJar() {
    }

    /** {@code java -jar store-server.jar args...} with this JVM's {@code java}. */
    static ProcessBuilder command(String... args) {
        assertTrue(Files.isRegularFile(JAR), "no jar at " + JAR.toAbsolutePath());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    /**
     * Starts the server with {@code args} (which choose an ephemeral port), its standard output and error in
     * {@code directory}, in {@code label.out} and {@code label.err}, and returns once it has printed its endpoint,
     * within {@code timeout}; a server that did not is killed.
     */
    static Running serve(Path directory, String label, Duration timeout, String... args)
            throws IOException, InterruptedException {
        Path stdout = directory.resolve(label + ".out");
        Path stderr = directory.resolve(label + ".err");
        Process process = command(args).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            return new Running(process, URI.create(firstLine(stdout, process, stderr, timeout)));
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** A started server: its JVM and the endpoint it printed. */
    record Running(Process process, URI endpoint) {
    }

    /**
     * The first line the process writes to {@code stdout} (a file), once it is complete; fails if the process
     * exits first or {@code timeout} passes.
     */
    static String firstLine(Path stdout, Process process, Path stderr, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String text = Files.readString(stdout, UTF_8);
            int end = text.indexOf('\n');
            if (end >= 0) {
                return text.substring(0, end).strip();
            }
            if (!process.isAlive()) {
                fail("the process exited (" + process.exitValue() + ") before printing a line:\n" + Files.readString(stderr));
            }
            if (System.nanoTime() - deadline > 0) {
                fail("no line on standard output within " + timeout + ":\n" + Files.readString(stderr));
            }
            Thread.sleep(20);
        }
    }

    /** Waits for {@code process} to exit, at most {@code timeout}; returns its status. */
    static int exitStatus(Process process, Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("the process did not exit within " + timeout);
        }
        return process.exitValue();
    }
}
