package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS without surprises, through the command line: old versions named alone are refused, naming what would be lost;
 * a TLS 1.0 client ({@code openssl s_client -tls1}, at security level 0 so that any refusal is the server's) refused by
 * a server without the option is counted by version on the management port's metrics.
 */
@Timeout(120)
class ServeTlsRefusalsTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<Thread> hooks = new ArrayList<>();

    @AfterEach
    void stop() {
        hooks.forEach(Thread::run); // what the JVM does on SIGTERM
    }

    @Test
    void oldVersionsNamedAloneAreRefusedNamingWhatWouldBeLost() {
        ToolRun run = ToolRun.withEnvironment(new byte[0], Map.of(FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE, "x"),
                "--port", "0", "--storage", "memory:", "--tls-keystore", keystoreOrAbsent(), "--tls-protocols", "TLSv1");
        assertEquals(Main.EXIT_USAGE, run.status, run.toString());
        assertTrue(run.err.contains("tlsProtocols TLSv1 names only versions older than TLS 1.2: TLSv1.2 and TLSv1.3 would"
                + " be lost for every client of the port; name the ones to keep too, e.g. TLSv1,TLSv1.2,TLSv1.3"), run.err);
    }

    @Test
    void aTls10ClientRefusedIsCountedByVersionOnTheMetrics() throws Exception {
        boolean openssl = Files.isExecutable(Path.of("/usr/bin/openssl")) || Files.isExecutable(Path.of("/bin/openssl"));
        assertTrue(openssl || !"true".equals(System.getenv("CI")), "CI needs openssl");
        assumeTrue(openssl, "needs openssl (Debian's openssl package)");
        Path keystore = keystore();
        int management = freePort();
        Main main = new Main(new ToolContext(InputStream.nullInputStream(), out, new PrintStream(err, true, UTF_8),
                Map.of(FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE, "keystore-pw"), hooks::add, status -> { }, uri -> { }));
        assertEquals(Main.EXIT_OK, main.run("--port", "0", "--storage", "memory:", "--tls-keystore", keystore.toString(),
                "--management-port", "" + management), err.toString(UTF_8));
        URI endpoint = URI.create(out.toString(UTF_8).lines().findFirst().orElseThrow());

        String said = sClient(endpoint.getPort(), "-tls1");
        assertTrue(said.contains("alert protocol version"), said);
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + management + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("store_tls_handshakes_refused_total{version=\"TLSv1\"} 1.0"), metrics);
        assertFalse(metrics.contains("version=\"TLSv1.2\""), "a version served is never counted as refused");
    }

    /** A keystore path for a command that must stop before reading it. */
    private String keystoreOrAbsent() {
        return dir.resolve("never-read.p12").toString();
    }

    private Path keystore() throws Exception {
        Path keystore = dir.resolve("store.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", "keystore-pw",
                "-alias", "store", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, keytool.exitValue());
        return keystore;
    }

    /** What {@code openssl s_client -brief} says of a handshake with {@code version} to the port. */
    private static String sClient(int port, String version) throws Exception {
        Process process = new ProcessBuilder("openssl", "s_client", "-brief", "-connect", "127.0.0.1:" + port, version,
                "-cipher", "DEFAULT:@SECLEVEL=0").redirectErrorStream(true).start();
        process.getOutputStream().close();
        String said = new String(process.getInputStream().readAllBytes(), UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return said;
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
