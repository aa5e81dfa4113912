package org.storeservice.shadow;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the primary's failures to answer (the clients got 502 or 504) without flooding the log while it is down: the
 * first at once, then at most one line every 10 seconds, saying how many there were meanwhile. Thread-safe.
 */
final class FailureLog {
    private static final Logger log = LoggerFactory.getLogger(ShadowProxy.class);
    private static final long INTERVAL_NANOS = 10_000_000_000L;

    private final AtomicLong next = new AtomicLong(System.nanoTime());
    private final AtomicLong unlogged = new AtomicLong();

    void primaryFailed(String request, String why, int status) {
        long now = System.nanoTime();
        long due = next.get();
        if (now - due >= 0 && next.compareAndSet(due, now + INTERVAL_NANOS)) {
            long others = unlogged.getAndSet(0);
            log.warn("The primary gave no answer to {} ({}); the client got {}{}", request, why, status,
                    others == 0 ? "" : "; " + others + " more such since the last line");
        } else {
            unlogged.incrementAndGet();
        }
    }
}
