package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
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

    @Test
    void aPathOutsideTheEndpointGetsAUtf8PagePointingToIt() throws IOException {
        for (String path : new String[] {"/", "/API/Store.asm", "/api/other"}) {
            String received = exchange("GET " + path + " HTTP/1.1\r\n", "");
            String page = "<!DOCTYPE html>\r\n<html>\r\n<head><meta charset=\"utf-8\"><title>Not Found</title></head>\r\n"
                    + "<body>\r\n<h1>Not Found</h1>\r\n<p>Nothing is served at this address. The service is at "
                    + "<a href=\"/API/Store.asmx\">/API/Store.asmx</a>.</p>\r\n</body>\r\n</html>\r\n";
            assertEquals("HTTP/1.1 404 Not Found", statusLine(received), path);
            assertEquals("text/html; charset=utf-8", header(received, "Content-Type"), path);
            assertEquals(String.valueOf(page.getBytes(StandardCharsets.UTF_8).length), header(received, "Content-Length"));
            assertEquals(page, body(received), path);
            assertFalse(received.toLowerCase(Locale.ROOT).contains("jetty"), received);
        }
    }

    @Test
    void theOperationPagesSamplesNameTheHostAndPortTheRequestCameIn() throws IOException {
        String authority = "127.0.0.1:" + endpoint.getPort();
        String received = exchange("GET /API/Store.asmx?op=WriteString HTTP/1.1\r\n", "", authority);

        assertEquals("HTTP/1.1 200 OK", statusLine(received));
        String body = body(received);
        // one sample request per binding, each with the Host line as sent
        assertEquals(4, body.split("Host: ", -1).length - 1, body);
        assertEquals(4, body.split("Host: " + authority + "\r?\n", -1).length - 1, body);
    }

    @Test
    void the405AnswersCarryNoAllowHeaderAsAsmxSendsNone() throws IOException {
        for (String method : new String[] {"PUT", "DELETE", "OPTIONS", "HEAD"}) {
            String received = exchange(method + " /API/Store.asmx HTTP/1.1\r\nContent-Length: 0\r\n", "");
            assertEquals("HTTP/1.1 405 Method Not Allowed", statusLine(received), method);
            assertEquals(null, header(received, "Allow"), received);
        }
    }

    private static String post(String contentType, String extraHeaders) {
        return "POST /API/Store.asmx HTTP/1.1\r\nContent-Type: " + contentType + "\r\n" + extraHeaders;
    }

    private void assertStatusLine(String expected, String head, String body) throws IOException {
        String received = exchange(head, body);
        assertEquals(expected, statusLine(received), received);
    }

    private String exchange(String head, String body) throws IOException {
        return exchange(head, body, "localhost");
    }

    /** Sends {@code head} (request line and headers, each ending CRLF) with Host and, unless chunked, the body's length. */
    private String exchange(String head, String body, String host) throws IOException {
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

    /** The value of header {@code name} in the response head, or {@code null}. */
    private static String header(String received, String name) {
        String head = received.substring(0, received.indexOf("\r\n\r\n"));
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    private static String body(String received) {
        return received.substring(received.indexOf("\r\n\r\n") + 4);
    }
}
