package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code delete}, and the refusal of a missing storage, through the real jar on an SQLite file. */
@Timeout(180)
class DeleteJarIT {
    @TempDir
    Path directory;

    /** Runs the jar with {@code stdin}; returns status, stdout and stderr. */
    private record Run(int status, String out, String err) {
    }

    private Run run(String stdin, Map<String, String> environment, String... args) throws Exception {
        Path in = Files.writeString(directory.resolve("in.txt"), stdin);
        Path err = directory.resolve("err.txt");
        ProcessBuilder builder = ServerJar.command(args).redirectInput(in.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), UTF_8);
        int status = ServerJar.exitStatus(process, Duration.ofSeconds(60));
        return new Run(status, out, Files.readString(err));
    }

    private static String line(String key) {
        return "{\"key\":\"" + key + "\",\"type\":\"string\",\"value\":\"v\"}\n";
    }

    @Test
    void deletesOneKeyOrAPrefixOnlyWhenConfirmed() throws Exception {
        String storage = "sqlite:" + directory.resolve("store.db");
        // The storage from the environment, as a service unit would give it.
        Map<String, String> env = Map.of("STORE_STORAGE", storage);
        assertEquals(0, run(line("a/1") + line("a/2") + line("b"), env, "import").status);

        Run one = run("", env, "delete", "b");
        assertEquals(0, one.status, one.err);
        Run again = run("", env, "delete", "b");
        assertEquals(1, again.status);
        assertTrue(again.err.contains("store-server delete: no entry under the key \"b\""), again.err);

        Run unconfirmed = run("", env, "delete", "--prefix", "a/");
        assertEquals(2, unconfirmed.status, unconfirmed.err);
        assertTrue(unconfirmed.err.startsWith("store-server: --prefix \"a/\" deletes every key that starts with it;"
                + " nothing deleted: add --yes to confirm"), unconfirmed.err);
        assertEquals("a/1\na/2\n", run("", env, "list").out);

        Run confirmed = run("", env, "delete", "--prefix", "a/", "--yes");
        assertEquals(0, confirmed.status, confirmed.err);
        assertTrue(confirmed.err.contains("store-server delete: deleted 2 entries"), confirmed.err);
        assertEquals("", run("", env, "list").out);
    }

    @Test
    void getOnAMistypedSqlitePathFailsAndCreatesNothing() throws Exception {
        Path mistyped = directory.resolve("dat/store.db");

        Run get = run("", Map.of(), "get", "k", "--storage", "sqlite:" + mistyped);

        assertEquals(1, get.status, get.err);
        assertEquals(List.of("store-server get: no SQLite database at " + mistyped
                + "; get never creates one (is --storage right?)"), get.err.lines().toList());
        assertFalse(Files.exists(mistyped.getParent()));
    }
}
