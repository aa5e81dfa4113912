package org.storeservice.shadow;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that the proxy's copies of request bodies may hold together, waiting for the primary and queued for the
 * shadow; a copy that finds no room here goes to a temporary file instead ({@link BodyCopy}). Thread-safe.
 */
final class CopyMemory {
    private final long budget;
    private final AtomicLong reserved = new AtomicLong();

    CopyMemory(long budget) {
        this.budget = budget;
    }

    /** A quarter of the heap the JVM may grow to: what the codec allows its request bodies, too. */
    static CopyMemory quarterOfHeap() {
        return new CopyMemory(Runtime.getRuntime().maxMemory() / 4);
    }

    /** Reserves {@code bytes} if they fit; {@code false} (nothing reserved) if not. */
    boolean tryReserve(long bytes) {
        long now;
        do {
            now = reserved.get();
            if (now + bytes > budget) {
                return false;
            }
        } while (!reserved.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    /** The bytes reserved now. */
    long reserved() {
        return reserved.get();
    }
}
