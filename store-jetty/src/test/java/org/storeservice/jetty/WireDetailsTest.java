package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;

/**
 * The ready server's status lines and headers over a raw socket, where an HTTP client library would hide them:
 * ASP.NET's reason phrases, the page for paths outside the endpoint, the op pages' sample Host line, and no
 * {@code Allow} on 405.
 */
@Timeout(60)
class WireDetailsTest {
    private static final String NS = "http://tempuri.org/";

    private final MemoryStorage storage = new MemoryStorage();
    private StoreServer server;
    private URI endpoint;

    @BeforeEach
    void start() throws IOException {
        server = StoreServer.builder().port(0).storage(storage).build().start();
        endpoint = server.endpointUri();
    }

    @AfterEach
    void stop() {
        server.stop();
        storage.close();
    }

    @Test
    void everyStatusCarriesAspNetsReasonPhrase() throws IOException {
        assertStatusLine("HTTP/1.1 200 OK", "GET /API/Store.asmx HTTP/1.1\r\n", "");
        assertStatusLine("HTTP/1.1 400 Bad Request", post("text/xml; charset=utf-8", "SOAPAction: \"" + NS + "WriteString\"\r\n"),
                "<!DOCTYPE a []><a/>");
        assertStatusLine("HTTP/1.1 404 Not Found", "GET /elsewhere HTTP/1.1\r\n", "");
        assertStatusLine("HTTP/1.1 405 Method Not Allowed", "PUT /API/Store.asmx HTTP/1.1\r\nContent-Length: 0\r\n", "");
        assertStatusLine("HTTP/1.1 415 Unsupported Media Type", post("text/plain", "SOAPAction: \"" + NS + "WriteString\"\r\n"), "x");
        assertStatusLine("HTTP/1.1 500 Internal Server Error", post("text/xml; charset=utf-8", "SOAPAction: \"urn:nope\"\r\n"), "x");
        assertStatusLine("HTTP/1.1 500 Internal Server Error", "GET /API/Store.asmx/WriteString HTTP/1.1\r\n", "");
        assertStatusLine("HTTP/1.1 501 Not Implemented",
                "POST /API/Store.asmx HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n");
    }

    private static String post(String contentType, String extraHeaders) {
        return "POST /API/Store.asmx HTTP/1.1\r\nContent-Type: " + contentType + "\r\n" + extraHeaders;
    }

    private void assertStatusLine(String expected, String head, String body) throws IOException {
        String received = exchange(head, body);
        assertEquals(expected, statusLine(received), received);
    }

    /** Sends {@code head} (request line and headers, each ending CRLF) with Host and, unless chunked, the body's length. */
    private String exchange(String head, String body) throws IOException {
        String host = "localhost";
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        String framing = head.contains("Transfer-Encoding") || head.contains("Content-Length")
                ? "" : (content.length > 0 || head.startsWith("POST") ? "Content-Length: " + content.length + "\r\n" : "");
        try (Socket socket = RawHttp.connect(endpoint)) {
            RawHttp.send(socket, head + "Host: " + host + "\r\n" + framing + "Connection: close\r\n\r\n");
            socket.getOutputStream().write(content);
            socket.getOutputStream().flush();
            return new String(RawHttp.readUntilClosed(socket).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        }
    }

    private static String statusLine(String received) {
        return received.substring(0, received.indexOf("\r\n"));
    }

}
