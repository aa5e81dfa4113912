package org.storeservice.codec;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

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
    /** Guarded by this. */
    private long reserved;
    /** The requests waiting, in arrival order: only the first may take what is free. Guarded by this. */
    private final Deque<Object> waiting = new ArrayDeque<>();

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
    synchronized boolean acquire(long bytes, long timeoutNanos) throws InterruptedException {
        if (waiting.isEmpty() && fits(bytes)) {
            reserved += bytes;
            return true;
        }
        Object turn = new Object();
        waiting.addLast(turn);
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            while (waiting.peekFirst() != turn || !fits(bytes)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            reserved += bytes;
            return true;
        } finally {
            // Let in or given up: either way the next in line may go now.
            waiting.remove(turn);
            notifyAll();
        }
    }

    private boolean fits(long bytes) {
        return reserved == 0 || reserved + bytes <= capacity;
    }

    synchronized void release(long bytes) {
        reserved -= bytes;
        notifyAll();
    }

    /** The bytes reserved now: 0 once every gated request was answered. */
    synchronized long reserved() {
        return reserved;
    }

    /** The requests waiting now. */
    synchronized int waiting() {
        return waiting.size();
    }
}
