package org.storeservice.codec;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The heap that text values decoded from large bodies may hold together ({@link CodecLimits#textMemoryBytes()}).
 * Unlike WriteBytes content, which streams to the store, a WriteString value is a {@code String} from its decoding
 * until the store has answered it, and a body of n bytes decodes to at most n chars, built up in memory. So a request
 * whose body is too large to be answered on a thread that must not block, and that may be a WriteString, waits here
 * before it is decoded until {@link #HEAP_PER_BODY_BYTE} bytes per body byte fit, and gives them back once answered:
 * however many clients send large WriteStrings at once (or while the database is away), their values hold at most
 * this much heap. A request wanting more than the whole goes alone. Waiting requests go in the order they arrived,
 * and each waits at most {@link CodecLimits#textMemoryWaitMillis()}. Thread-safe.
 */
final class TextMemory {
    /**
     * Heap per body byte while a text is decoded and stored, at worst: a UTF-16 string (2 bytes a char) and the
     * decoder's buffer, as large again while it grows.
     */
    static final int HEAP_PER_BODY_BYTE = 4;

    private final long capacity;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private long reserved;
    /**
     * The requests waiting, in arrival order, each by the condition it waits on: only the first may take what is free,
     * and only it is woken when that changes (not every waiter, as {@code notifyAll} would). Guarded by lock.
     */
    private final Deque<Condition> waiting = new ArrayDeque<>();

    TextMemory(long capacity) {
        this.capacity = capacity;
    }

    /**
     * The heap {@code request} must reserve before it is decoded if it is a WriteString: 0 for a body small enough to be
     * answered where it completed ({@code inlineBodyBytes}) and for a body-less method. Whether it may be a WriteString
     * is routing's to say ({@link StoreCodec#textHeap}).
     */
    static long heapFor(CodecRequest request, long inlineBodyBytes, long maxRequestBytes) {
        if (!request.method().equals("POST")) {
            return 0;
        }
        long length = request.bodyLength();
        if (length >= 0 && length <= inlineBodyBytes) {
            return 0;
        }
        long bounded = length < 0 || length > maxRequestBytes ? maxRequestBytes : length;
        return HEAP_PER_BODY_BYTE * bounded;
    }

    /**
     * Reserves {@code bytes} once they fit (or nothing else is reserved) and every request that came before has been
     * let in; gives up after {@code timeoutNanos}.
     *
     * @return whether they were reserved: if not, nothing is
     */
    boolean acquire(long bytes, long timeoutNanos) throws InterruptedException {
        lock.lock();
        try {
            if (waiting.isEmpty() && fits(bytes)) {
                reserved += bytes;
                return true;
            }
            Condition turn = lock.newCondition();
            waiting.addLast(turn);
            try {
                long left = timeoutNanos;
                while (waiting.peekFirst() != turn || !fits(bytes)) {
                    if (left <= 0) {
                        return false;
                    }
                    left = turn.awaitNanos(left);
                }
                reserved += bytes;
                return true;
            } finally {
                // Let in or given up: if it was first, the next in line may go now.
                boolean first = waiting.peekFirst() == turn;
                waiting.remove(turn);
                if (first) {
                    wakeFirst();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean fits(long bytes) {
        return reserved == 0 || reserved + bytes <= capacity;
    }

    void release(long bytes) {
        lock.lock();
        try {
            reserved -= bytes;
            wakeFirst();
        } finally {
            lock.unlock();
        }
    }

    private void wakeFirst() {
        Condition first = waiting.peekFirst();
        if (first != null) {
            first.signal();
        }
    }

    /** The bytes reserved now: 0 once every gated request was answered. */
    long reserved() {
        lock.lock();
        try {
            return reserved;
        } finally {
            lock.unlock();
        }
    }

    /** The requests waiting now. */
    int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }
}
