package org.storeservice.jdbc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.storeservice.api.storage.StorageException;

/** Reads a caller's content stream whole into memory, up to a limit, before it is queued for the writer. */
final class BoundedContent {
    private static final int CHUNK = 64 * 1024;

    private BoundedContent() {
    }

    /**
     * All of {@code content}.
     *
     * @throws IOException the stream's own failure, unchanged
     * @throws StorageException if it holds more than {@code limit} bytes
     */
    static byte[] readAll(InputStream content, long limit) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] chunk = new byte[CHUNK];
        long total = 0;
        int n;
        while ((n = content.read(chunk)) >= 0) {
            total += n;
            if (total > limit) {
                throw new StorageException("Content exceeds this storage's limit of " + limit + " bytes");
            }
            buffer.write(chunk, 0, n);
        }
        return buffer.toByteArray();
    }
}
