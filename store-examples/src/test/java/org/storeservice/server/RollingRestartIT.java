package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.server.HaproxyFront.Backend;

/**
 * Rolling restarts behind a load balancer cost no request: two ready servers with their default settings (SQLite),
 * HAProxy in front configured as deploy/ha does (readiness checked every second, two failures to take a server out,
 * retries and redispatch), writers through it without retries of their own, as legacy clients; each server in turn
 * gets SIGTERM, is waited for, started again and waited ready. Every write must be answered {@code Success}.
 */
@Timeout(300)
class RollingRestartIT {
    private static final int WRITERS = 8;
    private static final int ROUNDS = 2; // each server restarted twice
    private static final Duration BOUND = Duration.ofSeconds(60); // a hang guard per step, not a speed check

    @TempDir
    Path directory;

    @Test
    void rollingRestartsUnderLoadFailNoRequest() throws Exception {
        HaproxyFront.requireHaproxy("RollingRestartIT",
                "the rolling-restart test needs HAProxy (Debian's haproxy), which .ci/run installs");
        List<Backend> servers = List.of(Backend.in(directory, "store1"), Backend.in(directory, "store2"));
        try (HaproxyFront balancer = HaproxyFront.start(directory, servers, this::start, BOUND);
                RollingWriters writers = RollingWriters.start(balancer.endpoint(), WRITERS)) {
            for (int round = 0; round < ROUNDS; round++) {
                for (Backend server : servers) {
                    long before = writers.successes();
                    Process stopped = balancer.stop(server);
                    assertEquals(0, stopped.exitValue(), "a clean stop exits with 0: " + Files.readString(server.log()));
                    balancer.startAgain(server);
                    assertTrue(writers.successes() > before, "writes went on through the other server meanwhile");
                }
            }
            writers.stopAndAssertAllSucceeded(BOUND, "RollingRestartIT: " + ROUNDS * servers.size() + " restarts",
                    "rolling restarts");
        }
    }

    /** Starts the ready server with its defaults (drain and storage included); returns once it listens. */
    private Process start(Backend server) throws Exception {
        Path stdout = Files.createTempFile(directory, "stdout", ".txt");
        Path data = directory.resolve(server.name() + ".db");
        Process process = ServerJar.command("--port", String.valueOf(server.port()), "--management-port",
                String.valueOf(server.managementPort()), "--storage", "sqlite:" + data)
                .redirectOutput(stdout.toFile()).redirectError(server.log().toFile()).start();
        ServerJar.firstLine(stdout, process, server.log(), BOUND);
        return process;
    }
}
