package org.storeservice.codec.wire;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;

/**
 * The raw request body, counted: the one place the request size limit ({@link CodecLimits#maxRequestBytes()}) is
 * enforced while reading, for every binding. A declared Content-Length over the limit fails at once; otherwise
 * each read asks the server's stream for at most the bytes left up to limit + 1, and the read that crosses the
 * limit throws {@link RequestTooLargeException}, as does every read after it. So the codec never reads more than
 * limit + 1 bytes of a body, whatever its framing (chunked, or no length at all) and however its parser buffers:
 * a server adapter needs no limit of its own.
 */
public final class RequestBody extends FilterInputStream implements BodyTail {
    /** How much of the body's start is kept: an XML declaration, for a fault that says where in it an error lies. */
    private static final int HEAD_BYTES = 128;

    private final long limit;
    private final long declaredLength;
    private long count;
    private final byte[] head = new byte[HEAD_BYTES];

    private RequestBody(InputStream body, long limit, long declaredLength) {
        super(body);
        this.limit = limit;
        this.declaredLength = declaredLength;
    }

    /**
     * The body of a request, limited to {@code limit} bytes.
     *
     * @throws RequestTooLargeException at once if the declared Content-Length is over the limit
     */
    public static RequestBody of(CodecRequest request, long limit) throws RequestTooLargeException {
        String contentLength = request.header("Content-Length");
        long declaredLength = -1;
        if (contentLength != null) {
            try {
                declaredLength = Long.parseLong(contentLength.trim());
            } catch (NumberFormatException e) {
                // not ours to judge: the server adapter rejects a malformed Content-Length; counting still applies
            }
            if (declaredLength > limit) {
                throw new RequestTooLargeException();
            }
        }
        return new RequestBody(request.body(), limit, Math.max(declaredLength, -1));
    }

    /** The Content-Length the request declared; -1 if none (or not a number). */
    public long declaredLength() {
        return declaredLength;
    }

    /** The first bytes read of the body (up to 128): the XML declaration, as sent. */
    public byte[] head() {
        return Arrays.copyOf(head, (int) Math.min(count, HEAD_BYTES));
    }

    @Override
    public int read() throws IOException {
        checkNotExceeded();
        int b = super.read();
        if (b >= 0) {
            if (count < HEAD_BYTES) {
                head[(int) count] = (byte) b;
            }
            counted(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        checkNotExceeded();
        // at most one byte past the limit: enough to see it crossed, and no more read from the client
        long allowed = limit == Long.MAX_VALUE ? Long.MAX_VALUE : limit + 1 - count;
        int n = super.read(buffer, offset, (int) Math.min(length, allowed));
        if (n > 0) {
            if (count < HEAD_BYTES) {
                System.arraycopy(buffer, offset, head, (int) count, (int) Math.min(n, HEAD_BYTES - count));
            }
            counted(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // through read(), so skipped bytes are counted too
        byte[] scratch = new byte[(int) Math.min(n, 8192)];
        long skipped = 0;
        while (skipped < n) {
            int read = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
            if (read < 0) {
                break;
            }
            skipped += read;
        }
        return skipped;
    }

    /** The server's body's last bytes, if it can show them ({@link BodyTail}); else 0. */
    @Override
    public int copyTail(byte[] into) {
        return in instanceof BodyTail body ? body.copyTail(into) : 0;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    private void checkNotExceeded() throws RequestTooLargeException {
        if (count > limit) {
            throw new RequestTooLargeException();
        }
    }

    private void counted(int n) throws RequestTooLargeException {
        count += n;
        if (count > limit) {
            throw new RequestTooLargeException();
        }
    }
}
