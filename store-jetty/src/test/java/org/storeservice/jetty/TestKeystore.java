package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A PKCS12 keystore with a self-signed certificate for localhost, made by the JDK's keytool, and a client that trusts it. */
final class TestKeystore {
    static final char[] PASSWORD = "test-keystore-pw".toCharArray();

    private TestKeystore() {
    }

    /** Generates the keystore at {@code file}, for localhost and 127.0.0.1. */
    static Path generate(Path file) throws IOException, InterruptedException {
        return generate(file, "localhost", "dns:localhost,ip:127.0.0.1");
    }

    /** Generates the keystore at {@code file}, for the common name {@code name} and the {@code subjectAltNames}. */
    static Path generate(Path file, String name, String subjectAltNames) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-keystore", file.toString(),
                "-storetype", "PKCS12", "-storepass", new String(PASSWORD), "-alias", "store", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-dname", "CN=" + name,
                "-ext", "SAN=" + subjectAltNames))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("keytool did not finish");
        }
        assertEquals(0, process.exitValue(), "keytool exit status");
        return file;
    }

    /** A TLS context that trusts the certificate in {@code keystore} and nothing else. */
    static SSLContext trusting(Path keystore) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD);
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("store", keys.getCertificate("store"));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
