package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesFileTest {
    @TempDir
    Path directory;

    @Test
    void rotatesBySizeKeepingTheNewestFilesAndNeverSplittingALine() throws Exception {
        Path file = directory.resolve("differences.jsonl");
        try (JsonLinesFile lines = new JsonLinesFile(file, 20, 2)) {
            for (int i = 1; i <= 7; i++) {
                lines.write("{\"n\":" + i + ",\"x\":1}"); // 14 bytes with its line end: one a file
            }
        }
        assertEquals(List.of("{\"n\":7,\"x\":1}"), Files.readAllLines(file));
        assertEquals(List.of("{\"n\":6,\"x\":1}"), Files.readAllLines(directory.resolve("differences.jsonl.1")));
        assertEquals(List.of("{\"n\":5,\"x\":1}"), Files.readAllLines(directory.resolve("differences.jsonl.2")));
        assertFalse(Files.exists(directory.resolve("differences.jsonl.3")), "only two rotated files kept");
    }

    @Test
    void appendsToWhatTheFileHeldAndCountsIt() throws Exception {
        Path file = directory.resolve("keys.jsonl");
        Files.writeString(file, "{\"old\":1}\n");
        try (JsonLinesFile lines = new JsonLinesFile(file, 15, 0)) {
            lines.write("{\"new\":1}");
        }
        assertEquals(List.of("{\"new\":1}"), Files.readAllLines(file), "past its size with the old line: a new file");
        assertFalse(Files.exists(directory.resolve("keys.jsonl.1")), "none kept");
    }

    @Test
    void aRotationThatFailsLosesNoLineAndIsTriedAgainLater() throws Exception {
        Path file = directory.resolve("dropped-keys.jsonl");
        Path blocker = Files.createDirectories(directory.resolve("dropped-keys.jsonl.1"));
        Files.writeString(blocker.resolve("inside"), "x"); // a non-empty directory where FILE.1 goes: it cannot be replaced
        try (JsonLinesFile lines = new JsonLinesFile(file, 20, 1)) {
            for (int i = 1; i <= 3; i++) {
                lines.write("{\"n\":" + i + ",\"x\":1}");
            }
            assertEquals(List.of("{\"n\":1,\"x\":1}", "{\"n\":2,\"x\":1}", "{\"n\":3,\"x\":1}"),
                    Files.readAllLines(file), "every line in the current file, the rotation having failed");
            Files.delete(blocker.resolve("inside"));
            Files.delete(blocker);
            lines.write("{\"n\":4,\"x\":1}");
        }
        assertEquals(3, Files.readAllLines(directory.resolve("dropped-keys.jsonl.1")).size(),
                "tried again once the file grew by the bound again, and rotated then");
        assertEquals(List.of("{\"n\":4,\"x\":1}"), Files.readAllLines(file));
    }
}
