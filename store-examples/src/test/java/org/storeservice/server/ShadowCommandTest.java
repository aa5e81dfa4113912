package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;
import org.storeservice.jetty.StoreServer;

/** The {@code shadow} command, run in-process between two real Store servers, called by a real client. */
@Timeout(120)
class ShadowCommandTest {
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<Thread> hooks = new ArrayList<>();
    private final List<StoreServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        hooks.forEach(Thread::run); // what the JVM does on SIGTERM
        servers.forEach(StoreServer::stop);
    }

    private URI server(StoreLimits limits) throws Exception {
        StoreServer server = StoreServer.builder().port(0).storageUri("memory:").storeLimits(limits).build().start();
        servers.add(server);
        return server.endpointUri();
    }

    /** Runs {@code shadow} with {@code args}; returns the endpoint URL it printed. */
    private URI shadow(Map<String, String> environment, String... args) {
        Main main = new Main(new ToolContext(InputStream.nullInputStream(), out, new PrintStream(err, true, UTF_8),
                environment, hooks::add, status -> { }, uri -> { }));
        List<String> command = new ArrayList<>(List.of("shadow"));
        command.addAll(List.of(args));
        assertEquals(Main.EXIT_OK, main.run(command.toArray(String[]::new)), err.toString(UTF_8));
        assertTrue(main.serving(), "the process is kept running");
        return URI.create(out.toString(UTF_8).lines().findFirst().orElseThrow());
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void proxiesComparesAndCountsOnTheManagementPort() throws Exception {
        URI primary = server(StoreLimits.defaults());
        URI shadow = server(StoreLimits.builder().maxValueBytes(4).build());
        int management = freePort();
        Path differences = dir.resolve("differences.jsonl");
        URI endpoint = shadow(Map.of("STORE_SHADOW", shadow.toString()), "--port", "0", "--primary", primary.toString(),
                "--differences", differences.toString(), "--dropped-keys", dir.resolve("dropped.jsonl").toString(),
                "--management-port", "" + management);
        assertEquals(primary.getPath(), endpoint.getPath());

        HttpResponse<String> small = get(URI.create(endpoint + "/WriteString?key=small&value=abc"));
        HttpResponse<String> large = get(URI.create(endpoint + "/WriteString?key=large&value=abcdefgh"));
        assertTrue(small.body().contains("Success"), small.body());
        assertTrue(large.body().contains("Success"), "the primary's answer: " + large.body());

        String metrics = "";
        for (int i = 0; i < 200 && !metrics.contains("result=\"differing\""); i++) {
            metrics = get(URI.create("http://127.0.0.1:" + management + "/metrics")).body();
            if (!metrics.contains("result=\"differing\"")) {
                Thread.sleep(50); // the copies are compared after the clients' answers; polled, bounded
            }
        }
        assertTrue(metrics.contains("store_shadow_requests_total{binding=\"httpget\",operation=\"WriteString\",result=\"differing\"} 1.0"), metrics);
        assertTrue(metrics.contains("store_shadow_requests_total{binding=\"httpget\",operation=\"WriteString\",result=\"matched\"} 1.0"), metrics);
        assertTrue(metrics.contains("store_shadow_queue_bytes "), metrics);
        assertTrue(metrics.contains("jvm_memory_used_bytes"), "the JVM's meters, as the server's: " + metrics);
        assertEquals(200, get(URI.create("http://127.0.0.1:" + management + "/health/ready")).statusCode());

        List<String> lines = Files.readAllLines(differences);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("\"key\":\"large\""), lines.get(0));
    }

    /** The options it shares with serve (FrontDoorOptions) work here too: HTTPS from a keystore, the accept queue. */
    @Test
    void servesHttpsWithTheOptionsItSharesWithServe() throws Exception {
        Path keystore = dir.resolve("proxy.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", "keystore-pw",
                "-alias", "proxy", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, keytool.exitValue());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, "keystore-pw".toCharArray());
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("proxy", keys.getCertificate("proxy"));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).build();

        URI primary = server(StoreLimits.defaults());
        URI shadow = server(StoreLimits.defaults());
        int management = freePort();
        URI endpoint = shadow(Map.of(FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE, "keystore-pw"), "--port", "0",
                "--host", "localhost", "--tls-keystore", keystore.toString(), "--accept-queue", "64",
                "--primary", primary.toString(), "--shadow", shadow.toString(), "--management-port", "" + management);
        assertEquals("https", endpoint.getScheme());
        HttpResponse<String> answer = https.send(HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=v"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode());
        assertTrue(answer.body().contains("Success"), answer.body());
        String metrics = "";
        for (int i = 0; i < 200 && !metrics.contains("result=\"matched\""); i++) {
            metrics = get(URI.create("http://127.0.0.1:" + management + "/metrics")).body();
            if (!metrics.contains("result=\"matched\"")) {
                Thread.sleep(50); // the copy is compared after the client's answer; polled, bounded
            }
        }
        assertTrue(metrics.contains("store_shadow_requests_total{binding=\"httpget\",operation=\"WriteString\",result=\"matched\"} 1.0"),
                metrics);

        boolean openssl = Files.isExecutable(Path.of("/usr/bin/openssl")) || Files.isExecutable(Path.of("/bin/openssl"));
        assertTrue(openssl || !"true".equals(System.getenv("CI")), "CI needs openssl");
        if (openssl) { // a TLS 1.0 client refused by the proxy is counted by version, as by the server
            Process old = new ProcessBuilder("openssl", "s_client", "-brief", "-connect", "127.0.0.1:" + endpoint.getPort(),
                    "-tls1", "-cipher", "DEFAULT:@SECLEVEL=0").redirectErrorStream(true).start();
            old.getOutputStream().close();
            String said = new String(old.getInputStream().readAllBytes(), UTF_8);
            assertTrue(old.waitFor(30, TimeUnit.SECONDS));
            assertTrue(said.contains("alert protocol version"), said);
            metrics = get(URI.create("http://127.0.0.1:" + management + "/metrics")).body();
            assertTrue(metrics.contains("store_tls_handshakes_refused_total{version=\"TLSv1\"} 1.0"), metrics);
        }
    }

    @Test
    void wrongCommandLinesSayWhatIsWrong() {
        ToolRun run = ToolRun.run("shadow", "--port", "0");
        assertEquals(Main.EXIT_USAGE, run.status, run.err);
        assertTrue(run.err.startsWith("store-server: --primary and --shadow are required (or STORE_PRIMARY and STORE_SHADOW)"),
                run.err);

        run = ToolRun.run("shadow", "--primary", "ftp://old/API/Store.asmx", "--shadow", "http://new/API/Store.asmx");
        assertEquals(Main.EXIT_USAGE, run.status, run.err);
        assertTrue(run.err.contains("not an endpoint URL like http://host/API/Store.asmx"), run.err);

        run = ToolRun.run("shadow", "--primary", "http://old/API/Store.asmx", "--shadow", "http://new/API/Store.asmx",
                "--shadow-concurrency", "0");
        assertEquals(Main.EXIT_USAGE, run.status, run.err);
        assertTrue(run.err.contains("0 is outside 1.."), run.err);
    }

    @Test
    void aBusyPortIsNamed() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            Main main = new Main(new ToolContext(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                    new PrintStream(errors, true, UTF_8), Map.of(), hooks::add, status -> { }, uri -> { }));
            int status = main.run("shadow", "--port", "" + busy.getLocalPort(), "--primary", "http://127.0.0.1:1/API/Store.asmx",
                    "--shadow", "http://127.0.0.1:2/API/Store.asmx");
            assertEquals(Main.EXIT_FAILURE, status);
            assertTrue(errors.toString(UTF_8).startsWith("store-server shadow: cannot listen on 127.0.0.1:"
                    + busy.getLocalPort() + " (--port): "), errors.toString(UTF_8));
        }
    }

    @Test
    void aBadAcceptFileStopsTheStartNamingItsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory)
            throws Exception {
        java.nio.file.Path accept = Files.write(directory.resolve("known.accept"),
                List.of("# understood", "httpget * line-endings Mono's LF", "httppost * line-ends no such kind"));
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        Main main = new Main(new ToolContext(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                new PrintStream(errors, true, UTF_8), Map.of(), hooks::add, status -> { }, uri -> { }));
        int status = main.run("shadow", "--port", "0", "--primary", "http://127.0.0.1:1/API/Store.asmx",
                "--shadow", "http://127.0.0.1:2/API/Store.asmx", "--accept", accept.toString());
        assertEquals(Main.EXIT_FAILURE, status);
        assertTrue(errors.toString(UTF_8).startsWith("store-server shadow: could not start: " + accept
                + ":3: unknown difference line-ends"), errors.toString(UTF_8));
        assertTrue(hooks.isEmpty(), "nothing left running");
    }

    @Test
    void everyAcceptFileGivenIsRead(@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) throws Exception {
        java.nio.file.Path known = Files.write(directory.resolve("known.accept"),
                List.of("soap11 * fault-text .NET's fault text"));
        java.nio.file.Path mono = Files.write(directory.resolve("mono.accept"),
                List.of("httpget * line-endings Mono's LF", "httppost * line-ends no such kind"));
        for (String[] given : List.of(new String[] {"--accept", known.toString(), "--accept", mono.toString()},
                new String[] {"--accept", known + "," + mono})) {
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            Main main = new Main(new ToolContext(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                    new PrintStream(errors, true, UTF_8), Map.of(), hooks::add, status -> { }, uri -> { }));
            List<String> args = new java.util.ArrayList<>(List.of("shadow", "--port", "0",
                    "--primary", "http://127.0.0.1:1/API/Store.asmx", "--shadow", "http://127.0.0.1:2/API/Store.asmx"));
            args.addAll(List.of(given));
            assertEquals(Main.EXIT_FAILURE, main.run(args.toArray(String[]::new)), "the second file's bad line");
            assertTrue(errors.toString(UTF_8).startsWith("store-server shadow: could not start: " + mono
                    + ":2: unknown difference line-ends"), errors.toString(UTF_8));
            assertTrue(hooks.isEmpty(), "nothing left running");
        }
    }
}
