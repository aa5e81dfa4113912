package org.storeservice.spring.boot;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The lame-duck phase of a stop: once Spring Boot has set the readiness state to refusing traffic (it does so first
 * when the context closes, and Actuator's readiness group then answers 503), the web server goes on serving for
 * {@code store.drain-time} before its graceful shutdown ({@code server.shutdown=graceful}, Spring Boot's default)
 * stops taking connections, so that a load balancer checking readiness stops sending first. It stops in the highest
 * phase, before the web server's graceful shutdown.
 */
final class StoreDrain implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(StoreDrain.class);

    private final Duration drainTime;
    private volatile boolean running;

    StoreDrain(Duration drainTime) {
        this.drainTime = drainTime;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        if (drainTime.isZero() || drainTime.isNegative()) {
            return;
        }
        log.info("Draining: readiness refuses traffic; serving on for {} ms", drainTime.toMillis());
        try {
            Thread.sleep(drainTime.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stop now: whoever interrupted wants it over
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops first: lifecycles stop from the highest phase down, and the web server's graceful shutdown is lower. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
