package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accept queue as the kernel holds it: the backlog of each listening socket, read back with {@code ss} (Linux),
 * where a listening socket's Send-Q column is its backlog.
 */
@Timeout(60)
class AcceptQueueTest {
    private static final Path SOMAXCONN = Path.of("/proc/sys/net/core/somaxconn");

    @Test
    void theEndpointListensWithTheDefaultQueueAsFarAsTheKernelAllows() throws Exception {
        try (StoreServer server = StoreServer.builder().port(0).storageUri("memory:").build().start()) {
            assertEquals(Math.min(StoreServer.DEFAULT_ACCEPT_QUEUE_SIZE, somaxconn()), backlog(server.port()));
        }
    }

    @Test
    void theQueueAskedForIsTheBacklogOfTheEndpointAndOfThePlainPortBesideHttps(@TempDir Path dir) throws Exception {
        Path keystore = TestKeystore.generate(dir.resolve("store.p12"));
        try (StoreServer server = StoreServer.builder().port(0).httpPort(0).tls(keystore, TestKeystore.PASSWORD)
                .storageUri("memory:").acceptQueueSize(77).build().start()) {
            assertEquals(77, backlog(server.port()));
            assertEquals(77, backlog(server.httpPort()));
        }
    }

    @Test
    void aQueueOutsideOneTo65535IsRefused() {
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().acceptQueueSize(0));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().acceptQueueSize(65536));
    }

    private static int somaxconn() throws IOException {
        assumeLinuxWithSs();
        // Not Files.readString: procfs says its files are empty, and the JDK then reads them short.
        try (var in = Files.newInputStream(SOMAXCONN)) {
            return Integer.parseInt(new String(in.readAllBytes(), UTF_8).strip());
        }
    }

    private static void assumeLinuxWithSs() {
        assumeTrue(Files.isReadable(SOMAXCONN)
                && (Files.isExecutable(Path.of("/usr/bin/ss")) || Files.isExecutable(Path.of("/bin/ss"))),
                "needs Linux and ss (iproute2)");
    }

    /** The backlog of the socket listening on {@code port}, as {@code ss -ltnH} reports it. */
    private static int backlog(int port) throws IOException, InterruptedException {
        assumeLinuxWithSs();
        Process ss = new ProcessBuilder(List.of("ss", "-ltnH", "sport", "=", ":" + port)).redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), UTF_8).strip();
        if (!ss.waitFor(30, TimeUnit.SECONDS)) {
            ss.destroyForcibly();
        }
        List<String> lines = out.lines().toList();
        assertEquals(1, lines.size(), "one socket listening on " + port + ":\n" + out);
        String[] columns = lines.get(0).trim().split("\\s+"); // State Recv-Q Send-Q Local Peer
        assertEquals("LISTEN", columns[0], out);
        return Integer.parseInt(columns[2]);
    }
}
