package org.storeservice.codec.content;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a {@code content} that arrived before its {@code key}: the first bytes in memory, the rest in a
 * temporary file that {@link #close()} deletes. Not thread-safe: one per request.
 */
public final class ContentSpool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ContentSpool.class);

    private final int memoryBytes;
    private final ByteArrayOutputStream memory = new ByteArrayOutputStream();
    private Path file;
    private OutputStream fileOut;

    public ContentSpool(int memoryBytes) {
        this.memoryBytes = memoryBytes;
    }

    public void write(byte[] bytes, int offset, int length) throws IOException {
        int toMemory = Math.min(length, memoryBytes - memory.size());
        memory.write(bytes, offset, toMemory);
        if (toMemory < length) {
            if (fileOut == null) {
                file = Files.createTempFile("store-content-", ".spool");
                fileOut = Files.newOutputStream(file);
            }
            fileOut.write(bytes, offset + toMemory, length - toMemory);
        }
    }

    /** The spooled bytes, in order. */
    public InputStream open() throws IOException {
        InputStream inMemory = new ByteArrayInputStream(memory.toByteArray());
        if (fileOut == null) {
            return inMemory;
        }
        fileOut.close();
        return new SequenceInputStream(inMemory, Files.newInputStream(file));
    }

    @Override
    public void close() {
        if (file == null) {
            return;
        }
        try {
            if (fileOut != null) { // null if the file was created but could not be opened
                fileOut.close();
            }
        } catch (IOException e) {
            log.warn("Could not close the content spool file {}", file, e);
        }
        try { // even if closing failed: the file must not outlive the request
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Could not delete the content spool file {}", file, e);
        }
    }
}
