package org.storeservice.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.server.Handler;
import org.storeservice.codec.Binding;
import org.storeservice.jetty.TlsVersionRefusals;
import org.storeservice.shadow.ShadowObserver;
import org.storeservice.shadow.ShadowProxy;
import org.storeservice.shadow.ShadowResult;

/**
 * The shadow command's metrics, on the management port like the server's: what became of each request at the
 * endpoint ({@value #REQUESTS}, by binding, operation and result), the copies queued for the shadow and the bytes they
 * hold, and the JVM's meters ({@link ServerMetrics}).
 */
final class ShadowMetrics implements ShadowObserver, AutoCloseable {
    /** The counter's name: {@code store_shadow_requests_total} in Prometheus. */
    static final String REQUESTS = "store.shadow.requests";

    private final ServerMetrics jvm = new ServerMetrics();
    private final MeterRegistry registry = jvm.registry();
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    @Override
    public void completed(Binding binding, String operation, ShadowResult result) {
        counters.computeIfAbsent(binding.tag() + ' ' + operation + ' ' + result.tag(),
                key -> Counter.builder(REQUESTS)
                        .description("Requests at the endpoint, by what became of their copy for the shadow")
                        .tag("binding", binding.tag())
                        .tag("operation", operation)
                        .tag("result", result.tag())
                        .register(registry))
                .increment();
    }

    /** Adds the queue's gauges, once the proxy exists. */
    void watchQueue(ShadowProxy proxy) {
        Gauge.builder("store.shadow.queue.copies", proxy, ShadowProxy::queuedCopies)
                .description("Copies waiting for the shadow or being sent").register(registry);
        Gauge.builder("store.shadow.queue.bytes", proxy, ShadowProxy::queuedBytes)
                .description("Bytes those copies hold").baseUnit("bytes").register(registry);
    }

    /** The endpoint's TLS handshakes refused for their version, counted by version as the server's. */
    TlsVersionRefusals tlsRefusals() {
        return new TlsRefusalMeter(registry);
    }

    /** The scrape, at {@code path} of the management port. */
    Handler handler(String path) {
        return new PrometheusHandler(jvm.registry(), path);
    }

    @Override
    public void close() {
        jvm.close();
    }
}
