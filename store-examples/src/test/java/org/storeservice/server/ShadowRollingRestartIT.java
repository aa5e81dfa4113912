package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.jetty.StoreServer;
import org.storeservice.server.HaproxyFront.Backend;

/**
 * The role swap without downtime (docs/migration.md): two shadow proxies (processes of the server's jar, {@code shadow}
 * with its default drain) in front of one primary and one shadow Store, behind HAProxy configured as deploy/ha does
 * (readiness checked every second, two failures to take a proxy out); 8 writers through it without retries of their
 * own, as legacy clients; each proxy in turn gets SIGTERM, is waited for, started again and waited ready. Every write
 * must be answered {@code Success}, each proxy must have drained, and both stores must end equal.
 *
 * <p>Its power, planted once each: the proxy's old stop (Jetty's {@code GracefulHandler}, no drain) failed 6 of 13,524
 * writes with 503 (requests on open connections during the stop). With no drain but the shared
 * {@code DrainingHandler} it still failed none: HAProxy's {@code retries} and {@code redispatch} (deploy/ha's
 * configuration) send a refused connect to the other proxy. The drain is for balancers that do not retry, and
 * {@code ShadowProxyDrainTest} shows it: readiness 503 while a new connection is served.
 */
@Timeout(300)
class ShadowRollingRestartIT {
    private static final int WRITERS = 8;
    private static final int ROUNDS = 2; // each proxy restarted twice
    private static final Duration BOUND = Duration.ofSeconds(60); // a hang guard per step, not a speed check

    @TempDir
    Path directory;

    private final Storage primaryStorage = new MemoryStorage();
    private final Storage shadowStorage = new MemoryStorage();
    private URI primary;
    private URI shadow;

    @Test
    void rollingRestartsUnderLoadFailNoRequest() throws Exception {
        HaproxyFront.requireHaproxy("ShadowRollingRestartIT",
                "the shadow rolling-restart test needs HAProxy (Debian's haproxy), which .ci/run installs");
        StoreServer primaryServer = StoreServer.builder().port(0).storage(primaryStorage).build().start();
        StoreServer shadowServer = StoreServer.builder().port(0).storage(shadowStorage).build().start();
        primary = primaryServer.endpointUri();
        shadow = shadowServer.endpointUri();
        List<Backend> servers = List.of(Backend.in(directory, "proxy1"), Backend.in(directory, "proxy2"));
        try (HaproxyFront balancer = HaproxyFront.start(directory, servers, this::start, BOUND);
                RollingWriters writers = RollingWriters.start(balancer.endpoint(), WRITERS)) {
            for (int round = 0; round < ROUNDS; round++) {
                for (Backend server : servers) {
                    long before = writers.successes();
                    Process stopped = balancer.stop(server);
                    assertTrue(Files.readString(server.log()).contains("Draining: readiness answers 503"),
                            "the proxy drained first: " + Files.readString(server.log()));
                    assertEquals(0, stopped.exitValue(), "a clean stop exits with 0: " + Files.readString(server.log()));
                    balancer.startAgain(server);
                    assertTrue(writers.successes() > before, "writes went on through the other server meanwhile");
                }
            }
            writers.stopAndAssertAllSucceeded(BOUND, "ShadowRollingRestartIT: " + ROUNDS * servers.size()
                    + " proxy restarts", "the proxies' rolling restarts");
            for (Backend server : servers) { // a clean stop sends every queued copy first
                balancer.stop(server);
            }
            Map<String, String> primaryEntries = entries(primaryStorage);
            assertEquals(writers.successes(), primaryEntries.size(), "every write answered Success is stored once");
            Map<String, String> shadowEntries = entries(shadowStorage);
            assertTrue(primaryEntries.equals(shadowEntries), "both stores in step: the shadow holds "
                    + shadowEntries.size() + " entries, the primary " + primaryEntries.size());
        } finally {
            primaryServer.stop();
            shadowServer.stop();
        }
    }

    /** Starts a shadow proxy with its defaults (the drain included); returns once it listens. */
    private Process start(Backend server) throws Exception {
        Path stdout = Files.createTempFile(directory, "stdout", ".txt");
        Process process = ServerJar.command("shadow", "--port", String.valueOf(server.port()), "--management-port",
                String.valueOf(server.managementPort()), "--primary", primary.toString(), "--shadow", shadow.toString(),
                "--dropped-keys", directory.resolve(server.name() + ".dropped").toString())
                .redirectOutput(stdout.toFile()).redirectError(server.log().toFile()).start();
        ServerJar.firstLine(stdout, process, server.log(), BOUND);
        return process;
    }

    /**
     * Each entry's kind and its value's SHA-256, by key: a hash, not the value, because half the writes are 100 KiB and
     * a map of their hex text grew past the heap as the writes did.
     */
    private static Map<String, String> entries(Storage storage) throws IOException {
        Map<String, String> all = new java.util.TreeMap<>();
        java.security.MessageDigest sha256;
        try {
            sha256 = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        storage.scan("", entry -> all.put(entry.key(), entry.kind() + ":" + java.util.HexFormat.of().formatHex(
                sha256.digest(entry.kind() == org.storeservice.api.storage.EntryKind.TEXT ? entry.text().getBytes(UTF_8)
                        : entry.bytes()))));
        return all;
    }
}
