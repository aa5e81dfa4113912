package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS 1.0 and 1.1 for the oldest clients, as an operator turns them on: the ready server's jar in a JVM of its own
 * (the JDK disables both for the whole JVM until the server lifts that), an RSA certificate, and OpenSSL's
 * {@code s_client} as the old client, at security level 0 so that it offers TLS 1.0 and any refusal is the server's.
 */
@Timeout(180)
class LegacyTlsJarIT {
    private static final String PASSWORD = "legacy-tls-pw";

    @TempDir
    static Path dir;
    private static Path keystore;

    @BeforeAll
    static void rsaKeystore() throws Exception {
        boolean openssl = Files.isExecutable(Path.of("/usr/bin/openssl")) || Files.isExecutable(Path.of("/bin/openssl"));
        assertTrue(openssl || !"true".equals(System.getenv("CI")), "CI needs openssl");
        assumeTrue(openssl, "needs openssl (Debian's openssl package)");
        keystore = dir.resolve("store.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD,
                "-alias", "store", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, keytool.exitValue());
    }

    @Test
    void withTheOptionATls10ClientWritesAndTheOthersKeepTheirVersionsAndSuites() throws Exception {
        Path stderr = dir.resolve("legacy.err");
        Process server = start(stderr, "--tls-protocols", "TLSv1,TLSv1.1,TLSv1.2,TLSv1.3");
        try {
            int port = port(server, stderr);

            String tls10 = sClient(port, "-tls1", "-cipher", "ECDHE-RSA-AES128-SHA:@SECLEVEL=0");
            assertTrue(tls10.contains("Protocol version: TLSv1\n"), tls10);
            assertTrue(tls10.contains("Ciphersuite: ECDHE-RSA-AES128-SHA\n"), tls10); // TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA
            assertTrue(tls10.contains("HTTP/1.1 200 OK") && tls10.contains(">Success<"), tls10);

            String tls11 = sClient(port, "-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0");
            assertTrue(tls11.contains("Protocol version: TLSv1.1\n") && tls11.contains(">Success<"), tls11);

            String tls12 = sClient(port, "-tls1_2");
            assertTrue(tls12.contains("Protocol version: TLSv1.2\n") && tls12.contains(">Success<"), tls12);
            assertTrue(tls12.contains("Ciphersuite: ECDHE-RSA-AES256-GCM-SHA384\n"),
                    "a client that offers the default suites gets one:\n" + tls12);
            assertTrue(sClient(port).contains("Protocol version: TLSv1.3\n"), "a client's own choice is TLS 1.3");

            String log = Files.readString(stderr);
            assertTrue(log.contains("WARN EndpointTls - Serving TLSv1, TLSv1.1 for legacy clients"), log);
            String served = log.lines().filter(line -> line.contains("INFO EndpointTls - HTTPS serves ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no line naming the versions served:\n" + log));
            for (String version : List.of("TLSv1,", "TLSv1.1", "TLSv1.2", "TLSv1.3")) {
                assertTrue(served.contains(version) || served.contains(version.replace(",", " (")), served);
            }
            assertTrue(log.contains("TLSv1, TLSv1.1 removed from this JVM's jdk.tls.disabledAlgorithms, which still"
                    + " disables SSLv3, "), log);
        } finally {
            stop(server);
        }
    }

    @Test
    void withoutItTls10And11AreRefusedWithTheProtocolVersionAlert() throws Exception {
        Path stderr = dir.resolve("default.err");
        Process server = start(stderr);
        try {
            int port = port(server, stderr);
            for (String old : List.of("-tls1", "-tls1_1")) {
                String said = sClient(port, old, "-cipher", "DEFAULT:@SECLEVEL=0");
                assertTrue(said.contains("alert protocol version"), old + ":\n" + said);
                assertFalse(said.contains("Success"), said);
            }
            assertTrue(sClient(port, "-tls1_2").contains(">Success<"));
            String log = Files.readString(stderr);
            assertFalse(log.contains("WARN EndpointTls"), log);
            assertTrue(log.contains("INFO EndpointTls - HTTPS serves TLSv1.3, TLSv1.2 (no other TLS version)"), log);
            assertTrue(log.contains("WARN RefusedTlsHandshakes - Refused a TLS handshake from 127.0.0.1: it offered TLSv1,"
                    + " this port serves TLSv1.3, TLSv1.2"), "the refusal logged, naming the client and its version:\n" + log);
        } finally {
            stop(server);
        }
    }

    private static Process start(Path stderr, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--storage", "memory:", "--tls-keystore",
                keystore.toString()));
        args.addAll(List.of(options));
        ProcessBuilder command = ServerJar.command(args.toArray(String[]::new));
        command.environment().put(FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE, PASSWORD);
        return command.redirectOutput(dir.resolve(stderr.getFileName() + ".out").toFile())
                .redirectError(stderr.toFile()).start();
    }

    private static int port(Process server, Path stderr) throws Exception {
        String line = ServerJar.firstLine(dir.resolve(stderr.getFileName() + ".out"), server, stderr, Duration.ofSeconds(60));
        return URI.create(line).getPort();
    }

    private static void stop(Process server) throws InterruptedException {
        server.destroy();
        if (!server.waitFor(60, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
    }

    /**
     * {@code openssl s_client -brief} with {@code options} to the port, sending an HTTP GET WriteString once connected
     * and reading until the server closes: what it says (the handshake's summary, then the answer) together.
     */
    private static String sClient(int port, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-brief", "-ign_eof", "-connect",
                "127.0.0.1:" + port));
        command.addAll(List.of(options));
        Process client = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = client.getOutputStream()) {
            in.write(("GET /API/Store.asmx/WriteString?key=legacy&value=v HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n").getBytes(UTF_8));
        }
        String said = new String(client.getInputStream().readAllBytes(), UTF_8);
        if (!client.waitFor(30, TimeUnit.SECONDS)) {
            client.destroyForcibly();
        }
        return said;
    }
}
