package org.storeservice.shadow;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that answers waiting for their clients may hold together, across every exchange of one proxy: the
 * primary's answer read ahead of a slow client ({@link ClientWriter}), and a metadata answer held whole to be rewritten.
 * While bytes can be reserved here, an exchange reads the primary on whatever its client does (and gives its key's
 * turn back sooner); once the budget is spent, an exchange reads the primary only as fast as its client takes the
 * answer, holding at most the one piece being written. So memory for answers stays within the capacity plus one
 * network read per open exchange, however many clients do not read. Also counts, for tests and the curious, the bytes
 * waiting for clients (reserved or not), their most, and the exchanges whose reading is held back. Thread-safe.
 */
final class ClientAnswerBudget {
    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong waiting = new AtomicLong();
    private final AtomicLong mostWaiting = new AtomicLong();
    private final AtomicInteger heldBack = new AtomicInteger();

    /** @param capacity the most bytes reserved at once */
    ClientAnswerBudget(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Reserves {@code bytes} if they fit; give them back with {@link #release}. */
    boolean tryReserve(long bytes) {
        long now;
        do {
            now = reserved.get();
            if (now + bytes > capacity) {
                return false;
            }
        } while (!reserved.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    /** {@code bytes} more (or, negative, fewer) wait for a client. */
    void waiting(long bytes) {
        long now = waiting.addAndGet(bytes);
        if (bytes > 0) {
            mostWaiting.accumulateAndGet(now, Math::max);
        }
    }

    /** An exchange's reading of the primary is held back ({@code +1}) or resumed ({@code -1}). */
    void heldBack(int change) {
        heldBack.addAndGet(change);
    }

    long capacity() {
        return capacity;
    }

    long reserved() {
        return reserved.get();
    }

    /** The most bytes that waited for clients at once, reserved or not. */
    long mostWaiting() {
        return mostWaiting.get();
    }

    /** How many exchanges read the primary no further until their client takes what waits. */
    int heldBack() {
        return heldBack.get();
    }
}
