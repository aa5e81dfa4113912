package org.storeservice.codec;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.wire.BodyTail;

/**
 * One request's body, collected as it arrives so that no thread waits for the network while a client sends
 * it: a server adapter {@linkplain #append appends} the bytes it receives, without blocking, and once the
 * body has ended it gives {@link #open()} to the codec as the {@link CodecRequest}'s body, which then reads
 * it without ever waiting for the client.
 *
 * <p>Bytes are kept in memory while this request holds at most {@link CodecLimits#bodyMemoryBytes()} and the
 * codec's shared {@link BodyMemoryBudget} has room; after that, every further byte goes to a temporary file.
 * The memory goes back to the budget as soon as the body has been read to its end (a store may then wait long for its
 * commit before the codec answers); {@link #close()} gives back what is left and deletes the file, and the adapter calls
 * it once the codec has answered, and on every failure.
 *
 * <p>At most {@link CodecLimits#maxRequestBytes()} + 1 bytes are kept: one byte past the limit is enough for
 * the codec to answer with its too-large fault, so the codec alone owns that rule and its message. Once the
 * buffer {@linkplain #isFull() is full} further bytes are dropped; the adapter should still read (and so
 * discard) the rest of the body up to a bound of its own, so that a client still sending gets the answer
 * rather than a connection reset. A body whose declared length is already over the limit is full from the
 * start: the codec refuses it on the header, and its bytes are never needed.
 *
 * <p>Get one from {@link StoreCodec#newRequestBodyBuffer(long)}. Not thread-safe: fed by one thread at a
 * time, then read by one, then closed.
 */
public final class RequestBodyBuffer implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(RequestBodyBuffer.class);
    /** The first memory segment of a body of unknown length; later ones double, up to the largest. */
    private static final int FIRST_SEGMENT_BYTES = 4 * 1024;
    private static final int LARGEST_SEGMENT_BYTES = 256 * 1024;

    private final long capacity;
    /**
     * How much of a body past the limit an adapter reads (and drops) before it answers: twice the limit, so that a
     * body refused on its Content-Length (or cut off at limit + 1) that overshoots by up to another limit's worth is
     * still read to its end, and its client gets the fault rather than a connection reset.
     */
    private final long readBound;
    private final long declaredLength;
    private final int memoryBytes;
    private final BodyMemoryBudget budget;
    private final List<Segment> segments = new ArrayList<>();
    /** Bytes used in the last segment. */
    private int lastFill;
    /** Bytes reserved from the budget: the sum of the segments' lengths. */
    private long reserved;
    private long size;
    /** Every byte offered to {@link #append}, kept or dropped. */
    private long received;
    private Path file;
    private FileChannel channel;
    private long fileSize;
    private boolean opened;
    private boolean closed;
    /** Set once the body was read to its end and its memory went back to the budget. */
    private boolean memoryReleased;

    RequestBodyBuffer(CodecLimits limits, BodyMemoryBudget budget, long declaredLength) {
        long max = limits.maxRequestBytes();
        this.capacity = declaredLength > max ? 0 : (max == Long.MAX_VALUE ? max : max + 1);
        this.readBound = max > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * max;
        this.declaredLength = declaredLength;
        this.memoryBytes = limits.bodyMemoryBytes();
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /**
     * {@return whether no more bytes will be kept}: the buffer holds one byte past the request size limit, or the
     * declared length was over it. The codec will answer with its too-large fault.
     */
    public boolean isFull() {
        return size >= capacity;
    }

    /** {@return the bytes held} */
    public long size() {
        return size;
    }

    /**
     * {@return every byte appended so far, including those dropped past the limit}: the body's progress, for a rate
     * check.
     */
    public long received() {
        return received;
    }

    /**
     * {@return whether the adapter should answer before reading any of the body}: it is refused on its declared length
     * alone, and either too long to read to its end, or not even sent yet ({@code expectsContinue}: reading would send
     * the client a go-ahead for a body nobody will use).
     *
     * @param expectsContinue whether the request has {@code Expect: 100-continue}
     */
    public boolean answerWithoutReading(boolean expectsContinue) {
        return declaredTooLongToRead() || (isFull() && expectsContinue);
    }

    /**
     * {@return whether the declared length is over twice the limit}: such a body is never read, so the connection
     * cannot carry another request after the answer.
     */
    public boolean declaredTooLongToRead() {
        return isFull() && declaredLength > readBound;
    }

    /**
     * {@return whether the adapter has read enough and should answer now}, with the client perhaps still sending: the
     * buffer is full and more than twice the limit has been dropped through it.
     */
    public boolean readEnough() {
        return isFull() && received > readBound;
    }

    /** {@return whether every byte held is in memory (none went to a file)}, so reading them touches no disk. */
    public boolean inMemory() {
        return channel == null;
    }

    /**
     * Appends the remaining bytes of {@code bytes} (heap or direct), or as many as fit before the buffer
     * {@linkplain #isFull() is full}; the rest are dropped. Consumes all of {@code bytes} either way, and keeps
     * no reference to it, so the caller may release it at once. Never blocks on the network; it may write
     * to a local file.
     *
     * @param bytes the bytes that arrived
     * @throws IOException if the temporary file could not be created or written (the buffer should then be
     *     closed and the request failed)
     * @throws IllegalStateException if the buffer was opened or closed already
     */
    public void append(ByteBuffer bytes) throws IOException {
        if (opened || closed) {
            throw new IllegalStateException(closed ? "closed" : "already opened");
        }
        received += bytes.remaining();
        int keep = (int) Math.min(bytes.remaining(), capacity - size);
        ByteBuffer kept = bytes.slice(bytes.position(), keep);
        bytes.position(bytes.limit());
        while (kept.hasRemaining() && channel == null) {
            if (lastSegmentFull() && !addSegment(kept.remaining())) {
                break; // no memory left for this request: it, and all that follows, goes to the file
            }
            Segment segment = segments.get(segments.size() - 1);
            int n = Math.min(kept.remaining(), segment.limit() - lastFill);
            kept.get(segment.bytes(), lastFill, n);
            lastFill += n;
            size += n;
        }
        if (kept.hasRemaining()) {
            toFile(kept);
        }
    }

    private boolean lastSegmentFull() {
        return segments.isEmpty() || lastFill == segments.get(segments.size() - 1).limit();
    }

    /** Adds a memory segment, if this request's allowance and the shared budget both have room. */
    private boolean addSegment(int arriving) {
        // A declared length is reserved in one segment (one array, one budget update for the usual request);
        // a body of unknown length grows by doubling segments.
        long wanted = declaredLength >= 0
                ? declaredLength - size
                : Math.max(arriving, Math.min(LARGEST_SEGMENT_BYTES, Math.max(FIRST_SEGMENT_BYTES, reserved)));
        wanted = Math.min(wanted, Math.min(capacity - size, memoryBytes - reserved));
        if (wanted < 1) {
            return false;
        }
        byte[] segment;
        if (wanted >= BodyMemoryBudget.POOLED_ARRAY_BYTES) {
            segment = budget.takeArray((int) wanted);
            if (segment == null) {
                return false;
            }
        } else if (budget.tryReserve(wanted)) {
            segment = new byte[(int) wanted];
        } else {
            return false;
        }
        reserved += segment.length;
        segments.add(new Segment(segment, (int) wanted));
        lastFill = 0;
        return true;
    }

    private void toFile(ByteBuffer bytes) throws IOException {
        if (channel == null) {
            file = Files.createTempFile("store-body-", ".tmp");
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
        int n = bytes.remaining();
        while (bytes.hasRemaining()) {
            channel.write(bytes, fileSize + n - bytes.remaining());
        }
        fileSize += n;
        size += n;
    }

    /**
     * {@return the bytes held, in order: memory first, then the file} Reading never waits for the network. The
     * stream is valid until {@link #close()}; closing it does nothing.
     *
     * @throws IllegalStateException if called twice, or after {@link #close()}
     */
    public InputStream open() {
        if (opened || closed) {
            throw new IllegalStateException(closed ? "closed" : "already opened");
        }
        opened = true;
        return new Reader();
    }

    /** Gives the memory back to the budget and deletes the file. Idempotent; never throws. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        releaseMemory();
        if (file == null) {
            return;
        }
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            log.warn("Could not close the request body file {}", file, e);
        }
        try { // even if closing failed: the file must not outlive the request
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Could not delete the request body file {}", file, e);
        }
    }

    private void releaseMemory() {
        for (Segment segment : segments) {
            budget.giveBack(segment.bytes());
        }
        segments.clear();
        reserved = 0;
        memoryReleased = true;
    }

    @Override
    public String toString() {
        return "RequestBodyBuffer{size=" + size + ", inMemory=" + (size - fileSize) + ", inFile=" + fileSize
                + (isFull() ? ", full" : "") + (closed ? ", closed" : "") + '}';
    }

    /** An array holding part of the body, of which the first {@code limit} bytes are this body's (a reused one may be longer). */
    private record Segment(byte[] bytes, int limit) {
    }

    /**
     * Reads the segments, then the file by position (the file's one descriptor serves writing and reading). Shows the
     * body's last bytes while they are all in memory.
     */
    private final class Reader extends InputStream implements BodyTail {
        private int segment;
        private int offset;
        private long filePosition;
        private final byte[] one = new byte[1];

        @Override
        public int read() throws IOException {
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int off, int length) throws IOException {
            Objects.checkFromIndexSize(off, length, buffer.length);
            if (closed) {
                throw new IOException("Request body buffer closed");
            }
            if (length == 0) {
                return 0;
            }
            while (segment < segments.size()) {
                int fill = segment == segments.size() - 1 ? lastFill : segments.get(segment).limit();
                if (offset < fill) {
                    int n = Math.min(length, fill - offset);
                    System.arraycopy(segments.get(segment).bytes(), offset, buffer, off, n);
                    offset += n;
                    return n;
                }
                segment++;
                offset = 0;
            }
            if (filePosition >= fileSize) {
                releaseMemory(); // read to its end: nobody reads these bytes again
                return -1;
            }
            int n = channel.read(ByteBuffer.wrap(buffer, off, (int) Math.min(length, fileSize - filePosition)),
                    filePosition);
            if (n < 0) {
                throw new IOException("Request body file ended early: " + file);
            }
            filePosition += n;
            return n;
        }

        @Override
        public int copyTail(byte[] into) {
            if (closed || memoryReleased || channel != null) {
                return 0; // read to its end already, or partly in a file: its tail is not worth a read of the disk
            }
            int n = (int) Math.min(into.length, size);
            int end = n; // fills into[0, n) from its end, walking the segments backwards
            for (int i = segments.size() - 1; i >= 0 && end > 0; i--) {
                int fill = i == segments.size() - 1 ? lastFill : segments.get(i).limit();
                int copied = Math.min(end, fill);
                System.arraycopy(segments.get(i).bytes(), fill - copied, into, end - copied, copied);
                end -= copied;
            }
            return n;
        }

        @Override
        public int available() {
            if (closed) {
                return 0;
            }
            long left = fileSize - filePosition;
            for (int i = segment; i < segments.size(); i++) {
                left += (i == segments.size() - 1 ? lastFill : segments.get(i).limit()) - (i == segment ? offset : 0);
            }
            return (int) Math.min(Integer.MAX_VALUE, left);
        }
    }
}
