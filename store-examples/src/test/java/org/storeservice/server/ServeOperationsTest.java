package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The operating options of the ready server, run in-process and called by a real client. */
@Timeout(120)
class ServeOperationsTest {
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<Thread> hooks = new ArrayList<>();

    @AfterEach
    void stop() {
        hooks.forEach(Thread::run); // what the JVM does on SIGTERM
    }

    /** Serves with {@code args}; returns the endpoint URL it printed. */
    private URI serve(Map<String, String> environment, String... args) {
        Main main = new Main(new ToolContext(InputStream.nullInputStream(), out, new PrintStream(err, true, UTF_8),
                environment, hooks::add, status -> { }, uri -> { }));
        assertEquals(Main.EXIT_OK, main.run(args), err.toString(UTF_8));
        return URI.create(out.toString(UTF_8).lines().findFirst().orElseThrow());
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static HttpResponse<String> get(HttpClient client, URI uri, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri);
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyOperatingOptionIsOffByDefault() {
        Main main = new Main(ToolRun.context(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                new ByteArrayOutputStream(), Map.of(), hook -> { }));
        main.commandLine().parseArgs();
        ServeCommand serve = (ServeCommand) main.commandLine().getCommand();
        OperationsOptions options = serve.operations;
        FrontDoorOptions frontDoor = serve.frontDoor;
        assertNull(frontDoor.managementPort);
        assertEquals("127.0.0.1", frontDoor.managementHost);
        assertEquals("/metrics", frontDoor.metricsPath);
        assertNull(options.accessLog);
        assertNull(frontDoor.tlsKeystore);
        assertNull(frontDoor.httpPort);
        assertNull(options.usersFile);
        assertFalse(options.publicMetadata);
        assertNull(options.allowFrom);
        assertNull(frontDoor.trustedProxies);
    }

    @Test
    void usersAddThenBasicAuthenticationWithAnAccessLogAndHealthOnTheManagementPort() throws Exception {
        Path users = dir.resolve("users");
        ToolRun added = ToolRun.withInput("pa:ss wörd\n", "users", "add", "alice", "--file", users.toString());
        assertEquals(Main.EXIT_OK, added.status, added.err);
        assertTrue(Files.readString(users).startsWith("alice:pbkdf2-sha256:"));
        assertFalse(Files.readString(users).contains("pa:ss"));

        Path accessLog = dir.resolve("access.log");
        int managementPort = freePort();
        URI endpoint = serve(Map.of("STORE_ALLOW_FROM", "127.0.0.0/8"), "--port", "0", "--storage", "memory:",
                "--users-file", users.toString(), "--public-metadata", "--access-log", accessLog.toString(),
                "--management-port", "" + managementPort);

        String credentials = "Basic " + Base64.getEncoder().encodeToString("alice:pa:ss wörd".getBytes(UTF_8));
        URI write = URI.create(endpoint + "/WriteString?key=k&value=v");
        assertEquals(401, get(http, write).statusCode());
        assertEquals(401, get(http, write, "Authorization", "Basic " + Base64.getEncoder().encodeToString(
                "alice:wrong".getBytes(UTF_8))).statusCode());
        assertEquals(200, get(http, write, "Authorization", credentials, "User-Agent", "LegacyClient/1.0").statusCode());
        assertEquals(200, get(http, URI.create(endpoint + "?wsdl")).statusCode(), "--public-metadata");

        HttpResponse<String> ready = get(http, URI.create("http://127.0.0.1:" + managementPort + "/health/ready"));
        assertEquals(200, ready.statusCode());
        assertEquals("{\"status\":\"UP\"}", ready.body());
        HttpResponse<String> metrics = get(http, URI.create("http://127.0.0.1:" + managementPort + "/metrics"));
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain; version=0.0.4"));
        String scrape = metrics.body();
        // The two 401s never reached the codec: access control answered them.
        assertTrue(scrape.contains("store_requests_total{binding=\"httpget\",operation=\"WriteString\",outcome=\"Success\"} 1.0"), scrape);
        assertTrue(scrape.contains("store_requests_total{binding=\"metadata\",operation=\"wsdl\",outcome=\"Success\"} 1.0"), scrape);
        assertTrue(scrape.contains("store_request_duration_seconds_count{binding=\"httpget\",operation=\"WriteString\",outcome=\"Success\"} 1"), scrape);
        assertTrue(scrape.contains("store_request_body_bytes_count{"), scrape);
        assertTrue(scrape.contains("jvm_memory_used_bytes{"), scrape);
        assertTrue(scrape.contains("jetty_threads_busy"), scrape);
        assertTrue(scrape.contains("jetty_connections_"), scrape);

        hooks.forEach(Thread::run); // stop: the access log is complete once the server stopped
        hooks.clear();
        List<String> lines = Files.readAllLines(accessLog, UTF_8);
        assertTrue(lines.stream().anyMatch(line -> line.contains(" alice [") && line.contains("\"GET /API/Store.asmx/WriteString?key=k&value=v HTTP/1.1\" 200 ")
                && line.contains("\"LegacyClient/1.0\" httpget WriteString ")), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.contains("?wsdl HTTP/1.1\" 200 ") && line.contains(" metadata wsdl ")),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.contains("\" 401 ")), String.join("\n", lines));
    }

    @Test
    void servesHttpsFromAKeystoreWhosePasswordComesFromTheEnvironmentOrAFile() throws Exception {
        char[] password = "keystore-pw".toCharArray();
        Path keystore = dir.resolve("store.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", new String(password),
                "-alias", "store", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, keytool.exitValue());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, password);
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("store", keys.getCertificate("store"));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls).build();

        URI endpoint = serve(Map.of(FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE, "keystore-pw"), "--port", "0",
                "--storage", "memory:", "--tls-keystore", keystore.toString(), "--host", "localhost");
        assertEquals("https", endpoint.getScheme());
        HttpResponse<String> wsdl = get(https, URI.create(endpoint + "?wsdl"));
        assertEquals(200, wsdl.statusCode());
        assertTrue(wsdl.body().contains("location=\"https://localhost:" + endpoint.getPort() + "/API/Store.asmx\""));
        hooks.forEach(Thread::run);
        hooks.clear();
        out.reset();

        Path passwordFile = dir.resolve("keystore-password");
        Files.writeString(passwordFile, "keystore-pw\n");
        int plainPort = freePort();
        endpoint = serve(Map.of(), "--port", "0", "--storage", "memory:", "--tls-keystore", keystore.toString(),
                "--tls-keystore-password-file", passwordFile.toString(), "--host", "localhost",
                "--http-port", "" + plainPort);
        assertEquals(200, get(https, URI.create(endpoint + "/WriteString?key=k&value=v")).statusCode());
        assertEquals(200, get(http, URI.create("http://localhost:" + plainPort + "/API/Store.asmx/WriteString?key=k&value=v"))
                .statusCode());
    }

    @Test
    void theTlsVersionAndCipherSuiteOptionsNeedAKeystoreAndKnownNames() {
        for (String option : List.of("--tls-protocols=TLSv1.2", "--tls-legacy-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA")) {
            ToolRun run = ToolRun.withEnvironment(new byte[0], Map.of(), "--port", "0", "--storage", "memory:", option);
            assertEquals(Main.EXIT_USAGE, run.status, run.toString());
            assertTrue(run.err.startsWith("store-server: --http-port, --tls-keystore-password-file, --tls-sni-host-check,"
                    + " --tls-protocols and --tls-legacy-cipher-suites need --tls-keystore"), run.err);
        }
    }

    @Test
    void aWrongKeystorePasswordOrAMissingOneIsSaidPlainly() throws Exception {
        ToolRun run = ToolRun.withEnvironment(new byte[0], Map.of(), "--port", "0", "--storage", "memory:",
                "--tls-keystore", dir.resolve("none.p12").toString());
        assertEquals(Main.EXIT_USAGE, run.status);
        assertTrue(run.err.startsWith("store-server: --tls-keystore needs its password in STORE_TLS_KEYSTORE_PASSWORD"
                + " or --tls-keystore-password-file"), run.err);

        run = ToolRun.withEnvironment(new byte[0], Map.of(FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE, "x"),
                "--port", "0", "--storage", "memory:", "--tls-keystore", dir.resolve("none.p12").toString());
        assertEquals(Main.EXIT_FAILURE, run.status);
        assertTrue(run.err.startsWith("store-server serve: cannot create or open " + dir.resolve("none.p12")), run.err);

        Path notAKeystore = Files.writeString(dir.resolve("not.p12"), "text");
        run = ToolRun.withEnvironment(new byte[0], Map.of(FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE, "x"),
                "--port", "0", "--storage", "memory:", "--tls-keystore", notAKeystore.toString());
        assertEquals(Main.EXIT_FAILURE, run.status);
        assertTrue(run.err.startsWith("store-server serve: cannot read the TLS keystore " + notAKeystore), run.err);

        run = ToolRun.withEnvironment(new byte[0], Map.of(), "--port", "0", "--storage", "memory:", "--allow-from", "intranet");
        assertEquals(Main.EXIT_USAGE, run.status);
        assertTrue(run.err.startsWith("store-server: Invalid value for option '--allow-from': Not an IP address range"), run.err);
    }

    @Test
    void usersAddWantsAPasswordOnStandardInput() {
        ToolRun run = ToolRun.withInput("", "users", "add", "bob", "--file", dir.resolve("users").toString());
        assertEquals(Main.EXIT_FAILURE, run.status);
        assertTrue(run.err.contains("no password on standard input"), run.err);
        assertFalse(Files.exists(dir.resolve("users")));
    }
}
