package org.storeservice.jetty;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads and discards what the codec left of a request body before the answer is written, up to a bound.
 *
 * <p>The codec often answers without reading the whole body: a body over the size limit, a wrong content
 * type, an unknown operation. If the server then closed the connection with the client still sending, the
 * client's TCP stack would receive a reset and most clients would lose the answer (the reset discards it
 * unread) and report "connection reset" instead of the ASMX fault. Reading the rest first lets the client
 * finish sending and then read the answer on a healthy connection. The caller's bound (twice the request size
 * limit) keeps a huge body from being read to its end: past it the connection is closed anyway. The read is
 * still guarded by the idle timeout and the minimum data rate.
 */
final class UnreadBody {
    private UnreadBody() {
    }

    /**
     * Discards up to {@code maxBytes} of {@code body}; stops at its end, at the bound, or at a read failure
     * (the client is gone or too slow; Jetty then closes the connection).
     *
     * @return whether the body was read to its end
     */
    static boolean discard(InputStream body, long maxBytes) {
        long left = maxBytes;
        try {
            // Nearly always the codec read the body to its end: find that out without allocating a buffer.
            if (left > 0) {
                if (body.read() < 0) {
                    return true;
                }
                left--;
            }
            byte[] buffer = new byte[8192];
            while (left > 0) {
                int n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    return true;
                }
                left -= n;
            }
            return body.read() < 0;
        } catch (IOException e) {
            return false;
        }
    }
}
