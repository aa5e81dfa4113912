package org.storeservice.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a class's {@code main} in a child JVM (a small heap, say) and returns what it printed, waiting at most a bound:
 * the output goes to a file while it runs, so the wait is the bound and not a read that never ends, and a child still
 * running at the bound is killed and fails the test. The bound guards against a hang; it is no assertion on time.
 */
public final class ChildJvm {
    /** What the child printed (standard output and error, interleaved) and its exit status. */
    public record Result(int exitStatus, String output) {
    }

    private ChildJvm() {
    }

    /**
     * Runs {@code mainClass} with {@code jvmOptions} and {@code arguments}, on {@code classPath} ({@code null}: this
     * JVM's), for at most {@code bound}.
     *
     * @throws AssertionError if it has not ended within {@code bound} (it is killed first), with what it printed
     */
    public static Result run(List<String> jvmOptions, String classPath, Class<?> mainClass, List<String> arguments,
            Duration bound) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath != null ? classPath : System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(arguments);
        Path output = Files.createTempFile("store-child-jvm-", ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                throw new AssertionError(mainClass.getSimpleName() + " did not end within " + bound + "; it printed:"
                        + "\n" + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
