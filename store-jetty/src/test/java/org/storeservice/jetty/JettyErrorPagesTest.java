package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;

/**
 * Every answer Jetty makes itself is bare, as the endpoint's own refusals are: status and reason, the reason as plain
 * text, no page naming the software or an exception, no {@code Server} or {@code Cache-Control} header. Each case
 * provokes one such answer over a raw socket.
 */
@Timeout(60)
class JettyErrorPagesTest {
    private final MemoryStorage storage = new MemoryStorage();
    private StoreServer server;

    @BeforeEach
    void start() throws Exception {
        server = StoreServer.builder().port(0).storage(storage).build().start();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void aMalformedRequestLineGetsABare400() throws Exception {
        assertBare(exchange("GARBAGE\r\n\r\n"), "400 Bad Request");
    }

    @Test
    void aHeadOverSixteenKibibytesGetsABare400AsIisAnswersIt() throws Exception {
        String answer = exchange("GET /API/Store.asmx/WriteString?key=big&value=v HTTP/1.1\r\nHost: localhost\r\nX-Big: "
                + "a".repeat(17 * 1024) + "\r\nConnection: close\r\n\r\n");
        assertBare(answer, "400 Bad Request");
        assertTrue(storage.get("big").isEmpty());
    }

    @Test
    void aHeadOfTwelveKibibytesIsServedAsIisServesIt() throws Exception {
        String answer = exchange("GET /API/Store.asmx/WriteString?key=twelve&value=v HTTP/1.1\r\nHost: localhost\r\nX-Big: "
                + "a".repeat(12 * 1024) + "\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
        assertEquals("v", storage.get("twelve").orElseThrow().text());
    }

    @Test
    void anUnknownExpectationGetsABare417() throws Exception {
        String answer = exchange("POST /API/Store.asmx/WriteString HTTP/1.1\r\nHost: localhost\r\nExpect: the-unexpected\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 13\r\nConnection: close\r\n\r\n"
                + "key=k&value=v");
        assertBare(answer, "417 Expectation Failed");
    }

    @Test
    void aRequestCutOffAtTheStopTimeoutGetsNoPageNamingTheSoftware() throws Exception {
        server.stop();
        GatedStorage blocking = new GatedStorage(false);
        server = StoreServer.builder().port(0).storage(blocking).stopTimeout(Duration.ofMillis(200)).build().start();
        try (Socket socket = RawHttp.connect(server.endpointUri())) {
            RawHttp.send(socket, "GET /API/Store.asmx/WriteString?key=k&value=v HTTP/1.1\r\nHost: localhost\r\n\r\n");
            blocking.entered.await();
            CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(server::stop);
            String answer = RawHttp.readUntilClosed(socket);
            assertFalse(stopped.join(), "the request was cut off");
            // Jetty answered it with "HTTP ERROR 500 org.eclipse.jetty.io.EofException"; a reset may come instead.
            if (!answer.isEmpty()) {
                assertBare(answer, "500 Internal Server Error");
            }
        } finally {
            blocking.open.countDown();
        }
    }

    /** Sends {@code request} on a fresh connection and reads until the server closes it. */
    private String exchange(String request) throws Exception {
        try (Socket socket = RawHttp.connect(server.endpointUri())) {
            RawHttp.send(socket, request);
            return RawHttp.readUntilClosed(socket);
        }
    }

    /** The answer is {@code statusLine}, with the reason phrase alone as a plain-text body and nothing naming the software. */
    static void assertBare(String answer, String status) {
        assertTrue(answer.startsWith("HTTP/1.1 " + status + "\r\n"), answer);
        int end = answer.indexOf("\r\n\r\n");
        String head = answer.substring(0, end).toLowerCase(Locale.ROOT);
        String body = answer.substring(end + 4);
        assertEquals(status.substring(4), body, answer);
        assertTrue(head.contains("\r\ncontent-type: text/plain; charset=utf-8"), answer);
        assertFalse(head.contains("\r\nserver:") || head.contains("\r\ncache-control:") || head.contains("jetty"), answer);
    }
}
