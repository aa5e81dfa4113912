package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/ha/stop.sh signals only what deploy/ha/start.sh started: PID files naming another process (a stale file,
 * a reused PID) leave it running, and the work directory stays unless --purge. --purge, stop.sh's and host.sh stop's,
 * deletes only a directory render.sh marked as a deployment at that path, and says what it deleted; render.sh marks
 * no directory that holds anything else.
 */
@Timeout(60)
class HaStopScriptTest {
    private static final Path HA = Path.of("..", "deploy", "ha");

    private record Ran(int exitValue, String printed) {
    }

    @Test
    void aPidFileNamingAnotherProcessLeavesItRunningAndTheDataStaysWithoutPurge(@TempDir Path parent) throws Exception {
        Path work = parent.resolve("store-ha");
        render(work);
        Path data = Files.createDirectories(work.resolve("node1").resolve("data"));
        Files.writeString(data.resolve("PG_VERSION"), "15\n");
        Process unrelated = new ProcessBuilder("sleep", "60").start();
        try {
            String pid = unrelated.pid() + "\n";
            for (String file : new String[] {"node1/etcd.pid", "lb/haproxy.pid", "store1/store.pid",
                    "node1/patroni.pid", "node1/data/postmaster.pid"}) {
                Files.writeString(work.resolve(file), pid);
            }
            assertEquals(0, stop(work).exitValue());
            assertTrue(unrelated.isAlive(), "stop.sh signalled a process it had not started");
            assertTrue(Files.exists(data.resolve("PG_VERSION")), "stop.sh deleted data without --purge");

            Ran purged = stop(work, "--purge");
            assertEquals(0, purged.exitValue(), purged.printed());
            assertTrue(unrelated.isAlive());
            assertFalse(Files.exists(work), "--purge deletes the work directory");
            assertTrue(purged.printed().contains("deleted " + work), "--purge says what it deleted: " + purged.printed());
        } finally {
            unrelated.destroyForcibly();
        }
    }

    @Test
    void purgeRefusesADirectoryRenderShDidNotMark(@TempDir Path parent) throws Exception {
        Path scratch = Files.createDirectories(parent.resolve("scratch"));
        Files.writeString(scratch.resolve("notes.txt"), "keep me\n");
        Files.writeString(Files.createDirectories(scratch.resolve("sub")).resolve("data"), "keep me too\n");

        Ran refused = stop(scratch, "--purge");

        assertNotEquals(0, refused.exitValue(), "stop.sh --purge accepted a directory render.sh did not render");
        assertTrue(refused.printed().contains("not purging " + scratch), refused.printed());
        assertEquals("keep me\n", Files.readString(scratch.resolve("notes.txt")));
        assertEquals("keep me too\n", Files.readString(scratch.resolve("sub").resolve("data")));
    }

    @Test
    void hostPurgeDeletesOnlyAHostDirectoryMarkedAtItsOwnPath(@TempDir Path parent) throws Exception {
        Path work = parent.resolve("store-ha");
        render(work);
        Path store1 = work.resolve("store1");
        Path marker = store1.resolve("store-ha.deployment");

        Files.delete(marker);
        Ran unmarked = hostStop(store1, "--purge");
        assertNotEquals(0, unmarked.exitValue(), "host.sh stop --purge accepted a directory without a marker");
        assertTrue(unmarked.printed().contains("not purging"), unmarked.printed());
        assertTrue(Files.exists(store1.resolve("store.env")));

        Files.writeString(marker, "rendered=" + parent.resolve("elsewhere") + "\n");
        Ran elsewhere = hostStop(store1, "--purge");
        assertNotEquals(0, elsewhere.exitValue(), "host.sh stop --purge accepted a marker naming another directory");
        assertTrue(Files.exists(store1.resolve("store.env")));

        Path lb = work.resolve("lb");
        Ran purged = hostStop(lb, "--purge");
        assertEquals(0, purged.exitValue(), purged.printed());
        assertFalse(Files.exists(lb));
        assertTrue(purged.printed().contains("deleted " + lb), purged.printed());
        assertTrue(Files.exists(store1.resolve("store.env")), "host.sh purged more than its own host's directory");
    }

    @Test
    void renderMarksNoDirectoryThatHoldsAnythingElse(@TempDir Path parent) throws Exception {
        Path busy = Files.createDirectories(parent.resolve("busy"));
        Files.writeString(busy.resolve("notes.txt"), "keep me\n");

        Ran render = run(List.of("bash", HA.resolve("render.sh").toString(),
                HA.resolve("inventory.loopback").toString(), busy.toString()), Map.of());

        assertNotEquals(0, render.exitValue(), "render.sh rendered into a directory holding other files");
        assertFalse(Files.exists(busy.resolve("store-ha.deployment")));
        try (var left = Files.list(busy)) {
            assertEquals(List.of(busy.resolve("notes.txt")), left.toList());
        }
    }

    /** The one-machine deployment's files, as start.sh renders them before it starts anything. */
    private static void render(Path work) throws Exception {
        Ran render = run(List.of("bash", HA.resolve("render.sh").toString(),
                HA.resolve("inventory.loopback").toString(), work.toString()), Map.of());
        assertEquals(0, render.exitValue(), render.printed());
    }

    private static Ran stop(Path work, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", HA.resolve("stop.sh").toString()));
        command.addAll(List.of(arguments));
        return run(command, Map.of("STORE_HA_DIR", work.toString()));
    }

    private static Ran hostStop(Path hostDirectory, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", HA.resolve("host.sh").toString(),
                hostDirectory.toString(), "stop"));
        command.addAll(List.of(arguments));
        return run(command, Map.of());
    }

    private static Ran run(List<String> command, Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String printed = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), command + " did not end");
        return new Ran(process.exitValue(), printed);
    }
}
