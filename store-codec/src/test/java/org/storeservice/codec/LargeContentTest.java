package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * 64 MiB of WriteBytes content through the codec in a JVM with a 48 MiB heap: it only works if the content
 * is streamed (key first) or spooled to disk (content first), never held whole. Asserts bytes and hash.
 */
class LargeContentTest {
    private static final long CONTENT_BYTES = 64L << 20;

    private static void assertStreamedInSmallHeap(String order) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xmx48m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), LargeContentMain.class.getName(),
                Long.toString(CONTENT_BYTES), order)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // a bound so a broken child cannot hang the build; the assertion is on the output, not on time
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        assertEquals(0, process.exitValue(), output);
        List<String> lines = output.lines().filter(line -> line.matches("\\d+ \\d+ [0-9a-f]{64}")).toList();
        assertEquals(2, lines.size(), output);
        assertEquals(lines.get(1), lines.get(0), "what the store read vs what was sent");
    }

    @Test
    void keyFirstContentIsStreamed() throws Exception {
        assertStreamedInSmallHeap("key-first");
    }

    @Test
    void contentFirstIsSpooledToDisk() throws Exception {
        assertStreamedInSmallHeap("content-first");
    }
}
