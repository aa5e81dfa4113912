package org.storeservice.jdbc.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap one storage lets byte values waiting for the database hold, all together: a value past
 * {@link SpooledContent#MEMORY_BYTES} stays in memory while this has room and goes to a temporary file when it has
 * none. Reserving never waits, so a burst of large writes costs disk, never a failure or a deadlock. Thread-safe.
 */
public final class SpoolMemory {
    /**
     * Default: an eighth of the maximum heap. With the request bodies' own budget (a quarter, in the codec) the data
     * in flight stays within three eighths of the heap whatever the number of concurrent uploads.
     */
    public static long defaultBytes() {
        return Runtime.getRuntime().maxMemory() / 8;
    }

    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();

    public SpoolMemory(long capacity) {
        this.capacity = capacity;
    }

    /** Reserves {@code bytes} if there is room for all of them; {@code false}, reserving nothing, if not. */
    public boolean tryReserve(long bytes) {
        long now;
        do {
            now = reserved.get();
            if (bytes > capacity - now) {
                return false;
            }
        } while (!reserved.compareAndSet(now, now + bytes));
        return true;
    }

    public void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    /** The bytes reserved now: 0 once every write was answered. */
    public long reserved() {
        return reserved.get();
    }
}
