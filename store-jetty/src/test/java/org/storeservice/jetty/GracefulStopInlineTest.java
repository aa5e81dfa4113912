package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stopping while a write is in flight, with a storage that says its writes never block: on both of the
 * handler's paths (answered where Jetty called it, or handed to the executor) stop waits for the write, the
 * client gets its answer, and new connections are refused.
 */
@Timeout(60)
class GracefulStopInlineTest {
    private static final String SUCCESS = "<Status xmlns=\"http://tempuri.org/\">Success</Status>";

    private final GatedStorage storage = new GatedStorage(true);
    private StoreServer server;

    @AfterEach
    void release() {
        storage.open.countDown();
        server.stop();
    }

    @Test
    void aWriteAnsweredInlineCompletesWhileStopWaits() throws Exception {
        // No body: answered on the selector thread (the gate stands in for a long write there).
        assertStopWaitsFor("GET /API/Store.asmx/WriteString?key=k&value=v HTTP/1.1\r\nHost: localhost\r\n\r\n", "");
    }

    @Test
    void aWriteHandedOffCompletesWhileStopWaits() throws Exception {
        // The body is sent only after the headers: not there when the handler runs, so it is handed off.
        String body = "key=k&value=v";
        assertStopWaitsFor("POST /API/Store.asmx/WriteString HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\n\r\n", body);
    }

    private void assertStopWaitsFor(String head, String body) throws Exception {
        server = StoreServer.builder().port(0).storage(storage).stopTimeout(Duration.ofSeconds(30)).build().start();
        URI endpoint = server.endpointUri();
        try (Socket socket = RawHttp.connect(endpoint)) {
            RawHttp.send(socket, head);
            if (!body.isEmpty()) {
                Thread.sleep(100); // lets the handler run first; were the body there already, the test still holds
                RawHttp.send(socket, body);
            }
            assertTrue(storage.entered.await(30, TimeUnit.SECONDS), "the write never reached the storage");

            CompletableFuture<Void> stopping = CompletableFuture.runAsync(server::stop);
            while (!RawHttp.refusesConnections(endpoint)) {
                Thread.sleep(10); // until stop has closed the listening socket
            }
            assertFalse(stopping.isDone(), "stop returned while a write was in flight");

            storage.open.countDown();

            String received = RawHttp.readUntilClosed(socket);
            assertTrue(received.startsWith("HTTP/1.1 200 "), received);
            assertTrue(received.endsWith(SUCCESS), received);
            stopping.get(30, TimeUnit.SECONDS);
        }
        assertEquals("v", storage.delegate.get("k").orElseThrow().text());
        assertTrue(RawHttp.refusesConnections(endpoint));
    }
}
