package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import org.storeservice.testkit.wire.RawSocket;

/** A bare socket client, for what no well-behaved HTTP client will do: stall, trickle, half-send. */
final class RawHttp {
    /** How long a read may wait before the test gives up: a safety net, not something a test asserts on. */
    static final int SAFETY_TIMEOUT_MILLIS = 30_000;

    private RawHttp() {
    }

    static Socket connect(URI endpoint) throws IOException {
        Socket socket = new Socket(endpoint.getHost(), endpoint.getPort());
        socket.setSoTimeout(SAFETY_TIMEOUT_MILLIS);
        return socket;
    }

    static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** Everything the server sends until it closes the connection (a reset counts as closing). */
    static String readUntilClosed(Socket socket) throws IOException {
        return RawSocket.readUntilClosed(socket);
    }

    /** The response head (status line and header fields), read up to its blank line, without waiting for a body. */
    static String readHead(Socket socket) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        while (!received.toString(ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            received.write(b);
        }
        return received.toString(ISO_8859_1);
    }

    /**
     * Whether a new connection to {@code endpoint} is refused. A connection that reached the listening socket's backlog
     * just as a stopping server closed it is reset instead of refused: that is a refusal too.
     */
    static boolean refusesConnections(URI endpoint) throws IOException {
        Socket socket;
        try {
            socket = new Socket(endpoint.getHost(), endpoint.getPort());
        } catch (SocketException refusedOrReset) { // ConnectException included
            return true;
        }
        socket.close();
        return false;
    }
}
