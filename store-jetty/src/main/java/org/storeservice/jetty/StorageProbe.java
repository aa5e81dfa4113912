package org.storeservice.jetty;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.Storage;

/**
 * Asks the storage a cheap question (a read of one key) within a bounded time, for the readiness check. The
 * read runs on one thread of its own, so a storage that hangs holds that thread and no other: callers meanwhile
 * wait for the same read, each at most the timeout. Thread-safe.
 */
final class StorageProbe implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StorageProbe.class);
    /** Read, never written: its absence is as good an answer as its presence. */
    static final String PROBE_KEY = "store-readiness-probe";

    private final Storage storage;
    private final Duration timeout;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread t = new Thread(runnable, "store-storage-probe");
        t.setDaemon(true);
        return t;
    });
    private Future<?> pending;

    StorageProbe(Storage storage, Duration timeout) {
        this.storage = storage;
        this.timeout = timeout;
    }

    /** {@code null} if the storage answered in time, else why not (no client data in it). */
    String problem() {
        Future<?> read;
        synchronized (this) {
            if (pending == null || pending.isDone()) {
                pending = thread.submit(() -> storage.get(PROBE_KEY));
            }
            read = pending;
        }
        try {
            read.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (TimeoutException e) {
            return "storage did not answer within " + timeout.toMillis() + " ms";
        } catch (ExecutionException e) {
            log.warn("Readiness check: the storage failed", e.getCause());
            return "storage failed: " + e.getCause().getClass().getSimpleName();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
