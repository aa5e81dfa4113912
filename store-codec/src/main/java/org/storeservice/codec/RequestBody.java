package org.storeservice.codec;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The raw request body, counted: reading past the request size limit throws
 * {@link RequestTooLargeException}, so a huge body is cut off after limit + 1 bytes, not read to its end.
 */
final class RequestBody extends FilterInputStream {
    private final long limit;
    private long count;

    private RequestBody(InputStream body, long limit) {
        super(body);
        this.limit = limit;
    }

    /**
     * The body of a request, limited to {@code limit} bytes.
     *
     * @throws RequestTooLargeException at once if the declared Content-Length is over the limit
     */
    static RequestBody of(CodecRequest request, long limit) throws RequestTooLargeException {
        String contentLength = request.header("Content-Length");
        if (contentLength != null) {
            try {
                if (Long.parseLong(contentLength.trim()) > limit) {
                    throw new RequestTooLargeException();
                }
            } catch (NumberFormatException e) {
                // not ours to judge: the server adapter rejects a malformed Content-Length; counting still applies
            }
        }
        return new RequestBody(request.body(), limit);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            counted(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
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

    @Override
    public boolean markSupported() {
        return false;
    }

    private void counted(int n) throws RequestTooLargeException {
        count += n;
        if (count > limit) {
            throw new RequestTooLargeException();
        }
    }
}
