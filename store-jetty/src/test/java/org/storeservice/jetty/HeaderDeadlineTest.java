package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;

/**
 * A request head trickled a byte at a time is cut off by the header timeout, although each byte restarts the
 * idle timeout (here five minutes, far longer than the test may take); a connection idle between requests is not.
 */
@Timeout(60)
class HeaderDeadlineTest {
    /** Long enough that an ordinary request meets it on a loaded machine; short enough to keep the test quick. */
    private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(1);

    private final MemoryStorage storage = new MemoryStorage();
    private StoreServer server;
    private URI endpoint;

    @BeforeEach
    void start() throws IOException {
        server = StoreServer.builder().port(0).storage(storage)
                .idleTimeout(Duration.ofMinutes(5))
                .requestHeadersTimeout(HEADER_TIMEOUT)
                .build().start();
        endpoint = server.endpointUri();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void aTrickledFirstHeadIsCutOff() throws Exception {
        try (Socket socket = RawHttp.connect(endpoint)) {
            assertCutOffWhileTrickling(socket, "POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
        }
    }

    /**
     * A head that stops coming in before its end (a few bytes trickled, then nothing) gets the 408 itself: no byte of
     * it is left unread when the server closes, so no reset can hide the answer. The idle timeout (five minutes)
     * cannot be what cut it.
     */
    @Test
    void aHeadThatStopsHalfwayIsAnswered408ThenClosed() throws Exception {
        try (Socket socket = RawHttp.connect(endpoint)) {
            RawHttp.send(socket, "POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
            for (int i = 0; i < 3; i++) {
                RawHttp.send(socket, "a");
                Thread.sleep(10);
            }

            String received = RawHttp.readUntilClosed(socket);

            assertTrue(received.startsWith("HTTP/1.1 408 "), received);
            assertTrue(storage.get("k").isEmpty());
        }
    }

    @Test
    void aTrickledHeadAfterAnAnsweredRequestIsClosedToo() throws Exception {
        try (Socket socket = RawHttp.connect(endpoint)) {
            RawHttp.send(socket, "GET /API/Store.asmx/WriteString?key=first&value=v HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(readResponse(socket).startsWith("HTTP/1.1 200 "));

            assertCutOffWhileTrickling(socket, "GET /API/Store.asmx/WriteString?key=second&value=v HTTP/1.1\r\nX-Slow: ");
        }
        assertEquals("v", storage.get("first").orElseThrow().text());
        assertTrue(storage.get("second").isEmpty());
    }

    @Test
    void aConnectionIdleBetweenRequestsLongerThanTheHeaderTimeoutIsKept() throws Exception {
        try (Socket socket = RawHttp.connect(endpoint)) {
            RawHttp.send(socket, "GET /API/Store.asmx/WriteString?key=a&value=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(readResponse(socket).startsWith("HTTP/1.1 200 "));

            Thread.sleep(HEADER_TIMEOUT.toMillis() * 3); // idle, not sending a head: no deadline runs

            RawHttp.send(socket, "GET /API/Store.asmx/WriteString?key=b&value=2 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(readResponse(socket).startsWith("HTTP/1.1 200 "));
        }
        assertEquals("2", storage.get("b").orElseThrow().text());
    }

    /** Sends {@code start}, then one byte every 20 ms until the server closes; checks what it answered. */
    private static void assertCutOffWhileTrickling(Socket socket, String start) throws Exception {
        RawHttp.send(socket, start);
        AtomicInteger sent = new AtomicInteger();
        CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> {
            try {
                while (!socket.isClosed()) {
                    RawHttp.send(socket, "a");
                    sent.incrementAndGet();
                    Thread.sleep(20);
                }
            } catch (IOException closedByServer) {
                // expected: the server closed the connection
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        String received = RawHttp.readUntilClosed(socket); // a read timeout here would fail the test

        socket.close();
        trickle.get();
        // The 408 is written before the close; a client whose bytes were still unread may see a reset instead.
        assertTrue(received.isEmpty() || received.startsWith("HTTP/1.1 408 Request Timeout\r\n"), received);
        assertTrue(sent.get() > 0);
    }

    /** One response to a WriteString over the HTTP binding. */
    private static String readResponse(Socket socket) throws IOException {
        StringBuilder received = new StringBuilder();
        byte[] buffer = new byte[1024];
        while (!received.toString().endsWith("</Status>")) {
            int n = socket.getInputStream().read(buffer);
            if (n < 0) {
                break;
            }
            received.append(new String(buffer, 0, n, ISO_8859_1));
        }
        return received.toString();
    }
}
