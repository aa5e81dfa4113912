package org.storeservice.jdbc;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Remembers the first failure of the caller's content stream while a driver reads it, because the
 * driver wraps it in an SQLException; the storage rethrows the caller's own exception, as the SPI asks.
 */
final class TrackedContent extends FilterInputStream {
    private IOException failure;

    TrackedContent(InputStream in) {
        super(in);
    }

    IOException failure() {
        return failure;
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (IOException e) {
            return fail(e);
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            return super.read(buffer, offset, length);
        } catch (IOException e) {
            return fail(e);
        }
    }

    private int fail(IOException e) throws IOException {
        if (failure == null) {
            failure = e;
        }
        throw e;
    }
}
