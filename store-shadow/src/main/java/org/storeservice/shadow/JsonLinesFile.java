package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JSON Lines file the proxy appends to (the differences, the dropped keys), rotated by size: once a line would take {@code FILE} past its size bound,
 * {@code FILE} becomes {@code FILE.1} ({@code FILE.1} becomes {@code FILE.2}, and so on, the oldest beyond
 * {@code keep} deleted) and a new {@code FILE} begins. A line is never split; each is flushed as written, so
 * {@code tail -f} sees it at once. A rotation that fails (a rotated file that cannot be moved or deleted) loses no
 * line: the lines go on to {@code FILE}, a warning says so, and the rotation is tried again once {@code FILE} has grown
 * by the size bound once more. Thread-safe.
 */
final class JsonLinesFile implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(ShadowProxy.class);
    private final Path file;
    private final long maxBytes;
    private final int keep;
    private OutputStream out;
    private long written;
    /** The size at which the next rotation is due. */
    private long rotateAt;

    /**
     * Opens {@code file} for appending (creating it), counting what it already holds.
     *
     * @param maxBytes the size a file may reach before it is rotated (a single longer line still goes in whole)
     * @param keep how many rotated files are kept, {@code FILE.1} to {@code FILE.keep}; 0 for none
     */
    JsonLinesFile(Path file, long maxBytes, int keep) throws IOException {
        this.file = file;
        this.maxBytes = maxBytes;
        this.keep = keep;
        open();
    }

    private void open() throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        written = Files.size(file);
        rotateAt = maxBytes;
    }

    synchronized void write(String line) throws IOException {
        byte[] bytes = (line + "\n").getBytes(UTF_8);
        if (written > 0 && written + bytes.length > rotateAt) {
            rotate();
        }
        out.write(bytes);
        out.flush();
        written += bytes.length;
    }

    private void rotate() throws IOException {
        out.close();
        try {
            shift();
        } catch (IOException e) {
            // Never lose a line for want of a rotation: go on writing to this file, and try again a bound later.
            log.warn("Could not rotate {} ({}); writing on to it, {} bytes now", file, e.toString(), written);
            out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            rotateAt = Math.max(maxBytes, written) + maxBytes;
            return;
        }
        open();
    }

    private void shift() throws IOException {
        if (keep == 0) {
            Files.delete(file);
        } else {
            Files.deleteIfExists(rotated(keep));
            for (int i = keep - 1; i >= 1; i--) {
                if (Files.exists(rotated(i))) {
                    Files.move(rotated(i), rotated(i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(file, rotated(1), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private Path rotated(int index) {
        return file.resolveSibling(file.getFileName() + "." + index);
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
