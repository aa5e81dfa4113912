package org.storeservice.testkit.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;

/** Reading a bare socket, for host tests that speak HTTP byte by byte. */
public final class RawSocket {
    private RawSocket() {
    }

    /** Everything the server sends until it closes the connection (a reset counts as closing), as ISO-8859-1. */
    public static String readUntilClosed(Socket socket) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // The server closed the connection with unread data in flight: closed all the same.
        }
        return received.toString(ISO_8859_1);
    }
}
