package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.StoredEntry;

/** The server's life cycle, ownership of storage, and what it does before the codec is reached. */
@Timeout(60)
class StoreServerTest {

    @Test
    void listensOnAnEphemeralPortAndNamesTheEndpoint() throws Exception {
        try (StoreServer server = StoreServer.builder().port(0).storage(new MemoryStorage()).build().start()) {
            int port = server.port();

            assertTrue(port > 0, "port " + port);
            assertEquals(URI.create("http://127.0.0.1:" + port + "/API/Store.asmx"), server.endpointUri());
            assertFalse(RawHttp.refusesConnections(server.endpointUri()));
        }
    }

    @Test
    void theEndpointPathIsConfigurable() throws Exception {
        MemoryStorage storage = new MemoryStorage();
        try (StoreServer server = StoreServer.builder().port(0).endpointPath("/legacy/Store.asmx")
                .storage(storage).build().start()) {
            assertEquals("/legacy/Store.asmx", server.endpointUri().getPath());
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

            HttpResponse<String> served = client.send(HttpRequest.newBuilder(
                    URI.create(server.endpointUri() + "/WriteString?key=moved&value=v")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> oldPath = client.send(HttpRequest.newBuilder(
                    server.endpointUri().resolve("/API/Store.asmx/WriteString?key=old&value=v")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(200, served.statusCode(), served.body());
            assertEquals("v", storage.get("moved").orElseThrow().text());
            assertEquals(404, oldPath.statusCode());
            assertTrue(storage.get("old").isEmpty());
        }
    }

    /**
     * A stop closes a connection kept alive after its answer (it has no request in flight to wait for) and reports
     * that nothing was cut off; the client sees the close.
     */
    @Test
    void aStopClosesAnIdleKeepAliveConnectionAndCutsNothingOff() throws Exception {
        StoreServer server = StoreServer.builder().port(0).storage(new MemoryStorage()).build().start();
        try (Socket socket = RawHttp.connect(server.endpointUri())) {
            RawHttp.send(socket, "GET /API/Store.asmx/WriteString?key=k&value=v HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(RawHttp.readHead(socket).startsWith("HTTP/1.1 200 "));

            assertTrue(server.stop(), "nothing was in flight");
            assertEquals(-1, readToEnd(socket), "the server closed it");
        }
    }

    /** What is left of the answer's body, then the end: -1 once the server has closed the connection. */
    private static int readToEnd(Socket socket) throws IOException {
        while (socket.getInputStream().read() != -1) {
            // the rest of the answer's body
        }
        return -1;
    }

    @Test
    void aWildcardBindAddressIsNamedLocalhost() throws Exception {
        try (StoreServer server = StoreServer.builder().host("0.0.0.0").port(0)
                .storage(new MemoryStorage()).build().start()) {
            assertEquals("localhost", server.endpointUri().getHost());
            assertFalse(RawHttp.refusesConnections(server.endpointUri()));
        }
    }

    @Test
    void stopClosesStorageItOpenedFromAUri() throws Exception {
        String uri = "tracking:" + UUID.randomUUID();
        StoreServer server = StoreServer.builder().port(0).storageUri(uri).build().start();
        assertFalse(TrackingStorageProvider.opened(uri).isClosed());

        server.stop();

        assertTrue(TrackingStorageProvider.opened(uri).isClosed());
    }

    @Test
    void stopLeavesAHostsStorageOpen() throws Exception {
        MemoryStorage storage = new MemoryStorage();
        StoreServer server = StoreServer.builder().port(0).storage(storage).build().start();

        server.stop();

        assertEquals(Optional.<StoredEntry>empty(), storage.get("anything")); // a closed MemoryStorage would throw
        storage.close();
        assertThrows(StorageException.class, () -> storage.get("anything"));
    }

    @Test
    void aPortInUseFailsStartAndClosesWhatItOpened() throws Exception {
        String uri = "tracking:" + UUID.randomUUID();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            StoreServer server = StoreServer.builder().port(taken.getLocalPort()).storageUri(uri).build();

            assertThrows(IOException.class, server::start);

            assertTrue(TrackingStorageProvider.opened(uri).isClosed());
        }
    }

    @Test
    void aStorageThatFailsToOpenFailsStartWithItsErrorAndLeavesThePortFree() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        StoreServer server = StoreServer.builder().port(port).storageUri("tracking:fail:" + UUID.randomUUID()).build();

        IOException e = assertThrows(IOException.class, server::start);

        assertTrue(e.getMessage().startsWith("cannot open tracking:fail:"), e.getMessage());
        assertTrue(Arrays.stream(e.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals(
                "aStorageThatFailsToOpenFailsStartWithItsErrorAndLeavesThePortFree")), "the caller's frames are kept");
        assertTrue(RawHttp.refusesConnections(URI.create("http://127.0.0.1:" + port + "/API/Store.asmx")));
        assertThrows(IllegalStateException.class, server::start);
    }

    @Test
    void anUnknownStorageUriFailsStartWithTheKnownPrefixes() {
        StoreServer server = StoreServer.builder().port(0).storageUri("nosuch:x").build();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, server::start);
        assertTrue(e.getMessage().contains("memory:"), e.getMessage());
    }

    @Test
    void startsOnceAndStopsHarmlesslyTwice() throws Exception {
        StoreServer server = StoreServer.builder().port(0).storage(new MemoryStorage()).build().start();
        URI endpoint = server.endpointUri();
        assertThrows(IllegalStateException.class, server::start);

        server.stop();
        server.stop();

        assertTrue(RawHttp.refusesConnections(endpoint));
        assertThrows(IllegalStateException.class, server::start);
        assertThrows(IllegalStateException.class, server::port);
    }

    @Test
    void aServerNeverStartedHasNoPortAndStopsQuietly() {
        StoreServer server = StoreServer.builder().storage(new MemoryStorage()).build();

        assertThrows(IllegalStateException.class, server::port);
        server.close();
    }

    @Test
    void theBuilderRefusesNonsense() {
        assertThrows(IllegalStateException.class, () -> StoreServer.builder().build(), "no storage");
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().port(-1));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().port(65536));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().host(" "));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().idleTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().stopTimeout(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder().minRequestDataRate(-1));
        assertThrows(IllegalArgumentException.class, () -> StoreServer.builder()
                .endpointPath("no-slash").storage(new MemoryStorage()).build().start());
    }

    @Test
    void theBuilderCanBeReusedWithoutAffectingABuiltServer() throws Exception {
        StoreServer.Builder builder = StoreServer.builder().port(0).storage(new MemoryStorage());
        StoreServer first = builder.build();
        builder.endpointPath("/other.asmx");

        try (StoreServer server = first.start()) {
            assertEquals("/API/Store.asmx", server.endpointUri().getPath());
        }
    }

    @Test
    void otherPathsGetA404ThatNamesNoSoftware() throws Exception {
        try (StoreServer server = StoreServer.builder().port(0).storage(new MemoryStorage()).build().start()) {
            HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(HttpRequest.newBuilder(server.endpointUri().resolve("/elsewhere")).build(),
                            HttpResponse.BodyHandlers.ofString());

            assertEquals(404, response.statusCode());
            assertEquals(Optional.empty(), response.headers().firstValue("Server"));
            assertFalse(response.body().toLowerCase(java.util.Locale.ROOT).contains("jetty"), response.body());
        }
    }

    @Test
    void aClientThatStallsInItsHeadersIsDisconnected() throws Exception {
        try (StoreServer server = StoreServer.builder().port(0).idleTimeout(Duration.ofMillis(300))
                .storage(new MemoryStorage()).build().start();
             Socket socket = RawHttp.connect(server.endpointUri())) {
            RawHttp.send(socket, "POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml");

            String received = RawHttp.readUntilClosed(socket);

            // No request was read, so there is nothing to answer: the connection is closed without a word.
            assertEquals("", received);
        }
    }
}
