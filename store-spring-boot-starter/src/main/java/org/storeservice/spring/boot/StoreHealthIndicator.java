package org.storeservice.spring.boot;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.storeservice.api.storage.Storage;

/**
 * The storage's health, from one cheap read (a {@code get} of a probe key nobody writes) that must answer
 * within a time limit: UP if it does, DOWN with the reason if it fails or is too slow. A probe still hanging
 * from an earlier check is not joined by another: the storage is reported DOWN until it returns, so that a
 * dead database cannot pile up threads.
 */
public class StoreHealthIndicator implements HealthIndicator, DisposableBean {
    /** The key read: absent in any sane store, and harmless to read in every backend. */
    static final String PROBE_KEY = "store.health.probe";

    private final Storage storage;
    private final Duration timeout;
    private final ExecutorService prober = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "store-health-probe");
        thread.setDaemon(true);
        return thread;
    });
    private Future<?> running;

    public StoreHealthIndicator(Storage storage, Duration timeout) {
        this.storage = storage;
        this.timeout = timeout;
    }

    @Override
    public synchronized Health health() {
        Health.Builder health = new Health.Builder().withDetail("storage", storage.toString());
        if (running != null && !running.isDone()) {
            return health.down().withDetail("error", "an earlier probe has not returned yet").build();
        }
        running = prober.submit(() -> storage.get(PROBE_KEY));
        try {
            running.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return health.up().build();
        } catch (ExecutionException e) {
            return health.down(e.getCause() instanceof Exception cause ? cause : e).build();
        } catch (TimeoutException e) {
            return health.down().withDetail("error", "no answer within " + timeout).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return health.unknown().build();
        }
    }

    @Override
    public void destroy() {
        prober.shutdownNow();
    }
}
