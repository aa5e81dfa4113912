package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

/**
 * A request sent as bytes over a socket and the answer read as bytes to the connection's end: to see a status line
 * and headers exactly as they were sent, which an HTTP client library does not show.
 */
final class RawHttp {
    private RawHttp() {
    }

    /**
     * Sends {@code head} (request line and headers, each ending CRLF, without the blank line; a {@code Host} and
     * {@code Connection: close} are added) and {@code body} to {@code endpoint}'s host and port, and returns every byte
     * answered until the server closes the connection.
     */
    static byte[] exchange(URI endpoint, String head, byte[] body) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), 10_000);
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            String host = endpoint.getHost() + ":" + endpoint.getPort();
            out.write((head + "Host: " + host + "\r\nConnection: close\r\n\r\n").getBytes(ISO_8859_1));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toByteArray();
        }
    }

    /**
     * {@code answer} as text with its {@code Date} header line removed and {@code endpoint}'s host and port replaced by
     * {@code {host}}: what two servers' answers to one request can be compared by, byte for byte otherwise.
     */
    static String comparable(byte[] answer, URI endpoint) {
        String text = new String(answer, ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n");
        String head = headEnd < 0 ? text : text.substring(0, headEnd);
        String rest = headEnd < 0 ? "" : text.substring(headEnd);
        head = head.replaceAll("(?im)^Date: [^\r\n]*\r\n", "").replaceAll("(?i)\r\nDate: [^\r\n]*$", "");
        return (head + rest).replace(endpoint.getHost() + ":" + endpoint.getPort(), "{host}");
    }
}
