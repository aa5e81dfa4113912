package org.storeservice.jdbc;

import java.io.IOException;
import java.io.InputStream;
import org.storeservice.api.storage.StorageException;

/** Reads a caller's content stream whole into memory, up to a limit, before it is queued for the writer. */
final class BoundedContent {
    private BoundedContent() {
    }

    /**
     * All of {@code content}.
     *
     * @throws IOException the stream's own failure, unchanged
     * @throws StorageException if it holds more than {@code limit} bytes
     */
    static byte[] readAll(InputStream content, long limit) throws IOException {
        // readNBytes grows its buffer with the content, so a 1 KiB value costs about 1 KiB, not a fixed chunk;
        // one byte past the limit tells "too large" from "exactly the limit".
        byte[] bytes = content.readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 8));
        if (bytes.length > limit) {
            throw new StorageException("Content exceeds this storage's limit of " + limit + " bytes");
        }
        return bytes;
    }
}
