package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.MemoryStorage;

/** HTTPS from a PKCS12 keystore made in the test, with a plain HTTP port beside it; a real HTTPS client. */
@Timeout(120)
class TlsTest {
    @TempDir
    static Path dir;

    private static final MemoryStorage storage = new MemoryStorage();
    private static Path keystore;
    private static StoreServer server;
    private static HttpClient https;
    private static final HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        keystore = TestKeystore.generate(dir.resolve("store.p12"));
        server = StoreServer.builder().port(0).httpPort(0).storage(storage)
                .tls(keystore, TestKeystore.PASSWORD).build().start();
        https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(TestKeystore.trusting(keystore)).build();
    }

    @AfterAll
    static void stop() {
        server.stop();
        storage.close();
    }

    private static URI localhost(URI endpoint) {
        return URI.create(endpoint.toString().replace("127.0.0.1", "localhost"));
    }

    @Test
    void servesWritesOverHttpsAndAdvertisesHttpsAddresses() throws Exception {
        URI endpoint = localhost(server.endpointUri());
        assertEquals("https", endpoint.getScheme());
        HttpResponse<String> write = https.send(OpsRequests.soapWrite(endpoint, "tls", "secret value").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, write.statusCode());
        assertTrue(write.body().contains(">Success<"), write.body());
        assertEquals("secret value", storage.get("tls").orElseThrow().text());

        String wsdl = https.send(OpsRequests.wsdl(endpoint).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(wsdl.contains("location=\"https://localhost:" + server.port() + "/API/Store.asmx\""), wsdl);
    }

    @Test
    void plainPortBesideItAdvertisesHttp() throws Exception {
        URI endpoint = URI.create("http://localhost:" + server.httpPort() + "/API/Store.asmx");
        assertEquals(200, plain.send(OpsRequests.getWrite(endpoint, "plain", "v").build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        String wsdl = plain.send(OpsRequests.wsdl(endpoint).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(wsdl.contains("location=\"http://localhost:" + server.httpPort() + "/API/Store.asmx\""), wsdl);
    }

    @Test
    void theTlsPortSpeaksNoPlainHttpAndAClientThatDoesNotTrustTheCertificateIsRefused() {
        URI tlsPortAsHttp = URI.create("http://localhost:" + server.port() + "/API/Store.asmx");
        assertThrows(Exception.class, () -> plain.send(OpsRequests.wsdl(tlsPortAsHttp).build(),
                HttpResponse.BodyHandlers.ofString()));
        HttpClient untrusting = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertThrows(SSLException.class, () -> untrusting.send(OpsRequests.wsdl(localhost(server.endpointUri())).build(),
                HttpResponse.BodyHandlers.ofString()));
    }
}
