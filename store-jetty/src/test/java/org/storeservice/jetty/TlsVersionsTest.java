package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.storeservice.api.storage.MemoryStorage;

/**
 * Which TLS versions and cipher suites the endpoint serves, by default and as asked, seen by real clients: the JDK's
 * and OpenSSL's {@code s_client} (at security level 0, so that any refusal of an old version is the server's).
 * This JVM keeps the JDK's own security policy, under which TLS 1.0 and 1.1 are disabled: the ready server's test
 * ({@code LegacyTlsJarIT} in store-examples) serves them in a JVM of its own.
 */
@Timeout(120)
class TlsVersionsTest {
    @TempDir
    static Path dir;
    private static Path keystore;

    @BeforeAll
    static void keystore() throws Exception {
        keystore = TestKeystore.generate(dir.resolve("store.p12"));
    }

    private static StoreServer.Builder https(MemoryStorage storage) {
        return StoreServer.builder().port(0).storage(storage).tls(keystore, TestKeystore.PASSWORD);
    }

    @Test
    void byDefaultTls12And13AreServedAnd10And11RefusedAndEachRefusalToldByVersion() throws Exception {
        List<String> refusals = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Server> jetty = new ArrayList<>();
        try (MemoryStorage storage = new MemoryStorage(); StoreServer server = https(storage)
                .tlsVersionRefusals((client, version) -> refusals.add(client + " " + version)).jettyCustomizer(jetty::add)
                .build().start()) {
            assertEquals("TLSv1.3, TLSv1.2", tls(jetty.get(0)).servedVersions(), "what the start log says is served");
            assertEquals("TLSv1.3", handshake(server, "TLSv1.3", null));
            assertEquals("TLSv1.2", handshake(server, "TLSv1.2", null));
            OpenSsl.assumeInstalled();
            assertTrue(OpenSsl.connect(server.port(), "-tls1_2").contains("Protocol version: TLSv1.2"));
            assertEquals(List.of(), refusals, "handshakes served are not refusals");
            for (String old : List.of("-tls1", "-tls1_1")) {
                String said = OpenSsl.connect(server.port(), old);
                assertTrue(said.contains("alert protocol version"), old + ":\n" + said);
            }
            assertEquals(List.of("127.0.0.1 TLSv1", "127.0.0.1 TLSv1.1"), refusals);
        }
    }

    @Test
    void aVersionTheJdkDoesNotKnowIsToldAsOtherSoThatClientsCannotMakeNewSeries() throws Exception {
        List<String> refusals = java.util.Collections.synchronizedList(new ArrayList<>());
        try (MemoryStorage storage = new MemoryStorage(); StoreServer server = https(storage)
                .tlsVersionRefusals((client, version) -> refusals.add(client + " " + version)).build().start()) {
            for (int bogus : new int[] {0x4000, 0x4001, 0x7f7f}) {
                rawClientHello(server.port(), bogus);
            }
            for (int i = 0; i < 1000 && refusals.size() < 3; i++) {
                Thread.sleep(10); // the refusal is told on Jetty's thread once it has answered; polled, bounded
            }
            assertEquals(List.of("127.0.0.1 other", "127.0.0.1 other", "127.0.0.1 other"), refusals);
        }
    }

    /**
     * A ClientHello written byte by byte, whose supported_versions extension offers only {@code version} (two bytes a
     * client chooses freely); reads until the server answers (an alert) or closes.
     */
    private static void rawClientHello(int port, int version) throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        body.write(new byte[] {0x03, 0x03}); // legacy_version TLS 1.2
        body.write(new byte[32]); // random
        body.write(0); // no session id
        body.write(new byte[] {0x00, 0x02, 0x13, 0x01}); // one cipher suite: TLS_AES_128_GCM_SHA256
        body.write(new byte[] {0x01, 0x00}); // null compression
        body.write(new byte[] {0x00, 0x07, 0x00, 0x2b, 0x00, 0x03, 0x02, (byte) (version >> 8), (byte) version});
        byte[] hello = body.toByteArray();
        java.io.ByteArrayOutputStream record = new java.io.ByteArrayOutputStream();
        record.write(new byte[] {0x16, 0x03, 0x01, (byte) ((hello.length + 4) >> 8), (byte) (hello.length + 4)});
        record.write(new byte[] {0x01, 0x00, (byte) (hello.length >> 8), (byte) hello.length});
        record.write(hello);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(record.toByteArray());
            socket.getOutputStream().flush();
            socket.getInputStream().readAllBytes();
        } catch (java.net.SocketException e) {
            // a reset after the alert: the refusal is what counts, and it is checked by the caller
        }
    }

    /** The endpoint's TLS, from its Jetty server. */
    private static EndpointTls tls(Server jetty) {
        for (org.eclipse.jetty.server.Connector connector : jetty.getConnectors()) {
            SslConnectionFactory ssl = connector.getConnectionFactory(SslConnectionFactory.class);
            if (ssl != null) {
                return (EndpointTls) ssl.getSslContextFactory();
            }
        }
        throw new AssertionError("no HTTPS connector");
    }

    @Test
    void tlsProtocolsNarrowsTheVersionsServed() throws Exception {
        try (MemoryStorage storage = new MemoryStorage();
                StoreServer server = https(storage).tlsProtocols(List.of("tlsv1.3")).build().start()) {
            assertEquals("TLSv1.3", handshake(server, "TLSv1.3", null));
            assertThrows(SSLHandshakeException.class, () -> handshake(server, "TLSv1.2", null));
        }
    }

    @Test
    void aLegacyCipherSuiteIsServedOnlyAskedForAndOnlyToAClientThatOffersNothingBetter() throws Exception {
        String cbc = "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA";
        String gcm = "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256";
        try (MemoryStorage storage = new MemoryStorage(); StoreServer server = https(storage).build().start()) {
            assertThrows(SSLHandshakeException.class, () -> handshake(server, "TLSv1.2", cbc), "excluded by default");
        }
        try (MemoryStorage storage = new MemoryStorage();
                StoreServer server = https(storage).tlsLegacyCipherSuites(List.of(cbc)).build().start()) {
            assertEquals(cbc, suite(server, cbc));
            assertEquals(gcm, suite(server, cbc, gcm), "the server's order prefers its default suites");
            assertEquals(gcm, suite(server, gcm));
        }
    }

    @Test
    void aCipherSuiteTheJdkDoesNotKnowFailsTheStart() {
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreServer server = https(storage).tlsLegacyCipherSuites(List.of("TLS_NO_SUCH_SUITE")).build();
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, server::start);
            assertTrue(refused.getMessage().contains("TLS_NO_SUCH_SUITE"), refused.getMessage());
        }
    }

    @Test
    void tls10WhereTheJvmDisablesItFailsTheStartSayingWhereAndLeavesThePortFree() throws Exception {
        assumeTrue(Arrays.stream(Security.getProperty(EndpointTls.DISABLED_ALGORITHMS).split(",")).map(String::strip)
                .anyMatch("TLSv1"::equals),
                "this JVM's security policy disables TLS 1.0, as the JDK's own does");
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreServer server = https(storage).port(port).tlsProtocols(List.of("TLSv1", "TLSv1.2", "TLSv1.3")).build();
            IllegalStateException refused = assertThrows(IllegalStateException.class, server::start);
            assertTrue(refused.getMessage().startsWith("Cannot serve TLSv1: this JVM disables it"),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("jdk.tls.disabledAlgorithms"), refused.getMessage());
            try (java.net.ServerSocket again = new java.net.ServerSocket(port)) {
                assertEquals(port, again.getLocalPort(), "the failed start unbound its port");
            }
        }
    }

    @Test
    void theBuilderTakesTlsVersionsByNameOnlyAndOnlyWithTls() {
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().tlsProtocols(List.of("SSLv3")));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().tlsProtocols(List.of()));
        IllegalArgumentException legacyAlone = assertThrows(IllegalArgumentException.class,
                () -> StoreServer.builder().tlsProtocols(List.of("TLSv1", "tlsv1.1")));
        assertEquals("tlsProtocols TLSv1,TLSv1.1 names only versions older than TLS 1.2: TLSv1.2 and TLSv1.3 would be"
                + " lost for every client of the port; name the ones to keep too, e.g. TLSv1,TLSv1.1,TLSv1.2,TLSv1.3",
                legacyAlone.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().tlsLegacyCipherSuites(List.of("AES128-SHA")));
        assertThrows(IllegalStateException.class, () -> StoreServer.builder().storageUri("memory:")
                .tlsProtocols(List.of("TLSv1.2")).build());
        assertThrows(IllegalStateException.class, () -> StoreServer.builder().storageUri("memory:")
                .tls(keystore, TestKeystore.PASSWORD).tlsProtocols(List.of("TLSv1.0", "TLSv1.2"))
                .tlsLegacyCipherSuites(List.of()).build(), "TLS 1.0 with no suite it can use");
    }

    /** A handshake and a write from a JDK client limited to {@code protocol} (and {@code suite}); the version agreed. */
    private static String handshake(StoreServer server, String protocol, String suite) throws Exception {
        try (SSLSocket socket = client(server, protocol, suite == null ? null : new String[] {suite})) {
            assertTrue(write(socket).contains(">Success<"));
            return socket.getSession().getProtocol();
        }
    }

    /** The cipher suite agreed with a TLS 1.2 client that offers {@code suites}, in that order. */
    private static String suite(StoreServer server, String... suites) throws Exception {
        try (SSLSocket socket = client(server, "TLSv1.2", suites)) {
            assertTrue(write(socket).contains(">Success<"));
            return socket.getSession().getCipherSuite();
        }
    }

    private static SSLSocket client(StoreServer server, String protocol, String[] suites) throws Exception {
        SSLContext context = TestKeystore.trusting(keystore);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
        socket.setSoTimeout(30_000);
        socket.setEnabledProtocols(new String[] {protocol});
        if (suites != null) {
            socket.setEnabledCipherSuites(suites);
        }
        socket.startHandshake();
        return socket;
    }

    /** An HTTP GET WriteString over {@code socket}; the whole answer. */
    private static String write(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET /API/Store.asmx/WriteString?key=tls&value=v HTTP/1.1\r\nHost: localhost\r\n"
                + "Connection: close\r\n\r\n").getBytes(UTF_8));
        out.flush();
        InputStream in = socket.getInputStream();
        return new String(in.readAllBytes(), UTF_8);
    }

    /** OpenSSL's {@code s_client}, as an old client calls: at security level 0, so that it offers what it is told. */
    static final class OpenSsl {
        private OpenSsl() {
        }

        /** Skips the calling test where there is no {@code openssl}; fails it in CI, where there must be. */
        static void assumeInstalled() {
            boolean installed = Files.isExecutable(Path.of("/usr/bin/openssl")) || Files.isExecutable(Path.of("/bin/openssl"));
            assertTrue(installed || !"true".equals(System.getenv("CI")), "CI needs openssl");
            assumeTrue(installed, "needs openssl (Debian's openssl package)");
        }

        /** What {@code s_client -brief} says of a handshake with {@code version} (e.g. {@code -tls1}) to the port. */
        static String connect(int port, String version) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-brief", "-connect",
                    "127.0.0.1:" + port, version, "-cipher", "DEFAULT:@SECLEVEL=0"));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close(); // nothing to send: s_client then ends once the handshake is done
            String said = new String(process.getInputStream().readAllBytes(), UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            assertFalse(said.isEmpty(), "s_client said nothing");
            return said;
        }
    }
}
