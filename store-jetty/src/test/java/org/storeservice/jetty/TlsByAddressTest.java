package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.MemoryStorage;

/**
 * A certificate for another name than the one the client calls, as a legacy client does that calls by address and
 * skips the name check: served by default, refused with 400 only when the SNI host check is turned on.
 */
@Timeout(120)
class TlsByAddressTest {
    @TempDir
    static Path dir;

    @Test
    void aClientCallingByAddressWithACertificateForAnotherNameIsServed() throws Exception {
        Path keystore = TestKeystore.generate(dir.resolve("other-name.p12"), "store.example.test", "dns:store.example.test");
        MemoryStorage storage = new MemoryStorage();
        StoreServer server = StoreServer.builder().port(0).storage(storage).tls(keystore, TestKeystore.PASSWORD)
                .build().start();
        try {
            String answer = getWrite(server.port(), "by-address", "127.0.0.1:" + server.port());
            assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
            assertTrue(answer.contains(">Success<"), answer);
            assertEquals("v", storage.get("by-address").orElseThrow().text());

            String byLocalhost = getWrite(server.port(), "by-name", "localhost:" + server.port());
            assertTrue(byLocalhost.startsWith("HTTP/1.1 200 "), byLocalhost);
        } finally {
            server.stop();
        }
    }

    @Test
    void withTheSniHostCheckOnTheSameRequestIsRefusedAndNothingStored() throws Exception {
        Path keystore = TestKeystore.generate(dir.resolve("checked.p12"), "store.example.test", "dns:store.example.test");
        MemoryStorage storage = new MemoryStorage();
        StoreServer server = StoreServer.builder().port(0).storage(storage).tls(keystore, TestKeystore.PASSWORD)
                .tlsSniHostCheck(true).build().start();
        try {
            String answer = getWrite(server.port(), "refused", "127.0.0.1:" + server.port());
            JettyErrorPagesTest.assertBare(answer, "400 Bad Request"); // not Jetty's page saying "Invalid SNI"
            assertTrue(storage.get("refused").isEmpty());
        } finally {
            server.stop();
        }
    }

    /** An HTTP GET WriteString over TLS to 127.0.0.1, trusting any certificate and checking no name; the raw answer. */
    private static String getWrite(int port, String key, String host) throws Exception {
        SSLContext trustingAll = SSLContext.getInstance("TLS");
        trustingAll.init(null, new TrustManager[] {new TrustAll()}, null);
        try (SSLSocket socket = (SSLSocket) trustingAll.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /API/Store.asmx/WriteString?key=" + key + "&value=v HTTP/1.1\r\nHost: " + host
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return readAll(socket.getInputStream());
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toString(StandardCharsets.UTF_8);
    }

    /** What a client that skips certificate checks does (many legacy ones, or curl -k). */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
