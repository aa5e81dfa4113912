package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.MemoryStorage;

/**
 * Basic authentication and the client address allow-list, on real servers with a real client: with
 * credentials, without, with wrong ones; the 401 comes before the body is read.
 */
@Timeout(60)
class AccessControlTest {
    /** Few iterations: the test proves the check, not the cost. */
    private static final int TEST_ITERATIONS = 1_000;

    @TempDir
    static Path dir;

    private static final MemoryStorage storage = new MemoryStorage();
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static StoreServer privateServer;
    private static StoreServer publicMetadataServer;
    private static StoreServer notAllowedServer;

    @BeforeAll
    static void start() throws IOException {
        Path usersFile = dir.resolve("users");
        Files.write(usersFile, List.of("# operators", "", BasicUsers.entry("alice", "s3cret:äö".toCharArray(), TEST_ITERATIONS),
                BasicUsers.entry("bob", "hunter2".toCharArray(), TEST_ITERATIONS)), UTF_8);
        BasicUsers users = BasicUsers.load(usersFile);
        privateServer = StoreServer.builder().port(0).storage(storage).users(users).build().start();
        publicMetadataServer = StoreServer.builder().port(0).storage(storage).users(users).publicMetadata(true)
                .allowFrom(AddressRanges.parse("127.0.0.0/8,::1")).build().start();
        notAllowedServer = StoreServer.builder().port(0).storage(storage)
                .allowFrom(AddressRanges.parse("192.0.2.0/24")).build().start();
    }

    @AfterAll
    static void stop() {
        privateServer.stop();
        publicMetadataServer.stop();
        notAllowedServer.stop();
        storage.close();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void writesWithValidCredentials() throws Exception {
        URI endpoint = privateServer.endpointUri();
        HttpResponse<String> soap = send(OpsRequests.soapWrite(endpoint, "auth-soap", "v1")
                .header("Authorization", OpsRequests.basic("alice", "s3cret:äö")));
        assertEquals(200, soap.statusCode());
        assertTrue(soap.body().contains("<WriteStringResult>Success</WriteStringResult>"), soap.body());
        // again: the remembered credentials take the short way, with the same answer
        assertEquals(200, send(OpsRequests.soapWrite(endpoint, "auth-soap", "v2")
                .header("Authorization", OpsRequests.basic("alice", "s3cret:äö"))).statusCode());
        assertEquals("v2", storage.get("auth-soap").orElseThrow().text());

        HttpResponse<String> get = send(OpsRequests.getWrite(endpoint, "auth-get", "v")
                .header("Authorization", OpsRequests.basic("bob", "hunter2")));
        assertEquals(200, get.statusCode());
        assertTrue(storage.get("auth-get").isPresent());
    }

    @Test
    void refusesMissingOrWrongCredentialsWithAChallenge() throws Exception {
        URI endpoint = privateServer.endpointUri();
        List<HttpRequest.Builder> refused = List.of(
                OpsRequests.soapWrite(endpoint, "refused", "x"),
                OpsRequests.soapWrite(endpoint, "refused", "x").header("Authorization", OpsRequests.basic("alice", "wrong")),
                OpsRequests.soapWrite(endpoint, "refused", "x").header("Authorization", OpsRequests.basic("mallory", "hunter2")),
                OpsRequests.soapWrite(endpoint, "refused", "x").header("Authorization", "Basic !!!not-base64"),
                OpsRequests.soapWrite(endpoint, "refused", "x").header("Authorization", "Bearer abc"),
                OpsRequests.getWrite(endpoint, "refused", "x").header("Authorization", OpsRequests.basic("bob", "hunter")));
        for (HttpRequest.Builder request : refused) {
            HttpResponse<String> response = send(request);
            assertEquals(401, response.statusCode());
            assertEquals("Basic realm=\"Store\", charset=\"UTF-8\"",
                    response.headers().firstValue("WWW-Authenticate").orElseThrow());
        }
        assertFalse(storage.get("refused").isPresent());
    }

    @Test
    void answers401BeforeTheBodyIsSent() throws Exception {
        // A body announced but never sent: the answer cannot wait for it.
        try (Socket socket = RawHttp.connect(privateServer.endpointUri())) {
            RawHttp.send(socket, "POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: text/xml; charset=utf-8\r\nContent-Length: 100000\r\n\r\n");
            String head = RawHttp.readHead(socket);
            assertTrue(head.startsWith("HTTP/1.1 401 "), head);
            assertTrue(head.contains("WWW-Authenticate: Basic realm=\"Store\""), head);
        }
        // A client that waits for 100 Continue gets the 401 instead: it is never asked for the body.
        // (Raw, because JDK 17's HttpClient hangs on a final answer to Expect: JDK-8286171.)
        try (Socket socket = RawHttp.connect(privateServer.endpointUri())) {
            RawHttp.send(socket, "POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\n"
                    + "Content-Type: text/xml; charset=utf-8\r\nContent-Length: 100\r\n\r\n");
            String head = RawHttp.readHead(socket);
            assertTrue(head.startsWith("HTTP/1.1 401 "), head);
        }
    }

    @Test
    void metadataNeedsCredentialsUnlessPublic() throws Exception {
        URI privateEndpoint = privateServer.endpointUri();
        assertEquals(401, send(OpsRequests.wsdl(privateEndpoint)).statusCode());
        assertEquals(401, send(HttpRequest.newBuilder(privateEndpoint).GET()).statusCode());
        HttpResponse<String> wsdl = send(OpsRequests.wsdl(privateEndpoint)
                .header("Authorization", OpsRequests.basic("bob", "hunter2")));
        assertEquals(200, wsdl.statusCode());
        assertTrue(wsdl.body().contains("wsdl:definitions"));

        URI publicEndpoint = publicMetadataServer.endpointUri();
        assertEquals(200, send(OpsRequests.wsdl(publicEndpoint)).statusCode());
        assertEquals(200, send(HttpRequest.newBuilder(URI.create(publicEndpoint + "?op=WriteString")).GET()).statusCode());
        // Public metadata makes no write public: HTTP GET and SOAP still need credentials.
        assertEquals(401, send(OpsRequests.getWrite(publicEndpoint, "public", "x")).statusCode());
        assertEquals(401, send(OpsRequests.soapWrite(publicEndpoint, "public", "x")).statusCode());
        assertEquals(200, send(OpsRequests.soapWrite(publicEndpoint, "public", "x")
                .header("Authorization", OpsRequests.basic("alice", "s3cret:äö"))).statusCode());
        assertTrue(storage.get("public").isPresent());
    }

    @Test
    void allowListRefusesOtherAddressesBeforeAnythingElse() throws Exception {
        HttpResponse<String> refused = send(OpsRequests.soapWrite(notAllowedServer.endpointUri(), "denied", "x"));
        assertEquals(403, refused.statusCode());
        assertEquals(403, send(OpsRequests.wsdl(notAllowedServer.endpointUri())).statusCode());
        assertFalse(storage.get("denied").isPresent());
        // 127.0.0.1 is in the other server's list: it gets as far as authentication.
        assertEquals(200, send(OpsRequests.wsdl(publicMetadataServer.endpointUri())).statusCode());
    }
}
