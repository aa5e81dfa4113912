package org.storeservice.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.storeservice.jetty.TlsVersionRefusals;

/**
 * The TLS handshakes refused for their version, counted by the version the client offered:
 * {@code store_tls_handshakes_refused_total{version="TLSv1"}} on Prometheus, so that an operator sees which old clients
 * fail (their addresses are in the log).
 */
final class TlsRefusalMeter implements TlsVersionRefusals {
    static final String NAME = "store.tls.handshakes.refused";

    private final MeterRegistry registry;
    private final Map<String, Counter> byVersion = new ConcurrentHashMap<>();

    TlsRefusalMeter(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void refused(String clientAddress, String version) {
        byVersion.computeIfAbsent(version, v -> Counter.builder(NAME).tag("version", v)
                .description("TLS handshakes refused because the client offered no version served, by the newest it offered")
                .register(registry)).increment();
    }
}
