package org.storeservice.jdbc.internal;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;

/**
 * A byte value read to its end on the caller's thread, before it goes to the database: up to {@link #MEMORY_BYTES}
 * in memory, longer content in memory too while the storage's {@link SpoolMemory} has room, else in a temporary
 * file, which {@link #close()} deletes, as does a failed read. So the heap held by writes in flight is bounded by
 * 64 KiB each plus the storage's spool memory, until the statement that stores a value runs, which opens it again
 * ({@link #open()}) or reads it whole ({@link #readAll()}).
 *
 * <p>Both backends need this. PostgreSQL: the content may still be arriving from a slow client, and a pooled
 * connection held meanwhile would starve every other read and write. SQLite: group commit needs every value of a
 * batch complete when the writer runs, and many callers waiting for a batch must not each hold a whole value.
 */
public final class SpooledContent implements Closeable {
    /** Kept in memory up to this size; small, because slow clients and queued writes can hold many spools at once. */
    public static final int MEMORY_BYTES = 64 * 1024;
    public static final String FILE_PREFIX = "store-jdbc-spool-";
    /** The largest single write to a spool file: bounds the temporary direct buffer each writing thread keeps. */
    public static final int FILE_WRITE_BYTES = 64 * 1024;

    private static final Logger log = LoggerFactory.getLogger(SpooledContent.class);

    private final byte[] bytes;
    private final Path file;
    private final long length;
    /** Where {@link #reservedBytes} came from; {@code null} when nothing was reserved. */
    private final SpoolMemory memory;
    private final long reservedBytes;
    private boolean closed;

    private SpooledContent(byte[] bytes, Path file, long length, SpoolMemory memory, long reservedBytes) {
        this.bytes = bytes;
        this.file = file;
        this.length = length;
        this.memory = memory;
        this.reservedBytes = reservedBytes;
    }

    private SpooledContent(byte[] bytes, Path file, long length) {
        this(bytes, file, length, null, 0);
    }

    /** A value already in memory (text kept as UTF-8 bytes); {@code bytes} is not copied. */
    public static SpooledContent inMemory(byte[] bytes) {
        return new SpooledContent(bytes, null, bytes.length);
    }

    /**
     * Reads all of {@code content}: in memory up to {@link #MEMORY_BYTES}, and beyond that while {@code memory} has
     * room for it, else spilling to a file in {@code directory} ({@code null}: the system's temporary directory).
     *
     * @throws IOException the stream's own failure, unchanged (no file is left behind, nothing stays reserved)
     * @throws StorageException if it holds more than {@code maxBytes}
     */
    public static SpooledContent read(InputStream content, Path directory, long maxBytes, SpoolMemory memory)
            throws IOException {
        return read(readHead(content), content, directory, maxBytes, memory);
    }

    /**
     * The first {@link #MEMORY_BYTES} bytes of {@code content} and one more, if it has them: a whole value if fewer. Read
     * into one array sized from the content's {@code available()} estimate where it gives one (the codec's is exact for
     * a decoded body, or a few bytes over), so that a value of that size is neither copied nor zeroed twice, as
     * {@code readNBytes(int)}'s 8 KiB parts would.
     */
    public static byte[] readHead(InputStream content) throws IOException {
        int expected = content.available();
        if (expected <= 0) {
            return content.readNBytes(MEMORY_BYTES + 1);
        }
        byte[] head = new byte[Math.min(expected, MEMORY_BYTES + 1)];
        int filled = 0;
        for (int n; filled < head.length && (n = content.read(head, filled, head.length - filled)) >= 0; ) {
            filled += n;
        }
        if (filled < head.length) {
            return Arrays.copyOf(head, filled);
        }
        int next = filled > MEMORY_BYTES ? -1 : content.read();
        if (next < 0) {
            return head;
        }
        byte[] rest = content.readNBytes(MEMORY_BYTES - filled); // the content went on past its estimate
        byte[] whole = Arrays.copyOf(head, filled + 1 + rest.length);
        whole[filled] = (byte) next;
        System.arraycopy(rest, 0, whole, filled + 1, rest.length);
        return whole;
    }

    /**
     * A value whose {@link #readHead head} (no longer than {@link #MEMORY_BYTES}) is all of it, held in memory reserved
     * from {@code memory}, which {@link #close()} gives back: for a write that waits in a queue with no thread held for
     * it, so that the heap such writes hold stays within {@code memory}. {@code null} if {@code head} is not a whole
     * value or {@code memory} has no room for it.
     *
     * @throws StorageException if it holds more than {@code maxBytes}
     */
    public static SpooledContent whole(byte[] head, long maxBytes, SpoolMemory memory) throws StorageException {
        if (head.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        if (head.length > MEMORY_BYTES || !memory.tryReserve(head.length)) {
            return null;
        }
        return new SpooledContent(head, null, head.length, memory, head.length);
    }

    /** As {@link #read(InputStream, Path, long, SpoolMemory)}, for a content whose {@link #readHead head} was read. */
    public static SpooledContent read(byte[] head, InputStream content, Path directory, long maxBytes, SpoolMemory memory)
            throws IOException {
        if (head.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        if (head.length <= MEMORY_BYTES) {
            return inMemory(head);
        }
        // First one array of the size the content expects (the codec's estimate for a large content is exact, or a few
        // bytes over), then steps that double; a full array is grown only once a byte more is read, so that an exact
        // estimate needs no copy. While reading, the array may be up to twice the value, or the estimate; once read,
        // the value is in an array of its size and only that stays reserved. All is given back on a spill.
        long reserved = 0;
        byte[] held = head;
        int filled = head.length;
        int next = -1; // a byte read past a full array, not yet in it
        try {
            long expected = filled + (long) content.available();
            while (true) {
                if (filled == held.length) {
                    if (held != head && next < 0) {
                        next = content.read();
                        if (next < 0) {
                            return new SpooledContent(held, null, filled, memory, reserved);
                        }
                    }
                    long wanted = expected > held.length ? expected : (long) held.length * 2;
                    long grown = Math.min(Math.min(wanted, maxBytes + 1), Integer.MAX_VALUE - 8);
                    if (grown <= held.length || !memory.tryReserve(grown)) {
                        if (expected > held.length) {
                            expected = 0; // no room for the whole estimate: grow by doubling instead
                            continue;
                        }
                        break; // no room (or as large as an array gets): the rest goes to a file
                    }
                    expected = 0; // the estimate is used once; a content that goes on past it grows by doubling
                    memory.release(reserved);
                    reserved = grown;
                    held = Arrays.copyOf(held, (int) grown);
                    if (next >= 0) {
                        held[filled++] = (byte) next;
                        next = -1;
                        if (filled > maxBytes) {
                            throw tooLarge(maxBytes);
                        }
                    }
                }
                int n = content.read(held, filled, held.length - filled);
                if (n < 0) {
                    if (filled == held.length) {
                        return new SpooledContent(held, null, filled, memory, reserved);
                    }
                    byte[] value = Arrays.copyOf(held, filled);
                    memory.release(reserved - filled); // only the value's own size stays reserved
                    return new SpooledContent(value, null, filled, memory, filled);
                }
                filled += n;
                if (filled > maxBytes) {
                    throw tooLarge(maxBytes);
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            memory.release(reserved);
            throw e;
        }
        try {
            return toFile(held, filled, next, content, directory, maxBytes);
        } finally {
            memory.release(reserved);
        }
    }

    /**
     * The first {@code filled} bytes of {@code held}, then {@code next} (if not -1), then the rest of {@code content},
     * in a new temporary file.
     */
    private static SpooledContent toFile(byte[] held, int filled, int next, InputStream content, Path directory,
            long maxBytes) throws IOException {
        Path file = directory == null ? Files.createTempFile(FILE_PREFIX, ".tmp")
                : Files.createTempFile(directory, FILE_PREFIX, ".tmp");
        try (OutputStream out = Files.newOutputStream(file)) {
            // In slices: the JDK writes a heap array to a file through a temporary direct buffer of the write's
            // size, and keeps that buffer for the thread. Whole megabytes written from many pool threads took
            // -Xmx96m's direct memory (as large as the heap by default) and failed uploads with OutOfMemoryError.
            for (int offset = 0; offset < filled; offset += FILE_WRITE_BYTES) {
                out.write(held, offset, Math.min(FILE_WRITE_BYTES, filled - offset));
            }
            long length = filled;
            if (next >= 0) {
                out.write(next);
                if (++length > maxBytes) {
                    throw tooLarge(maxBytes);
                }
            }
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
    public boolean inMemory() {
        return bytes != null;
    }

    /** The value as a stream; the caller closes it. */
    public InputStream open() throws IOException {
        return bytes != null ? new ByteArrayInputStream(bytes) : Files.newInputStream(file);
    }

    /** The whole value in one array of its length: the array kept in memory, or the file read now. */
    public byte[] readAll() throws IOException {
        return bytes != null ? bytes : Files.readAllBytes(file);
    }

    public long length() {
        return length;
    }

    /** Deletes the file, if any, and gives the memory back. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (file != null) {
            delete(file);
        }
        if (memory != null) {
            memory.release(reservedBytes);
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
