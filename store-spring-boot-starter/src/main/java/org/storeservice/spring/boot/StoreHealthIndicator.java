package org.storeservice.spring.boot;

import java.time.Duration;
import java.util.Optional;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageProbe;

/**
 * The storage's health, with the same meaning as the ready server's {@code /health/ready}: UP if a write would be
 * stored now ({@link StorageProbe}, which asks {@link Storage#checkWritable()} within a time limit), DOWN with the
 * reason if not, or if the storage does not answer in time.
 */
public class StoreHealthIndicator implements HealthIndicator, DisposableBean {
    private final Storage storage;
    private final StorageProbe probe;

    public StoreHealthIndicator(Storage storage, Duration timeout) {
        this.storage = storage;
        this.probe = new StorageProbe(storage, timeout);
    }

    @Override
    public Health health() {
        Health.Builder health = new Health.Builder().withDetail("storage", storage.toString());
        Optional<String> problem = probe.problem();
        return problem.isEmpty() ? health.up().build() : health.down().withDetail("error", problem.get()).build();
    }

    @Override
    public void destroy() {
        probe.close();
    }
}
