package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.storeservice.testkit.ChildJvm;

/**
 * 64 MiB of WriteBytes content through the codec in a JVM with a 48 MiB heap: it only works if the content
 * is streamed (key first) or spooled to disk (content first), never held whole. Asserts bytes and hash.
 */
class LargeContentTest {
    private static final long CONTENT_BYTES = 64L << 20;

    private static void assertStreamedInSmallHeap(String order) throws IOException, InterruptedException {
        ChildJvm.Result child = ChildJvm.run(List.of("-Xmx48m", "-XX:+UseSerialGC"), null, LargeContentMain.class,
                List.of(Long.toString(CONTENT_BYTES), order), Duration.ofMinutes(10));
        String output = child.output();
        assertEquals(0, child.exitStatus(), output);
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
