package org.storeservice.jetty;

import java.io.IOException;
import java.io.InputStream;

/**
 * The request body as the codec reads it, cut off just past the codec's own size limit.
 *
 * <p>The codec answers an over-limit request with the ASMX-shaped fault, both when Content-Length says so
 * and by counting the bytes it reads. This stream makes sure the second case holds whatever the framing
 * (chunked, or no length at all): it hands over at most {@code maxRequestBytes + 1} bytes, just enough for
 * the codec to see the limit crossed, and fails every read after that. So however the codec buffers, no
 * request can make the server read or hold more than one byte past the limit.
 */
final class RequestBodyLimit extends InputStream {
    /** The text ASMX gives for the same condition, so a message that reaches a log or a fault reads the same. */
    static final String MESSAGE = "Maximum request length exceeded.";

    private final InputStream body;
    private long remaining;

    /** {@code body} limited to {@code maxRequestBytes + 1} bytes. */
    RequestBodyLimit(InputStream body, long maxRequestBytes) {
        this.body = body;
        // Saturate: a limit of Long.MAX_VALUE means "no limit", not an overflow to a negative allowance.
        this.remaining = maxRequestBytes == Long.MAX_VALUE ? Long.MAX_VALUE : maxRequestBytes + 1;
    }

    @Override
    public int read() throws IOException {
        if (remaining == 0) {
            return exceeded();
        }
        int b = body.read();
        if (b >= 0) {
            remaining--;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (remaining == 0) {
            return exceeded();
        }
        int n = body.read(buffer, offset, (int) Math.min(length, remaining));
        if (n > 0) {
            remaining -= n;
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(body.available(), remaining);
    }

    // Not closed here: Jetty owns the request content and discards what the codec left unread.
    @Override
    public void close() {
    }

    private int exceeded() throws IOException {
        // Past the allowance we do not know whether the body would have ended; failing is the only safe answer.
        throw new RequestTooLargeException();
    }

    /** The body went past the codec's limit and was cut off. */
    static final class RequestTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        RequestTooLargeException() {
            super(MESSAGE);
        }
    }
}
