package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/ha/stop.sh signals only what deploy/ha/start.sh started: PID files naming another process (a stale file,
 * a reused PID) leave it running, and the work directory stays unless --purge.
 */
@Timeout(60)
class HaStopScriptTest {
    private static final Path STOP = Path.of("..", "deploy", "ha", "stop.sh");

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
            assertEquals(0, stop(work));
            assertTrue(unrelated.isAlive(), "stop.sh signalled a process it had not started");
            assertTrue(Files.exists(data.resolve("PG_VERSION")), "stop.sh deleted data without --purge");

            assertEquals(0, stop(work, "--purge"));
            assertTrue(unrelated.isAlive());
            assertFalse(Files.exists(work), "--purge deletes the work directory");
        } finally {
            unrelated.destroyForcibly();
        }
    }

    /** The one-machine deployment's files, as start.sh renders them before it starts anything. */
    private static void render(Path work) throws Exception {
        Process render = new ProcessBuilder("bash", Path.of("..", "deploy", "ha", "render.sh").toString(),
                Path.of("..", "deploy", "ha", "inventory.loopback").toString(), work.toString())
                .redirectErrorStream(true).start();
        String printed = new String(render.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(render.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, render.exitValue(), printed);
    }

    private static int stop(Path work, String... arguments) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", STOP.toString());
        builder.command().addAll(java.util.List.of(arguments));
        builder.environment().put("STORE_HA_DIR", work.toString());
        Process process = builder.redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        return process.exitValue();
    }
}
