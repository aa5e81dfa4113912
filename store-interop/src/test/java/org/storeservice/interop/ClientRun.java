package org.storeservice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One finished run of an external client program: its command, exit status and combined output. */
record ClientRun(List<String> command, int exitCode, String output) {
    private static final long TIMEOUT_SECONDS = 60;

    /**
     * Runs {@code command}, stdout and stderr merged into a file (so a hung client cannot block the reader),
     * with no stdin; fails the test if it does not end within a minute (it is then killed) or exits non-zero.
     */
    static ClientRun succeeding(List<String> command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("store-interop-", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(new File("/dev/null"));
            builder.environment().put("PYTHONIOENCODING", "utf-8"); // whatever the machine's locale
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                fail("Timed out after " + TIMEOUT_SECONDS + " s: " + command + "; output:\n" + read(log));
            }
            ClientRun run = new ClientRun(command, process.exitValue(), read(log));
            assertEquals(0, run.exitCode(), () -> "Exit status of " + command + "; output:\n" + run.output());
            return run;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static String read(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** The output's lines, without line ends. */
    List<String> lines() {
        return output.lines().toList();
    }
}
