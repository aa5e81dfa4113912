package org.storeservice.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;

/**
 * How {@link StoreServlet} takes a request body, in one place: the servlet's blocking input stream, cut off
 * one byte past the codec's request size limit, and afterwards what the codec left unread discarded up to a
 * bound. It does what the Jetty adapter does with its body, so both answer alike:
 *
 * <ul>
 *   <li>The codec answers an over-limit request with the ASMX fault, on Content-Length or by counting. The
 *       stream hands over at most {@code maxRequestBytes + 1} bytes, just enough for the codec to see the limit
 *       crossed, and fails every read after that, whatever the framing (chunked bodies included).
 *   <li>A client still sending when the answer is ready would get a connection reset rather than the answer;
 *       so the rest is read and dropped first, up to twice the limit (a body refused on its Content-Length
 *       alone that overshoots by up to another limit's worth still gets its fault). Not when the client asked
 *       {@code Expect: 100-continue} and nothing was read: it waits for a go-ahead and sends nothing.
 * </ul>
 *
 * <p>This is the seam for reading bodies without holding a thread (servlet async IO) once the codec takes a
 * whole buffered body: only this class would change. Not thread-safe; one per request.
 */
final class ServletRequestBody {
    /** The text ASMX gives for the same condition, so a message that reaches a log reads the same. */
    static final String TOO_LARGE = "Maximum request length exceeded.";

    private final HttpServletRequest request;
    private final InputStream raw;
    private final long maxRequestBytes;
    private final Limited limited;

    private ServletRequestBody(HttpServletRequest request, long maxRequestBytes) throws IOException {
        this.request = request;
        this.raw = request.getInputStream();
        this.maxRequestBytes = maxRequestBytes;
        this.limited = new Limited();
    }

    /** The body of {@code request}, for a codec whose request size limit is {@code maxRequestBytes}. */
    static ServletRequestBody of(HttpServletRequest request, long maxRequestBytes) throws IOException {
        return new ServletRequestBody(request, maxRequestBytes);
    }

    /** The body as the codec reads it: at most {@code maxRequestBytes + 1} bytes, then a failure. */
    InputStream stream() {
        return limited;
    }

    /**
     * Reads and drops what the codec left unread, up to twice the limit.
     *
     * @return whether the body is known to be read to its end (or was never sent); {@code false} when it was
     *     cut off at the bound or a read failed, so that the connection cannot carry another request
     */
    boolean discardUnread() {
        if (limited.handedOut == 0 && expectsContinue()) {
            return true; // the client waits for a go-ahead it will not get, and sends nothing
        }
        long left = maxRequestBytes > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * maxRequestBytes;
        try {
            // Nearly always the codec read the body to its end: find that out without allocating a buffer.
            if (raw.read() < 0) {
                return true;
            }
            left--;
            byte[] buffer = new byte[8192];
            while (left > 0) {
                int n = raw.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    return true;
                }
                left -= n;
            }
            return raw.read() < 0;
        } catch (IOException e) {
            return false; // the client is gone or timed out; the container closes the connection
        }
    }

    private boolean expectsContinue() {
        for (String value : Collections.list(request.getHeaders("Expect"))) {
            if (value.trim().equalsIgnoreCase("100-continue")) {
                return true;
            }
        }
        return false;
    }

    /** The raw stream limited to {@code maxRequestBytes + 1} bytes. Not closed: the container owns the body. */
    private final class Limited extends InputStream {
        private long handedOut;

        private long remaining() {
            // Saturate: a limit of Long.MAX_VALUE means "no limit", not an overflow to a negative allowance.
            return maxRequestBytes == Long.MAX_VALUE ? Long.MAX_VALUE : maxRequestBytes + 1 - handedOut;
        }

        @Override
        public int read() throws IOException {
            if (remaining() <= 0) {
                throw new IOException(TOO_LARGE);
            }
            int b = raw.read();
            if (b >= 0) {
                handedOut++;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            long remaining = remaining();
            if (remaining <= 0) {
                // Past the allowance we do not know whether the body would have ended; failing is the only safe answer.
                throw new IOException(TOO_LARGE);
            }
            int n = raw.read(buffer, offset, (int) Math.min(length, remaining));
            if (n > 0) {
                handedOut += n;
            }
            return n;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(raw.available(), Math.max(0, remaining()));
        }

        @Override
        public void close() {
        }
    }
}
