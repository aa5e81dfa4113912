package org.storeservice.codec;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that request bodies in flight may hold together, shared by every {@link RequestBodyBuffer} of one
 * {@link StoreCodec}: a buffer keeps bytes in memory only while it can reserve them here, and writes the rest
 * to a temporary file. So however many uploads run at once, their bodies hold at most this many bytes of
 * heap ({@link CodecLimits#bodyMemoryBudgetBytes()}).
 *
 * <p>Thread-safe and lock-free.
 */
public final class BodyMemoryBudget {
    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong highWaterMark = new AtomicLong();

    /** A budget of {@code capacity} bytes; {@code 0} keeps every body in a file. */
    public BodyMemoryBudget(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Reserves {@code bytes} if they fit, and says whether they did; a reservation is given back with {@link #release}. */
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

    /** Gives back {@code bytes} reserved earlier. */
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

    /** The most bytes that may be reserved at once. */
    public long capacity() {
        return capacity;
    }

    /** The bytes reserved now. */
    public long reserved() {
        return reserved.get();
    }

    /** The most bytes ever reserved at once (never more than {@link #capacity()}): for tests and metrics. */
    public long highWaterMark() {
        return highWaterMark.get();
    }

    @Override
    public String toString() {
        return "BodyMemoryBudget{reserved=" + reserved() + ", capacity=" + capacity
                + ", highWaterMark=" + highWaterMark() + '}';
    }
}
