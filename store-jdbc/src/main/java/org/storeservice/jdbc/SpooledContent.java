package org.storeservice.jdbc;

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
 * A caller's content read to its end before a database connection is borrowed: the content may still be
 * arriving from a slow HTTP client, and a pooled connection held meanwhile would starve every other read
 * and write (no statement or socket time-out covers that wait). Up to {@link #MEMORY_BYTES} stay in memory;
 * longer content goes to a temporary file, which {@link #close()} deletes, as does a failed read.
 */
final class SpooledContent implements Closeable {
    /** Kept in memory up to this size; small, because slow clients can hold many spools at once. */
    static final int MEMORY_BYTES = 64 * 1024;
    /** PostgreSQL's largest field (1 GB - 1): longer content could never be stored, so reading stops there. */
    static final long MAX_BYTES = (1L << 30) - 1;
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

    /**
     * Reads all of {@code content}, spilling to a file in {@code directory} ({@code null}: the system's
     * temporary directory) past {@link #MEMORY_BYTES}.
     *
     * @throws IOException the stream's own failure, unchanged (no file is left behind)
     * @throws StorageException if it holds more than {@link #MAX_BYTES}
     */
    static SpooledContent read(InputStream content, Path directory) throws IOException {
        byte[] head = content.readNBytes(MEMORY_BYTES + 1);
        if (head.length <= MEMORY_BYTES) {
            return new SpooledContent(head, null, head.length);
        }
        Path file = directory == null ? Files.createTempFile(FILE_PREFIX, ".tmp")
                : Files.createTempFile(directory, FILE_PREFIX, ".tmp");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(head);
            long length = head.length;
            byte[] buffer = new byte[8192];
            for (int n; (n = content.read(buffer)) >= 0; ) {
                length += n;
                if (length > MAX_BYTES) {
                    throw new StorageException("Content exceeds PostgreSQL's limit of " + MAX_BYTES + " bytes");
                }
                out.write(buffer, 0, n);
            }
            return new SpooledContent(null, file, length);
        } catch (IOException | RuntimeException | Error e) {
            delete(file);
            throw e;
        }
    }

    /** The whole content if it stayed in memory, else {@code null} (read it with {@link #openFile()}). */
    byte[] bytes() {
        return bytes;
    }

    /** The spooled file's content; only when {@link #bytes()} is {@code null}. The caller closes it. */
    InputStream openFile() throws IOException {
        return Files.newInputStream(file);
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
