package org.storeservice.shadow;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.storeservice.api.StoreLimits;
import org.storeservice.codec.Binding;
import org.storeservice.jetty.StoreServer;

/**
 * Two real Store servers on ephemeral ports, a primary and a shadow over {@link WatchedStorage}s, and a shadow proxy in
 * front of them, writing its differences and dropped keys to files; everything stopped on {@link #close()}.
 */
final class Services implements AutoCloseable {
    final WatchedStorage primaryStorage = new WatchedStorage();
    final WatchedStorage shadowStorage = new WatchedStorage();
    final StoreServer primary;
    final StoreServer shadow;
    final ShadowProxy proxy;
    final Path differences;
    final Path droppedKeys;
    /** What became of each request at the endpoint, by result tag. */
    final Map<String, AtomicLong> results = new ConcurrentHashMap<>();

    /**
     * @param shadowLimits the shadow's store limits (the tests make it differ on purpose)
     * @param proxyOptions more options for the proxy
     */
    Services(Path directory, StoreLimits shadowLimits, Consumer<ShadowProxy.Builder> proxyOptions) throws IOException {
        this(directory, shadowLimits, server -> { }, proxyOptions);
    }

    /** @param serverOptions more options for both Store servers */
    Services(Path directory, StoreLimits shadowLimits, Consumer<StoreServer.Builder> serverOptions,
            Consumer<ShadowProxy.Builder> proxyOptions) throws IOException {
        StoreServer.Builder primaryBuilder = StoreServer.builder().port(0).storage(primaryStorage);
        serverOptions.accept(primaryBuilder);
        primary = primaryBuilder.build().start();
        StoreServer.Builder shadowBuilder = StoreServer.builder().port(0).storage(shadowStorage).storeLimits(shadowLimits);
        serverOptions.accept(shadowBuilder);
        shadow = shadowBuilder.build().start();
        differences = directory.resolve("differences.jsonl");
        droppedKeys = directory.resolve("dropped-keys.jsonl");
        ShadowProxy.Builder builder = ShadowProxy.builder().port(0)
                .primary(primary.endpointUri())
                .shadow(shadow.endpointUri())
                .differences(differences)
                .droppedKeys(droppedKeys)
                .observer(this::observe);
        proxyOptions.accept(builder);
        proxy = builder.build().start();
    }

    private void observe(Binding binding, String operation, ShadowResult result) {
        results.computeIfAbsent(result.tag(), tag -> new AtomicLong()).incrementAndGet();
        synchronized (results) {
            results.notifyAll();
        }
    }

    long count(ShadowResult result) {
        AtomicLong count = results.get(result.tag());
        return count == null ? 0 : count.get();
    }

    long outcomes() {
        return results.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Waits (up to a minute) until {@code expected} requests at the endpoint have an outcome. */
    void awaitOutcomes(long expected) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        synchronized (results) {
            long left;
            while (outcomes() < expected && (left = deadline - System.nanoTime()) > 0) {
                results.wait(Math.max(1, left / 1_000_000));
            }
        }
        if (outcomes() < expected) {
            throw new AssertionError("after 60 s: " + outcomes() + " of " + expected + " outcomes, "
                    + proxy.queuedCopies() + " copies still queued; " + results);
        }
    }

    /**
     * Waits (up to a minute) until {@code condition} holds, checking it at each outcome and every 10 ms: for what the
     * proxy does after a client's answer (queueing or dropping its copy).
     */
    void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        synchronized (results) {
            while (!condition.getAsBoolean() && deadline - System.nanoTime() > 0) {
                results.wait(10);
            }
        }
        if (!condition.getAsBoolean()) {
            throw new AssertionError("after 60 s, still not: " + what + "; " + results);
        }
    }

    URI endpoint() {
        return proxy.endpointUri();
    }

    @Override
    public void close() throws IOException {
        proxy.stop();
        shadowStorage.open();
        shadow.stop();
        primary.stop();
    }
}
