package org.storeservice.codec;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that request bodies in flight may hold together, shared by every {@link RequestBodyBuffer} of one
 * {@link StoreCodec}: a buffer keeps bytes in memory only while it can reserve them here, and writes the rest
 * to a temporary file. So however many uploads run at once, their bodies hold at most this many bytes of
 * heap ({@link CodecLimits#bodyMemoryBudgetBytes()}).
 *
 * <p>A large body's array (one {@link #POOLED_ARRAY_BYTES} or more) is kept for the next large body when it is
 * given back, up to a quarter of the capacity: allocating it anew costs zeroing megabytes and collecting an
 * array the garbage collector handles one by one. A kept array stays counted as reserved, so arrays in use and
 * arrays kept together never exceed the capacity; a reservation that does not fit drops kept arrays first.
 *
 * <p>Thread-safe: reservations are lock-free, the kept arrays are behind a lock.
 */
public final class BodyMemoryBudget {
    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong highWaterMark = new AtomicLong();
    /** Large arrays given back and kept for reuse, still counted in {@link #reserved}. */
    private final ArrayDeque<byte[]> kept = new ArrayDeque<>();
    private long keptBytes;

    /** The smallest array kept for reuse: the size from which G1 allocates outside its regions' normal path. */
    static final int POOLED_ARRAY_BYTES = 512 * 1024;

    /**
     * A budget of {@code capacity} bytes.
     *
     * @param capacity the most bytes reserved at once; {@code 0} keeps every body in a file
     */
    public BodyMemoryBudget(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Reserves {@code bytes} if they fit; a reservation is given back with {@link #release}.
     *
     * @param bytes how many to reserve
     * @return whether they were reserved
     */
    public boolean tryReserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        long now;
        long after;
        do {
            now = reserved.get();
            after = now + bytes;
            if (after > capacity || after < 0) {
                return false;
            }
        } while (!reserved.compareAndSet(now, after));
        highWaterMark.accumulateAndGet(after, Math::max);
        return true;
    }

    /**
     * An array of at least {@code length} bytes (at most an eighth more), reserved: a kept one if one fits, else a
     * new one if the budget has room once kept arrays are dropped; {@code null} if it has none. Its contents are
     * whatever its last user left. Give it back with {@link #giveBack}.
     */
    byte[] takeArray(int length) {
        synchronized (kept) {
            for (Iterator<byte[]> arrays = kept.iterator(); arrays.hasNext(); ) {
                byte[] array = arrays.next();
                if (array.length >= length && array.length - length <= length / 8) {
                    arrays.remove();
                    keptBytes -= array.length;
                    return array;
                }
            }
        }
        while (!tryReserve(length)) {
            byte[] dropped;
            synchronized (kept) {
                dropped = kept.pollFirst();
                if (dropped != null) {
                    keptBytes -= dropped.length;
                }
            }
            if (dropped == null) {
                return null;
            }
            release(dropped.length);
        }
        return new byte[length];
    }

    /** Gives back an array from {@link #takeArray}: kept for the next large body if it is one and there is room, else released. */
    void giveBack(byte[] array) {
        if (array.length >= POOLED_ARRAY_BYTES) {
            synchronized (kept) {
                if (keptBytes + array.length <= capacity / 4) {
                    kept.addLast(array);
                    keptBytes += array.length;
                    return;
                }
            }
        }
        release(array.length);
    }

    /**
     * Gives back {@code bytes} reserved earlier.
     *
     * @param bytes how many were reserved
     */
    public void release(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        long after = reserved.addAndGet(-bytes);
        if (after < 0) {
            reserved.addAndGet(bytes);
            throw new IllegalStateException("released " + bytes + " bytes more than were reserved");
        }
    }

    /** {@return the most bytes that may be reserved at once} */
    public long capacity() {
        return capacity;
    }

    /** {@return the bytes reserved now} */
    public long reserved() {
        return reserved.get();
    }

    /** {@return the most bytes ever reserved at once} Never more than {@link #capacity()}; for tests and metrics. */
    public long highWaterMark() {
        return highWaterMark.get();
    }

    @Override
    public String toString() {
        return "BodyMemoryBudget{reserved=" + reserved() + ", capacity=" + capacity
                + ", highWaterMark=" + highWaterMark() + '}';
    }
}
