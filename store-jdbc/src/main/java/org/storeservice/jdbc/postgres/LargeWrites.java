package org.storeservice.jdbc.postgres;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Admission of large values, which are committed on their callers' threads: at most the pool's connections less one
 * (kept for reads and the readiness probe) go to the database at once, and {@link #closeThenAwait} lets the writer's close
 * wait for those under way.
 */
final class LargeWrites {
    private final Semaphore connections;
    private int inFlight; // guarded by this

    /** Large values may hold {@code connections} of the pool at once. */
    LargeWrites(int connections) {
        if (connections < 1) {
            throw new IllegalArgumentException("large values need a connection of the pool: " + connections);
        }
        this.connections = new Semaphore(connections, true);
    }

    /** What says whether the writer still takes writes: throws if not. */
    @FunctionalInterface
    interface Running {
        void check() throws IOException;
    }

    /**
     * A large write begins, if {@code running} says the writer takes writes (checked under the same lock as
     * {@link #closeThenAwait}, so that none begins once the writer is closing); {@link #ended} must follow.
     */
    synchronized void begin(Running running) throws IOException {
        running.check();
        inFlight++;
    }

    /** A large write that {@link #began} has been answered. */
    synchronized void ended() {
        inFlight--;
        notifyAll();
    }

    /** Waits up to {@code nanos} for a connection's place, in arrival order; {@code false} if none came. */
    boolean acquire(long nanos) throws InterruptedException {
        return connections.tryAcquire(nanos, TimeUnit.NANOSECONDS);
    }

    void release() {
        connections.release();
    }

    /** Runs {@code close} (the writer stops taking writes), then waits until no large write is under way. */
    synchronized void closeThenAwait(Runnable close) {
        close.run();
        boolean interrupted = false;
        while (inFlight > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
