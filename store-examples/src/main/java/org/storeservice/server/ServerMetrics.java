package org.storeservice.server;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jetty.JettyConnectionMetrics;
import io.micrometer.core.instrument.binder.jetty.JettyServerThreadPoolMetrics;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.server.Server;
import org.storeservice.jetty.StoreServer;
import org.storeservice.micrometer.StoreMetrics;

/**
 * The ready server's metrics: the endpoint's requests ({@link StoreMetrics}), the JVM's and Jetty's, as
 * Micrometer's binders provide them, in a Prometheus registry served at {@code --metrics-path} of the management
 * port. Only made when the management port is on.
 */
final class ServerMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    ServerMetrics() {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** Adds the request meters, the refused TLS versions, Jetty's binders and the scrape handler to {@code builder}. */
    void addTo(StoreServer.Builder builder, String metricsPath) {
        builder.tlsVersionRefusals(new TlsRefusalMeter(registry));
        builder.requestObserver(new StoreMetrics(registry))
                .jettyCustomizer(this::bindJetty)
                .managementHandler(new PrometheusHandler(registry, metricsPath));
    }

    private void bindJetty(Server jetty) {
        new JettyServerThreadPoolMetrics(jetty.getThreadPool(), Tags.empty()).bindTo(registry);
        JettyConnectionMetrics.addToAllConnectors(jetty, registry);
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
