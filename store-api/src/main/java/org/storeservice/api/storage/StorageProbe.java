package org.storeservice.api.storage;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The readiness check of every host: asks the storage whether a write would be stored now
 * ({@link Storage#checkWritable()}) and waits for the answer at most a time-out. The question runs on one thread of
 * its own, so a storage that hangs holds that thread and no other; checks made meanwhile wait for the same answer,
 * each at most the time-out, and a new question is asked only once the last one has returned. Thread-safe.
 */
public final class StorageProbe implements AutoCloseable {
    /** Read by the default {@link Storage#checkWritable()}, never written: its absence is as good an answer as its presence. */
    public static final String PROBE_KEY = "store-readiness-probe";

    private static final Logger log = LoggerFactory.getLogger(StorageProbe.class);

    private final Storage storage;
    private final Duration timeout;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread t = new Thread(runnable, "store-storage-probe");
        t.setDaemon(true);
        return t;
    });
    private Future<?> pending;

    /**
     * A probe of {@code storage} whose checks wait at most {@code timeout}.
     *
     * @param storage the storage to ask
     * @param timeout how long a check waits for the storage's answer; keep it below the load balancer's
     */
    public StorageProbe(Storage storage, Duration timeout) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** {@return empty if a write would be stored now; else why not, in one line that names no client data} */
    public Optional<String> problem() {
        Future<?> question;
        synchronized (this) {
            if (pending == null || pending.isDone()) {
                pending = thread.submit(() -> {
                    storage.checkWritable();
                    return null;
                });
            }
            question = pending;
        }
        try {
            question.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return Optional.empty();
        } catch (TimeoutException e) {
            return Optional.of("storage did not answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            // The storage logs its own change of state; a stack per check (every few seconds) would bury it.
            log.debug("Readiness check: the storage failed", e.getCause());
            return Optional.of("storage failed: " + oneLine(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    private static String oneLine(Throwable failure) {
        String message = failure.getMessage();
        if (message == null) {
            return failure.getClass().getSimpleName();
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
