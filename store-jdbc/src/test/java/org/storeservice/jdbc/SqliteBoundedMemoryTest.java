package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.testkit.ChildJvm;

/**
 * The SQLite backend's heap stays bounded whatever the writes in flight: 64 concurrent 4 MiB writes (256 MiB of
 * values) succeed and read back exactly in a JVM with a 64 MiB heap, because each waits for the writer as at most
 * 64 KiB in memory plus a spool file, and the writer reads one value at a time. Before, every value was held whole
 * while queued, and the same run failed with an OutOfMemoryError.
 */
class SqliteBoundedMemoryTest {

    @Test
    void manyConcurrentLargeWritesFitASmallHeap(@TempDir Path directory) throws Exception {
        // Direct memory bounded too: the JDK copies a heap array written to a file through a direct buffer of the
        // write's size and keeps it per thread, so whole spooled values written at once exhausted it.
        ChildJvm.Result child = ChildJvm.run(List.of("-Xmx64m", "-XX:MaxDirectMemorySize=16m", "-XX:+UseSerialGC",
                "-XX:+ExitOnOutOfMemoryError"), classPath(), SqliteBoundedMemoryMain.class,
                List.of(directory.toString(), "64", Integer.toString(4 << 20)), Duration.ofMinutes(10));
        String output = child.output();
        assertEquals(0, child.exitStatus(), output);
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
