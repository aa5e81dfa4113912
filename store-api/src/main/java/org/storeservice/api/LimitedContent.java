package org.storeservice.api;

import java.io.IOException;
import java.io.InputStream;

/**
 * Wraps a caller's content stream on its way to storage: fails the read once more than the limit has
 * been read, and remembers whether a failure came from the caller's stream or from the limit, so that
 * {@link DefaultStore} can tell those apart from a storage failure.
 */
final class LimitedContent extends InputStream {
    private final InputStream source;
    private final long limit;
    private long count;
    private boolean limitExceeded;
    private IOException sourceFailure;

    LimitedContent(InputStream source, long limit) {
        this.source = source;
        this.limit = limit;
    }

    IOException sourceFailure() {
        return sourceFailure;
    }

    boolean limitExceeded() {
        return limitExceeded;
    }

    @Override
    public int read() throws IOException {
        checkLimit();
        int b;
        try {
            b = source.read();
        } catch (IOException e) {
            throw sourceFailed(e);
        }
        if (b >= 0) {
            counted(1);
        }
        return b;
    }

    // No lambda per read here: this is on the path of every chunk of every WriteBytes.
    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        checkLimit();
        int n;
        try {
            n = source.read(buffer, offset, length);
        } catch (IOException e) {
            throw sourceFailed(e);
        }
        if (n > 0) {
            counted(n);
        }
        return n;
    }

    /** The source's estimate, but never more than the limit lets be read: a storage may size an array from it. */
    @Override
    public int available() throws IOException {
        checkLimit();
        try {
            return (int) Math.min(source.available(), limit - count);
        } catch (IOException e) {
            throw sourceFailed(e);
        }
    }

    private void counted(int n) throws IOException {
        count += n;
        if (count > limit) {
            limitExceeded = true;
            throw new IOException("Content exceeds the limit of " + limit + " bytes");
        }
    }

    private void checkLimit() throws IOException {
        if (limitExceeded) {
            throw new IOException("Content exceeds the limit of " + limit + " bytes");
        }
    }

    private IOException sourceFailed(IOException e) {
        if (sourceFailure == null) {
            sourceFailure = e;
        }
        return e;
    }
}
