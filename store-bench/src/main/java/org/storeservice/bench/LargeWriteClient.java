package org.storeservice.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

/**
 * Sends one SOAP 1.1 WriteBytes of N bytes of content without ever holding it: the envelope and the base64
 * are written on the fly to the socket, with a computed Content-Length (no temporary file, no client-side
 * memory). Prints the HTTP status, the answer's body, the time taken and the rate.
 *
 * <pre>java -cp store-bench.jar org.storeservice.bench.LargeWriteClient http://127.0.0.1:18100/API/Store.asmx 1073741824</pre>
 *
 * Exit status 0 when the answer was 200 with {@code Success}, 1 otherwise.
 */
public final class LargeWriteClient {
    private LargeWriteClient() {
    }

    public static void main(String[] args) throws IOException {
        URI uri = URI.create(args[0]);
        long contentBytes = Long.parseLong(args[1]);
        String prefix = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                + "<soap:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                + "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soap:Body><WriteBytes xmlns=\"http://tempuri.org/\"><key>large-" + contentBytes
                + "</key><content>";
        String suffix = "</content></WriteBytes></soap:Body></soap:Envelope>";
        long base64Length = 4 * ((contentBytes + 2) / 3);
        long length = prefix.length() + base64Length + suffix.length();
        String head = "POST " + uri.getRawPath() + " HTTP/1.1\r\n"
                + "Host: " + uri.getHost() + ':' + uri.getPort() + "\r\n"
                + "Content-Type: text/xml; charset=utf-8\r\n"
                + "SOAPAction: \"http://tempuri.org/WriteBytes\"\r\n"
                + "Content-Length: " + length + "\r\n"
                + "Connection: close\r\n\r\n";
        System.out.printf("sending %,d bytes of content as %,d bytes of base64, request body %,d bytes%n",
                contentBytes, base64Length, length);
        long start = System.nanoTime();
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            OutputStream raw = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
            raw.write(head.getBytes(StandardCharsets.US_ASCII));
            raw.write(prefix.getBytes(StandardCharsets.US_ASCII));
            OutputStream base64 = Base64.getEncoder().wrap(new NonClosing(raw));
            byte[] block = new byte[48 * 1024]; // a multiple of 3: no padding until the very end
            new Random(42).nextBytes(block);
            long left = contentBytes;
            while (left > 0) {
                int n = (int) Math.min(block.length, left);
                base64.write(block, 0, n);
                left -= n;
            }
            base64.close(); // writes the final quantum and padding, leaves the socket open
            raw.write(suffix.getBytes(StandardCharsets.US_ASCII));
            raw.flush();
            long sent = System.nanoTime();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            long done = System.nanoTime();
            String text = answer.toString(StandardCharsets.UTF_8);
            System.out.println(text);
            double seconds = (done - start) / 1e9;
            System.out.printf("sent in %.1f s, answered after %.1f s: %.0f MB/s of request body%n",
                    (sent - start) / 1e9, seconds, length / seconds / 1e6);
            boolean ok = text.startsWith("HTTP/1.1 200") && text.contains(">Success<");
            System.out.println(ok ? "RESULT OK" : "RESULT FAILED");
            if (!ok) {
                System.exit(1);
            }
        } catch (IOException e) {
            System.out.printf("RESULT FAILED after %.1f s: %s%n", (System.nanoTime() - start) / 1e9, e);
            System.exit(1);
        }
    }

    /** Lets the base64 encoder's close() finish the encoding without closing the socket. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
