package org.storeservice.shadow;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.PathRequestContent;
import org.eclipse.jetty.client.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.BodyMemoryBudget;

/**
 * The proxy's one copy of a request body: read once from the client, then sent from here to the primary, read by the
 * {@link RequestClassifier}, and sent again to the shadow. It is in memory while the proxy's {@link BodyMemoryBudget}
 * has room, else in a temporary file (the memory part moved there too, so the body is in one place); at most
 * {@code limit} bytes.
 *
 * <p>Appended to by one thread, then read by any; {@link #close()} (idempotent, thread-safe) gives the memory back and
 * deletes the file.
 */
final class BodyCopy implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(BodyCopy.class);
    private static final int FIRST_SEGMENT_BYTES = 4 * 1024;
    private static final int LARGEST_SEGMENT_BYTES = 256 * 1024;

    private final BodyMemoryBudget memory;
    private final long limit;
    private final long declaredLength;
    private final List<byte[]> segments = new ArrayList<>();
    private int lastFill;
    private long reserved;
    private long size;
    private Path file;
    private FileChannel channel;
    private boolean closed;

    /**
     * @param limit the most bytes it keeps
     * @param declaredLength the Content-Length, or -1: a body that declares its length gets one segment of that size
     */
    BodyCopy(BodyMemoryBudget memory, long limit, long declaredLength) {
        this.memory = memory;
        this.limit = limit;
        this.declaredLength = declaredLength;
    }

    /** Whether {@code more} bytes would take it past its limit. */
    boolean wouldOverflow(long more) {
        return size + more > limit;
    }

    /**
     * Appends every remaining byte of {@code bytes}; the caller checked {@link #wouldOverflow} first. Leaves the buffer's
     * position where it was.
     */
    void append(ByteBuffer bytes) throws IOException {
        ByteBuffer from = bytes.slice();
        if (channel == null) {
            while (from.hasRemaining()) {
                if (!spaceInLastSegment() && !addSegment()) {
                    moveToFile();
                    break;
                }
                byte[] last = segments.get(segments.size() - 1);
                int n = Math.min(from.remaining(), last.length - lastFill);
                from.get(last, lastFill, n);
                lastFill += n;
                size += n;
            }
        }
        if (channel != null && from.hasRemaining()) {
            size += from.remaining();
            while (from.hasRemaining()) {
                channel.write(from);
            }
        }
    }

    private boolean spaceInLastSegment() {
        return !segments.isEmpty() && lastFill < segments.get(segments.size() - 1).length;
    }

    private boolean addSegment() {
        int length;
        if (segments.isEmpty() && declaredLength > 0 && declaredLength <= limit) {
            length = (int) declaredLength; // one array of the body's size: the usual case, a small request
        } else {
            int previous = segments.isEmpty() ? FIRST_SEGMENT_BYTES / 2 : segments.get(segments.size() - 1).length;
            length = (int) Math.min(Math.min(LARGEST_SEGMENT_BYTES, Math.max(FIRST_SEGMENT_BYTES, previous * 2L)), limit - size);
        }
        if (!memory.tryReserve(length)) {
            return false;
        }
        reserved += length;
        segments.add(new byte[length]);
        lastFill = 0;
        return true;
    }

    /** Moves what is in memory to a new temporary file, which takes every later byte too. */
    private void moveToFile() throws IOException {
        file = Files.createTempFile("store-shadow-", ".body");
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
        for (ByteBuffer part : memoryParts()) {
            while (part.hasRemaining()) {
                channel.write(part);
            }
        }
        segments.clear();
        memory.release(reserved);
        reserved = 0;
    }

    /** The bytes held. */
    long size() {
        return size;
    }

    /** The body, read from its start; each call a new stream. */
    InputStream openStream() throws IOException {
        if (channel != null) {
            return Files.newInputStream(file);
        }
        List<InputStream> parts = new ArrayList<>(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            byte[] segment = segments.get(i);
            parts.add(new ByteArrayInputStream(segment, 0, i == segments.size() - 1 ? lastFill : segment.length));
        }
        return new SequenceInputStream(Collections.enumeration(parts));
    }

    /**
     * The body as a Jetty request content of its exact length (so the request says {@code Content-Length}), with no
     * content type of its own: the forwarded headers carry the client's, or none.
     */
    Request.Content content() throws IOException {
        if (channel != null) {
            return new PathRequestContent(null, file);
        }
        return new ByteBufferRequestContent(null, memoryParts());
    }

    private List<ByteBuffer> memoryParts() {
        List<ByteBuffer> parts = new ArrayList<>(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            byte[] segment = segments.get(i);
            parts.add(ByteBuffer.wrap(segment, 0, i == segments.size() - 1 ? lastFill : segment.length).asReadOnlyBuffer());
        }
        return parts;
    }

    /** The memory held (0 once in a file), for the queue's accounting. */
    synchronized long memoryBytes() {
        return reserved;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        segments.clear();
        memory.release(reserved);
        reserved = 0;
        if (channel != null) {
            try {
                channel.close();
                Files.deleteIfExists(file);
            } catch (IOException e) {
                log.warn("Could not delete the body copy {}", file, e);
            }
        }
    }
}
