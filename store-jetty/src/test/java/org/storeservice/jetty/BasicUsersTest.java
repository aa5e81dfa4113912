package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BasicUsersTest {
    @TempDir
    Path dir;

    @Test
    void entriesAreSaltedHashesNeverThePassword() {
        String first = BasicUsers.entry("alice", "pw".toCharArray(), 1000);
        String second = BasicUsers.entry("alice", "pw".toCharArray(), 1000);
        assertTrue(first.startsWith("alice:pbkdf2-sha256:1000:"), first);
        assertFalse(first.contains("pw:") || first.endsWith(":pw"));
        assertNotEquals(first, second, "each entry has its own salt");
    }

    @Test
    void addToWritesAnEntryWithTheDefaultIterationsAndReplacesTheUsersOldOne() throws Exception {
        Path file = dir.resolve("users");
        Files.write(file, List.of("# kept", BasicUsers.entry("bob", "old".toCharArray(), 1000),
                BasicUsers.entry("carol", "c".toCharArray(), 1000)), UTF_8);
        BasicUsers.addTo(file, "bob", "new".toCharArray());
        List<String> lines = Files.readAllLines(file, UTF_8);
        assertEquals(3, lines.size());
        assertEquals("# kept", lines.get(0));
        assertTrue(lines.get(2).startsWith("bob:pbkdf2-sha256:" + PasswordHash.DEFAULT_ITERATIONS + ":"));
        BasicUsers users = BasicUsers.load(file);
        assertEquals(2, users.size());
        assertTrue(users.verify("bob", "new".toCharArray()));
        assertFalse(users.verify("bob", "old".toCharArray()));
        assertTrue(users.verify("carol", "c".toCharArray()));
        assertFalse(users.verify("dave", "c".toCharArray()));
    }

    @Test
    void malformedLinesAreNamedByNumberWithoutTheirContent() throws Exception {
        Path file = dir.resolve("users");
        Files.write(file, List.of(BasicUsers.entry("a", "b".toCharArray(), 1000), "eve:plain-secret"), UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BasicUsers.load(file));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertFalse(e.getMessage().contains("plain-secret"), e.getMessage());
    }

    @Test
    void namesBasicCannotCarryAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> BasicUsers.entry("a:b", "x".toCharArray()));
        assertThrows(IllegalArgumentException.class, () -> BasicUsers.entry("", "x".toCharArray()));
        assertThrows(IllegalArgumentException.class, () -> BasicUsers.entry("a\nb", "x".toCharArray()));
    }
}
