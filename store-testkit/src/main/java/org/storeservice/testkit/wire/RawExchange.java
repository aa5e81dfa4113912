package org.storeservice.testkit.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;

/**
 * One request over a bare socket, for what the JDK client will not send: a Host header of our choosing, an
 * {@code Expect: 100-continue} request whose body never follows.
 */
final class RawExchange {
    /** How long a read may wait before the test gives up: a safety net, not something a test asserts on. */
    private static final int SAFETY_TIMEOUT_MILLIS = 30_000;

    private RawExchange() {
    }

    /** Sends {@code head} (request line and headers, CRLF-terminated) and returns all the server sends until it closes. */
    static String send(URI endpoint, String head) throws IOException {
        try (Socket socket = new Socket(endpoint.getHost(), endpoint.getPort())) {
            socket.setSoTimeout(SAFETY_TIMEOUT_MILLIS);
            socket.getOutputStream().write(head.getBytes(ISO_8859_1));
            socket.getOutputStream().flush();
            return RawSocket.readUntilClosed(socket);
        }
    }
}
