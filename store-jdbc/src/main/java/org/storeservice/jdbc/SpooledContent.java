package org.storeservice.jdbc;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;

/**
 * A byte value read to its end on the caller's thread, before it goes to the database: up to {@link #MEMORY_BYTES}
 * in memory, longer content in a temporary file, which {@link #close()} deletes, as does a failed read. So a write
 * in flight holds at most 64 KiB of heap until the statement that stores it runs, which opens it again
 * ({@link #open()}) or reads it whole ({@link #readAll()}).
 *
 * <p>Both backends need this. PostgreSQL: the content may still be arriving from a slow client, and a pooled
 * connection held meanwhile would starve every other read and write. SQLite: group commit needs every value of a
 * batch complete when the writer runs, and many callers waiting for a batch must not each hold a whole value.
 */
final class SpooledContent implements Closeable {
    /** Kept in memory up to this size; small, because slow clients and queued writes can hold many spools at once. */
    static final int MEMORY_BYTES = 64 * 1024;
    static final String FILE_PREFIX = "store-jdbc-spool-";

    private static final Logger log = LoggerFactory.getLogger(SpooledContent.class);

    private final byte[] bytes;
    private final Path file;
    private final long length;

    private SpooledContent(byte[] bytes, Path file, long length) {
        this.bytes = bytes;
        this.file = file;
        this.length = length;
    }

    /** A value already in memory (text kept as UTF-8 bytes); {@code bytes} is not copied. */
    static SpooledContent inMemory(byte[] bytes) {
        return new SpooledContent(bytes, null, bytes.length);
    }

    /**
     * Reads all of {@code content}, spilling to a file in {@code directory} ({@code null}: the system's
     * temporary directory) past {@link #MEMORY_BYTES}.
     *
     * @throws IOException the stream's own failure, unchanged (no file is left behind)
     * @throws StorageException if it holds more than {@code maxBytes}
     */
    static SpooledContent read(InputStream content, Path directory, long maxBytes) throws IOException {
        byte[] head = content.readNBytes(MEMORY_BYTES + 1);
        if (head.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        if (head.length <= MEMORY_BYTES) {
            return inMemory(head);
        }
        Path file = directory == null ? Files.createTempFile(FILE_PREFIX, ".tmp")
                : Files.createTempFile(directory, FILE_PREFIX, ".tmp");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(head);
            long length = head.length;
            byte[] buffer = new byte[8192];
            for (int n; (n = content.read(buffer)) >= 0; ) {
                length += n;
                if (length > maxBytes) {
                    throw tooLarge(maxBytes);
                }
                out.write(buffer, 0, n);
            }
            return new SpooledContent(null, file, length);
        } catch (IOException | RuntimeException | Error e) {
            delete(file);
            throw e;
        }
    }

    private static StorageException tooLarge(long maxBytes) {
        return new StorageException("Content exceeds this storage's limit of " + maxBytes + " bytes");
    }

    /** Whether the value is in memory (no file to open). */
    boolean inMemory() {
        return bytes != null;
    }

    /** The value as a stream; the caller closes it. */
    InputStream open() throws IOException {
        return bytes != null ? new ByteArrayInputStream(bytes) : Files.newInputStream(file);
    }

    /** The whole value in one array of its length: the array kept in memory, or the file read now. */
    byte[] readAll() throws IOException {
        return bytes != null ? bytes : Files.readAllBytes(file);
    }

    long length() {
        return length;
    }

    /** Deletes the file, if any. */
    @Override
    public void close() {
        if (file != null) {
            delete(file);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Could not delete the spooled content {}", file, e);
        }
    }
}
