package org.storeservice.jdbc;

import java.io.IOException;
import java.io.InputStream;
import org.storeservice.api.storage.StorageException;

/** Reads a caller's content stream whole into memory, up to a limit, before it is queued for the writer. */
final class BoundedContent {
    /**
     * The largest limit: reading one byte past it must still fit in one array, and the JDK's largest
     * safe array is {@code Integer.MAX_VALUE - 8}.
     */
    static final int MAX_LIMIT = Integer.MAX_VALUE - 9;

    private BoundedContent() {
    }

    /**
     * All of {@code content}.
     *
     * @throws IOException the stream's own failure, unchanged
     * @throws StorageException if it holds more than {@code limit} bytes
     * @throws IllegalArgumentException if {@code limit} is negative or over {@link #MAX_LIMIT}
     */
    static byte[] readAll(InputStream content, long limit) throws IOException {
        if (limit < 0 || limit > MAX_LIMIT) {
            // a capped read could not tell a longer stream from one of exactly the limit, and would cut it
            throw new IllegalArgumentException("limit must be 0.." + MAX_LIMIT + ": " + limit);
        }
        // readNBytes grows its buffer with the content, so a 1 KiB value costs about 1 KiB, not a fixed chunk;
        // one byte past the limit tells "too large" from "exactly the limit".
        byte[] bytes = content.readNBytes((int) limit + 1);
        if (bytes.length > limit) {
            throw new StorageException("Content exceeds this storage's limit of " + limit + " bytes");
        }
        return bytes;
    }
}
