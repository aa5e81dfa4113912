package org.storeservice.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.storeservice.codec.CompletedRequest;
import org.storeservice.codec.RequestObserver;

/**
 * The codec's answered requests as Micrometer meters, each tagged {@code binding} ({@code soap11},
 * {@code soap12}, {@code httpget}, {@code httppost}, {@code metadata}, or {@code none} for a request no binding
 * took), {@code operation} ({@code WriteString}, {@code WriteBytes}, {@code wsdl}, {@code disco}, {@code help},
 * or {@code none}) and {@code outcome} ({@code Success}, {@code Error}, {@code fault}, {@code 4xx}, {@code 5xx}):
 * <ul>
 * <li>{@value #REQUESTS}, a counter (Prometheus: {@code store_requests_total});
 * <li>{@value #DURATION}, a timer with a few latency buckets (Prometheus: {@code store_request_duration_seconds});
 * <li>{@value #BODY}, the request body sizes in bytes (Prometheus: {@code store_request_body_bytes}).
 * </ul>
 * Every tag value comes from a fixed set, never from what a client sent, so the number of series stays bounded.
 *
 * <p>Register it on the codec ({@code StoreCodec.Builder.observer}) or the server
 * ({@code StoreServer.Builder.requestObserver}). Thread-safe.
 */
public final class StoreMetrics implements RequestObserver {
    /** The request counter's name. */
    public static final String REQUESTS = "store.requests";
    /** The request timer's name. */
    public static final String DURATION = "store.request.duration";
    /** The request body size summary's name. */
    public static final String BODY = "store.request.body";

    /** Latency buckets: a write takes well under a millisecond in memory, a few on a disk, seconds when stuck. */
    private static final Duration[] LATENCY_BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5)};

    private final MeterRegistry registry;
    /** The meters of each tag combination, found without building tags for every request. */
    private final Map<Key, Meters> meters = new ConcurrentHashMap<>();

    /** Meters registered in {@code registry}, when requests first come. */
    public StoreMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void completed(CompletedRequest request) {
        Meters found = meters.computeIfAbsent(
                new Key(request.binding().tag(), request.operation(), request.outcome().tag()), this::register);
        found.count.increment();
        found.duration.record(request.durationNanos(), TimeUnit.NANOSECONDS);
        found.body.record(request.requestBodyBytes());
    }

    private Meters register(Key key) {
        Tags tags = Tags.of("binding", key.binding, "operation", key.operation, "outcome", key.outcome);
        return new Meters(
                Counter.builder(REQUESTS).description("Requests answered at the endpoint").tags(tags).register(registry),
                Timer.builder(DURATION).description("Time from the request's whole body to its answer")
                        .serviceLevelObjectives(LATENCY_BUCKETS).tags(tags).register(registry),
                DistributionSummary.builder(BODY).description("Request body size").baseUnit("bytes")
                        .tags(tags).register(registry));
    }

    private record Key(String binding, String operation, String outcome) {
    }

    private record Meters(Counter count, Timer duration, DistributionSummary body) {
    }
}
