package org.storeservice.examples.springboot;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS 1.0 on Spring Boot as docs/operating.md says to set it: Spring Boot's own {@code server.ssl.enabled-protocols},
 * and the JVM started with a {@code java.security.properties} file that lifts TLSv1 and TLSv1.1 from this JDK's
 * {@code jdk.tls.disabledAlgorithms}. The application's jar runs as an operator runs it, in a JVM of its own; OpenSSL's
 * {@code s_client} (at security level 0, so that it offers TLS 1.0) is the old client.
 */
@Timeout(240)
class LegacyTlsBootIT {
    private static final Path JAR = Path.of(System.getProperty("store.boot.jar", "target/store-examples-spring-boot.jar"));
    private static final String PASSWORD = "legacy-tls-pw";
    private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");

    @TempDir
    static Path dir;
    private static Path keystore;
    private static Path security;

    @BeforeAll
    static void keystoreAndSecurityFile() throws Exception {
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
        // As an operator makes it: this JDK's own line (the child runs the same JDK), without TLSv1 and TLSv1.1.
        String line = Arrays.stream(Security.getProperty("jdk.tls.disabledAlgorithms").split(","))
                .map(String::strip).filter(entry -> !entry.equals("TLSv1") && !entry.equals("TLSv1.1"))
                .collect(Collectors.joining(", "));
        security = Files.writeString(dir.resolve("legacy-tls.security"), "jdk.tls.disabledAlgorithms=" + line + "\n");
    }

    @Test
    void withTheSecurityFileAndEnabledProtocolsATls10ClientWrites() throws Exception {
        Process app = start("legacy", "-Djava.security.properties=" + security, "-Djdk.tls.client.protocols=TLSv1.3,TLSv1.2");
        try {
            int port = port(app, "legacy");
            String tls10 = sClient(port, "-tls1", "-cipher", "ECDHE-RSA-AES128-SHA:@SECLEVEL=0");
            assertTrue(tls10.contains("Protocol version: TLSv1\n"), tls10);
            assertTrue(tls10.contains(">Success<"), tls10);
            String tls12 = sClient(port, "-tls1_2");
            assertTrue(tls12.contains("Protocol version: TLSv1.2\n") && tls12.contains(">Success<"), tls12);
            assertFalse(tls12.contains("Ciphersuite: ECDHE-RSA-AES128-SHA\n"), "a TLS 1.2 client keeps a modern suite:\n" + tls12);
        } finally {
            stop(app);
        }
    }

    @Test
    void withEnabledProtocolsAloneTheJvmStillRefusesTls10() throws Exception {
        Process app = start("plain");
        try {
            String said = sClient(port(app, "plain"), "-tls1", "-cipher", "DEFAULT:@SECLEVEL=0");
            assertTrue(said.contains("alert protocol version"), said);
            assertFalse(said.contains("Success"), said);
        } finally {
            stop(app);
        }
    }

    private static Process start(String name, String... jvmOptions) throws IOException {
        assertTrue(Files.isRegularFile(JAR), "no jar at " + JAR.toAbsolutePath());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString(), "--server.port=0", "--store.storage=memory:",
                "--server.ssl.key-store=file:" + keystore, "--server.ssl.key-store-password=" + PASSWORD,
                "--server.ssl.key-store-type=PKCS12", "--server.ssl.enabled-protocols=TLSv1,TLSv1.1,TLSv1.2,TLSv1.3"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
    }

    /** The port Tomcat says it started on; fails if the application exits first or says nothing within 120 s. */
    private static int port(Process app, String name) throws Exception {
        Path log = dir.resolve(name + ".log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Matcher started = STARTED.matcher(Files.readString(log));
            if (started.find()) {
                return Integer.parseInt(started.group(1));
            }
            if (!app.isAlive()) {
                fail("the application exited (" + app.exitValue() + "):\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
        return fail("the application did not start within 120 s:\n" + Files.readString(log));
    }

    private static void stop(Process app) throws InterruptedException {
        app.destroy();
        if (!app.waitFor(60, TimeUnit.SECONDS)) {
            app.destroyForcibly();
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
