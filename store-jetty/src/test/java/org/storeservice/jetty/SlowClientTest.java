package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;

/** A client that stops sending its body cannot hold the request thread: the idle timeout ends it. */
@Timeout(60)
class SlowClientTest {
    private final MemoryStorage storage = new MemoryStorage();
    private StoreServer server;
    private URI endpoint;

    @BeforeEach
    void start() throws Exception {
        server = StoreServer.builder().port(0).storage(storage).idleTimeout(Duration.ofSeconds(1)).build().start();
        endpoint = server.endpointUri();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void aClientThatSendsHeadersThenStallsIsDisconnectedAndNothingIsStored() throws Exception {
        String envelope = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soap:Body><WriteString xmlns=\"http://tempuri.org/\"><key>stalled</key><value>v</value></WriteString>"
                + "</soap:Body></soap:Envelope>";
        try (Socket socket = RawHttp.connect(endpoint)) {
            RawHttp.send(socket, "POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: \"http://tempuri.org/WriteString\"\r\n"
                    + "Content-Length: " + envelope.length() + "\r\n\r\n"
                    + envelope.substring(0, envelope.length() / 2));

            String received = RawHttp.readUntilClosed(socket);

            // The head was complete: the body's stall is answered, with no page naming the software.
            assertTrue(received.startsWith("HTTP/1.1 408 Request Timeout\r\n"), received);
            assertTrue(received.endsWith("\r\n\r\nRequest Timeout"), received);
        }
        assertEquals(Optional.empty(), storage.get("stalled"));

        // The thread it held is free again: the server still answers.
        HttpResponse<String> next = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=after&value=v")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, next.statusCode());
        assertEquals("v", storage.get("after").orElseThrow().text());
    }
}
