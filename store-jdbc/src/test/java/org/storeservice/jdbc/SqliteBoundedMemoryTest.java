package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite backend's heap stays bounded whatever the writes in flight: 64 concurrent 4 MiB writes (256 MiB of
 * values) succeed and read back exactly in a JVM with a 64 MiB heap, because each waits for the writer as at most
 * 64 KiB in memory plus a spool file, and the writer reads one value at a time. Before, every value was held whole
 * while queued, and the same run failed with an OutOfMemoryError.
 */
class SqliteBoundedMemoryTest {

    @Test
    void manyConcurrentLargeWritesFitASmallHeap(@TempDir Path directory) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // Direct memory bounded too: the JDK copies a heap array written to a file through a direct buffer of the
        // write's size and keeps it per thread, so whole spooled values written at once exhausted it.
        Process process = new ProcessBuilder(java.toString(), "-Xmx64m", "-XX:MaxDirectMemorySize=16m", "-XX:+UseSerialGC",
                "-XX:+ExitOnOutOfMemoryError", "-cp", classPath(), SqliteBoundedMemoryMain.class.getName(),
                directory.toString(), "64", Integer.toString(4 << 20))
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // a bound so a broken child cannot hang the build; the assertion is on the output, not on time
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("stored 64 values exactly, 0 spool files left"), output);
    }

    /** This JVM's class path, module path and test classes, all as the child's class path. */
    private static String classPath() throws URISyntaxException, IOException {
        String own = Path.of(SqliteBoundedMemoryMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        String main = Path.of(JdbcStorage.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        return String.join(File.pathSeparator, own, main, System.getProperty("java.class.path"),
                System.getProperty("jdk.module.path", ""));
    }
}
