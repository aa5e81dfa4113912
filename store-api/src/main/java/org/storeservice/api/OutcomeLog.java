package org.storeservice.api;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * How a {@link DefaultStore} reports writes answered {@code Error}: one line each, never a stack trace above DEBUG,
 * and at most one line per distinct reason per {@link #INTERVAL_NANOS}, so that a failing database or a client
 * sending bad requests in a loop cannot flood the log. The line after a quiet interval says how many were left
 * out. Successes log nothing.
 *
 * <p>Invalid input (a missing or empty key, a key or value over its limit, a lone surrogate) is logged at INFO: it is
 * the client's doing, but the operator should see why it got {@code Error}. A storage failure is logged at WARN with
 * the cause chain's messages and the storage; its stack trace at DEBUG.
 *
 * <p>One per store: the counts are this store's, not the process's. Thread-safe.
 */
final class OutcomeLog {
    /** The shortest time between two lines with the same reason: 10 s. */
    static final long INTERVAL_NANOS = 10_000_000_000L;
    /** Distinct reasons remembered; past it they are forgotten (at worst a few more lines), so memory stays bounded. */
    private static final int MAX_REASONS = 1024;
    private static final int MAX_CAUSES = 8;

    private final Logger log;
    private final LongSupplier nanoTime;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    OutcomeLog(Logger log, LongSupplier nanoTime) {
        this.log = log;
        this.nanoTime = nanoTime;
    }

    /** A write refused for its input: {@code reason} says what was wrong, without the key. */
    void rejected(String operation, String key, String reason) {
        String what = operation + " rejected: " + reason;
        long left = admit(what);
        if (left >= 0 && log.isInfoEnabled()) {
            log.info("{} rejected for key {}: {}{}", operation, key == null ? "(none)" : LogSafe.key(key), reason,
                    leftOut(left));
        }
    }

    /** A write the storage failed; {@code storage} names the backend. */
    void failed(String operation, String key, Throwable failure, Object storage) {
        String causes = causes(failure);
        long left = admit(operation + " failed: " + causes);
        if (left >= 0) {
            log.warn("{} failed for key {}: {} (storage {}){}", operation, LogSafe.key(key), causes,
                    LogSafe.text(String.valueOf(storage)), leftOut(left));
        }
        log.debug("{} failed for key {}", operation, LogSafe.key(key), failure);
    }

    /** The messages of {@code failure} and its causes, each left out if the one before already says it. */
    static String causes(Throwable failure) {
        StringBuilder text = new StringBuilder();
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            String message = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
            if (text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return LogSafe.text(text.toString());
    }

    private static String leftOut(long left) {
        return left == 0 ? "" : " (" + left + " more like it left out in the last interval)";
    }

    /** -1 if a line with this reason was let through less than an interval ago; else how many were left out since. */
    private long admit(String reason) {
        if (windows.size() >= MAX_REASONS && !windows.containsKey(reason)) {
            windows.clear();
        }
        Window window = windows.computeIfAbsent(reason, r -> new Window());
        long now = nanoTime.getAsLong();
        synchronized (window) {
            if (window.started && now - window.lastLine < INTERVAL_NANOS) {
                window.leftOut++;
                return -1;
            }
            long left = window.leftOut;
            window.started = true;
            window.lastLine = now;
            window.leftOut = 0;
            return left;
        }
    }

    private static final class Window {
        boolean started;
        long lastLine;
        long leftOut;
    }
}
