package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code diff} streams: two exports of a million entries each, a tenth of the values different, compared by a child JVM
 * whose heap (32 MiB) could not hold one side's keys (a million keys with their digests take over 100 MiB). It must
 * finish, count every difference and list only the first of each kind. Its power: a diff that kept every entry of A
 * in a list (planted once) died here of OutOfMemoryError (status 3, from {@code -XX:+ExitOnOutOfMemoryError}).
 */
@Timeout(600)
class DiffBoundedMemoryTest {
    private static final int ENTRIES = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void aMillionEntriesPassThroughASmallHeap() throws Exception {
        Path a = dir.resolve("a.jsonl");
        Path b = dir.resolve("b.jsonl");
        try (BufferedWriter left = Files.newBufferedWriter(a, UTF_8); BufferedWriter right = Files.newBufferedWriter(b, UTF_8)) {
            for (int i = 0; i < ENTRIES; i++) {
                String key = String.format("key%07d", i);
                left.write(line(key, "value" + i));
                right.write(line(key, i % 10 == 0 ? "other" + i : "value" + i));
            }
            right.write(line("zzz", "only in B"));
        }
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process diff = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "diff", a.toString(), b.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(diff.waitFor(500, TimeUnit.SECONDS), "diff did not finish");
        List<String> lines = Files.readAllLines(out, UTF_8);
        assertEquals(Main.EXIT_FAILURE, diff.exitValue(), "1: not equal; " + Files.readString(err, UTF_8));
        assertEquals(2 + 20 + 1 + 4, lines.size(), String.join("\n", lines));
        assertEquals("different:  \"key0000000\"  (same type and length, other content)", lines.get(2));
        assertEquals("only in B:  \"zzz\"  (string, 9 bytes UTF-8)", lines.get(22));
        assertEquals(List.of("only in A: 0", "only in B: 1",
                "different values: 100000 (the first 20 listed; --all lists every one)",
                "not equal: 100001 of 1000001 keys differ"), lines.subList(23, 27));
    }

    private static String line(String key, String value) {
        return "{\"key\":\"" + key + "\",\"type\":\"string\",\"value\":\"" + value + "\"}\n";
    }
}
