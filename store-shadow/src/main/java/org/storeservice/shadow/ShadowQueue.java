package org.storeservice.shadow;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The copies waiting for the shadow, within a bound on the bytes they hold, sent {@code concurrency} at a time. The
 * copies of one key are sent one after another, each once the shadow answered the one before, in the order they were
 * offered (their primary answers' order, see {@link KeyTurns}); other copies go first come, first served. A copy that
 * does not fit is dropped at once, never waited for: the client has its answer already, and a slow or dead shadow must
 * cost it nothing. Thread-safe.
 */
final class ShadowQueue {
    private final long maxBytes;
    private final int concurrency;
    private final Consumer<Mirror> sender;
    private final BiConsumer<Mirror, String> dropped;
    /** Copies that may be sent now, in order. */
    private final Deque<Mirror> ready = new ArrayDeque<>();
    /** For each key with a copy ready or being sent: the later copies of that key, in order. */
    private final Map<String, Deque<Mirror>> behind = new HashMap<>();
    private long bytes;
    private int copies;
    private int sending;
    private boolean stopped;

    /**
     * @param sender sends one copy, and calls {@link #sent} once the shadow answered it or failed to
     * @param dropped told of each copy dropped, with why; it closes the copy
     */
    ShadowQueue(long maxBytes, int concurrency, Consumer<Mirror> sender, BiConsumer<Mirror, String> dropped) {
        this.maxBytes = maxBytes;
        this.concurrency = concurrency;
        this.sender = sender;
        this.dropped = dropped;
    }

    /** Queues {@code mirror} if it fits within the bound, else drops it. */
    void offer(Mirror mirror) {
        String refused = null;
        synchronized (this) {
            if (stopped) {
                refused = "the proxy was stopping";
            } else if (bytes + mirror.bytes() > maxBytes) {
                refused = "the shadow queue was full";
            } else {
                bytes += mirror.bytes();
                copies++;
                String key = mirror.request().key();
                Deque<Mirror> later = key == null ? null : behind.get(key);
                if (later != null) {
                    later.addLast(mirror);
                } else {
                    if (key != null) {
                        behind.put(key, new ArrayDeque<>(2));
                    }
                    ready.addLast(mirror);
                }
            }
        }
        if (refused != null) {
            dropped.accept(mirror, refused);
            return;
        }
        pump();
    }

    /** Told by the sender that the shadow answered {@code mirror}, or failed to: its key's next copy may go. */
    void sent(Mirror mirror) {
        synchronized (this) {
            bytes -= mirror.bytes();
            copies--;
            sending--;
            String key = mirror.request().key();
            if (key != null) {
                Deque<Mirror> later = behind.get(key);
                Mirror next = later.pollFirst();
                if (next == null) {
                    behind.remove(key);
                } else {
                    ready.addLast(next);
                }
            }
            notifyAll();
        }
        pump();
    }

    private void pump() {
        while (true) {
            Mirror next;
            synchronized (this) {
                if (sending >= concurrency || ready.isEmpty()) {
                    return;
                }
                next = ready.pollFirst();
                sending++;
            }
            sender.accept(next);
        }
    }

    /**
     * Stops taking copies, waits up to {@code timeout} for those queued to be sent and answered, then drops those not
     * sent (told to the drop handler); those being sent end by their own answer, failure or time-out.
     *
     * @return how many copies were not done at the deadline: dropped, or still waiting for the shadow's answer
     */
    int stop(Duration timeout) throws InterruptedException {
        List<Mirror> left = new ArrayList<>();
        int unanswered;
        synchronized (this) {
            stopped = true;
            long deadline = System.nanoTime() + timeout.toNanos();
            long wait;
            while (copies > 0 && (wait = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, wait);
            }
            // Only those not yet sent: one being sent ends by its own answer or time-out.
            left.addAll(ready);
            ready.clear();
            for (Deque<Mirror> later : behind.values()) {
                left.addAll(later);
                later.clear();
            }
            for (Mirror mirror : left) {
                bytes -= mirror.bytes();
                copies--;
            }
            unanswered = sending;
        }
        for (Mirror mirror : left) {
            dropped.accept(mirror, "the proxy stopped before the shadow was sent it");
        }
        return left.size() + unanswered;
    }

    /** The copies queued or being sent. */
    synchronized int copies() {
        return copies;
    }

    /** The bytes they hold, at most the bound. */
    synchronized long bytes() {
        return bytes;
    }
}
